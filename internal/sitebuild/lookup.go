package sitebuild

import (
	"context"
	"slices"

	"github.com/northbeam/site/internal/blog"
	"github.com/northbeam/site/internal/legal"
	"github.com/northbeam/site/internal/site"
	"github.com/northbeam/site/internal/team"
	"github.com/northbeam/site/internal/work"
	"github.com/northbeam/site/render"
)

// What a Build made, looked up by what a request names. Paths are decoded
// and canonical (see handlers): a blog tag's page is found under its
// decoded path as under the percent-encoded one the client routes on.

// Asset returns the client file named name under the assets' URL prefix.
func (s *Build) Asset(name string) (*render.Resource, bool) {
	a, ok := s.assets[name]
	if !ok {
		return nil, false
	}
	return a.resource(), true
}

// Feed returns the Atom feed at path (FeedPath), when its language has
// posts.
func (s *Build) Feed(path string) (*render.Resource, bool) {
	if s.feedsOnce.do(context.Background()) != nil {
		return nil, false
	}
	r, ok := s.feeds[path]
	return r, ok
}

// File returns the file at path among those FilePaths lists.
func (s *Build) File(path string) (*render.Resource, bool) {
	if slices.Contains(brandPaths, path) {
		if s.brandOnce.do(context.Background()) != nil {
			return nil, false
		}
		return s.brand[path], true
	}
	if s.filesOnce.do(context.Background()) != nil {
		return nil, false
	}
	r, ok := s.files[path]
	return r, ok
}

// FilePaths lists the paths of the files made beside the pages, known
// before any is made, as the routes are made from them when a start
// serves (the sitemaps of a thousand posts a language took a third of a
// second to make there): the sitemap or the index of its parts (the parts
// are under SitemapPartPrefix), robots.txt, the web app manifest, the
// icons and the default share image.
func (s *Build) FilePaths() []string {
	return slices.Sorted(slices.Values(append(slices.Clone(filePaths), brandPaths...)))
}

// filePaths are the paths of buildFiles, but for the sitemap's parts.
var filePaths = []string{"/manifest.webmanifest", "/robots.txt", "/sitemap.xml"}

// ShareImage returns the share image of a post, case study or person at
// path (/og/<hash>.png), drawing it on its first request. It is nil when
// path holds none.
func (s *Build) ShareImage(path string) (*render.Resource, error) {
	s.planShareImages()
	im, ok := s.shareImages[path]
	if !ok {
		return nil, nil
	}
	return im.resource()
}

// ContentImage returns what is served at path under /img/: a picture of
// content/img/ at its stable or hashed address, or one of its WebP copies
// (encoded now when it has not been yet). It is nil when path holds none.
func (s *Build) ContentImage(path string) (*render.Resource, error) {
	return s.images.resource(path)
}

// Options returns the options the site was built with.
func (s *Build) Options() Options { return s.opts }

// Blog returns the posts the site was built from.
func (s *Build) Blog() *blog.Library { return s.blog }

// Work returns the case studies the site was built from.
func (s *Build) Work() *work.Library { return s.work }

// Team returns the people the site was built from.
func (s *Build) Team() *team.Team { return s.team }

// Legal returns the legal text name ("privacy", "cookies", "imprint") in
// the language with code lang.
func (s *Build) Legal(lang, name string) (legal.Doc, bool) {
	doc, ok := s.legal[lang][name]
	return doc, ok
}

// Prerendered is one page the build rendered, as the build lists it.
type Prerendered struct {
	Path      string // canonical, with the language prefix
	Lang      site.Language
	Component string // the React page
	Status    int
	NoIndex   bool // kept out of search engines and the sitemap
}

// Pages lists every prerendered page, in no particular order.
func (s *Build) Pages() []Prerendered {
	out := make([]Prerendered, 0, len(s.index))
	for _, p := range s.index {
		out = append(out, Prerendered{Path: p.path, Lang: p.lang, Component: p.component, Status: p.status, NoIndex: p.noIndex})
	}
	return out
}
