package handlers

import (
	"encoding/xml"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/northbeam/site/internal/sitebuild"
	"github.com/northbeam/site/internal/sitetest"
)

var (
	hreflangLink  = regexp.MustCompile(`<link rel="alternate" hreflang="([^"]+)" href="([^"]+)">`)
	canonicalLink = regexp.MustCompile(`<link rel="canonical"`)
)

type sitemapEntry struct {
	Loc   string `xml:"loc"`
	Links []struct {
		Hreflang string `xml:"hreflang,attr"`
		Href     string `xml:"href,attr"`
	} `xml:"link"`
}

func readSitemap(t *testing.T, h http.Handler) []sitemapEntry {
	t.Helper()
	var set struct {
		URLs []sitemapEntry `xml:"url"`
	}
	if err := xml.Unmarshal(sitetest.Get(t, h, "/sitemap.xml").Body.Bytes(), &set); err != nil {
		t.Fatal(err)
	}
	if len(set.URLs) == 0 {
		t.Fatal("the sitemap lists no page")
	}
	return set.URLs
}

// TestSitemapAgreesWithPages holds, for every page of the sitemap, the
// language versions its HTML lists to those the sitemap lists for it: a
// crawler reading either finds the same set, x-default included, also for
// the tag pages that exist in one language only.
func TestSitemapAgreesWithPages(t *testing.T) {
	h := testHandler(t)
	s := sitetest.Site(t)
	single := 0
	for _, u := range readSitemap(t, h) {
		path := strings.TrimPrefix(u.Loc, sitetest.BaseURL)
		rec := sitetest.Get(t, h, path)
		if rec.Code != http.StatusOK {
			t.Errorf("%s in the sitemap answers %d", path, rec.Code)
			continue
		}
		var inPage, inSitemap []string
		for _, m := range hreflangLink.FindAllStringSubmatch(rec.Body.String(), -1) {
			inPage = append(inPage, m[1]+" "+m[2])
		}
		for _, l := range u.Links {
			inSitemap = append(inSitemap, l.Hreflang+" "+l.Href)
		}
		slices.Sort(inPage)
		slices.Sort(inSitemap)
		if !slices.Equal(inPage, inSitemap) {
			t.Errorf("%s: the page lists\n  %v\nthe sitemap\n  %v", path, inPage, inSitemap)
		}
		defaults := 0
		for _, l := range u.Links {
			if l.Hreflang == "x-default" {
				defaults++
			}
		}
		if defaults != 1 {
			t.Errorf("%s has %d x-default links in the sitemap, want 1", path, defaults)
		}
		if len(u.Links) == 2 {
			single++
		}
	}
	// The shipped content has tags used in one language only: the case
	// above must have been seen.
	if single == 0 {
		t.Error("no page of the sitemap exists in one language only; the test saw none of those pages")
	}
	// A page of every language is in the sitemap with x-default.
	for _, lang := range s.Info.Languages {
		if !strings.Contains(sitetest.Get(t, h, lang.LocalPath("/blog")).Body.String(), `hreflang="x-default"`) {
			t.Errorf("%s has no x-default", lang.LocalPath("/blog"))
		}
	}
}

// TestRobotsKeepsOneVisitorPagesOut checks that robots.txt keeps every page
// meant for one visitor (cancelling, moving a booking) from crawlers in
// every language, and no page of the sitemap.
func TestRobotsKeepsOneVisitorPagesOut(t *testing.T) {
	h := testHandler(t)
	s := sitetest.Site(t)
	var disallowed []string
	for line := range strings.SplitSeq(sitetest.Get(t, h, "/robots.txt").Body.String(), "\n") {
		if rest, ok := strings.CutPrefix(line, "Disallow: "); ok {
			disallowed = append(disallowed, rest)
		}
	}
	blocked := func(path string) bool {
		return slices.ContainsFunc(disallowed, func(prefix string) bool { return strings.HasPrefix(path, prefix) })
	}
	checked := 0
	for _, r := range sitebuild.StaticRoutes() {
		if !r.NoIndex {
			continue
		}
		for _, lang := range s.Info.Languages {
			checked++
			if path := lang.LocalPath(r.Path); !blocked(path) {
				t.Errorf("robots.txt lets crawlers into %s", path)
			}
		}
	}
	if checked == 0 {
		t.Fatal("no static route is kept from search engines")
	}
	for _, u := range readSitemap(t, h) {
		if path := strings.TrimPrefix(u.Loc, sitetest.BaseURL); blocked(path) {
			t.Errorf("robots.txt keeps crawlers from %s, a page of the sitemap", path)
		}
	}
}

// TestErrorPagesHaveNoCanonical checks that the not-found page, in every
// language, points crawlers to no canonical address (its path is no page).
func TestErrorPagesHaveNoCanonical(t *testing.T) {
	h := testHandler(t)
	s := sitetest.Site(t)
	for _, lang := range s.Info.Languages {
		for _, path := range []string{lang.LocalPath("/no-such-page"), lang.LocalPath("/blog/no-such-post"), lang.LocalPath("/404")} {
			rec := sitetest.Get(t, h, path)
			if rec.Code != http.StatusNotFound {
				t.Fatalf("%s: %d", path, rec.Code)
			}
			body := rec.Body.String()
			if canonicalLink.MatchString(body) || strings.Contains(body, `property="og:url"`) || strings.Contains(body, `hreflang=`) {
				t.Errorf("%s: an error page names a canonical address or alternates:\n%s", path, head(body))
			}
		}
	}
}

func head(body string) string {
	if i := strings.Index(body, "</head>"); i > 0 {
		return body[:i]
	}
	return body
}

// TestStructuredDataAcrossLanguages checks what the JSON-LD of every
// language says about dates, the site and the consultancy.
func TestStructuredDataAcrossLanguages(t *testing.T) {
	h := testHandler(t)
	s := sitetest.Site(t)
	orgs := map[string]bool{}
	websites := map[string]bool{}
	note := func(where string, n map[string]any) {
		if n["@type"] == "Organization" || n["@type"] == "ProfessionalService" {
			if n["@id"] == nil || n["url"] == nil {
				t.Errorf("%s: the organisation lacks @id or url: %v", where, n)
			}
			orgs[fmt.Sprint(n["@id"], " ", n["url"])] = true
		}
	}
	dated := func(where string, n map[string]any) {
		for _, prop := range []string{"datePublished", "dateModified"} {
			v, _ := n[prop].(string)
			if _, err := time.Parse(time.RFC3339, v); err != nil {
				t.Errorf("%s: %s %q has no time and zone", where, prop, v)
			}
		}
	}
	for _, lang := range s.Info.Languages {
		home := structuredData(t, sitetest.Get(t, h, lang.LocalPath("/")).Body.String())
		sawSite := false
		for _, n := range home[0]["@graph"].([]any) {
			node := n.(map[string]any)
			note(lang.LocalPath("/"), node)
			if node["@type"] == "WebSite" {
				sawSite = true
				websites[fmt.Sprint(node["@id"], " ", node["url"])] = true
			}
		}
		if !sawSite {
			t.Errorf("%s: no WebSite in the structured data", lang.LocalPath("/"))
		}
		var paths []string
		if posts := s.Blog().Posts(lang.Code); len(posts) > 0 {
			paths = append(paths, lang.LocalPath("/blog/"+posts[0].Slug))
		}
		studies := s.Work().Studies(lang.Code)
		for _, st := range studies {
			paths = append(paths, lang.LocalPath("/work/"+st.Slug))
		}
		for _, path := range paths {
			for _, n := range structuredData(t, sitetest.Get(t, h, path).Body.String()) {
				if n["@type"] != "BlogPosting" && n["@type"] != "Article" {
					continue
				}
				dated(path, n)
				for _, role := range []string{"publisher", "author"} {
					if ref, ok := n[role].(map[string]any); ok && ref["@type"] == "Organization" {
						note(path+" "+role, ref)
					}
				}
				// The case study's client, in the language's own punctuation.
				if about, ok := n["about"].(map[string]any); ok {
					sep := s.Locales.T(lang.Code, "work.separator")
					desc, _ := about["description"].(string)
					if !strings.Contains(desc, sep) || (sep != ", " && strings.Contains(desc, ", ")) {
						t.Errorf("%s: the client's description %q does not use the language's separator %q", path, desc, sep)
					}
				}
			}
		}
	}
	if len(orgs) != 1 {
		t.Errorf("the organisation has %d different @id/url pairs across pages and languages: %v", len(orgs), orgs)
	}
	if len(websites) != 1 {
		t.Errorf("the WebSite has %d different @id/url pairs across languages: %v", len(websites), websites)
	}
}
