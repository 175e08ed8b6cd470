// Package team holds the consultancy's people: one Markdown file with YAML
// front matter per person and language, content/team/<lang>/<slug>.md,
// loaded and rendered once at start with the blog's front matter rules and
// file:line errors (internal/blog).
//
// A Team is immutable after Load and safe for concurrent use.
package team

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"

	"github.com/northbeam/site/internal/blog"
	"github.com/northbeam/site/internal/content"
	"github.com/northbeam/site/internal/images"
	"github.com/northbeam/site/internal/markdown"
)

// ErrNotFound is returned for a language or slug the team does not have.
var ErrNotFound = errors.New("team: not found")

// Person is one language version of a person's page.
type Person struct {
	Lang string `yaml:"-" json:"-"`
	Slug string `yaml:"-" json:"slug"` // the file name, the same in every language
	File string `yaml:"-" json:"-"`

	// Name is written as the blog's posts write their author.
	Name        string   `yaml:"name" json:"name"`
	Role        string   `yaml:"role" json:"role"`
	Description string   `yaml:"description" json:"description"` // one sentence, for lists and search results
	Expertise   []string `yaml:"expertise" json:"expertise"`
	// PhotoRef is the portrait as the front matter names it; Photo is the
	// picture pages show.
	PhotoRef *images.Ref    `yaml:"photo" json:"-"`
	Photo    images.Picture `yaml:"-" json:"photo"`
	// Order places the person in the team: lower first, then by slug.
	Order int `yaml:"order" json:"-"`

	HTML string `yaml:"-" json:"html"`
}

// Team is every person, by language.
type Team struct {
	byLang map[string][]*Person
}

// Load reads the people under root in fsys, laid out as
// <root>/<lang>/<slug>.md, each starting with front matter:
//
//	---
//	name: Lena Hartmann
//	role: Managing director and principal engineer
//	description: One sentence for lists and search results.
//	expertise: [Software architecture, Go, Technical due diligence]
//	photo:              # a picture under content/img/ (images.Ref)
//	  src: /img/team/lena-hartmann.png
//	  alt: What the portrait shows, in the file's language.
//	  width: 800
//	  height: 800
//	order: 1            # optional, lower comes first
//	---
//
// then a short biography in Markdown. Every key but order is required and
// an unknown key is an error; pictures checks the photo and returns what
// pages show of it. Every mistake is a *content.Error naming the file
// and line, joined with errors.Join.
func Load(fsys fs.FS, root string, pictures func(images.Ref) (images.Picture, error), opts ...markdown.Option) (*Team, error) {
	return LoadAgain(fsys, root, pictures, nil, opts...)
}

// Parsed keeps the people parsed by earlier loads (content.Parsed).
type Parsed = content.Parsed[*Person]

// NewParsed returns an empty Parsed.
func NewParsed() *Parsed { return content.NewParsed[*Person]() }

// LoadAgain is Load, taking from parsed (when not nil) the people whose
// file did not change since a load kept them there, and keeping there the
// people it parses. A Person is not changed after its parse: loads share
// it.
func LoadAgain(fsys fs.FS, root string, pictures func(images.Ref) (images.Picture, error), parsed *Parsed, opts ...markdown.Option) (*Team, error) {
	md := markdown.New(opts...)
	byLang, err := content.LoadAll(fsys, root, "team", parsed, func(lang, slug, file string, src []byte) (*Person, []error) {
		return parse(md, pictures, file, lang, slug, src)
	}, nil, func(a, b *Person) int {
		return cmp.Or(cmp.Compare(a.Order, b.Order), cmp.Compare(a.Slug, b.Slug))
	})
	if err != nil {
		return nil, err
	}
	return &Team{byLang: byLang}, nil
}

func parse(md *markdown.Renderer, pictures func(images.Ref) (images.Picture, error), file, lang, slug string, src []byte) (*Person, []error) {
	p := &Person{Lang: lang, Slug: slug, File: file}
	doc, ok := content.Decode(file, slug, src, p)
	if !ok {
		return nil, doc.Errors()
	}
	doc.Require("required", content.Check{Field: "name", OK: p.Name != ""}, content.Check{Field: "role", OK: p.Role != ""},
		content.Check{Field: "description", OK: p.Description != ""}, content.Check{Field: "expertise", OK: len(p.Expertise) > 0},
		content.Check{Field: "photo", OK: p.PhotoRef != nil})
	p.Photo = content.Picture(doc, "photo", p.PhotoRef, pictures)
	html, ok := doc.Render(md, "the page has no text after the front matter")
	if !ok {
		return nil, doc.Errors()
	}
	p.HTML = html
	return p, nil
}

// People returns lang's people in team order.
func (t *Team) People(lang string) []*Person { return t.byLang[lang] }

// Person returns lang's person with slug, or ErrNotFound.
func (t *Team) Person(lang, slug string) (*Person, error) {
	for _, p := range t.byLang[lang] {
		if p.Slug == slug {
			return p, nil
		}
	}
	return nil, ErrNotFound
}

// ByName returns lang's person called name, as a post names its author.
func (t *Team) ByName(lang, name string) (*Person, bool) {
	for _, p := range t.byLang[lang] {
		if p.Name == name {
			return p, true
		}
	}
	return nil, false
}

// CheckAuthors reports every post whose author has no page in the post's
// language, naming the post's file.
func (t *Team) CheckAuthors(posts *blog.Library) error {
	var errs []error
	for _, lang := range posts.Languages() {
		for _, post := range posts.Posts(lang) {
			if _, ok := t.ByName(lang, post.Author); !ok {
				errs = append(errs, &content.Error{File: post.File, Field: "author",
					Err: fmt.Errorf("%q has no page under team/%s/", post.Author, lang)})
			}
		}
	}
	return errors.Join(errs...)
}
