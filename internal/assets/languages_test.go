package assets

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestLanguageModules derives the client's modules from site.json: every
// language's strings for the server, its CLDR loader for the time step,
// and its locale and first day of the week for the table.
func TestLanguageModules(t *testing.T) {
	root, _ := filepath.Abs("../..")
	m, err := newLanguageModules(root, "content/site.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"ar":{"locale":"ar-u-nu-latn","firstDay":6}`, `"en":{"locale":"en-GB","firstDay":1}`} {
		if !strings.Contains(m.contents[languagesModule], want) {
			t.Errorf("%s lacks %s:\n%s", languagesModule, want, m.contents[languagesModule])
		}
	}
	for _, want := range []string{`content/locales/fr.json"`, `"fr": strings`} {
		if !strings.Contains(m.contents[localesModule], want) {
			t.Errorf("%s lacks %s:\n%s", localesModule, want, m.contents[localesModule])
		}
	}
	if want := `"de": { locale: "de", load: () => Promise.all([import("cldr-dates-full/main/de/timeZoneNames.json"), import("cldr-dates-full/main/de/ca-gregorian.json")]) }`; !strings.Contains(m.contents[cldrModule], want) {
		t.Errorf("%s lacks %s:\n%s", cldrModule, want, m.contents[cldrModule])
	}
}
