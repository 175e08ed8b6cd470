package legal

import (
	"os"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/northbeam/site/internal/intl"
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
		docs, err := Load(content, "legal", info, shippedSettings(t, info, months))
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

func testSite(t *testing.T) *site.Info {
	t.Helper()
	s, err := site.Load(os.DirFS("../../content"), "site.json")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// shippedSettings are the settings of the shipped site, keeping personal
// data for months: the dates from the project's CLDR data, the shipped
// strings.
func shippedSettings(t *testing.T, s *site.Info, months int) Settings {
	t.Helper()
	dates, err := intl.Load(os.DirFS("../../node_modules"), s.Languages)
	if err != nil {
		t.Fatal(err)
	}
	texts, err := site.LoadLocales(os.DirFS("../../content"), "locales", s)
	if err != nil {
		t.Fatal(err)
	}
	return Settings{RetentionMonths: months, Dates: dates, Texts: texts, SpamRetentionDays: 30}
}

// TestLoadFillsTheImprint: the shipped imprint of every language carries
// the VAT id and the register of site.json.
func TestLoadFillsTheImprint(t *testing.T) {
	s := testSite(t)
	docs, err := Load(os.DirFS("../../content"), "legal", s, shippedSettings(t, s, 0))
	if err != nil {
		t.Fatal(err)
	}
	for _, lang := range s.Languages {
		doc := docs[lang.Code]["imprint"]
		for _, want := range []string{s.VATID, s.Registration, s.Address.Street, s.Representative} {
			if !strings.Contains(doc.HTML, want) {
				t.Errorf("%s imprint lacks %q", lang.Code, want)
			}
		}
	}
}

// TestLoadRefusesAnUnknownPlaceholder: a mistyped placeholder stops the
// start with the file named, rather than reaching a visitor.
func TestLoadRefusesAnUnknownPlaceholder(t *testing.T) {
	s := testSite(t)
	fsys := fstest.MapFS{}
	for _, lang := range s.Languages {
		for _, name := range Names {
			fsys["legal/"+lang.Code+"/"+name+".md"] = &fstest.MapFile{Data: []byte("---\ntitle: T\ndescription: D\n---\n\n{{site.email}}\n")}
		}
	}
	fsys["legal/de/imprint.md"] = &fstest.MapFile{Data: []byte("---\ntitle: T\ndescription: D\n---\n\nUSt-ID: {{site.vatID}}\n")}
	_, err := Load(fsys, "legal", s, shippedSettings(t, s, 0))
	if err == nil || !strings.Contains(err.Error(), "legal/de/imprint.md") || !strings.Contains(err.Error(), "{{site.vatID}}") {
		t.Errorf("error %v, want one naming legal/de/imprint.md and the placeholder", err)
	}
}
