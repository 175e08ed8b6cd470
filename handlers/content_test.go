package handlers

import (
	"html"
	"regexp"
	"strings"
	"testing"

	"github.com/northbeam/site/internal/sitetest"
)

// TestHomeSectionsInOrder checks the home page's sections, in the order of
// the issue, in every language, and where its calls to action lead.
func TestHomeSectionsInOrder(t *testing.T) {
	h := testHandler(t)
	s := sitetest.Site(t)
	sectionOrder := []string{`class="hero"`, `class="stats"`, `id="services"`, `class="work"`, `class="why"`, `class="testimonials"`, `id="contact"`}
	for _, lang := range s.Info.Languages {
		for _, path := range []string{"/", "/services", "/services/strategic-consulting"} {
			body := sitetest.Get(t, h, lang.LocalPath(path)).Body.String()
			last := -1
			for _, marker := range sectionOrder {
				i := strings.Index(body, marker)
				if i < 0 || i < last {
					t.Errorf("%s: section %s missing or out of order", lang.LocalPath(path), marker)
				}
				last = i
			}
			text := html.UnescapeString(body)
			for _, key := range []string{"home.hero.start", "home.hero.work", "home.stats.satisfaction", "home.why.title", "home.contact.title",
				"services.customSoftware.title", "services.platformEngineering.title", "services.strategicConsulting.title"} {
				if !strings.Contains(text, s.Locales.T(lang.Code, key)) {
					t.Errorf("%s: %q (%s) is not on the page", lang.LocalPath(path), s.Locales.T(lang.Code, key), key)
				}
			}
			// The hero's calls to action: Start Your Project to the contact
			// section, View Our Work to the case studies (issue 17).
			start := regexp.MustCompile(`<a class="button button-primary" href="([^"]+)">` + regexp.QuoteMeta(html.EscapeString(s.Locales.T(lang.Code, "home.hero.start"))))
			work := regexp.MustCompile(`<a class="button button-secondary" href="([^"]+)" data-discover="true">` + regexp.QuoteMeta(html.EscapeString(s.Locales.T(lang.Code, "home.hero.work"))))
			if m := start.FindStringSubmatch(body); m == nil || m[1] != "#contact" {
				t.Errorf("%s: Start Your Project leads to %v", lang.LocalPath(path), m)
			}
			if m := work.FindStringSubmatch(body); m == nil || m[1] != lang.LocalPath("/work") {
				t.Errorf("%s: View Our Work leads to %v", lang.LocalPath(path), m)
			}
			for _, svc := range []string{"custom-software", "platform-engineering", "strategic-consulting"} {
				if !strings.Contains(body, `href="`+lang.LocalPath("/services/"+svc)+`"`) {
					t.Errorf("%s: no link to the %s service", lang.LocalPath(path), svc)
				}
			}
			for _, fact := range []string{s.Info.Email, "mailto:" + s.Info.Email, `href="` + lang.LocalPath("/schedule") + `"`} {
				if !strings.Contains(body, fact) {
					t.Errorf("%s: no %s", lang.LocalPath(path), fact)
				}
			}
		}
		// A service route highlights its service.
		body := sitetest.Get(t, h, lang.LocalPath("/services/platform-engineering")).Body.String()
		if !regexp.MustCompile(`id="service-platform-engineering" class="service-card card" aria-current="true"`).MatchString(body) {
			t.Errorf("%s: the platform engineering card is not highlighted", lang.Code)
		}
	}
}

// TestLegalPagesNameWhatIsStored checks the privacy and cookie policies in
// every language for the cookies and storage the site really uses.
func TestLegalPagesNameWhatIsStored(t *testing.T) {
	h := testHandler(t)
	s := sitetest.Site(t)
	for _, lang := range s.Info.Languages {
		for _, path := range []string{"/privacy", "/cookies"} {
			body := html.UnescapeString(sitetest.Get(t, h, lang.LocalPath(path)).Body.String())
			// The analytics cookies are named only when GA_MEASUREMENT_ID is
			// set, which the test site's is not (TestPoliciesFollowTheConfiguration).
			for _, want := range []string{"cc_cookie", "182", s.Info.Email, s.Info.LanguageStorageKey} {
				if path == "/privacy" && want == s.Info.LanguageStorageKey {
					continue
				}
				if !strings.Contains(body, want) {
					t.Errorf("%s does not mention %s", lang.LocalPath(path), want)
				}
			}
			if strings.Contains(body, "{{") {
				t.Errorf("%s has an unfilled placeholder", lang.LocalPath(path))
			}
		}
		if body := sitetest.Get(t, h, lang.LocalPath("/cookies")).Body.String(); !strings.Contains(body, `data-cc="show-preferencesModal"`) {
			t.Errorf("%s/cookies has no button to open the preferences", lang.Code)
		}
	}
}

// TestNotFoundPageHelps: a short message and the way home, to the blog and
// to the contact section.
func TestNotFoundPageHelps(t *testing.T) {
	h := testHandler(t)
	s := sitetest.Site(t)
	for _, lang := range s.Info.Languages {
		body := sitetest.Get(t, h, lang.LocalPath("/gone")).Body.String()
		for _, href := range []string{lang.LocalPath("/"), lang.LocalPath("/blog"), lang.LocalPath("/") + "#contact"} {
			if !strings.Contains(body, `<li><a href="`+href+`"`) {
				t.Errorf("%s 404 has no link to %s", lang.Code, href)
			}
		}
	}
}
