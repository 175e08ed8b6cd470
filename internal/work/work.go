// Package work holds the case studies: Markdown files with YAML front matter
// under content/work/<lang>/<slug>.md, loaded and rendered once at start, in
// the same layout and with the same error reporting as the blog's posts
// (internal/blog), and linked to their translations by translationKey.
//
// A Library is immutable after Load and safe for concurrent use.
package work

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/northbeam/site/internal/blog"
	"github.com/northbeam/site/internal/markdown"
)

// ErrNotFound is returned for a language or slug the library does not have.
var ErrNotFound = errors.New("work: not found")

// Result is one measured outcome of an engagement: a figure and what it
// measures ("−62 %", "time from order to dispatch").
type Result struct {
	Value string `yaml:"value" json:"value"`
	Label string `yaml:"label" json:"label"`
}

// Quote is what the client said, with who said it. Name may be anonymised
// ("Head of Operations") where the client asked for it.
type Quote struct {
	Text    string `yaml:"text" json:"text"`
	Name    string `yaml:"name" json:"name"`
	Role    string `yaml:"role" json:"role"`
	Company string `yaml:"company" json:"company"`
}

// Study is one language version of a case study.
type Study struct {
	Lang string `json:"lang"`
	Slug string `json:"slug"`
	File string `json:"-"`

	Title          string    `yaml:"title" json:"title"`
	Description    string    `yaml:"description" json:"description"`
	Client         string    `yaml:"client" json:"client"`
	Sector         string    `yaml:"sector" json:"sector"`
	Size           string    `yaml:"size" json:"size"`
	Duration       string    `yaml:"duration" json:"duration"`
	Published      time.Time `yaml:"published" json:"published"`
	Stack          []string  `yaml:"stack" json:"stack"`
	Results        []Result  `yaml:"results" json:"results"`
	Quote          Quote     `yaml:"quote" json:"quote"`
	TranslationKey string    `yaml:"translationKey" json:"-"`
	// Order places the study in lists: lower first, then by slug.
	Order int `yaml:"order" json:"-"`

	HTML string `yaml:"-" json:"html"`
}

// Summary is what a list or the home page shows of a study.
type Summary struct {
	Slug        string  `json:"slug"`
	Title       string  `json:"title"`
	Description string  `json:"description"`
	Sector      string  `json:"sector"`
	Size        string  `json:"size"`
	Result      *Result `json:"result,omitempty"` // the headline result
}

// Summary returns the list entry of st.
func (st *Study) Summary() Summary {
	s := Summary{Slug: st.Slug, Title: st.Title, Description: st.Description, Sector: st.Sector, Size: st.Size}
	if len(st.Results) > 0 {
		s.Result = &st.Results[0]
	}
	return s
}

// Testimonial is a study's quote with the study it comes from.
type Testimonial struct {
	Quote
	Slug string `json:"slug"` // the study's
}

// Translation points to another language version of a study.
type Translation struct {
	Lang string `json:"lang"`
	Slug string `json:"slug"`
}

// Library is every case study, by language.
type Library struct {
	byLang map[string][]*Study
}

var (
	slugPattern  = regexp.MustCompile(`^[a-z0-9]+(?:-[a-z0-9]+)*$`)
	yamlErrorPos = regexp.MustCompile(`line (\d+): (.*)`)
)

// Load reads the studies under root in fsys, laid out as
// <root>/<lang>/<slug>.md. Each file starts with front matter:
//
//	---
//	title: Dispatch in minutes, not hours
//	description: One or two sentences for lists and search results.
//	client: A regional grocery wholesaler   # anonymised where the client asked
//	sector: Wholesale and logistics
//	size: 900 employees, 14 depots
//	duration: 7 months
//	published: 2026-06-10
//	stack: [Go, PostgreSQL, Kubernetes]
//	results:
//	  - value: "−62 %"
//	    label: time from order to dispatch
//	quote:
//	  text: What the client said.
//	  name: Head of Operations
//	  role: Operations
//	  company: A regional grocery wholesaler
//	translationKey: wholesale-dispatch
//	order: 1                       # optional, lower comes first
//	---
//
// Every key but order is required and an unknown key is an error. Every
// mistake is returned as a *blog.ContentError naming the file and line,
// joined with errors.Join.
func Load(fsys fs.FS, root string, opts ...markdown.Option) (*Library, error) {
	lib := &Library{byLang: map[string][]*Study{}}
	langs, err := fs.ReadDir(fsys, root)
	if errors.Is(err, fs.ErrNotExist) {
		return lib, nil
	}
	if err != nil {
		return nil, fmt.Errorf("work: reading %s: %w", root, err)
	}
	md := markdown.New(opts...)
	var errs []error
	for _, langDir := range langs {
		if !langDir.IsDir() || strings.HasPrefix(langDir.Name(), ".") {
			continue
		}
		lang := langDir.Name()
		dir := path.Join(root, lang)
		files, err := fs.ReadDir(fsys, dir)
		if err != nil {
			return nil, fmt.Errorf("work: reading %s: %w", dir, err)
		}
		keys := map[string]string{}
		for _, f := range files {
			if f.IsDir() || !strings.HasSuffix(f.Name(), ".md") {
				continue
			}
			file := path.Join(dir, f.Name())
			src, err := fs.ReadFile(fsys, file)
			if err != nil {
				return nil, fmt.Errorf("work: reading %s: %w", file, err)
			}
			st, fileErrs := parse(md, file, lang, strings.TrimSuffix(f.Name(), ".md"), src)
			errs = append(errs, fileErrs...)
			if st == nil {
				continue
			}
			if other, ok := keys[st.TranslationKey]; ok {
				errs = append(errs, &blog.ContentError{File: file, Field: "translationKey",
					Err: fmt.Errorf("%q is already used by %s", st.TranslationKey, other)})
				continue
			}
			keys[st.TranslationKey] = file
			lib.byLang[lang] = append(lib.byLang[lang], st)
		}
		slices.SortFunc(lib.byLang[lang], func(a, b *Study) int {
			return cmp.Or(cmp.Compare(a.Order, b.Order), cmp.Compare(a.Slug, b.Slug))
		})
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return lib, nil
}

// parse reads one file: the study, or nil and every mistake found.
func parse(md *markdown.Renderer, file, lang, slug string, src []byte) (*Study, []error) {
	var errs []error
	fail := func(line int, field string, err error) {
		errs = append(errs, &blog.ContentError{File: file, Line: line, Field: field, Err: err})
	}
	if !slugPattern.MatchString(slug) {
		fail(0, "", fmt.Errorf("file name %q: a slug is lower-case ASCII letters, digits and single hyphens", slug+".md"))
	}
	src = bytes.ReplaceAll(bytes.TrimPrefix(src, []byte("\uFEFF")), []byte("\r\n"), []byte("\n"))
	front, body, err := blog.SplitFrontMatter(src)
	if err != nil {
		fail(1, "", err)
		return nil, errs
	}
	st := &Study{Lang: lang, Slug: slug, File: file}
	dec := yaml.NewDecoder(bytes.NewReader(front))
	dec.KnownFields(true)
	if err := dec.Decode(st); err != nil {
		// The YAML starts on the file's second line.
		for _, m := range yamlErrorPos.FindAllStringSubmatch(err.Error(), -1) {
			n, _ := strconv.Atoi(m[1])
			fail(n+1, "", errors.New(m[2]))
		}
		if len(errs) == 0 {
			fail(1, "", err)
		}
		return nil, errs
	}
	required := []struct {
		field string
		ok    bool
	}{
		{"title", st.Title != ""}, {"description", st.Description != ""}, {"client", st.Client != ""},
		{"sector", st.Sector != ""}, {"size", st.Size != ""}, {"duration", st.Duration != ""},
		{"published", !st.Published.IsZero()}, {"stack", len(st.Stack) > 0}, {"results", len(st.Results) > 0},
		{"quote", st.Quote.Text != "" && st.Quote.Name != "" && st.Quote.Role != "" && st.Quote.Company != ""},
		{"translationKey", slugPattern.MatchString(st.TranslationKey)},
	}
	for _, r := range required {
		if !r.ok {
			fail(1, r.field, errors.New("required (quote: text, name, role and company; translationKey: lower-case letters, digits and hyphens)"))
		}
	}
	for _, r := range st.Results {
		if r.Value == "" || r.Label == "" {
			fail(1, "results", errors.New("every result has a value and a label"))
		}
	}
	if len(bytes.TrimSpace(body)) == 0 {
		fail(0, "", errors.New("the case study has no text after the front matter"))
	}
	if len(errs) > 0 {
		return nil, errs
	}
	doc, err := md.Convert(body)
	if err != nil {
		fail(0, "", err)
		return nil, errs
	}
	st.HTML = doc.HTML
	return st, nil
}

// Studies returns lang's studies in list order.
func (l *Library) Studies(lang string) []*Study { return l.byLang[lang] }

// Study returns lang's study with slug, or ErrNotFound.
func (l *Library) Study(lang, slug string) (*Study, error) {
	for _, st := range l.byLang[lang] {
		if st.Slug == slug {
			return st, nil
		}
	}
	return nil, ErrNotFound
}

// Summaries returns the list entries of lang's studies.
func (l *Library) Summaries(lang string) []Summary {
	out := make([]Summary, 0, len(l.byLang[lang]))
	for _, st := range l.byLang[lang] {
		out = append(out, st.Summary())
	}
	return out
}

// Testimonials returns the quotes of lang's studies, in list order.
func (l *Library) Testimonials(lang string) []Testimonial {
	out := make([]Testimonial, 0, len(l.byLang[lang]))
	for _, st := range l.byLang[lang] {
		out = append(out, Testimonial{Quote: st.Quote, Slug: st.Slug})
	}
	return out
}

// Translations returns the other language versions of st, by language.
func (l *Library) Translations(st *Study) []Translation {
	var out []Translation
	for lang, studies := range l.byLang {
		if lang == st.Lang {
			continue
		}
		for _, other := range studies {
			if other.TranslationKey == st.TranslationKey {
				out = append(out, Translation{Lang: lang, Slug: other.Slug})
			}
		}
	}
	slices.SortFunc(out, func(a, b Translation) int { return cmp.Compare(a.Lang, b.Lang) })
	return out
}
