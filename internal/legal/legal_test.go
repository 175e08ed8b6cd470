package legal

import (
	"os"
	"strings"
	"testing"

	"github.com/northbeam/site/internal/site"
)

// The privacy policy states the retention period of the RETENTION setting
// in every language, where it promises deletion, and leaves no
// placeholder unfilled.
func TestPrivacyPolicyStatesTheRetentionSetting(t *testing.T) {
	content := os.DirFS("../../content")
	info, err := site.Load(content, "site.json")
	if err != nil {
		t.Fatal(err)
	}
	for months, want := range map[int]map[string]string{
		0:  {"en": "for 12 months after our last exchange", "fr": "pendant 12 mois après", "de": "Korrespondenz 12 Monate nach", "ar": "مدة 12 شهرًا بعد"},
		18: {"en": "for 18 months after the date of the meeting", "fr": "pendant 18 mois après la date", "de": "18 Monate nach dem Termin", "ar": "مدة 18 شهرًا بعد تاريخ الاجتماع"},
		6:  {"en": "for 6 months after", "fr": "pendant 6 mois après", "de": "6 Monate nach", "ar": "مدة 6 أشهر بعد"},
	} {
		docs, err := Load(content, "legal", info, Settings{RetentionMonths: months})
		if err != nil {
			t.Fatal(err)
		}
		for lang, phrase := range want {
			html := docs[lang]["privacy"].HTML
			if !strings.Contains(html, phrase) {
				t.Errorf("RETENTION=%d, %s: the privacy policy does not say %q", months, lang, phrase)
			}
			if strings.Contains(html, "{{") {
				t.Errorf("%s: a placeholder is left unfilled", lang)
			}
		}
	}
}
