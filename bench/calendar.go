package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"
)

var (
	feedEvents    = flag.Int("feed-events", 100_000, "events of the calendar feed of the memory row")
	feedRefreshes = flag.Int("feed-refreshes", 20, "refreshes of the feed measured after the first (30 s apart, the shortest CALENDAR_REFRESH)")
	// The slots bench (slots.go).
	slotsFeedEvents = flag.Int("slots-feed-events", 5_000, "events of each calendar feed of the slots bench")
	slotsQueries    = flag.Int("slots-queries", 200, "slot queries of a month measured in each case of the slots bench")
)

// calendarOnly builds the binary and measures the calendar row alone:
// go run ./bench [-feed-refreshes N] calendar.
func calendarOnly() error {
	return withBinary(func(_, bin, tmp string) error { return calendarMemory(bin, tmp) })
}

// calendarMemory measures what a large calendar feed costs the site in
// resident memory (docs/ARCHITECTURE.md, Calendar feeds): the binary alone,
// then with a feed of -feed-events events served on loopback, after its
// first fetch and after -feed-refreshes more, each a full download and read
// (the feed sends no ETag). Budget: the feed adds at most 40 MB, and the
// refreshes nothing more.
func calendarMemory(bin, tmp string) error {
	body := bigFeed(*feedEvents)
	var served atomic.Int32
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	srv := &http.Server{ReadHeaderTimeout: 5 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/calendar; charset=utf-8")
		if _, err := w.Write(body); err == nil {
			served.Add(1)
		}
	})}
	go func() { _ = srv.Serve(ln) }()
	defer func() { _ = srv.Close() }()

	alone, _, err := siteMemory(bin, tmp, nil, func(string, int) error { time.Sleep(2 * time.Second); return nil })
	if err != nil {
		return err
	}
	var first, after float64
	env := []string{"CALENDAR_ICS_URLS=http://" + ln.Addr().String() + "/calendar.ics", "CALENDAR_REFRESH=30s"}
	_, peak, err := siteMemory(bin, tmp, env, func(base string, pid int) error {
		for n := 1; n <= 1+*feedRefreshes; n++ {
			if err := waitFetched(base, &served, n); err != nil {
				return err
			}
			time.Sleep(2 * time.Second)
			rss, err := residentMB(pid)
			if err != nil {
				return err
			}
			if n == 1 {
				first = rss
			}
			after = rss
			fmt.Fprintf(os.Stderr, "calendar feed: fetch %d, resident %.0f MB\n", n, rss)
		}
		return nil
	})
	if err != nil {
		return err
	}
	added := first - alone
	growth := after - first
	fmt.Printf("\ncalendar feed of %d events (%.1f MB): resident %.0f MB without feeds, %.0f MB after the first fetch (+%.0f MB, budget 40 MB  %s), %.0f MB after %d more (%+.0f MB, budget 0 beyond noise of 5 MB  %s), peak %.0f MB\n",
		*feedEvents, float64(len(body))/(1<<20), alone, first, added, verdict(added <= 40), after, *feedRefreshes, growth, verdict(growth <= 5), peak)
	return nil
}

// siteMemory starts the binary with env added, runs measure, and returns
// its resident memory then and its peak (VmHWM), in MB.
func siteMemory(bin, tmp string, env []string, measure func(base string, pid int) error) (rss, peak float64, err error) {
	addr := freeAddr()
	base := "http://" + addr
	data, err := os.MkdirTemp(tmp, "calendar-data-")
	if err != nil {
		return 0, 0, err
	}
	cmd := exec.Command(bin, "-addr", addr, "-data_dir", data, "-base_url", base)
	cmd.Dir = tmp
	cmd.Env = append(os.Environ(), env...)
	logFile, err := os.Create(filepath.Join(data, "site.log"))
	if err != nil {
		return 0, 0, err
	}
	defer func() { _ = logFile.Close() }()
	cmd.Stderr = logFile
	if err := cmd.Start(); err != nil {
		return 0, 0, err
	}
	defer func() { _ = cmd.Process.Kill(); _, _ = cmd.Process.Wait() }()
	if err := waitReady(base + "/readyz"); err != nil {
		return 0, 0, err
	}
	if err := measure(base, cmd.Process.Pid); err != nil {
		log, _ := os.ReadFile(logFile.Name())
		return 0, 0, fmt.Errorf("%w; the site's log ends:\n%s", err, log[max(0, len(log)-2000):])
	}
	if rss, err = residentMB(cmd.Process.Pid); err != nil {
		return 0, 0, err
	}
	peak, err = statusMB(cmd.Process.Pid, "VmHWM:")
	return rss, peak, err
}

// waitFetched waits until the feed has been served n times and /readyz
// says it is up to date since.
func waitFetched(base string, served *atomic.Int32, n int) error {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	seen, last := "", ""
	for ctx.Err() == nil {
		if int(served.Load()) >= n {
			res, err := http.Get(base + "/readyz")
			if err == nil {
				page, _ := io.ReadAll(res.Body)
				_ = res.Body.Close()
				last = string(page)
				if i := strings.Index(string(page), "up to date, fetched "); i >= 0 {
					at := string(page[i:])
					if seen == "" {
						seen = at
					}
					// Fetched again since the download was served: read.
					if n == 1 || at != seen {
						return nil
					}
				}
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	return fmt.Errorf("the calendar feed was not read a %d. time (served %d times); /readyz: %s", n, served.Load(), last)
}

// bigFeed writes a feed of n events: two thirds single meetings, the rest
// recurring (weekly on some days, daily for a while, monthly), some with
// exceptions, in three zones (one an Outlook VTIMEZONE): about 120 bytes
// an event, as the 12 MB feed of 100,000 events of issue 26.
func bigFeed(n int) []byte {
	var b strings.Builder
	b.WriteString("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//bench//EN\r\n")
	b.WriteString("BEGIN:VTIMEZONE\r\nTZID:Pacific\r\nBEGIN:STANDARD\r\nDTSTART:16010101T020000\r\nTZOFFSETFROM:-0700\r\nTZOFFSETTO:-0800\r\n" +
		"RRULE:FREQ=YEARLY;BYDAY=1SU;BYMONTH=11\r\nEND:STANDARD\r\nBEGIN:DAYLIGHT\r\nDTSTART:16010101T020000\r\nTZOFFSETFROM:-0800\r\nTZOFFSETTO:-0700\r\n" +
		"RRULE:FREQ=YEARLY;BYDAY=2SU;BYMONTH=3\r\nEND:DAYLIGHT\r\nEND:VTIMEZONE\r\n")
	zones := []string{"Europe/Berlin", "America/New_York", "Pacific"}
	rules := []string{"FREQ=WEEKLY;BYDAY=MO, WE, FR", "FREQ=DAILY;COUNT=30", "FREQ=MONTHLY;BYDAY=2TU"}
	day0 := time.Now().UTC().Truncate(24*time.Hour).AddDate(-2, 0, 0)
	for i := range n {
		// Three years of meetings, two back and one ahead.
		start := day0.Add(time.Duration(i%1095) * 24 * time.Hour).Add(time.Duration(8+i%9) * time.Hour)
		zone := zones[i%len(zones)]
		fmt.Fprintf(&b, "BEGIN:VEVENT\r\nUID:%d@b\r\nSUMMARY:Call %d\r\nDTSTART;TZID=%s:%s\r\nDURATION:PT45M\r\n", i, i, zone, start.Format("20060102T150405"))
		if i%3 == 1 {
			fmt.Fprintf(&b, "RRULE:%s\r\n", rules[i%len(rules)])
			if i%5 == 0 {
				fmt.Fprintf(&b, "EXDATE;TZID=%s:%s\r\n", zone, start.Add(14*24*time.Hour).Format("20060102T150405"))
			}
		}
		b.WriteString("END:VEVENT\r\n")
	}
	b.WriteString("END:VCALENDAR\r\n")
	return []byte(b.String())
}
