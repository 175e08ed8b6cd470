package calendar

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// realFeed reads a file of testdata/real (see its SOURCES.md).
func realFeed(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "real", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// utcLines writes intervals as "start end" lines in UTC, as oracle.txt.
func utcLines(ivs []Interval) string {
	var b strings.Builder
	for _, iv := range ivs {
		b.WriteString(iv.Start.UTC().Format(time.RFC3339) + " " + iv.End.UTC().Format(time.RFC3339) + "\n")
	}
	return b.String()
}

// TestRealFeedsMatchTheOracle reads real exports (Exchange, Zimbra, Google,
// Apple's Calendar Server, a CalDAV server) and compares their busy time
// over their own dates with what ical.js works out for them (oracle.txt,
// computed by oracle.mjs and committed with the files), through Parse and
// through the streaming Expand the feeds' source uses.
func TestRealFeedsMatchTheOracle(t *testing.T) {
	f, err := os.Open(filepath.Join("testdata", "real", "oracle.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Close() }() // read only
	type window struct {
		file   string
		window Interval
		want   strings.Builder
	}
	var windows []*window
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		switch {
		case len(fields) == 0 || strings.HasPrefix(fields[0], "#"):
		case fields[0] == "window" && len(fields) == 4:
			from, err1 := time.Parse(time.RFC3339, fields[2])
			to, err2 := time.Parse(time.RFC3339, fields[3])
			if err1 != nil || err2 != nil {
				t.Fatalf("oracle.txt: %q", sc.Text())
			}
			windows = append(windows, &window{file: fields[1], window: Interval{from, to}})
		case len(fields) == 2 && len(windows) > 0:
			windows[len(windows)-1].want.WriteString(sc.Text() + "\n")
		default:
			t.Fatalf("oracle.txt: %q", sc.Text())
		}
	}
	files := map[string]bool{}
	intervals := 0
	for _, w := range windows {
		files[w.file] = true
		intervals += strings.Count(w.want.String(), "\n")
		data := realFeed(t, w.file)
		cal, err := Parse(data, berlin(t))
		if err != nil {
			t.Errorf("%s: %v", w.file, err)
			continue
		}
		if got := utcLines(cal.Busy(w.window)); got != w.want.String() {
			t.Errorf("%s over %v: busy time\n%s\nical.js:\n%s", w.file, w.window, got, w.want.String())
		}
		expanded, err := Expand(data, berlin(t), w.window)
		if err != nil {
			t.Fatal(err)
		}
		if got := utcLines(expanded.Intervals); got != w.want.String() {
			t.Errorf("%s over %v, streamed: busy time\n%s\nical.js:\n%s", w.file, w.window, got, w.want.String())
		}
	}
	if len(files) < 6 || intervals < 30 {
		t.Errorf("the oracle covers %d feeds and %d intervals", len(files), intervals)
	}
}

// The cases of real exports, one by one.
func TestRealFeeds(t *testing.T) {
	home := berlin(t)
	year := func(y int) Interval {
		return Interval{time.Date(y, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(y+1, 1, 1, 0, 0, 0, 0, time.UTC)}
	}
	t.Run("Exchange: a Pacific meeting at its true instant, one malformed line costs its event", func(t *testing.T) {
		cal, err := Parse(realFeed(t, "node-ical_ms_timezones.ics"), home)
		if err != nil {
			t.Fatal(err)
		}
		// 08:30-09:30 Pacific daylight time is 15:30-16:30 UTC, not
		// 08:30 in Berlin; 09:00 W. Europe is 07:00 UTC.
		if got, want := utcLines(cal.Busy(year(2020))), "2020-09-10T07:00:00Z 2020-09-10T07:30:00Z\n2020-09-15T15:30:00Z 2020-09-15T16:30:00Z\n"; got != want {
			t.Errorf("busy:\n%s\nwant:\n%s", got, want)
		}
		if cal.Skipped != 1 || !strings.HasPrefix(cal.Problems[0].UID, "040000008200E00074C5B7101A82E008000000008001F1896B63D3") {
			t.Errorf("skipped %d: %v", cal.Skipped, cal.Problems)
		}
	})
	t.Run("Exchange via OWA: display-name zones without VTIMEZONE are skipped, not moved home", func(t *testing.T) {
		cal, err := Parse(realFeed(t, "node-ical_Office-2012-owa.ics"), home)
		if err != nil {
			t.Fatal(err)
		}
		if busy := cal.Busy(year(2020)); len(busy) != 0 || cal.Skipped != 4 {
			t.Errorf("skipped %d, busy %v", cal.Skipped, busy)
		}
	})
	t.Run("Zimbra: an RDATE period blocks 09:00-12:30", func(t *testing.T) {
		cal, err := Parse(realFeed(t, "icaljs_recur_instances.ics"), home)
		if err != nil {
			t.Fatal(err)
		}
		day := Interval{time.Date(2023, 11, 25, 0, 0, 0, 0, time.UTC), time.Date(2023, 11, 26, 0, 0, 0, 0, time.UTC)}
		if got := utcLines(cal.Busy(day)); got != "2023-11-25T09:00:00Z 2023-11-25T12:30:00Z\n" {
			t.Errorf("25 November 2023: %s", got)
		}
	})
	t.Run("Google: one bad RDATE drops that value, counted", func(t *testing.T) {
		cal, err := Parse(realFeed(t, "icaljs_google_birthday.ics"), home)
		if err != nil {
			t.Fatal(err)
		}
		if got := utcLines(cal.Busy(year(2014))); got != "2014-12-09T23:00:00Z 2014-12-10T23:00:00Z\n" || cal.Skipped != 0 || cal.Dropped != 2 {
			t.Errorf("skipped %d, dropped %d, 2014: %s", cal.Skipped, cal.Dropped, got)
		}
	})
	t.Run("THISANDFUTURE moves the third day and every later one to 20:00 Eastern", func(t *testing.T) {
		cal, err := Parse(realFeed(t, "ccs-calendarserver_put_7.ics"), home)
		if err != nil {
			t.Fatal(err)
		}
		want := "2006-01-02T23:00:00Z 2006-01-03T00:00:00Z\n2006-01-03T23:00:00Z 2006-01-04T00:00:00Z\n" +
			"2006-01-05T01:00:00Z 2006-01-05T02:00:00Z\n2006-01-06T01:00:00Z 2006-01-06T02:00:00Z\n2006-01-07T01:00:00Z 2006-01-07T02:00:00Z\n"
		if got := utcLines(cal.Busy(year(2006))); got != want {
			t.Errorf("busy:\n%s\nwant:\n%s", got, want)
		}
	})
}
