package handlers

import (
	"encoding/json"
	"encoding/xml"
	"html"
	"net/http"
	"strings"
	"testing"

	"github.com/northbeam/site/internal/sitetest"
)

// TestCaseStudiesInEveryLanguage renders the list and every case study in
// every language and checks what a crawler and a visitor get: the page, its
// head tags, its JSON-LD, hreflang to its translations, and its place in
// the sitemap.
func TestCaseStudiesInEveryLanguage(t *testing.T) {
	h := testHandler(t)
	s := sitetest.Site(t)
	var sitemap struct {
		URLs []struct {
			Loc   string `xml:"loc"`
			Links []struct {
				Hreflang string `xml:"hreflang,attr"`
			} `xml:"link"`
		} `xml:"url"`
	}
	if err := xml.Unmarshal(sitetest.Get(t, h, "/sitemap.xml").Body.Bytes(), &sitemap); err != nil {
		t.Fatal(err)
	}
	inSitemap := map[string]int{}
	for _, u := range sitemap.URLs {
		inSitemap[u.Loc] = len(u.Links)
	}
	for _, lang := range s.Info.Languages {
		studies := s.Work().Studies(lang.Code)
		if len(studies) < 3 {
			t.Fatalf("%s: %d case studies", lang.Code, len(studies))
		}
		list := markup(sitetest.Get(t, h, lang.LocalPath("/work")).Body.String())
		for _, st := range studies {
			path := lang.LocalPath("/work/" + st.Slug)
			if !strings.Contains(list, `href="`+path+`"`) || !strings.Contains(list, st.Title) || !strings.Contains(list, st.Quote.Text) {
				t.Errorf("%s does not list %s with its title and quote", lang.LocalPath("/work"), path)
			}
			rec := sitetest.Get(t, h, path)
			if rec.Code != http.StatusOK {
				t.Errorf("%s: status %d", path, rec.Code)
				continue
			}
			body := rec.Body.String()
			text := markup(body)
			assertCompleteRender(t, s, lang.Code, body)
			if m := htmlTag.FindStringSubmatch(body); m == nil || m[1] != lang.Tag || m[2] != lang.Dir {
				t.Errorf("%s: html tag %v", path, m)
			}
			if c := canonicalTag.FindStringSubmatch(body); c == nil || c[1] != "https://example.test"+path {
				t.Errorf("%s: canonical %v", path, c)
			}
			for _, want := range []string{st.Title, st.Client, st.Sector, st.Size, st.Duration, st.Results[0].Value, st.Quote.Text, `<meta property="og:type" content="article">`} {
				if !strings.Contains(text, want) {
					t.Errorf("%s does not show %q", path, want)
				}
			}
			if n := len(hreflangTags.FindAllStringSubmatch(body, -1)); n != len(s.Info.Languages)+1 {
				t.Errorf("%s: %d hreflang links, want every language and x-default", path, n)
			}
			var article map[string]any
			for _, ld := range structuredData(t, body) {
				if ld["@type"] == "Article" {
					article = ld
				}
			}
			if article == nil || article["headline"] != st.Title || article["inLanguage"] != lang.Tag || article["url"] != "https://example.test"+path || article["datePublished"] == nil {
				raw, _ := json.Marshal(article)
				t.Errorf("%s: Article JSON-LD %s", path, raw)
			}
			if n, ok := inSitemap["https://example.test"+path]; !ok || n != len(s.Info.Languages)+1 {
				t.Errorf("%s: in the sitemap %v with %d alternates", path, ok, n)
			}
		}
		if rec := sitetest.Get(t, h, lang.LocalPath("/work/no-such-study")); rec.Code != http.StatusNotFound {
			t.Errorf("an unknown case study answers %d", rec.Code)
		}
	}
}

// TestHomeLeadsToTheWork: the hero's "View Our Work" leads to the case
// studies in every language, and the home page shows the selected work and
// the clients' words before the contact form.
func TestHomeLeadsToTheWork(t *testing.T) {
	h := testHandler(t)
	s := sitetest.Site(t)
	for _, lang := range s.Info.Languages {
		body := markup(sitetest.Get(t, h, lang.LocalPath("/")).Body.String())
		hero := `href="` + lang.LocalPath("/work") + `" data-discover="true">` + s.Locales.T(lang.Code, "home.hero.work") + `</a>`
		if !strings.Contains(body, hero) {
			t.Errorf("%s: no hero link %s", lang.LocalPath("/"), hero)
		}
		work := strings.Index(body, s.Locales.T(lang.Code, "home.work.title"))
		voices := strings.Index(body, s.Locales.T(lang.Code, "work.voices"))
		contact := strings.Index(body, `id="contact"`)
		if work < 0 || voices < 0 || !(work < voices && voices < contact) {
			t.Errorf("%s: selected work at %d, testimonials at %d, contact at %d", lang.LocalPath("/"), work, voices, contact)
		}
		for _, st := range s.Work().Studies(lang.Code) {
			if !strings.Contains(body, st.Title) || !strings.Contains(body, st.Quote.Text) {
				t.Errorf("%s: no %q or its quote", lang.LocalPath("/"), st.Title)
			}
		}
	}
}

// markup returns a document's HTML, entities decoded, without the payload
// the client hydrates from: what the server rendered, not what it sent along.
func markup(doc string) string {
	if i := strings.Index(doc, `<script type="application/json" id="page-data">`); i >= 0 {
		doc = doc[:i]
	}
	return html.UnescapeString(doc)
}
