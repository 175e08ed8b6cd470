package legal

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/northbeam/site/internal/goldentest"
	"github.com/northbeam/site/internal/site"
)

// TestGoldenLegalTexts holds the dates and the retention periods that the
// legal texts of every language write out, to what testdata/legal.golden
// recorded.
func TestGoldenLegalTexts(t *testing.T) {
	content := os.DirFS("../../content")
	info, err := site.Load(content, "site.json")
	if err != nil {
		t.Fatal(err)
	}
	load := func(months int) map[string]map[string]Doc {
		docs, err := Load(content, "legal", info, shippedSettings(t, info, months))
		if err != nil {
			t.Fatal(err)
		}
		return docs
	}
	// The lines that state a date, in every text; and in the privacy
	// policy, those that state the period, for several settings (the lines
	// that differ from those of another setting, 7 months).
	var b strings.Builder
	reference := load(7)
	for _, lang := range info.Languages {
		for _, name := range Names {
			for _, line := range strings.Split(reference[lang.Code][name].HTML, "\n") {
				if strings.Contains(line, "2026") {
					fmt.Fprintf(&b, "%s %s: %s\n", lang.Code, name, line)
				}
			}
		}
	}
	for _, months := range []int{1, 2, 3, 6, 10, 11, 12, 18, 24, 99, 100, 101, 111, 120} {
		docs := load(months)
		for _, lang := range info.Languages {
			referenceLines := strings.Split(reference[lang.Code]["privacy"].HTML, "\n")
			for i, line := range strings.Split(docs[lang.Code]["privacy"].HTML, "\n") {
				if i >= len(referenceLines) || line != referenceLines[i] {
					fmt.Fprintf(&b, "%s privacy, %d months: %s\n", lang.Code, months, line)
				}
			}
		}
	}
	goldentest.Check(t, filepath.Join("testdata", "legal.golden"), b.String())
}

// TestGoldenMonths holds the counts of months, 0 to 130, that the privacy
// policies of the site's languages state to what testdata/months.golden
// recorded.
func TestGoldenMonths(t *testing.T) {
	info, err := site.Load(os.DirFS("../../content"), site.File)
	if err != nil {
		t.Fatal(err)
	}
	texts := shippedSettings(t, info, 0).Texts
	var b strings.Builder
	for _, lang := range info.Languages.Codes() {
		for n := 0; n <= 130; n++ {
			fmt.Fprintf(&b, "%q\t%d\t%s\n", lang, n, texts.Plural(lang, "privacy.retention", n))
		}
	}
	goldentest.Check(t, filepath.Join("testdata", "months.golden"), b.String())
}
