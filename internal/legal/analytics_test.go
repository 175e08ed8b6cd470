package legal

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

var paragraphs = regexp.MustCompile(`(?s)<(?:p|li|td|h2)>.*?</(?:p|li|td|h2)>`)

// TestPoliciesFollowTheAnalyticsSetting: without GA_MEASUREMENT_ID the
// cookie and privacy policies of every language describe no analytics
// cookie and name Google as no recipient (only as the calendar a visitor
// may choose to add a booking to); with it, they describe both.
func TestPoliciesFollowTheAnalyticsSetting(t *testing.T) {
	s := testSite(t)
	for _, analytics := range []bool{false, true} {
		settings := shippedSettings(t, s, 0)
		settings.Analytics = analytics
		docs, err := Load(os.DirFS("../../content"), "legal", s, settings)
		if err != nil {
			t.Fatal(err)
		}
		for _, lang := range s.Languages {
			for _, name := range []string{"privacy", "cookies"} {
				doc := docs[lang.Code][name]
				text := doc.Description + "\n" + doc.HTML
				if strings.Contains(text, "{{") {
					t.Errorf("%s %s: a directive or placeholder is left", lang.Code, name)
				}
				for _, cookie := range []string{"_ga", "_gid", "Google Analytics"} {
					if strings.Contains(text, cookie) != analytics {
						t.Errorf("analytics %v, %s %s: mentions %q: %v", analytics, lang.Code, name, cookie, !analytics)
					}
				}
				if analytics {
					continue
				}
				// Google may be named only beside Outlook: the calendar
				// links a visitor chooses to use.
				for _, p := range paragraphs.FindAllString(doc.HTML, -1) {
					if strings.Contains(p, "Google") && !strings.Contains(p, "Outlook") {
						t.Errorf("%s %s without analytics names Google: %s", lang.Code, name, p)
					}
				}
			}
		}
	}
}

// TestPrivacyPolicyStatesWhatIsKept: the privacy policy of every language
// names the phone number the booking asks for (by the booking form's own
// label) with how long it is kept, and how long spam is kept.
func TestPrivacyPolicyStatesWhatIsKept(t *testing.T) {
	s := testSite(t)
	settings := shippedSettings(t, s, 7)
	docs, err := Load(os.DirFS("../../content"), "legal", s, settings)
	if err != nil {
		t.Fatal(err)
	}
	for _, lang := range s.Languages {
		html := docs[lang.Code]["privacy"].HTML
		phone := strings.ToLower(settings.Texts.T(lang.Code, "schedule.details.phone"))
		retention := settings.Texts.Plural(lang.Code, "privacy.retention", 7)
		spam := settings.Texts.Plural(lang.Code, "privacy.spamRetention", settings.SpamRetentionDays)
		var phoneKept, spamKept bool
		for _, p := range paragraphs.FindAllString(html, -1) {
			phoneKept = phoneKept || strings.Contains(strings.ToLower(p), phone) && strings.Contains(p, retention)
			spamKept = spamKept || strings.Contains(p, spam)
		}
		if !phoneKept {
			t.Errorf("%s: no paragraph of the privacy policy names the %q with its period (%q)", lang.Code, phone, retention)
		}
		if !spamKept {
			t.Errorf("%s: the privacy policy does not say that spam is kept %q", lang.Code, spam)
		}
	}
}
