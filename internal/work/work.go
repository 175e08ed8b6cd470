// Package work holds the case studies: Markdown files with YAML front matter
// under content/work/<lang>/<slug>.md, loaded and rendered once at start, in
// the same layout and with the same error reporting as the blog's posts
// (internal/blog), and linked to their translations by translationKey.
//
// A Library is immutable after Load and safe for concurrent use.
package work

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"time"

	"github.com/northbeam/site/internal/content"
	"github.com/northbeam/site/internal/images"
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

	Title       string    `yaml:"title" json:"title"`
	Description string    `yaml:"description" json:"description"`
	Client      string    `yaml:"client" json:"client"`
	Sector      string    `yaml:"sector" json:"sector"`
	Size        string    `yaml:"size" json:"size"`
	Duration    string    `yaml:"duration" json:"duration"`
	Published   time.Time `yaml:"published" json:"published"`
	Stack       []string  `yaml:"stack" json:"stack"`
	Results     []Result  `yaml:"results" json:"results"`
	Quote       Quote     `yaml:"quote" json:"quote"`
	// CoverRef is the cover as the front matter names it; Cover is the
	// picture pages show.
	CoverRef       *images.Ref    `yaml:"cover" json:"-"`
	Cover          images.Picture `yaml:"-" json:"cover"`
	TranslationKey string         `yaml:"translationKey" json:"-"`
	// Order places the study in lists: lower first, then by slug.
	Order int `yaml:"order" json:"-"`

	HTML string `yaml:"-" json:"html"`
}

// Summary is what a list or the home page shows of a study.
type Summary struct {
	Slug        string         `json:"slug"`
	Title       string         `json:"title"`
	Description string         `json:"description"`
	Sector      string         `json:"sector"`
	Size        string         `json:"size"`
	Result      *Result        `json:"result,omitempty"` // the headline result
	Cover       images.Picture `json:"cover"`
}

// Summary returns the list entry of st.
func (st *Study) Summary() Summary {
	s := Summary{Slug: st.Slug, Title: st.Title, Description: st.Description, Sector: st.Sector, Size: st.Size, Cover: st.Cover}
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
//	cover:                         # a picture under content/img/ (images.Ref)
//	  src: /img/work/wholesale-dispatch.png
//	  alt: What the picture shows, in the file's language.
//	  width: 1600
//	  height: 900
//	translationKey: wholesale-dispatch
//	order: 1                       # optional, lower comes first
//	---
//
// Every key but order is required and an unknown key is an error; pictures
// checks the cover and returns what pages show of it. Every mistake is
// returned as a *content.Error naming the file and line, joined with
// errors.Join.
func Load(fsys fs.FS, root string, pictures func(images.Ref) (images.Picture, error), opts ...markdown.Option) (*Library, error) {
	return LoadAgain(fsys, root, pictures, nil, opts...)
}

// Parsed keeps the studies parsed by earlier loads (content.Parsed).
type Parsed = content.Parsed[*Study]

// NewParsed returns an empty Parsed.
func NewParsed() *Parsed { return content.NewParsed[*Study]() }

// LoadAgain is Load, taking from parsed (when not nil) the studies whose
// file did not change since a load kept them there, and keeping there the
// studies it parses. A Study is not changed after its parse: loads share
// it.
func LoadAgain(fsys fs.FS, root string, pictures func(images.Ref) (images.Picture, error), parsed *Parsed, opts ...markdown.Option) (*Library, error) {
	md := markdown.New(opts...)
	keys := map[[2]string]string{} // language and translationKey -> the file that has it
	byLang, err := content.LoadAll(fsys, root, "work", parsed, func(lang, slug, file string, src []byte) (*Study, []error) {
		return parse(md, pictures, file, lang, slug, src)
	}, func(st *Study) []error {
		key := [2]string{st.Lang, st.TranslationKey}
		if other, ok := keys[key]; ok {
			return []error{&content.Error{File: st.File, Field: "translationKey",
				Err: fmt.Errorf("%q is already used by %s", st.TranslationKey, other)}}
		}
		keys[key] = st.File
		return nil
	}, func(a, b *Study) int {
		return cmp.Or(cmp.Compare(a.Order, b.Order), cmp.Compare(a.Slug, b.Slug))
	})
	if err != nil {
		return nil, err
	}
	return &Library{byLang: byLang}, nil
}

// parse reads one file: the study, or nil and every mistake found.
func parse(md *markdown.Renderer, pictures func(images.Ref) (images.Picture, error), file, lang, slug string, src []byte) (*Study, []error) {
	st := &Study{Lang: lang, Slug: slug, File: file}
	doc, ok := content.Decode(file, slug, src, st)
	if !ok {
		return nil, doc.Errors()
	}
	doc.Require("required (quote: text, name, role and company; translationKey: lower-case letters, digits and hyphens; cover: src, alt, width and height)",
		content.Check{Field: "title", OK: st.Title != ""}, content.Check{Field: "description", OK: st.Description != ""},
		content.Check{Field: "client", OK: st.Client != ""}, content.Check{Field: "sector", OK: st.Sector != ""},
		content.Check{Field: "size", OK: st.Size != ""}, content.Check{Field: "duration", OK: st.Duration != ""},
		content.Check{Field: "published", OK: !st.Published.IsZero()}, content.Check{Field: "stack", OK: len(st.Stack) > 0},
		content.Check{Field: "results", OK: len(st.Results) > 0},
		content.Check{Field: "quote", OK: st.Quote.Text != "" && st.Quote.Name != "" && st.Quote.Role != "" && st.Quote.Company != ""},
		content.Check{Field: "translationKey", OK: content.IsSlug(st.TranslationKey)},
		content.Check{Field: "cover", OK: st.CoverRef != nil})
	st.Cover = content.Picture(doc, "cover", st.CoverRef, pictures)
	for _, r := range st.Results {
		if r.Value == "" || r.Label == "" {
			doc.Fail(1, "results", errors.New("every result has a value and a label"))
		}
	}
	html, ok := doc.Render(md, "the case study has no text after the front matter")
	if !ok {
		return nil, doc.Errors()
	}
	st.HTML = html
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
