package assets

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/northbeam/site/internal/site"
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
	info, err := site.Load(os.DirFS(filepath.Join(root, "content")), site.File)
	if err != nil {
		t.Fatal(err)
	}
	// Every language of site.json, in each module.
	for _, l := range info.Languages {
		for module, want := range map[string]string{
			languagesModule: `"` + l.Code + `":{"locale":"` + l.Locale + `","firstDay":`,
			localesModule:   `"` + l.Code + `": strings`,
			cldrModule:      `"` + l.Code + `": { locale: "`,
		} {
			if !strings.Contains(m.contents[module], want) {
				t.Errorf("%s lacks %s:\n%s", module, want, m.contents[module])
			}
		}
	}
	// What CLDR says of the shipped languages: the week starts on Saturday
	// in Arabic, on Monday in British English; German's data is loaded as a
	// chunk of each of its files.
	for _, want := range []string{`"ar":{"locale":"ar-u-nu-latn","firstDay":6}`, `"en":{"locale":"en-GB","firstDay":1}`} {
		if !strings.Contains(m.contents[languagesModule], want) {
			t.Errorf("%s lacks %s:\n%s", languagesModule, want, m.contents[languagesModule])
		}
	}
	for _, l := range info.Languages {
		if want := `content/locales/` + l.Code + `.json"`; !strings.Contains(m.contents[localesModule], want) {
			t.Errorf("%s lacks %s:\n%s", localesModule, want, m.contents[localesModule])
		}
	}
	if want := `"de": { locale: "de", load: () => Promise.all([import("cldr-dates-full/main/de/timeZoneNames.json"), import("cldr-dates-full/main/de/ca-gregorian.json")]) }`; !strings.Contains(m.contents[cldrModule], want) {
		t.Errorf("%s lacks %s:\n%s", cldrModule, want, m.contents[cldrModule])
	}
}
