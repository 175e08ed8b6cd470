package assets

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/northbeam/site/internal/site"
)

// TestLanguageModules derives the client's modules from site.json: every
// language's CLDR loader for the time step, and its locale and first day
// of the week for the table.
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
	if want := `"de": { locale: "de", load: () => Promise.all([import("cldr-dates-full/main/de/timeZoneNames.json"), import("cldr-dates-full/main/de/ca-gregorian.json")]) }`; !strings.Contains(m.contents[cldrModule], want) {
		t.Errorf("%s lacks %s:\n%s", cldrModule, want, m.contents[cldrModule])
	}
}

// TestServerStrings: the server's strings are every language of site.json,
// each its file's strings as they are.
func TestServerStrings(t *testing.T) {
	root, _ := filepath.Abs("../..")
	data, err := serverStrings(root, "content/site.json")
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]map[string]any
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	info, err := site.Load(os.DirFS(filepath.Join(root, "content")), site.File)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(info.Languages) {
		t.Errorf("%d languages, want %d", len(got), len(info.Languages))
	}
	for _, l := range info.Languages {
		file, err := os.ReadFile(filepath.Join(root, "content", "locales", l.Code+".json"))
		if err != nil {
			t.Fatal(err)
		}
		var want map[string]any
		if err := json.Unmarshal(file, &want); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got[l.Code], want) {
			t.Errorf("%s: the server's strings are not its file's", l.Code)
		}
	}
}
