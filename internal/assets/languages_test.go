package assets

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/northbeam/site/internal/site"
)

// TestFrontendNamesNoLanguage fails when the client's code singles out one
// of the site's languages (a switch case, a comparison, a file of its own):
// what differs by language is data, in content/site.json and what the build
// derives from it.
func TestFrontendNamesNoLanguage(t *testing.T) {
	root, _ := filepath.Abs("../..")
	info, err := site.Load(os.DirFS(filepath.Join(root, "content")), site.File)
	if err != nil {
		t.Fatal(err)
	}
	var patterns []*regexp.Regexp
	for _, code := range info.Languages.Codes() {
		q := regexp.QuoteMeta(code)
		patterns = append(patterns, regexp.MustCompile(`case ["']`+q+`["']|[!=]==? ?["']`+q+`["']|["']`+q+`["'] ?[!=]==?|\| ?["']`+q+`["']|["']`+q+`["'] ?\||\(["']`+q+`["'][,)]|/`+q+`\.json["']|/main/`+q+`/|\b`+q+`: ["']`))
	}
	err = filepath.WalkDir(filepath.Join(root, "frontend"), func(p string, d fs.DirEntry, err error) error {
		// A benchmark's entry renders in one language of its choosing.
		if err != nil || d.IsDir() || !(strings.HasSuffix(p, ".ts") || strings.HasSuffix(p, ".tsx")) || strings.Contains(d.Name(), "bench") {
			return err
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(src), "\n") {
			// The reference language's strings give the strings' type.
			if strings.HasPrefix(line, "import type ") {
				continue
			}
			for _, re := range patterns {
				if m := re.FindString(line); m != "" {
					rel, _ := filepath.Rel(root, p)
					t.Errorf("%s:%d names a language (%s): %s", rel, i+1, m, strings.TrimSpace(line))
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

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
