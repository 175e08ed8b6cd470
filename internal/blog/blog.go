// Package blog holds the blog's posts: Markdown files with YAML front matter
// under content/blog/<lang>/<slug>.md, loaded and rendered once at start,
// then listed, paginated, filtered by tag, linked to their translations and
// published as an Atom feed per language.
//
// A Library is immutable after Load and safe for concurrent use. The posts
// and slices it returns are shared: read them, do not modify them.
package blog

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"slices"
	"sync"
	"time"

	"github.com/northbeam/site/internal/markdown"
	"github.com/northbeam/site/internal/packed"
)

// PerPage is the number of posts on a page of the list.
const PerPage = 10

// ErrNotFound is returned for a language, slug, page or tag the library
// does not have; the handlers answer it with the localized 404 page.
var ErrNotFound = errors.New("blog: not found")

// Cover is a post's optional cover image. Width and height are required so
// the page reserves the space before the image loads.
type Cover struct {
	Src    string `json:"src"`
	Alt    string `json:"alt"`
	Width  int    `json:"width"`
	Height int    `json:"height"`
	// WebP is the srcset of the picture's WebP copies, when the site has
	// some (internal/images); never in front matter.
	WebP string `json:"webp,omitempty"`
}

// Post is one language version of a post.
type Post struct {
	Lang string // directory name: "en", "fr", "de", "ar"
	Slug string // file name without ".md"
	File string // path inside the fs.FS it was loaded from

	Title          string
	Description    string
	Author         string
	Published      time.Time
	Updated        time.Time // zero when never updated
	Tags           []Tag     // never nil
	Cover          *Cover    // nil when none
	TranslationKey string
	Draft          bool

	// Body is the text, rendered into HTML on its first use (Body.HTML):
	// a start reads every post's front matter, outline and word count,
	// and leaves the highlighting of its code to the page's first render
	// or the prerender behind the start.
	Body           *Body
	TOC            []markdown.Heading // level 2 and 3 headings
	Words          int
	ReadingMinutes int

	keyLine  int // line of translationKey, for error messages
	tagsLine int // line of tags, for error messages

	// publishedText and updatedText are the dates in the post's language.
	publishedText, updatedText string
}

// HTML returns the post's rendered text (Body.HTML), "" if it could not
// be rendered.
func (p *Post) HTML() string {
	html, _ := p.Body.HTML()
	return html
}

// Body is a post's text, rendered into HTML when first asked for and kept
// until Forget, and sent as a JSON string. The load that made it checked
// the text with the same renderer (markdown.Renderer.Outline), so its
// rendering finds no mistake the load did not.
type Body struct {
	mu  sync.Mutex
	md  *markdown.Renderer
	src []byte
	// packed is src compressed (internal/packed), once Forget has let src
	// go.
	packed   []byte
	html     string
	rendered bool
	err      error
	renders  int // how many times the text was rendered into HTML
	// digest marshals the text's SHA-256, sum, rather than its HTML
	// (Digest).
	digest bool
	sum    [sha256.Size]byte
}

// NewBody returns the text src, to be rendered with md.
func NewBody(md *markdown.Renderer, src []byte) *Body { return &Body{md: md, src: src} }

// HTML renders the text, the first time it is asked for since the load or
// Forget; a nil Body is no text.
func (b *Body) HTML() (string, error) {
	if b == nil {
		return "", nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.rendered {
		b.html, b.err = b.md.HTML(b.text())
		b.rendered = true
		b.renders++
	}
	return b.html, b.err
}

// Forget lets the HTML go, once the pages made from it are rendered, and
// keeps the text compressed, under half its size, for a page rendered
// again (docs/ARCHITECTURE.md, Rendering): at a thousand posts a language
// the texts alone were 33 MB of the heap.
func (b *Body) Forget() {
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.html, b.rendered, b.err = "", false, nil
	if b.src != nil {
		b.packed, b.src = packed.Pack(b.src), nil
	}
}

// Digest returns the text of b as a payload's key sees it: it marshals
// as the SHA-256 of the Markdown, so that a start finds a finished page in
// the renders' cache without rendering the post's text first
// (docs/ARCHITECTURE.md, Starting). What else the HTML depends on (the
// program, the renderer's options) is in the cache's key beside it.
func (b *Body) Digest() *Body {
	if b == nil {
		return nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return &Body{md: b.md, digest: true, sum: sha256.Sum256(b.text())}
}

// text is the Markdown, unpacked if Forget packed it; b.mu is held.
func (b *Body) text() []byte {
	if b.src == nil && b.packed != nil {
		src, _ := packed.Unpack(b.packed) // packed in memory by Forget: it does not fail
		return src
	}
	return b.src
}

// MarshalJSON writes the HTML as a JSON string (the digest of the text for
// a Body made by Digest).
func (b *Body) MarshalJSON() ([]byte, error) {
	if b.digest {
		return json.Marshal("sha256:" + hex.EncodeToString(b.sum[:]))
	}
	html, err := b.HTML()
	if err != nil {
		return nil, err
	}
	return json.Marshal(html)
}

// DateWriter writes a date in a language as its readers expect it: the
// site's intl.Formatter.FormatDate.
type DateWriter func(lang string, t time.Time) string

// Tag is a tag of a post: its name as readers see it, in the post's
// language ("DevOps", "هندسة المنصات"), and the slug of its URL
// ("devops", "هندسة-المنصات").
type Tag struct {
	Slug string `json:"slug"`
	Name string `json:"name"`
}

// LastModified returns Updated, or Published if the post was never
// updated.
func (p *Post) LastModified() time.Time {
	if p.Updated.IsZero() {
		return p.Published
	}
	return p.Updated
}

// Summary is what a list shows of a post, shaped to be sent to the client
// as JSON. Dates come twice: ISO (YYYY-MM-DD, for <time datetime>) and
// formatted in the post's language (DateWriter); the client displays the
// formatted text as is, so the server and the hydrated page agree.
type Summary struct {
	Lang           string `json:"lang"`
	Slug           string `json:"slug"`
	Title          string `json:"title"`
	Description    string `json:"description"`
	Author         string `json:"author"`
	Published      string `json:"published"`
	PublishedText  string `json:"publishedText"`
	Updated        string `json:"updated,omitempty"`
	UpdatedText    string `json:"updatedText,omitempty"`
	ReadingMinutes int    `json:"readingMinutes"`
	Tags           []Tag  `json:"tags"`
	Cover          *Cover `json:"cover,omitempty"`
}

// Summary returns the list entry of p.
func (p *Post) Summary() Summary {
	s := Summary{
		Lang:           p.Lang,
		Slug:           p.Slug,
		Title:          p.Title,
		Description:    p.Description,
		Author:         p.Author,
		Published:      p.Published.Format(time.DateOnly),
		PublishedText:  p.publishedText,
		ReadingMinutes: p.ReadingMinutes,
		Tags:           p.Tags,
		Cover:          p.Cover,
	}
	if !p.Updated.IsZero() {
		s.Updated = p.Updated.Format(time.DateOnly)
		s.UpdatedText = p.updatedText
	}
	return s
}

// Translation points to another language version of a post.
type Translation struct {
	Lang  string `json:"lang"`
	Slug  string `json:"slug"`
	Title string `json:"title"`
}

// Article is everything the post page shows, shaped to be sent to the
// client as JSON.
type Article struct {
	Summary
	HTML         *Body              `json:"html"`
	TOC          []markdown.Heading `json:"toc"`
	Translations []Translation      `json:"translations"`
	Newer        *Summary           `json:"newer,omitempty"` // the next post in time, if any
	Older        *Summary           `json:"older,omitempty"` // the previous post in time, if any
}

// TagCount is a tag and the number of posts carrying it.
type TagCount struct {
	Tag   string `json:"tag"`  // the slug
	Name  string `json:"name"` // as readers see it
	Count int    `json:"count"`
}

// Page is one page of a language's list, shaped to be sent to the client as
// JSON.
type Page struct {
	Lang       string     `json:"lang"`
	Tag        string     `json:"tag,omitempty"`     // the filter's slug, if any
	TagName    string     `json:"tagName,omitempty"` // the filter as readers see it
	Number     int        `json:"page"`              // 1-based
	TotalPages int        `json:"totalPages"`        // at least 1
	TotalPosts int        `json:"totalPosts"`        // matching the filter
	Posts      []Summary  `json:"posts"`
	Tags       []TagCount `json:"tags"` // every tag of the language, for the filter
}

// Library is the set of loaded posts.
type Library struct {
	byLang  map[string][]*Post            // newest first
	bySlug  map[string]map[string]*Post   // lang → slug → post
	byKey   map[string]map[string]*Post   // translationKey → lang → post
	tags    map[string][]TagCount         // lang → tags, most used first
	tagged  map[string]map[string][]*Post // lang → tag slug → posts, newest first
	names   map[string]map[string]string  // lang → tag slug → name
	indexOf map[*Post]int                 // position in byLang[p.Lang]
}

func newLibrary(posts []*Post) *Library {
	l := &Library{
		byLang:  map[string][]*Post{},
		bySlug:  map[string]map[string]*Post{},
		byKey:   map[string]map[string]*Post{},
		tags:    map[string][]TagCount{},
		tagged:  map[string]map[string][]*Post{},
		names:   map[string]map[string]string{},
		indexOf: map[*Post]int{},
	}
	for _, p := range posts {
		l.byLang[p.Lang] = append(l.byLang[p.Lang], p)
		if l.bySlug[p.Lang] == nil {
			l.bySlug[p.Lang] = map[string]*Post{}
			l.tagged[p.Lang] = map[string][]*Post{}
			l.names[p.Lang] = map[string]string{}
		}
		l.bySlug[p.Lang][p.Slug] = p
		if l.byKey[p.TranslationKey] == nil {
			l.byKey[p.TranslationKey] = map[string]*Post{}
		}
		l.byKey[p.TranslationKey][p.Lang] = p
	}
	for lang, list := range l.byLang {
		slices.SortFunc(list, byNewest)
		for i, p := range list {
			l.indexOf[p] = i
			for _, tag := range p.Tags {
				l.tagged[lang][tag.Slug] = append(l.tagged[lang][tag.Slug], p)
				l.names[lang][tag.Slug] = tag.Name
			}
		}
		counts := make([]TagCount, 0, len(l.tagged[lang]))
		for tag, tagged := range l.tagged[lang] {
			counts = append(counts, TagCount{Tag: tag, Name: l.names[lang][tag], Count: len(tagged)})
		}
		slices.SortFunc(counts, func(a, b TagCount) int {
			return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.Tag, b.Tag))
		})
		l.tags[lang] = counts
	}
	return l
}

// Languages returns the languages that have posts, sorted.
func (l *Library) Languages() []string {
	langs := make([]string, 0, len(l.byLang))
	for lang := range l.byLang {
		langs = append(langs, lang)
	}
	slices.Sort(langs)
	return langs
}

// Posts returns the posts of lang, newest first (nil for a language without
// posts).
func (l *Library) Posts(lang string) []*Post {
	return slices.Clone(l.byLang[lang])
}

// ForgetTexts lets go of every post's HTML, and keeps its text compressed:
// a page made again renders it again (Body.HTML).
func (l *Library) ForgetTexts() {
	for _, posts := range l.byLang {
		for _, p := range posts {
			p.Body.Forget()
		}
	}
}

// TextRenders counts the renders of the posts' texts into HTML since
// the load: a start that finds its pages in the renders' cache makes none
// (docs/ARCHITECTURE.md, Starting).
func (l *Library) TextRenders() int {
	n := 0
	for _, posts := range l.byLang {
		for _, p := range posts {
			p.Body.mu.Lock()
			n += p.Body.renders
			p.Body.mu.Unlock()
		}
	}
	return n
}

// Count returns the number of posts of lang: Posts' length, without its
// copy (a list page asks for every page it plans).
func (l *Library) Count(lang string) int { return len(l.byLang[lang]) }

// Post returns the post of lang with slug, or ErrNotFound.
func (l *Library) Post(lang, slug string) (*Post, error) {
	if p, ok := l.bySlug[lang][slug]; ok {
		return p, nil
	}
	return nil, ErrNotFound
}

// Tags returns the tags of lang with their post counts, most used first,
// then alphabetically.
func (l *Library) Tags(lang string) []TagCount {
	return slices.Clone(l.tags[lang])
}

// Page returns page number page (1-based) of the list of lang, PerPage posts
// per page, newest first, restricted to the posts tagged tag (a slug) unless
// tag is empty. Page 1 of a language or filter without posts is empty; any other
// page out of range, and an unknown tag, give ErrNotFound. Page numbers
// count from the newest post; with the order fixed (date, then slug), the
// same content always gives the same pages.
func (l *Library) Page(lang string, page int, tag string) (Page, error) {
	list := l.byLang[lang]
	if tag != "" {
		var ok bool
		if list, ok = l.tagged[lang][tag]; !ok {
			return Page{}, ErrNotFound
		}
	}
	total := max(1, (len(list)+PerPage-1)/PerPage)
	if page < 1 || page > total {
		return Page{}, ErrNotFound
	}
	start := (page - 1) * PerPage
	end := min(start+PerPage, len(list))
	summaries := make([]Summary, 0, end-start)
	for _, p := range list[start:end] {
		summaries = append(summaries, p.Summary())
	}
	tags := l.tags[lang]
	if tags == nil {
		tags = []TagCount{}
	}
	return Page{
		Lang:       lang,
		Tag:        tag,
		TagName:    l.names[lang][tag],
		Number:     page,
		TotalPages: total,
		TotalPosts: len(list),
		Posts:      summaries,
		Tags:       slices.Clone(tags),
	}, nil
}

// Neighbours returns the posts of the same language published just after
// (newer) and just before (older) the post of lang with slug; either is nil
// at an end of the list.
func (l *Library) Neighbours(lang, slug string) (newer, older *Post, err error) {
	p, err := l.Post(lang, slug)
	if err != nil {
		return nil, nil, err
	}
	list, i := l.byLang[lang], l.indexOf[p]
	if i > 0 {
		newer = list[i-1]
	}
	if i+1 < len(list) {
		older = list[i+1]
	}
	return newer, older, nil
}

// Translations returns the other language versions of the post of lang with
// slug (same translationKey), sorted by language.
func (l *Library) Translations(lang, slug string) ([]Translation, error) {
	p, err := l.Post(lang, slug)
	if err != nil {
		return nil, err
	}
	out := []Translation{}
	for other, t := range l.byKey[p.TranslationKey] {
		if other != lang {
			out = append(out, Translation{Lang: t.Lang, Slug: t.Slug, Title: t.Title})
		}
	}
	slices.SortFunc(out, func(a, b Translation) int { return cmp.Compare(a.Lang, b.Lang) })
	return out, nil
}

// Article returns what the post page of lang and slug shows, or
// ErrNotFound.
func (l *Library) Article(lang, slug string) (Article, error) {
	p, err := l.Post(lang, slug)
	if err != nil {
		return Article{}, err
	}
	translations, _ := l.Translations(lang, slug)
	newer, older, _ := l.Neighbours(lang, slug)
	toc := p.TOC
	if toc == nil {
		toc = []markdown.Heading{}
	}
	a := Article{
		Summary:      p.Summary(),
		HTML:         p.Body,
		TOC:          toc,
		Translations: translations,
	}
	if newer != nil {
		s := newer.Summary()
		a.Newer = &s
	}
	if older != nil {
		s := older.Summary()
		a.Older = &s
	}
	return a, nil
}
