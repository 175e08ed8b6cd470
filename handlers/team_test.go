package handlers

import (
	"html"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/northbeam/site/internal/sitebuild"
	"github.com/northbeam/site/internal/sitetest"
)

// TestTeamInEveryLanguage: the team page introduces everyone, each person
// has a page with their posts and a ProfilePage in JSON-LD, and a post's
// author links to that page, in the markup and in BlogPosting's author.
func TestTeamInEveryLanguage(t *testing.T) {
	h := testHandler(t)
	s := sitetest.Site(t)
	for _, lang := range s.Info.Languages {
		people := s.Team().People(lang.Code)
		if len(people) < 4 {
			t.Fatalf("%s: %d people", lang.Code, len(people))
		}
		list := markup(sitetest.Get(t, h, lang.LocalPath("/team")).Body.String())
		for _, p := range people {
			path := lang.LocalPath("/team/" + p.Slug)
			if !strings.Contains(list, `href="`+path+`"`) || !strings.Contains(list, p.Role) {
				t.Errorf("%s does not introduce %s", lang.LocalPath("/team"), p.Name)
			}
			// Each field a tag of its own: in Arabic, a list joined into one
			// line would carry its separators along with a Latin run.
			for _, e := range p.Expertise {
				if !strings.Contains(list, "<li>"+html.EscapeString(e)+"</li>") {
					t.Errorf("%s: %s's expertise %q is not an item of its own", lang.LocalPath("/team"), p.Name, e)
				}
			}
			rec := sitetest.Get(t, h, path)
			if rec.Code != http.StatusOK {
				t.Errorf("%s: status %d", path, rec.Code)
				continue
			}
			body := rec.Body.String()
			assertCompleteRender(t, s, lang.Code, body)
			if c := canonicalTag.FindStringSubmatch(body); c == nil || c[1] != "https://example.test"+path {
				t.Errorf("%s: canonical %v", path, c)
			}
			var profile map[string]any
			for _, ld := range structuredData(t, body) {
				if ld["@type"] == "ProfilePage" {
					profile = ld
				}
			}
			person, _ := profile["mainEntity"].(map[string]any)
			if person == nil || person["name"] != p.Name || person["jobTitle"] != p.Role || person["url"] != "https://example.test"+path {
				t.Errorf("%s: ProfilePage %v", path, profile)
			}
		}
		for _, post := range s.Blog().Posts(lang.Code) {
			author, _ := s.Team().ByName(lang.Code, post.Author)
			want := lang.LocalPath("/team/" + author.Slug)
			postURL := lang.LocalPath("/blog/" + post.Slug)
			body := sitetest.Get(t, h, postURL).Body.String()
			if !regexp.MustCompile(`<a [^>]*href="` + regexp.QuoteMeta(want) + `"[^>]*rel="author"|<a [^>]*rel="author"[^>]*href="` + regexp.QuoteMeta(want) + `"`).MatchString(markup(body)) {
				t.Errorf("%s: the author's name does not link to %s", postURL, want)
			}
			for _, ld := range structuredData(t, body) {
				if ld["@type"] != "BlogPosting" {
					continue
				}
				if a, _ := ld["author"].(map[string]any); a["url"] != "https://example.test"+want || a["name"] != post.Author {
					t.Errorf("%s: BlogPosting author %v, want a Person at %s", postURL, a, want)
				}
			}
			if page := markup(sitetest.Get(t, h, want).Body.String()); !strings.Contains(page, `href="`+postURL+`"`) {
				t.Errorf("%s does not list the post %s", want, postURL)
			}
		}
	}
}

// TestAnAuthorWithoutAPageStopsTheStart: a post signed by someone who is
// not on the team names its file, and the site does not start.
func TestAnAuthorWithoutAPageStopsTheStart(t *testing.T) {
	posts := fixturePosts()
	posts["en/guest.md"] = "---\ntitle: Guest\ndescription: A guest post.\npublished: 2026-03-20\nauthor: Nobody Here\ntranslationKey: guest\n---\n\nText.\n"
	_, err := sitetest.Rebuild(t, fixtureContent(t, posts), sitebuild.Options{BaseURL: "https://example.test"})
	if err == nil || !strings.Contains(err.Error(), `blog/en/guest.md: author: "Nobody Here" has no page under team/en/`) {
		t.Errorf("error %v, want one naming blog/en/guest.md and its author", err)
	}
}
