package calendar_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/northbeam/site/internal/calendar"
	"github.com/northbeam/site/internal/logtest"
	"github.com/northbeam/site/internal/store"
	"github.com/northbeam/site/internal/store/storetest"
)

// feedServer serves a calendar feed over HTTP on loopback, the way a
// calendar service does (ETag, 304 on a match), and can be made to fail.
type feedServer struct {
	*httptest.Server
	mu           sync.Mutex
	body         []byte
	etag         string
	mode         string // "", "down", "html", "missing"
	notModified  atomic.Int32
	full         atomic.Int32
	conditionals atomic.Int32
}

func newFeedServer(t *testing.T, body []byte) *feedServer {
	f := &feedServer{body: body, etag: `"v1"`}
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		defer f.mu.Unlock()
		if !strings.HasSuffix(r.URL.Path, "/basic.ics") {
			http.NotFound(w, r)
			return
		}
		switch f.mode {
		case "down":
			http.Error(w, "upstream unavailable", http.StatusBadGateway)
			return
		case "missing":
			http.NotFound(w, r)
			return
		case "html":
			w.Header().Set("Content-Type", "text/html")
			_, _ = w.Write([]byte("<!doctype html><title>Sign in</title><p>Please sign in to see this calendar."))
			return
		}
		if inm := r.Header.Get("If-None-Match"); inm != "" {
			f.conditionals.Add(1)
			if inm == f.etag {
				f.notModified.Add(1)
				w.WriteHeader(http.StatusNotModified)
				return
			}
		}
		f.full.Add(1)
		w.Header().Set("ETag", f.etag)
		w.Header().Set("Content-Type", "text/calendar; charset=utf-8")
		_, _ = w.Write(f.body)
	}))
	t.Cleanup(f.Close)
	return f
}

func (f *feedServer) set(mode string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.mode = mode
}

// secretPath is the part of a feed's URL that opens the calendar.
const secretPath = "/calendar/ical/c2VjcmV0LXRva2VuLTQyCg/private-9f8e7d6c5b4a/basic.ics"

func TestSourceKeepsTheLastGoodCopy(t *testing.T) {
	data, err := os.ReadFile("testdata/fortnight.ics")
	if err != nil {
		t.Fatal(err)
	}
	berlin, _ := time.LoadLocation("Europe/Berlin")
	window := calendar.Interval{Start: time.Date(2027, 3, 22, 0, 0, 0, 0, berlin), End: time.Date(2027, 4, 5, 0, 0, 0, 0, berlin)}
	parsed, err := calendar.Parse(data, berlin)
	if err != nil {
		t.Fatal(err)
	}
	want := parsed.Busy(window)
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		feed := newFeedServer(t, data)
		logs := &logtest.Buffer{}
		now := time.Date(2027, 3, 20, 12, 0, 0, 0, berlin)
		newSource := func() *calendar.Source {
			src, err := calendar.NewSource(calendar.Config{
				URLs: []string{feed.URL + secretPath}, Home: berlin, Store: st, Logger: logs.Logger(),
				Now: func() time.Time { return now }, MaxBytes: 1 << 20,
			})
			if err != nil {
				t.Fatal(err)
			}
			if err := src.Load(ctx); err != nil {
				t.Fatal(err)
			}
			return src
		}
		busyOf := func(src *calendar.Source) int { return len(src.Busy(window)) }

		src := newSource()
		if n := busyOf(src); n != 0 {
			t.Fatalf("%d busy intervals before any fetch, want none: the weekly hours alone decide", n)
		}
		src.Refresh(ctx)
		if got := src.Busy(window); len(got) != len(want) || !got[0].Start.Equal(want[0].Start) {
			t.Fatalf("busy after the first fetch: %d intervals, want %d", len(got), len(want))
		}
		src.Refresh(ctx)
		if feed.conditionals.Load() != 1 || feed.notModified.Load() != 1 || feed.full.Load() != 1 {
			t.Errorf("the second fetch was not conditional: %d conditional, %d not modified, %d full",
				feed.conditionals.Load(), feed.notModified.Load(), feed.full.Load())
		}

		for _, mode := range []string{"down", "missing", "html"} {
			feed.set(mode)
			now = now.Add(5 * time.Minute)
			src.Refresh(ctx)
			if n := busyOf(src); n != len(want) {
				t.Errorf("feed %s: %d busy intervals, want the last good copy's %d", mode, n, len(want))
			}
		}
		st0 := src.Status()[0]
		if st0.FailingSince.IsZero() || !st0.Loaded || st0.LastError != "the answer is not an iCalendar feed" {
			t.Errorf("status of a failing feed: %+v", st0)
		}
		if host := strings.TrimPrefix(feed.URL, "http://"); !strings.Contains(st0.Name, "127.0.0.1") || strings.Contains(st0.Name, "basic.ics") {
			t.Errorf("the feed is named %q (host %s)", st0.Name, host)
		}

		// A restart while the feed is down still knows the busy time.
		restarted := newSource()
		restarted.Refresh(ctx)
		if n := busyOf(restarted); n != len(want) {
			t.Errorf("after a restart with the feed down: %d busy intervals, want %d", n, len(want))
		}

		// Nothing anywhere shows the secret part of the URL.
		out := logs.String()
		for _, secret := range []string{"c2VjcmV0LXRva2VuLTQyCg", "private-9f8e7d6c5b4a", secretPath} {
			if strings.Contains(out, secret) {
				t.Errorf("the log shows the feed's secret %q:\n%s", secret, out)
			}
		}
		for _, want := range []string{"HTTP 502", "HTTP 404", "not an iCalendar feed", "feed 1 (127.0.0.1)"} {
			if !strings.Contains(out, want) {
				t.Errorf("the log does not say %q:\n%s", want, out)
			}
		}
	})
}

// A feed larger than the limit is refused, as is one that never answers.
func TestSourceRefusesTooLargeAndSlowFeeds(t *testing.T) {
	big := "BEGIN:VCALENDAR\r\n" + strings.Repeat("X-FILLER:"+strings.Repeat("x", 60)+"\r\n", 40000) + "END:VCALENDAR\r\n"
	feed := newFeedServer(t, []byte(big))
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(5 * time.Second):
		}
	}))
	t.Cleanup(slow.Close)
	logs := &logtest.Buffer{}
	src, err := calendar.NewSource(calendar.Config{
		URLs: []string{feed.URL + secretPath, slow.URL + "/slow/secret-abc/basic.ics"},
		Home: time.UTC, Logger: logs.Logger(), MaxBytes: 1 << 20, Timeout: 300 * time.Millisecond,
	})
	if err != nil {
		t.Fatal(err)
	}
	src.Refresh(context.Background())
	status := src.Status()
	if status[0].LastError != "larger than 1 MB" || status[0].Loaded {
		t.Errorf("a 2.7 MB feed against a 1 MB limit: %+v", status[0])
	}
	if status[1].LastError != "no answer in time" || status[1].Loaded {
		t.Errorf("a feed that does not answer: %+v", status[1])
	}
	if out := logs.String(); strings.Contains(out, "secret") || strings.Contains(out, "basic.ics") {
		t.Errorf("the log shows a feed's URL:\n%s", out)
	}
}

func TestNewSourceNamesNoURL(t *testing.T) {
	_, err := calendar.NewSource(calendar.Config{URLs: []string{"https://calendar.example.com/ok.ics", "ftp://user:hunter2@host/cal.ics"}})
	if err == nil || !strings.Contains(err.Error(), "feed 2") || strings.Contains(err.Error(), "hunter2") {
		t.Errorf("err = %v", err)
	}
}

// An event whose zone cannot be read is logged by UID and counted in the
// feed's status; the others are used.
func TestSourceCountsSkippedEvents(t *testing.T) {
	data := "BEGIN:VCALENDAR\r\nVERSION:2.0\r\n" +
		"BEGIN:VEVENT\r\nUID:atlantis-1@example.com\r\nDTSTART;TZID=Atlantis Standard Time:20270615T090000\r\nDTEND;TZID=Atlantis Standard Time:20270615T100000\r\nEND:VEVENT\r\n" +
		"BEGIN:VEVENT\r\nUID:ok\r\nDTSTART:20270615T090000Z\r\nDTEND:20270615T100000Z\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
	feed := newFeedServer(t, []byte(data))
	logs := &logtest.Buffer{}
	now := time.Date(2027, 6, 14, 0, 0, 0, 0, time.UTC)
	src, err := calendar.NewSource(calendar.Config{URLs: []string{feed.URL + secretPath}, Logger: logs.Logger(), Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	src.Refresh(context.Background())
	if st := src.Status(); len(st) != 1 || st[0].Skipped != 1 || !st[0].Loaded {
		t.Errorf("status: %+v", st)
	}
	if out := logs.String(); !strings.Contains(out, "atlantis-1@example.com") || !strings.Contains(out, "Atlantis Standard Time") {
		t.Errorf("the log does not name the event and its zone:\n%s", out)
	}
	if busy := src.Busy(calendar.Interval{Start: now, End: now.Add(48 * time.Hour)}); len(busy) != 1 {
		t.Errorf("busy: %v", busy)
	}
}

// A feed that hangs until its timeout delays no other: the good feed
// beside it is current as soon as it has answered.
func TestHangingFeedDelaysNoOther(t *testing.T) {
	good := newFeedServer(t, []byte("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:ok\r\nDTSTART:20270615T090000Z\r\nDTEND:20270615T100000Z\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"))
	release := make(chan struct{})
	hanging := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	t.Cleanup(func() { close(release); hanging.Close() })
	now := time.Date(2027, 6, 14, 0, 0, 0, 0, time.UTC)
	const timeout = 3 * time.Second
	src, err := calendar.NewSource(calendar.Config{
		// The hanging feed comes first, as it did when feeds were fetched
		// one after another.
		URLs:   []string{hanging.URL + "/hang/basic.ics", good.URL + secretPath},
		Logger: (&logtest.Buffer{}).Logger(), Timeout: timeout, Now: func() time.Time { return now },
	})
	if err != nil {
		t.Fatal(err)
	}
	began := time.Now()
	done := make(chan struct{})
	go func() {
		src.Refresh(context.Background())
		close(done)
	}()
	window := calendar.Interval{Start: now, End: now.Add(48 * time.Hour)}
	// The feeds are fetched side by side: the good one is current while
	// the hanging one still waits for its timeout.
	for len(src.Busy(window)) == 0 {
		select {
		case <-done:
			t.Fatalf("the good feed became current only when the refresh ended, %v after it began: the feeds were fetched one after another", time.Since(began))
		case <-time.After(10 * time.Millisecond):
		}
	}
	if st := src.Status(); !st[1].Loaded || st[0].Loaded {
		t.Errorf("while the first feed hangs: %+v", st)
	}
	<-done
	if took := time.Since(began); took < timeout {
		t.Errorf("the refresh took %v, less than the timeout of %v the hanging feed was given", took, timeout)
	}
	if st := src.Status(); st[0].LastError != "no answer in time" || !st[1].Loaded {
		t.Errorf("after the refresh: %+v", st)
	}
}

// The source keeps busy time, not the parsed feed: while the feed answers
// "not modified" and the clock moves on past the span worked out, the busy
// time is worked out again from the copy it keeps.
func TestSourceMovesOnWithTheClock(t *testing.T) {
	feed := newFeedServer(t, []byte("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:daily\r\nDTSTART:20270101T090000Z\r\nDTEND:20270101T100000Z\r\nRRULE:FREQ=DAILY\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"))
	now := time.Date(2027, 1, 10, 0, 0, 0, 0, time.UTC)
	src, err := calendar.NewSource(calendar.Config{URLs: []string{feed.URL + secretPath}, Logger: (&logtest.Buffer{}).Logger(),
		Ahead: 14 * 24 * time.Hour, Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	src.Refresh(context.Background())
	now = now.Add(40 * 24 * time.Hour)
	src.Refresh(context.Background())
	if feed.notModified.Load() != 1 {
		t.Fatalf("%d answers 'not modified'", feed.notModified.Load())
	}
	day := calendar.Interval{Start: time.Date(2027, 2, 25, 0, 0, 0, 0, time.UTC), End: time.Date(2027, 2, 26, 0, 0, 0, 0, time.UTC)}
	if busy := src.Busy(day); len(busy) != 1 || busy[0].Start.Hour() != 9 {
		t.Errorf("busy on 25 February, forty days on: %v", busy)
	}
}
