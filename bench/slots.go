package main

import (
	"context"
	"encoding/json"
	"fmt"
	iofs "io/fs"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/northbeam/site/internal/booking"
	"github.com/northbeam/site/internal/calendar"
	"github.com/northbeam/site/internal/intl"
	"github.com/northbeam/site/internal/site"
	"github.com/northbeam/site/internal/store"
)

// slotsBench measures what GET /api/slots costs for a month of discovery
// calls (its service's work and the JSON: the HTTP around it is the same
// either way), on SQLite and PostgreSQL, in two set-ups: a single
// calendar (the shipped availability without its hosts, one shared feed),
// and three hosts sharing the service round-robin, each with a feed of
// their own beside the shared one. Each feed has -slots-feed-events events, and the month
// holds 60 standing bookings. go run ./bench slots.
func slotsBench(root string) error {
	ctx := context.Background()
	content := os.DirFS(filepath.Join(root, "content"))
	info, err := site.Load(content, "site.json")
	if err != nil {
		return err
	}
	locales, err := site.LoadLocales(content, "locales", info)
	if err != nil {
		return err
	}
	dates, err := intl.Load(os.DirFS(filepath.Join(root, "node_modules")), info.Languages)
	if err != nil {
		return err
	}
	shipped, err := os.ReadFile(filepath.Join(root, "content", "availability.json"))
	if err != nil {
		return err
	}
	// The shipped availability names hosts: the single calendar is it without them.
	single, err := withHosts(shipped, nil)
	if err != nil {
		return err
	}
	hosts := []string{"samira-haddad", "jonas-becker", "lena-hartmann"}
	three, err := withHosts(shipped, hosts)
	if err != nil {
		return err
	}

	// The feeds, served on loopback: the consultancy's and one per host.
	feeds := map[string][]byte{"/shared.ics": bigFeed(*slotsFeedEvents)}
	for _, h := range hosts {
		feeds["/"+h+".ics"] = bigFeed(*slotsFeedEvents)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	srv := &http.Server{ReadHeaderTimeout: 5 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/calendar; charset=utf-8")
		_, _ = w.Write(feeds[r.URL.Path])
	})}
	go func() { _ = srv.Serve(ln) }()
	defer func() { _ = srv.Close() }()
	base := "http://" + ln.Addr().String()

	fmt.Printf("\n/api/slots, a month of discovery calls (%d events a feed, 60 bookings), %d queries each:\n", *slotsFeedEvents, *slotsQueries)
	for _, engine := range []string{"sqlite", "postgres"} {
		for _, setup := range []struct {
			name  string
			av    []byte
			hosts []string
		}{{"single calendar, one shared feed", single, nil}, {"three hosts, a feed each and the shared one", three, hosts}} {
			st, done, err := benchStore(ctx, engine)
			if err != nil {
				fmt.Printf("  %-8s %-45s skipped: %v\n", engine, setup.name, err)
				continue
			}
			med, p95, n, err := slotsRun(ctx, st, content, info, locales, dates, setup.av, setup.hosts, base)
			st.Close()
			done()
			if err != nil {
				return fmt.Errorf("%s, %s: %w", engine, setup.name, err)
			}
			fmt.Printf("  %-8s %-45s median %7.2f ms  p95 %7.2f ms  (%d open times)\n", engine, setup.name,
				float64(med)/float64(time.Millisecond), float64(p95)/float64(time.Millisecond), n)
		}
	}
	return nil
}

// withHosts is the shipped availability with hosts as the only ones:
// discovery shared round-robin among them, each linked to a staff address;
// without any, every service is booked with the consultancy as one calendar.
func withHosts(shipped []byte, hosts []string) ([]byte, error) {
	var av map[string]any
	if err := json.Unmarshal(shipped, &av); err != nil {
		return nil, err
	}
	services := av["services"].(map[string]any)
	for _, s := range services {
		delete(s.(map[string]any), "hosts")
		delete(s.(map[string]any), "assignment")
	}
	delete(av, "hosts")
	if len(hosts) == 0 {
		return json.Marshal(av)
	}
	discovery := services["discovery"].(map[string]any)
	discovery["hosts"] = hosts
	discovery["assignment"] = booking.AssignRoundRobin
	declared := map[string]any{}
	for _, h := range hosts {
		declared[h] = map[string]any{"staff": h + "@bench.test"}
	}
	av["hosts"] = declared
	return json.Marshal(av)
}

// benchStore opens a fresh, migrated store on engine.
func benchStore(ctx context.Context, engine string) (*store.Store, func(), error) {
	if engine == "postgres" {
		u, drop, err := benchSchema()
		if err != nil {
			return nil, nil, err
		}
		st, err := store.OpenPostgres(ctx, u, 10*time.Second)
		if err != nil {
			drop()
			return nil, nil, err
		}
		return st, drop, nil
	}
	dir, err := os.MkdirTemp("", "bench-slots-")
	if err != nil {
		return nil, nil, err
	}
	st, err := store.Open(ctx, filepath.Join(dir, "site.db"))
	if err != nil {
		_ = os.RemoveAll(dir)
		return nil, nil, err
	}
	return st, func() { _ = os.RemoveAll(dir) }, nil
}

// slotsRun sets one case up on st and times its slot queries: the median,
// the 95th percentile, and the open times a query finds.
func slotsRun(ctx context.Context, st *store.Store, content iofs.FS, info *site.Info, locales *site.Locales, dates *intl.Formatter,
	availability []byte, hosts []string, base string) (time.Duration, time.Duration, int, error) {
	av, err := booking.ParseAvailability(availability)
	if err != nil {
		return 0, 0, 0, err
	}
	now := time.Now()
	for _, h := range hosts {
		var id int64
		if err := st.QueryRowContext(ctx, `INSERT INTO staff (email, handle, lang, created_at) VALUES (?, ?, 'en', 0) RETURNING id`,
			h+"@bench.test", "bench-"+h).Scan(&id); err != nil {
			return 0, 0, 0, err
		}
		if _, err := calendar.AddMemberFeed(ctx, st, id, base+"/"+h+".ics", now); err != nil {
			return 0, 0, 0, err
		}
	}
	source, err := calendar.NewSource(calendar.Config{
		URLs: []string{base + "/shared.ics"}, Home: av.Location, Store: st, Members: len(hosts) > 0,
		Ahead: time.Duration(av.DaysAhead+3) * 24 * time.Hour,
	})
	if err != nil {
		return 0, 0, 0, err
	}
	source.Refresh(ctx)
	svc, err := booking.NewService(st, content, booking.Config{
		Availability: av, Inbox: "team@bench.test", Texts: locales, Dates: dates,
		Brand:    booking.Brand{Name: info.Name, Email: info.Email, BaseURL: "https://bench.test"},
		LocalURL: func(lang, path string) string { return "https://bench.test/" + lang + path },
		Calendar: source, MinFillTime: time.Nanosecond,
	})
	if err != nil {
		return 0, 0, 0, err
	}
	berlin := av.Location
	q := booking.SlotsQuery{Service: "discovery", From: booking.DateOf(now.In(berlin)), Days: booking.MaxQueryDays, TimeZone: berlin.String(), Location: berlin}
	days, err := svc.Slots(ctx, q)
	if err != nil {
		return 0, 0, 0, err
	}
	// 60 bookings spread over the month's open times.
	var open []booking.Slot
	for _, d := range days {
		open = append(open, d.Slots...)
	}
	for i := 0; i < 60 && len(open) > 0; i++ {
		s := open[(i*len(open))/60]
		_, err := svc.Book(ctx, booking.BookingRequest{Service: "discovery", Start: s.Start.Format(time.RFC3339),
			Name: "Bench Visitor", Email: fmt.Sprintf("visitor%d@bench.test", i), TimeZone: berlin.String(), Lang: "en",
			Phone: "+4930901820", Meeting: ""})
		if err != nil && err != booking.ErrSlotTaken {
			return 0, 0, 0, fmt.Errorf("book: %w", err)
		}
	}
	var times []time.Duration
	found := 0
	for range *slotsQueries {
		start := time.Now()
		days, err := svc.Slots(ctx, q)
		if err != nil {
			return 0, 0, 0, err
		}
		if _, err := json.Marshal(days); err != nil {
			return 0, 0, 0, err
		}
		times = append(times, time.Since(start))
		found = 0
		for _, d := range days {
			found += len(d.Slots)
		}
	}
	return percentile(times, 50), percentile(times, 95), found, nil
}
