package intl

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/northbeam/site/internal/goldentest"
	"github.com/northbeam/site/internal/site"
)

// goldenLangs are the languages of content/site.json and tags that fall
// back on them (a region, another case) or on the default language (a
// language the site lacks, none).
func goldenLangs(t *testing.T) []string {
	t.Helper()
	info, err := site.Load(os.DirFS(filepath.Join(projectRoot, "content")), site.File)
	if err != nil {
		t.Fatal(err)
	}
	langs := info.Languages.Codes()
	var others []string
	for _, code := range langs {
		if code != info.DefaultLanguage {
			others = append(others, code)
		}
	}
	if len(others) > 0 {
		langs = append(langs, others[0]+"-CA", strings.ToUpper(others[len(others)-1])+"-EG")
	}
	return append(langs, "xx", "")
}

// goldenTimes are instants that meet every month, both halves of the day,
// midnight and noon, single-digit days and the first of the month.
func goldenTimes() []time.Time {
	var out []time.Time
	clocks := [][2]int{{0, 0}, {0, 30}, {9, 5}, {11, 59}, {12, 0}, {12, 30}, {15, 30}, {23, 59}}
	for m := time.January; m <= time.December; m++ {
		for i, day := range []int{1, 2, 9, 20, 28} {
			c := clocks[(int(m)+i)%len(clocks)]
			out = append(out, time.Date(2026, m, day, c[0], c[1], 0, 0, time.UTC))
		}
	}
	return out
}

// TestGoldenFormats holds every date and time the site writes, in every
// language, to what testdata/formats.golden recorded.
func TestGoldenFormats(t *testing.T) {
	f := shipped(t)
	var b strings.Builder
	for _, lang := range goldenLangs(t) {
		for m := time.January; m <= time.December; m++ {
			fmt.Fprintf(&b, "%q\tmonth %d\t%s\n", lang, m, f.Month(lang, m))
		}
		for d := time.Sunday; d <= time.Saturday; d++ {
			fmt.Fprintf(&b, "%q\tweekday %d\t%s\n", lang, d, f.Weekday(lang, d))
		}
		for _, at := range goldenTimes() {
			in := at.Format("2006-01-02T15:04")
			fmt.Fprintf(&b, "%q\tdate %s\t%s\n", lang, in, f.FormatDate(lang, at))
			fmt.Fprintf(&b, "%q\tfull date %s\t%s\n", lang, in, f.FormatFullDate(lang, at))
			fmt.Fprintf(&b, "%q\ttime %s\t%s\n", lang, in, f.FormatTime(lang, at))
			fmt.Fprintf(&b, "%q\tdate and time %s\t%s\n", lang, in, f.FormatDateTime(lang, at))
		}
	}
	goldentest.Check(t, filepath.Join("testdata", "formats.golden"), b.String())
}
