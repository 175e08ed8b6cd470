package handlers

import (
	"html"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/northbeam/site/internal/sitebuild"
	"github.com/northbeam/site/internal/sitetest"
)

var (
	htmlTag      = regexp.MustCompile(`<html lang="([^"]+)" dir="([^"]+)">`)
	titleTag     = regexp.MustCompile(`<title>([^<]*)</title>`)
	hreflangTags = regexp.MustCompile(`<link rel="alternate" hreflang="([^"]+)" href="([^"]+)">`)
	canonicalTag = regexp.MustCompile(`<link rel="canonical" href="([^"]+)">`)
	expectTag    = regexp.MustCompile(`<link rel="expect" href="#([^"]+)" blocking="render">`)
)

// TestEveryRouteInEveryLanguage renders each route (docs/ARCHITECTURE.md, HTTP surface) in
// every language of content/site.json and checks what a crawler and a visitor get.
func TestEveryRouteInEveryLanguage(t *testing.T) {
	h := testHandler(t)
	s := sitetest.Site(t)
	for _, lang := range s.Info.Languages {
		titles := map[string]string{} // unique within a language
		for _, r := range sitebuild.StaticRoutes() {
			path := lang.LocalPath(r.Path)
			t.Run(path, func(t *testing.T) {
				rec := sitetest.Get(t, h, path)
				if rec.Code != http.StatusOK {
					t.Fatalf("status %d", rec.Code)
				}
				body := rec.Body.String()
				m := htmlTag.FindStringSubmatch(body)
				if m == nil || m[1] != lang.Tag || m[2] != lang.Dir {
					t.Errorf("html tag %v, want lang=%s dir=%s", m, lang.Tag, lang.Dir)
				}
				title := titleTag.FindStringSubmatch(body)
				if title == nil || title[1] == "" {
					t.Fatal("no title")
				}
				if other, dup := titles[title[1]]; dup {
					t.Errorf("title %q is also the title of %s", title[1], other)
				}
				titles[title[1]] = path
				if c := canonicalTag.FindStringSubmatch(body); c == nil || c[1] != "https://example.test"+path {
					t.Errorf("canonical %v, want https://example.test%s", c, path)
				}
				alternates := map[string]string{}
				for _, a := range hreflangTags.FindAllStringSubmatch(body, -1) {
					alternates[a[1]] = a[2]
				}
				for _, l := range s.Info.Languages {
					if alternates[l.Tag] != "https://example.test"+l.LocalPath(r.Path) {
						t.Errorf("hreflang %s = %q", l.Tag, alternates[l.Tag])
					}
				}
				if alternates["x-default"] != "https://example.test"+r.Path {
					t.Errorf("x-default = %q", alternates["x-default"])
				}
				assertCompleteRender(t, s, lang.Code, body)
				if !strings.Contains(body, `<main id="main"`) {
					t.Error("no main landmark")
				}
				assertPaintWaitsForMain(t, body)
			})
		}
	}
}

// assertPaintWaitsForMain fails unless the element the document's first
// paint waits for (link rel=expect) is in the page, after the whole main
// content: Chromium paints once that element is in the document, so an
// element in or before <main> would let half of it paint, and one that is
// missing would hold the paint until the whole document is parsed.
func assertPaintWaitsForMain(t *testing.T, body string) {
	t.Helper()
	m := expectTag.FindStringSubmatch(body)
	if m == nil {
		t.Error("the first paint waits for no element")
		return
	}
	at, end := strings.Index(body, ` id="`+m[1]+`"`), strings.Index(body, "</main>")
	if at < 0 || end < 0 || at < end {
		t.Errorf("the first paint waits for #%s, at %d in the page; the main content ends at %d", m[1], at, end)
	}
}

// assertCompleteRender fails when the server emitted a Suspense fallback
// instead of the page.
func assertCompleteRender(t *testing.T, s *sitebuild.Build, lang, body string) {
	t.Helper()
	if strings.Contains(body, "<!--$!-->") {
		t.Error("server output holds a fallen-back Suspense boundary <!--$!-->")
	}
	if loading := s.Locales.T(lang, "loading"); strings.Contains(body, ">"+loading+"<") {
		t.Errorf("server output shows the placeholder %q", loading)
	}
}

func TestUnknownPathsAreLocalized404s(t *testing.T) {
	h := testHandler(t)
	s := sitetest.Site(t)
	for _, lang := range s.Info.Languages {
		path := lang.LocalPath("/no/such/page")
		rec := sitetest.Get(t, h, path)
		if rec.Code != http.StatusNotFound {
			t.Errorf("%s: status %d, want 404", path, rec.Code)
		}
		body := rec.Body.String()
		if m := htmlTag.FindStringSubmatch(body); m == nil || m[1] != lang.Tag || m[2] != lang.Dir {
			t.Errorf("%s: html tag %v", path, m)
		}
		if want := s.Locales.T(lang.Code, "notFound.title"); !strings.Contains(html.UnescapeString(body), want) {
			t.Errorf("%s: the page does not say %q", path, want)
		}
		if strings.Contains(body, `hreflang=`) {
			t.Errorf("%s: a 404 page must not declare alternates", path)
		}
		assertCompleteRender(t, s, lang.Code, body)
		assertPaintWaitsForMain(t, body)
	}
}

func TestOneCanonicalFormPerURL(t *testing.T) {
	h := testHandler(t)
	def := sitetest.Default(t)
	tests := []struct{ from, to string }{
		{"/blog/", "/blog"},
		{"/" + def.Code, "/"},
		{"/" + def.Code + "/schedule", "/schedule"},
	}
	for _, l := range sitetest.Languages(t) {
		if l.Prefix != "" {
			tests = append(tests, struct{ from, to string }{l.Prefix + "/", l.Prefix},
				struct{ from, to string }{l.Prefix + "/privacy/", l.Prefix + "/privacy"},
				struct{ from, to string }{l.Prefix + "/services/?x=1", l.Prefix + "/services?x=1"})
		}
	}
	for _, tc := range tests {
		rec := sitetest.Get(t, h, tc.from)
		if rec.Code != http.StatusMovedPermanently || rec.Header().Get("Location") != tc.to {
			t.Errorf("%s: %d to %q, want 301 to %q", tc.from, rec.Code, rec.Header().Get("Location"), tc.to)
		}
	}
}

func TestPagesAreCachedWithETags(t *testing.T) {
	h := testHandler(t)
	schedule := sitetest.Other(t).LocalPath("/schedule")
	first := sitetest.Get(t, h, schedule, "Accept-Encoding", "gzip, br")
	etag := first.Header().Get("ETag")
	if etag == "" || first.Header().Get("Content-Encoding") != "br" {
		t.Fatalf("ETag %q, encoding %q", etag, first.Header().Get("Content-Encoding"))
	}
	if cc := first.Header().Get("Cache-Control"); cc != "no-cache" {
		t.Errorf("pages are revalidated: Cache-Control %q", cc)
	}
	again := sitetest.Get(t, h, schedule, "Accept-Encoding", "gzip, br", "If-None-Match", etag)
	if again.Code != http.StatusNotModified || again.Body.Len() != 0 {
		t.Errorf("matching If-None-Match: status %d, %d bytes", again.Code, again.Body.Len())
	}
	if stale := sitetest.Get(t, h, schedule, "If-None-Match", `"stale"`); stale.Code != http.StatusOK {
		t.Errorf("stale ETag: status %d", stale.Code)
	}
	if gz := sitetest.Get(t, h, schedule, "Accept-Encoding", "gzip"); gz.Header().Get("Content-Encoding") != "gzip" {
		t.Errorf("gzip only: encoding %q", gz.Header().Get("Content-Encoding"))
	}
	if plain := sitetest.Get(t, h, schedule); plain.Header().Get("Content-Encoding") != "" || !strings.Contains(plain.Body.String(), "<html") {
		t.Error("no Accept-Encoding: the body must be plain HTML")
	}
}

func TestAssetsAreImmutable(t *testing.T) {
	h := testHandler(t)
	s := sitetest.Site(t)
	rec := sitetest.Get(t, h, s.Bundle.Manifest.Entry, "Accept-Encoding", "br")
	if rec.Code != http.StatusOK {
		t.Fatalf("entry: %d", rec.Code)
	}
	if cc := rec.Header().Get("Cache-Control"); cc != "public, max-age=31536000, immutable" {
		t.Errorf("Cache-Control %q", cc)
	}
	if ct := rec.Header().Get("Content-Type"); !strings.HasPrefix(ct, "text/javascript") && !strings.HasPrefix(ct, "application/javascript") {
		t.Errorf("Content-Type %q", ct)
	}
	if !regexp.MustCompile(`-[A-Z0-9]{8}\.js$`).MatchString(s.Bundle.Manifest.Entry) {
		t.Errorf("entry %q has no content hash", s.Bundle.Manifest.Entry)
	}
	if rec := sitetest.Get(t, h, "/assets/nope.js"); rec.Code != http.StatusNotFound {
		t.Errorf("unknown asset: %d", rec.Code)
	}
}

func TestEachPagePreloadsItsOwnChunk(t *testing.T) {
	h := testHandler(t)
	s := sitetest.Site(t)
	// Each page type in another language, in turn.
	pages := map[string]string{}
	for i, pg := range []struct{ path, page string }{{"/", "Home"}, {"/privacy", "Legal"}, {"/schedule", "Schedule"}, {"/blog", "BlogList"}} {
		pages[s.Info.Languages[i%len(s.Info.Languages)].LocalPath(pg.path)] = pg.page
	}
	for path, page := range pages {
		body := sitetest.Get(t, h, path).Body.String()
		m := bootScript.FindStringSubmatch(body)
		if m == nil || m[1] != s.Bundle.Manifest.Boot || m[2] != s.Bundle.Manifest.Entry {
			t.Fatalf("%s: no boot script starting the entry: %v", path, m)
		}
		preloads := strings.Fields(m[3])
		if chunk := s.Bundle.Manifest.Pages[page][0]; !slices.Contains(preloads, chunk) {
			t.Errorf("%s does not preload %s: %v", path, chunk, preloads)
		}
		lang, _ := s.Info.SplitPath(path)
		groups := s.Bundle.Manifest.StringsOf(page, lang.Code)
		if len(groups) < 2 {
			t.Errorf("%s: strings %v, want the shell's and the page's", path, groups)
		}
		for _, u := range groups {
			if !slices.Contains(preloads, u) {
				t.Errorf("%s does not preload its strings %s: %v", path, u, preloads)
			}
		}
		// Only its own: the strings of another language or page are not preloaded.
		for _, other := range s.Bundle.Manifest.Strings {
			for group, u := range other {
				if strings.Contains(body, u) && !slices.Contains(groups, u) {
					t.Errorf("%s preloads the strings %s (%s) it does not show", path, u, group)
				}
			}
		}
	}
}

func TestPageAPIServesTheSamePayload(t *testing.T) {
	h := testHandler(t)
	langs := sitetest.Languages(t)
	first, last := sitetest.Other(t), langs[len(langs)-1]
	rec := sitetest.Get(t, h, "/api/page?path="+first.LocalPath("/cookies"))
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `"page":"Legal"`) || !strings.Contains(rec.Body.String(), `"lang":"`+first.Code+`"`) {
		t.Errorf("payload: %d %.200s", rec.Code, rec.Body.String())
	}
	rec = sitetest.Get(t, h, "/api/page?path="+last.LocalPath("/nothing-here"))
	if rec.Code != http.StatusNotFound || !strings.Contains(rec.Body.String(), `"page":"NotFound"`) || !strings.Contains(rec.Body.String(), `"lang":"`+last.Code+`"`) {
		t.Errorf("unknown path: %d %.200s", rec.Code, rec.Body.String())
	}
}
