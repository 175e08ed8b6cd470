package blog

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/northbeam/site/internal/content"
	"github.com/northbeam/site/internal/markdown"
)

// maxTagLength bounds a tag, in characters.
const maxTagLength = 32

// Load reads the posts under root in fsys, laid out as
// <root>/<lang>/<slug>.md, renders them, and returns them as a Library.
// Drafts are left out unless includeDrafts is set (development mode).
//
// Each file starts with YAML front matter between two lines "---":
//
//	---
//	title: Strangler fig, without the big bang
//	description: How to replace a legacy system one route at a time.
//	published: 2026-05-12          # a date, or an RFC 3339 time
//	updated: 2026-06-02            # optional, not before published
//	author: Lena Hartmann
//	tags: [Architecture, Legacy systems] # words as readers see them, at most 32 characters
//	cover:                         # optional; all four fields required
//	  src: /images/blog/fig.jpg
//	  alt: A fig tree around an old wall
//	  width: 1200
//	  height: 630
//	translationKey: strangler-fig  # the same in every language version
//	draft: false                   # optional
//	---
//
// title, description, published, author and translationKey are required;
// an unknown key is an error, so a typo cannot silently drop a field. The
// slug is the file name without ".md": lower-case ASCII letters, digits and
// hyphens, so URLs need no percent-encoding. A language holds at most one
// post per translationKey. Files not ending in ".md" and subdirectories of
// a language directory are ignored; so are entries of root that are not
// directories.
//
// Every mistake found is returned, each as a *content.Error naming the file
// and line, joined with errors.Join. writeDate writes the posts' dates in
// their languages. opts configure the Markdown renderer
// (internal hosts, ids the page layout reserves).
func Load(fsys fs.FS, root string, includeDrafts bool, writeDate DateWriter, opts ...markdown.Option) (*Library, error) {
	return LoadAgain(fsys, root, includeDrafts, writeDate, nil, opts...)
}

// Parsed keeps the posts that loads parsed, each under its file and the
// SHA-256 of its bytes, so that a load after an edit (-dev) parses and
// renders again only the files that changed, were added or renamed
// (docs/ARCHITECTURE.md, The dev loop). Its salt names everything else a
// parse depends on (the Markdown options' inputs): a load with another
// salt parses every file again.
type Parsed struct {
	mu     sync.Mutex
	salt   string
	posts  map[string]parsedPost // by file
	parses int                   // files parsed through it
	// changed is set when posts changes: a post parsed or forgotten, a
	// new salt (WriteIndex has something new to write).
	changed bool
}

// Parses counts the files loads parsed through parsed, rather than took.
func (parsed *Parsed) Parses() int {
	parsed.mu.Lock()
	defer parsed.mu.Unlock()
	return parsed.parses
}

type parsedPost struct {
	sum  [sha256.Size]byte
	post Post // as parsePost made it, before a load adds to it
	// stat is the file's size and modification time when it was read
	// (the zero value: unknown), read is when.
	stat fileStat
	read time.Time
}

// fileStat is what a file's metadata says of its bytes.
type fileStat struct {
	size int64
	mod  time.Time
}

func statOf(info fs.FileInfo) fileStat { return fileStat{info.Size(), info.ModTime()} }

// racyWindow is how long after its modification time a file read may
// still be changed without its modification time changing (file systems
// with coarse timestamps): a file read within it is read again by the next
// load, whatever its metadata says (as git's "racy" entries).
const racyWindow = 2 * time.Second

// unchanged returns a copy of the post kept for file when the file's
// metadata is that of when it was read, and it was read well after its
// last modification: its bytes did not change (-dev: a load after an edit
// reads only the files whose metadata changed, not every post's).
func (parsed *Parsed) unchanged(file string, info fs.FileInfo) (*Post, bool) {
	parsed.mu.Lock()
	defer parsed.mu.Unlock()
	pp, ok := parsed.posts[file]
	st := statOf(info)
	if !ok || pp.post.Body == nil || pp.stat.mod.IsZero() || pp.stat.size != st.size || !pp.stat.mod.Equal(st.mod) ||
		pp.read.Sub(st.mod) < racyWindow {
		return nil, false
	}
	return pp.post.clone(), true
}

// readAt records that file, kept with sum, had the metadata info when it
// was read at read.
func (parsed *Parsed) readAt(file string, sum [sha256.Size]byte, info fs.FileInfo, read time.Time) {
	parsed.mu.Lock()
	defer parsed.mu.Unlock()
	if pp, ok := parsed.posts[file]; ok && pp.sum == sum {
		pp.stat, pp.read = statOf(info), read
		parsed.posts[file] = pp
	}
}

// NewParsed returns an empty Parsed.
func NewParsed() *Parsed {
	return &Parsed{posts: map[string]parsedPost{}}
}

// Salt forgets every post kept when salt is not the salt they were
// parsed with.
func (parsed *Parsed) Salt(salt string) {
	parsed.mu.Lock()
	defer parsed.mu.Unlock()
	if parsed.salt != salt {
		parsed.salt, parsed.posts, parsed.changed = salt, map[string]parsedPost{}, true
	}
}

// take returns a copy of the post parsed from src at file, if kept.
func (parsed *Parsed) take(file string, sum [sha256.Size]byte) (*Post, bool) {
	parsed.mu.Lock()
	defer parsed.mu.Unlock()
	pp, ok := parsed.posts[file]
	if !ok || pp.sum != sum {
		return nil, false
	}
	return pp.post.clone(), true
}

func (parsed *Parsed) keep(file string, sum [sha256.Size]byte, p *Post) {
	parsed.mu.Lock()
	defer parsed.mu.Unlock()
	parsed.posts[file] = parsedPost{sum: sum, post: *p.clone()}
	parsed.changed = true
}

// keepBody gives the post kept for file, read back from the index, its
// text: the loads after it (-dev) share it, as they share a parsed post's.
func (parsed *Parsed) keepBody(file string, sum [sha256.Size]byte, b *Body) {
	parsed.mu.Lock()
	defer parsed.mu.Unlock()
	if pp, ok := parsed.posts[file]; ok && pp.sum == sum && pp.post.Body == nil {
		pp.post.Body = b
		parsed.posts[file] = pp
	}
}

func (parsed *Parsed) parsing() {
	parsed.mu.Lock()
	defer parsed.mu.Unlock()
	parsed.parses++
}

// forgetAllBut forgets the files not in files: those deleted or renamed.
func (parsed *Parsed) forgetAllBut(files map[string]bool) {
	parsed.mu.Lock()
	defer parsed.mu.Unlock()
	for f := range parsed.posts {
		if !files[f] {
			delete(parsed.posts, f)
			parsed.changed = true
		}
	}
}

// clone copies p with what a load changes in place (its cover).
func (p *Post) clone() *Post {
	c := *p
	if p.Cover != nil {
		cover := *p.Cover
		c.Cover = &cover
	}
	return &c
}

// LoadAgain is Load, taking from parsed (when not nil) the posts whose
// file did not change since a load kept them there, and keeping there the
// posts it parses.
func LoadAgain(fsys fs.FS, root string, includeDrafts bool, writeDate DateWriter, parsed *Parsed, opts ...markdown.Option) (*Library, error) {
	md := markdown.New(opts...)
	type file struct {
		lang, slug, name string
		src              []byte
	}
	var files []file
	err := content.EachName(fsys, root, func(lang, slug, name string) error {
		files = append(files, file{lang: lang, slug: slug, name: name})
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("blog: %w", err)
	}
	// Each file is read on the goroutine that parses it, unless parsed
	// holds its post and its metadata did not change since it was read.
	readErrs := make([]error, len(files))
	// The files are parsed on every core (the Markdown's code blocks are
	// most of a start's time at a thousand posts a language), then taken
	// in the order of the files.
	type result struct {
		post *Post
		errs []error
	}
	results := make([]result, len(files))
	parse := func(i int) {
		f := &files[i]
		var info fs.FileInfo
		if parsed != nil {
			var err error
			if info, err = fs.Stat(fsys, f.name); err == nil {
				if p, ok := parsed.unchanged(f.name, info); ok {
					results[i].post = p
					return
				}
			}
		}
		read := time.Now()
		src, err := fs.ReadFile(fsys, f.name)
		if err != nil {
			readErrs[i] = fmt.Errorf("blog: reading %s: %w", f.name, err)
			return
		}
		f.src = src
		if parsed == nil {
			results[i].post, results[i].errs = parsePost(md, f.name, f.lang, f.slug, f.src)
			return
		}
		sum := sha256.Sum256(f.src)
		if p, ok := parsed.take(f.name, sum); ok {
			// A post read back from the index (ReadIndex) has no text
			// yet: its file, unchanged, holds it.
			if p.Body == nil {
				body, err := postText(f.src)
				p.Body = NewBody(md, bytes.Clone(body))
				if err != nil {
					p = nil
				} else {
					parsed.keepBody(f.name, sum, p.Body)
				}
			}
			if p != nil {
				if info != nil {
					parsed.readAt(f.name, sum, info, read)
				}
				results[i].post = p
				return
			}
		}
		parsed.parsing()
		p, fileErrs := parsePost(md, f.name, f.lang, f.slug, f.src)
		if p != nil && len(fileErrs) == 0 {
			parsed.keep(f.name, sum, p)
			if info != nil {
				parsed.readAt(f.name, sum, info, read)
			}
		}
		results[i] = result{p, fileErrs}
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(files)) {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < len(files); i = int(next.Add(1) - 1) {
				parse(i)
			}
		})
	}
	wg.Wait()
	if err := errors.Join(readErrs...); err != nil {
		return nil, err
	}
	var posts []*Post
	var errs []error
	seen := map[string]bool{}
	for i, r := range results {
		seen[files[i].name] = true
		errs = append(errs, r.errs...)
		if p := r.post; p != nil && (includeDrafts || !p.Draft) {
			p.publishedText = writeDate(p.Lang, p.Published)
			if !p.Updated.IsZero() {
				p.updatedText = writeDate(p.Lang, p.Updated)
			}
			posts = append(posts, p)
		}
	}
	if parsed != nil {
		parsed.forgetAllBut(seen)
	}
	errs = append(errs, checkTranslationKeys(posts)...)
	errs = append(errs, checkTagNames(posts)...)
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return newLibrary(posts), nil
}

// checkTranslationKeys reports two posts of one language sharing a
// translationKey: the key could not say which one the others translate.
func checkTranslationKeys(posts []*Post) []error {
	seen := map[[2]string]*Post{}
	var errs []error
	for _, p := range posts {
		k := [2]string{p.Lang, p.TranslationKey}
		if other, ok := seen[k]; ok {
			errs = append(errs, &content.Error{File: p.File, Line: p.keyLine, Field: "translationKey",
				Err: fmt.Errorf("%q is already used by %s", p.TranslationKey, other.File)})
			continue
		}
		seen[k] = p
	}
	return errs
}

// parsePost parses and renders one file. It returns the post (nil when the
// front matter is unusable) and every mistake found.
func parsePost(md *markdown.Renderer, file, lang, slug string, src []byte) (*Post, []error) {
	var errs []error
	fail := func(line int, field string, err error) {
		errs = append(errs, &content.Error{File: file, Line: line, Field: field, Err: err})
	}
	if !content.IsSlug(slug) {
		fail(0, "", fmt.Errorf("file name %q: a slug is lower-case ASCII letters, digits and single hyphens", slug+".md"))
	}
	if !utf8.Valid(src) {
		fail(0, "", errors.New("not valid UTF-8"))
		return nil, errs
	}
	src = bytes.TrimPrefix(src, []byte("\uFEFF"))
	src = bytes.ReplaceAll(src, []byte("\r\n"), []byte("\n"))

	front, body, err := content.SplitFrontMatter(src)
	if err != nil {
		fail(1, "", err)
		return nil, errs
	}
	p := &Post{Lang: lang, Slug: slug, File: file}
	errs = append(errs, p.parseFrontMatter(file, front)...)
	if len(errs) > 0 {
		return nil, errs
	}
	if len(bytes.TrimSpace(body)) == 0 {
		fail(0, "", errors.New("the post has no text after the front matter"))
		return nil, errs
	}
	doc, err := md.Outline(body)
	if err != nil {
		fail(0, "", err)
		return nil, errs
	}
	p.Body, p.TOC, p.Words = NewBody(md, bytes.Clone(body)), doc.TOC, doc.Words
	p.ReadingMinutes = markdown.ReadingMinutes(doc.Words)
	return p, nil
}

// parseFrontMatter fills p from the YAML front matter of file.
func (p *Post) parseFrontMatter(file string, front []byte) []error {
	var errs []error
	fail := func(line int, field string, err error) {
		errs = append(errs, &content.Error{File: file, Line: line, Field: field, Err: err})
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(front, &doc); err != nil {
		for _, e := range content.FrontMatterErrors(file, err) {
			fail(e.Line, "", fmt.Errorf("invalid YAML: %w", e.Err))
		}
		return errs
	}
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		fail(1, "", errors.New("front matter must be a list of \"key: value\" lines"))
		return errs
	}
	mapping := doc.Content[0]

	seen := map[string]bool{}
	for i := 0; i+1 < len(mapping.Content); i += 2 {
		key, value := mapping.Content[i], mapping.Content[i+1]
		line := content.FrontMatterLine(value.Line)
		field := key.Value
		if seen[field] {
			fail(content.FrontMatterLine(key.Line), field, errors.New("given twice"))
			continue
		}
		seen[field] = true
		var err error
		switch field {
		case "title":
			p.Title, err = text(value)
		case "description":
			p.Description, err = text(value)
		case "author":
			p.Author, err = text(value)
		case "published":
			p.Published, err = date(value)
		case "updated":
			p.Updated, err = date(value)
		case "tags":
			p.tagsLine = content.FrontMatterLine(value.Line)
			p.Tags, line, err = tags(value)
			if line > 0 {
				line = content.FrontMatterLine(line)
			}
		case "cover":
			p.Cover, line, err = cover(value)
			line = content.FrontMatterLine(line)
		case "translationKey":
			p.keyLine = line
			p.TranslationKey, err = text(value)
			if err == nil && !content.IsSlug(p.TranslationKey) {
				err = fmt.Errorf("%q: use lower-case ASCII letters, digits and single hyphens", p.TranslationKey)
			}
		case "draft":
			p.Draft, err = boolean(value)
		default:
			line = content.FrontMatterLine(key.Line)
			err = fmt.Errorf("unknown front matter key (known: title, description, published, updated, author, tags, cover, translationKey, draft)")
		}
		if err != nil {
			fail(line, field, err)
		}
	}
	for _, required := range []string{"title", "description", "published", "author", "translationKey"} {
		if !seen[required] {
			fail(1, required, errors.New("required"))
		}
	}
	if !p.Updated.IsZero() && !p.Published.IsZero() && p.Updated.Before(p.Published) {
		fail(content.FrontMatterLine(lineOf(mapping, "updated")), "updated", errors.New("before published"))
	}
	if p.Tags == nil {
		p.Tags = []Tag{}
	}
	return errs
}

// lineOf returns the line of key's value in mapping, or 1.
func lineOf(mapping *yaml.Node, key string) int {
	for i := 0; i+1 < len(mapping.Content); i += 2 {
		if mapping.Content[i].Value == key {
			return mapping.Content[i+1].Line
		}
	}
	return 1
}

// text returns a required, non-empty scalar.
func text(n *yaml.Node) (string, error) {
	if n.Kind != yaml.ScalarNode {
		return "", errors.New("must be text")
	}
	if n.Tag == "!!null" || strings.TrimSpace(n.Value) == "" {
		return "", errors.New("required")
	}
	return strings.TrimSpace(n.Value), nil
}

// date accepts a date (2026-03-14, taken as midnight UTC) or an RFC 3339
// time (2026-03-14T09:30:00+01:00, kept in its offset).
func date(n *yaml.Node) (time.Time, error) {
	if n.Kind == yaml.ScalarNode && n.Tag != "!!null" {
		if t, err := time.Parse(time.DateOnly, n.Value); err == nil {
			return t, nil
		}
		if t, err := time.Parse(time.RFC3339, n.Value); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("invalid date %q (want YYYY-MM-DD)", n.Value)
}

func boolean(n *yaml.Node) (bool, error) {
	if n.Kind == yaml.ScalarNode {
		switch n.Value {
		case "true":
			return true, nil
		case "false":
			return false, nil
		}
	}
	return false, fmt.Errorf("%q: must be true or false", n.Value)
}

// tags returns the list of tags, and the line of the first bad one. A tag
// is written as readers see it ("DevOps", "Platform engineering", "هندسة
// المنصات"): letters, digits, spaces and hyphens. Its URL slug is derived
// from it (TagSlug), so two tags of a post may not share one.
func tags(n *yaml.Node) ([]Tag, int, error) {
	if n.Kind != yaml.SequenceNode {
		return nil, n.Line, errors.New("must be a list, such as [Architecture, Go]")
	}
	out := make([]Tag, 0, len(n.Content))
	for _, item := range n.Content {
		if item.Kind != yaml.ScalarNode || strings.TrimSpace(item.Value) == "" {
			return nil, item.Line, errors.New("every tag must be a word")
		}
		name := item.Value
		slug := TagSlug(name)
		switch {
		case strings.TrimSpace(name) != name || strings.Contains(name, "  "):
			return nil, item.Line, fmt.Errorf("%q: words are separated by single spaces", name)
		case strings.IndexFunc(name, func(r rune) bool {
			return !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.Is(unicode.Mn, r) && r != '-' && r != ' '
		}) >= 0:
			return nil, item.Line, fmt.Errorf("%q: a tag holds letters, digits, spaces and hyphens only", name)
		case utf8.RuneCountInString(name) > maxTagLength:
			return nil, item.Line, fmt.Errorf("%q: longer than %d characters", name, maxTagLength)
		case slices.ContainsFunc(out, func(t Tag) bool { return t.Slug == slug }):
			return nil, item.Line, fmt.Errorf("%q: given twice", name)
		}
		out = append(out, Tag{Slug: slug, Name: name})
	}
	return out, 0, nil
}

// TagSlug returns the URL slug of a tag: lower case, hyphens for spaces
// ("Platform engineering": "platform-engineering").
func TagSlug(name string) string {
	return strings.ReplaceAll(strings.ToLower(name), " ", "-")
}

// checkTagNames reports a tag written two ways in one language ("DevOps"
// and "Devops"): its list would be titled with either.
func checkTagNames(posts []*Post) []error {
	type first struct {
		name string
		file string
	}
	seen := map[[2]string]first{}
	var errs []error
	for _, p := range posts {
		for _, t := range p.Tags {
			k := [2]string{p.Lang, t.Slug}
			if f, ok := seen[k]; ok && f.name != t.Name {
				errs = append(errs, &content.Error{File: p.File, Line: p.tagsLine, Field: "tags",
					Err: fmt.Errorf("%q is written %q in %s", t.Name, f.name, f.file)})
				continue
			}
			seen[k] = first{t.Name, p.File}
		}
	}
	return errs
}

// cover returns the cover image, and the line of the mistake if any.
func cover(n *yaml.Node) (*Cover, int, error) {
	if n.Kind != yaml.MappingNode {
		return nil, n.Line, errors.New("must hold src, alt, width and height")
	}
	c := &Cover{}
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		key, value := n.Content[i], n.Content[i+1]
		seen[key.Value] = true
		var err error
		switch key.Value {
		case "src":
			c.Src, err = text(value)
		case "alt":
			c.Alt, err = text(value)
		case "width", "height":
			var v int
			v, err = strconv.Atoi(value.Value)
			if err != nil || v <= 0 || value.Kind != yaml.ScalarNode {
				err = fmt.Errorf("%q: must be a whole number of pixels", value.Value)
			}
			if key.Value == "width" {
				c.Width = v
			} else {
				c.Height = v
			}
		default:
			return nil, key.Line, fmt.Errorf("unknown key %q (known: src, alt, width, height)", key.Value)
		}
		if err != nil {
			return nil, value.Line, fmt.Errorf("%s: %w", key.Value, err)
		}
	}
	for _, required := range []string{"src", "alt", "width", "height"} {
		if !seen[required] {
			return nil, n.Line, fmt.Errorf("%s: required", required)
		}
	}
	return c, 0, nil
}

// byNewest orders posts newest first; equal dates fall back to the slug so
// the order, and so every page, is the same on every start.
func byNewest(a, b *Post) int {
	if c := b.Published.Compare(a.Published); c != 0 {
		return c
	}
	return cmp.Compare(a.Slug, b.Slug)
}
