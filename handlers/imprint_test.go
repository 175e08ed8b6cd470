package handlers

import (
	"html"
	"net/http"
	"strings"
	"testing"

	"github.com/northbeam/site/internal/sitetest"
)

// TestImprintInEveryLanguage: the imprint carries the company facts of
// site.json that a German company must publish, and every page's footer
// links to it in the page's language.
func TestImprintInEveryLanguage(t *testing.T) {
	h := testHandler(t)
	s := sitetest.Site(t)
	facts := []string{s.Info.LegalName, s.Info.Address.Street, s.Info.Address.PostalCode + " " + s.Info.Address.City,
		s.Info.Representative, s.Info.Registration, s.Info.VATID, s.Info.Email, s.Info.Phone}
	for _, lang := range s.Info.Languages {
		path := lang.LocalPath("/imprint")
		rec := sitetest.Get(t, h, path)
		if rec.Code != http.StatusOK {
			t.Fatalf("%s: status %d", path, rec.Code)
		}
		body := html.UnescapeString(rec.Body.String())
		for _, f := range facts {
			if !strings.Contains(body, f) {
				t.Errorf("%s does not say %q", path, f)
			}
		}
		if strings.Contains(body, "{{") {
			t.Errorf("%s shows an unfilled placeholder", path)
		}
		link := `href="` + path + `" data-discover="true">` + s.Locales.T(lang.Code, "footer.imprint") + `</a>`
		if home := sitetest.Get(t, h, lang.LocalPath("/")).Body.String(); !strings.Contains(home, link) {
			t.Errorf("%s: the footer has no link %s", lang.LocalPath("/"), link)
		}
	}
}
