package handlers

import (
	"encoding/json"
	"encoding/xml"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/northbeam/site/internal/sitebuild"
	"github.com/northbeam/site/internal/sitetest"
)

var (
	metaProperty = regexp.MustCompile(`<meta (?:property|name)="([^"]+)" content="([^"]*)"`)
	ldScripts    = regexp.MustCompile(`(?s)<script type="application/ld\+json">(.*?)</script>`)
)

// TestHeadTagsOnEveryPage checks what crawlers and link previews read on
// every page of every language.
func TestHeadTagsOnEveryPage(t *testing.T) {
	h := testHandler(t)
	s := sitetest.Site(t)
	descriptions := map[string]string{}
	for _, p := range s.Pages() {
		if p.Status != http.StatusOK || p.NoIndex {
			continue
		}
		body := sitetest.Get(t, h, p.Path).Body.String()
		meta := map[string]string{}
		for _, m := range metaProperty.FindAllStringSubmatch(body, -1) {
			meta[m[1]] = m[2]
		}
		for _, name := range []string{"description", "og:title", "og:description", "og:url", "og:image", "og:type", "og:locale", "twitter:card", "theme-color"} {
			if meta[name] == "" {
				t.Errorf("%s: no %s", p.Path, name)
			}
		}
		if meta["og:url"] != "https://example.test"+p.Path || !strings.HasPrefix(meta["og:image"], "https://example.test/") {
			t.Errorf("%s: og:url %q og:image %q", p.Path, meta["og:url"], meta["og:image"])
		}
		key := p.Lang.Code + " " + meta["description"]
		if other, dup := descriptions[key]; dup && !strings.HasPrefix(p.Path, p.Lang.LocalPath("/blog/")) {
			t.Errorf("%s has the description of %s", p.Path, other)
		}
		descriptions[key] = p.Path
		for _, want := range []string{`rel="icon" href="/favicon.svg"`, `rel="manifest" href="/manifest.webmanifest"`, `rel="apple-touch-icon"`} {
			if !strings.Contains(body, want) {
				t.Errorf("%s: no %s", p.Path, want)
			}
		}
	}
	if cancel := sitetest.Get(t, h, "/fr/schedule/cancel").Body.String(); !strings.Contains(cancel, `<meta name="robots" content="noindex">`) {
		t.Error("the cancel page must be kept out of search engines")
	}
}

func structuredData(t *testing.T, body string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, m := range ldScripts.FindAllStringSubmatch(body, -1) {
		var v map[string]any
		if err := json.Unmarshal([]byte(m[1]), &v); err != nil {
			t.Fatalf("JSON-LD does not parse: %v\n%s", err, m[1])
		}
		out = append(out, v)
	}
	return out
}

func TestStructuredData(t *testing.T) {
	h := testHandler(t)
	s := sitetest.Site(t)
	for _, lang := range s.Info.Languages {
		home := structuredData(t, sitetest.Get(t, h, lang.LocalPath("/")).Body.String())
		if len(home) != 1 || home[0]["@context"] != "https://schema.org" {
			t.Fatalf("%s home: %v", lang.Code, home)
		}
		graph := home[0]["@graph"].([]any)
		org := graph[0].(map[string]any)
		if org["@type"] != "ProfessionalService" || org["name"] != s.Info.Name || org["address"] == nil || org["url"] == nil {
			t.Errorf("%s organisation: %v", lang.Code, org)
		}
		services := 0
		for _, n := range graph[1:] {
			if svc := n.(map[string]any); svc["@type"] == "Service" && svc["name"] != "" && svc["provider"] != nil {
				services++
			}
		}
		if services != 3 {
			t.Errorf("%s: %d services in the structured data", lang.Code, services)
		}
		posts := s.Blog().Posts(lang.Code)
		if len(posts) == 0 {
			continue
		}
		path := lang.LocalPath("/blog/" + posts[0].Slug)
		ld := structuredData(t, sitetest.Get(t, h, path).Body.String())
		types := map[string]map[string]any{}
		for _, v := range ld {
			types[v["@type"].(string)] = v
		}
		post := types["BlogPosting"]
		for _, prop := range []string{"headline", "datePublished", "dateModified", "author", "publisher", "mainEntityOfPage", "image", "inLanguage"} {
			if post[prop] == nil || post[prop] == "" {
				t.Errorf("%s BlogPosting lacks %s", path, prop)
			}
		}
		crumbs, _ := types["BreadcrumbList"]["itemListElement"].([]any)
		if len(crumbs) != 3 {
			t.Errorf("%s BreadcrumbList: %v", path, types["BreadcrumbList"])
		}
	}
}

func TestSitemapAndRobots(t *testing.T) {
	h := testHandler(t)
	s := sitetest.Site(t)
	rec := sitetest.Get(t, h, "/sitemap.xml")
	if rec.Code != http.StatusOK || !strings.HasPrefix(rec.Header().Get("Content-Type"), "application/xml") {
		t.Fatalf("sitemap: %d %s", rec.Code, rec.Header().Get("Content-Type"))
	}
	var set struct {
		URLs []struct {
			Loc     string `xml:"loc"`
			LastMod string `xml:"lastmod"`
			Links   []struct {
				Hreflang string `xml:"hreflang,attr"`
				Href     string `xml:"href,attr"`
			} `xml:"link"`
		} `xml:"url"`
	}
	if err := xml.Unmarshal(rec.Body.Bytes(), &set); err != nil {
		t.Fatal(err)
	}
	locs := map[string]int{}
	for i, u := range set.URLs {
		locs[u.Loc] = i
	}
	for _, lang := range s.Info.Languages {
		for _, r := range sitebuild.StaticRoutes() {
			loc := "https://example.test" + lang.LocalPath(r.Path)
			i, ok := locs[loc]
			if r.NoIndex {
				if ok {
					t.Errorf("%s is in the sitemap", loc)
				}
				continue
			}
			if !ok {
				t.Errorf("%s is missing from the sitemap", loc)
				continue
			}
			if n := len(set.URLs[i].Links); n != len(s.Info.Languages)+1 {
				t.Errorf("%s has %d alternates, want every language and x-default", loc, n)
			}
		}
		for _, post := range s.Blog().Posts(lang.Code) {
			loc := "https://example.test" + lang.LocalPath("/blog/"+post.Slug)
			i, ok := locs[loc]
			if !ok || set.URLs[i].LastMod != post.LastModified().Format("2006-01-02") {
				t.Errorf("%s: in sitemap %v, lastmod %q", loc, ok, set.URLs[i].LastMod)
			}
		}
	}
	robots := sitetest.Get(t, h, "/robots.txt").Body.String()
	if !strings.Contains(robots, "Sitemap: https://example.test/sitemap.xml") || !strings.Contains(robots, "Disallow: /api/") {
		t.Errorf("robots.txt:\n%s", robots)
	}
	for path, ctype := range map[string]string{"/manifest.webmanifest": "application/manifest+json", "/favicon.svg": "image/svg+xml", "/og.png": "image/png", "/icon-192.png": "image/png", "/apple-touch-icon.png": "image/png"} {
		if rec := sitetest.Get(t, h, path); rec.Code != http.StatusOK || rec.Header().Get("Content-Type") != ctype {
			t.Errorf("%s: %d %s", path, rec.Code, rec.Header().Get("Content-Type"))
		}
	}
}

// TestFilePathsAreTheFilesMade: the routes of the files beside the pages
// are made from paths known before the files (sitebuild.FilePaths, so
// that a start does not make its sitemaps before it serves): each is a
// file once they are made.
func TestFilePathsAreTheFilesMade(t *testing.T) {
	s := sitetest.Site(t)
	paths := s.FilePaths()
	if !slices.Contains(paths, "/sitemap.xml") || !slices.Contains(paths, "/robots.txt") {
		t.Fatalf("FilePaths: %q", paths)
	}
	for _, p := range paths {
		if r, ok := s.File(p); !ok || r == nil {
			t.Errorf("%s is listed but no file is made there", p)
		}
	}
}
