package handlers

import (
	"html"
	"strings"
	"testing"

	"github.com/northbeam/site/internal/sitetest"
)

// TestPoliciesFollowTheConfiguration: the privacy and cookie pages of every
// language describe the analytics cookies and name Google Analytics exactly
// when GA_MEASUREMENT_ID is set, as the banner does; and the privacy page
// names the phone number the booking asks for, by the form's own label.
func TestPoliciesFollowTheConfiguration(t *testing.T) {
	for _, id := range []string{"", "G-TEST0001"} {
		s := sitetest.ConsentSite(t, id)
		h := New(NewServer(s, Services{Log: sitetest.QuietLog()}))
		for _, lang := range s.Info.Languages {
			for _, page := range []string{"/privacy", "/cookies"} {
				path := lang.LocalPath(page)
				body := html.UnescapeString(sitetest.Get(t, h, path).Body.String())
				for _, analytics := range []string{"_ga", "_gid", "Google Analytics"} {
					if got := strings.Contains(body, analytics); got != (id != "") {
						t.Errorf("GA_MEASUREMENT_ID %q, %s mentions %q: %v", id, path, analytics, got)
					}
				}
				if page == "/privacy" {
					label := strings.ToLower(s.Locales.T(lang.Code, "schedule.details.phone"))
					if !strings.Contains(strings.ToLower(body), label) {
						t.Errorf("%s does not mention the %q the booking asks for", path, label)
					}
				}
			}
		}
	}
}
