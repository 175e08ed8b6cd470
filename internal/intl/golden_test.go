package intl

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite the golden files from the code")

// goldenLangs are the site's languages and the tags that fall back on
// them or on English.
var goldenLangs = []string{"en", "fr", "de", "ar", "fr-CA", "AR-EG", "xx", ""}

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

// checkGolden compares got with testdata/name, or rewrites the file with -update.
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got == string(want) {
		return
	}
	gotLines, wantLines := strings.Split(got, "\n"), strings.Split(string(want), "\n")
	for i := range max(len(gotLines), len(wantLines)) {
		var g, w string
		if i < len(gotLines) {
			g = gotLines[i]
		}
		if i < len(wantLines) {
			w = wantLines[i]
		}
		if g != w {
			t.Errorf("%s line %d:\n got %q\nwant %q", path, i+1, g, w)
			return
		}
	}
}

// TestGoldenFormats holds every date and time the site writes, in every
// language, to what testdata/formats.golden recorded.
func TestGoldenFormats(t *testing.T) {
	f := shipped(t)
	var b strings.Builder
	for _, lang := range goldenLangs {
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
	checkGolden(t, "formats.golden", b.String())
}
