package handlers

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/northbeam/site/internal/assets"
	"github.com/northbeam/site/internal/sitebuild"
	"github.com/northbeam/site/internal/sitetest"
)

// TestPageTableHoldsEveryRoute holds the server's routes to the client's
// page table, which a client navigation reads to load the next page's
// chunk and strings while its payload loads. For every page the site
// serves, in every language, the table's own lookup must name the page
// the server renders there (else the visitor waits for the wrong chunk
// first, or the page's name is one the client does not know); and each
// pattern of the table must hold a page the site serves (else the table
// declares a page that does not exist).
func TestPageTableHoldsEveryRoute(t *testing.T) {
	cfg, err := assets.LoadConfig(filepath.Join(sitetest.Root(), "esbuild.config.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	table, err := cfg.PageTable(sitetest.Root())
	if err != nil {
		t.Fatal(err)
	}
	held := map[assets.Route]bool{}
	for _, p := range servedPages(t) {
		r, err := table.Route(p.rest)
		if err != nil {
			t.Fatal(err)
		}
		if r.Page != p.component {
			t.Errorf("%s shows %s, but the page table holds it in %s (%q)", p.path, p.component, r.Page, r.Pattern)
		}
		held[r] = true
	}
	for _, name := range table.Names {
		for _, pattern := range table.Pages[name].Paths {
			if !held[assets.Route{Page: name, Pattern: pattern}] {
				t.Errorf("the page table's %s holds %q, where the site serves no page", name, pattern)
			}
		}
	}
}

// servedPage is a page the site serves: its path, the path without the
// language prefix, and the page component the server renders there.
type servedPage struct {
	path, rest, component string
}

// servedPages lists every page the site serves, as the server's own
// route table makes them: the pages rendered at start (the static routes,
// the blog's lists, tags and posts, the case studies and the people) of
// the shipped site in every language and of the fixture blog (whose
// lists have a second page), and the not-found page.
func servedPages(t *testing.T) []servedPage {
	var pages []servedPage
	for _, s := range []*sitebuild.Build{sitetest.Site(t), fixtureSite(t, false)} {
		add := func(path, component string) {
			_, rest := s.Info.SplitPath(path)
			pages = append(pages, servedPage{path: path, rest: rest, component: component})
		}
		for _, p := range s.Pages() {
			add(p.Path, p.Component)
		}
		for _, lang := range s.Info.Languages {
			var notFound struct {
				Page string `json:"page"`
			}
			if err := json.Unmarshal(s.NotFoundPayload(lang.Code).Bytes(), &notFound); err != nil {
				t.Fatal(err)
			}
			add(lang.LocalPath("/404"), notFound.Page)
		}
	}
	return pages
}
