package handlers

import (
	"path/filepath"
	"testing"

	"github.com/northbeam/site/internal/assets"
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
	cfg, err := assets.LoadConfig(filepath.Join(projectRoot, "esbuild.config.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	table, err := cfg.PageTable(projectRoot)
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
	for _, s := range []*Site{testSite(t), fixtureSite(t, false)} {
		add := func(p page) {
			_, rest := s.Info.SplitPath(p.path)
			pages = append(pages, servedPage{path: p.path, rest: rest, component: p.component})
		}
		for _, p := range s.index {
			add(p)
		}
		for _, lang := range s.Info.Languages {
			add(s.notFoundPage(lang, lang.LocalPath("/404")))
		}
	}
	return pages
}
