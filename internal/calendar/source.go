package calendar

import (
	"bytes"
	"compress/gzip"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/northbeam/site/internal/store"
)

// Config tunes a [Source]. Zero values take the defaults noted.
type Config struct {
	// URLs are the feeds (CALENDAR_ICS_URLS). Each is a secret: anyone
	// who has it reads the calendar. Only its host is ever shown.
	URLs []string
	// Home is the consultancy's zone.
	Home *time.Location
	// Refresh is how often the feeds are fetched again; default 5 min.
	Refresh time.Duration
	// Ahead is how far from now busy time is worked out in advance, at
	// least the bookable days; default 62 days.
	Ahead time.Duration
	// Timeout bounds one fetch; default 20 s.
	Timeout time.Duration
	// MaxBytes is the largest feed accepted; default 20 MB.
	MaxBytes int64
	// Store keeps the last good copy of each feed, so that a restart while
	// a feed is down still knows the busy time. Nil keeps nothing.
	Store *store.Store
	// Members reads the staff members' own feeds from Store
	// (staff_calendar_feeds) beside URLs, again at every Refresh: each
	// member's busy time is BusyOf their address.
	Members bool
	// MemberSync is how often the members' feeds are read again from
	// Store between two Refreshes, so that a feed another instance added
	// (and fetched, keeping its copy in Store) counts here too, and one
	// removed stops counting; default 30 s. The instance where a member
	// adds or removes a feed acts at once (ReadMemberFeed, MembersChanged).
	MemberSync time.Duration
	// Client fetches the feeds; default an http.Client with Timeout.
	Client *http.Client
	// Logger receives a line per fetch that changes something.
	Logger *slog.Logger
	// Now is the clock; default time.Now.
	Now func() time.Time
}

func (c Config) withDefaults() Config {
	if c.Home == nil {
		c.Home = time.UTC
	}
	if c.Refresh <= 0 {
		c.Refresh = 5 * time.Minute
	}
	if c.Ahead <= 0 {
		c.Ahead = 62 * 24 * time.Hour
	}
	if c.MemberSync <= 0 {
		c.MemberSync = 30 * time.Second
	}
	if c.Timeout <= 0 {
		c.Timeout = 20 * time.Second
	}
	if c.MaxBytes <= 0 {
		c.MaxBytes = 20 << 20
	}
	if c.Client == nil {
		c.Client = &http.Client{Timeout: c.Timeout}
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	return c
}

// Source is the consultancy's busy time from its calendar feeds: fetched at
// start and every Refresh with conditional requests, the last good copy of
// each kept (in memory and in the database) while a feed fails. It is safe
// for concurrent use.
type Source struct {
	cfg   Config
	feeds []*feed
	// mu guards feeds (the members' come and go), the feeds' state and
	// busy.
	mu   sync.RWMutex
	busy []Interval // every shared feed's busy time over [computed.Start, computed.End), merged
	// busyOf is each member's busy time from their own feeds over the
	// same span, merged, by owner.
	busyOf map[string][]Interval
	// computed is the span busy covers.
	computed Interval
	// recomputing serialises recompute.
	recomputing sync.Mutex
}

// feed is one URL's state.
type feed struct {
	url  string
	key  string // sha256 of the URL: how the database names the feed
	host string
	name string // "feed 1 (calendar.example.com)": how logs and /readyz name it
	// owner is the member whose feed it is (calendar.Owner of their
	// address), member the feed's row; "" and 0 for a shared feed.
	owner  string
	member int64

	// busy is the last good copy's busy time over the span worked out;
	// nil before any copy. copy is that copy, compressed, to work the
	// busy time out again as the span moves on while the feed answers
	// "not modified".
	busy         *Busy
	copy         []byte
	etag         string
	lastModified string
	loadedAt     time.Time // when the last good copy was fetched
	failingSince time.Time // zero while the last fetch worked
	lastError    string    // why the last fetch failed, without the URL
}

// NewSource returns a source for cfg.URLs. It reads nothing yet: see
// [Source.Run], or [Source.Load] and [Source.Refresh].
func NewSource(cfg Config) (*Source, error) {
	cfg = cfg.withDefaults()
	s := &Source{cfg: cfg}
	for i, raw := range cfg.URLs {
		u, err := checkURL(raw)
		if err != nil {
			// The URL is a secret: say which one, not what it is.
			return nil, fmt.Errorf("calendar: feed %d is not an http(s) or webcal URL", i+1)
		}
		s.feeds = append(s.feeds, &feed{
			url: u.String(), key: urlKey(raw), host: u.Hostname(),
			name: fmt.Sprintf("feed %d (%s)", i+1, u.Hostname()),
		})
	}
	return s, nil
}

// members reports whether s reads the members' own feeds.
func (s *Source) members() bool { return s.cfg.Members && s.cfg.Store != nil }

// current returns the feeds in use.
func (s *Source) current() []*feed {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.feeds
}

// syncMembers reads the members' feeds again: a new one is added (with
// its stored copy, if any), a removed one is let go, the others keep
// their state.
func (s *Source) syncMembers(ctx context.Context) error {
	if !s.members() {
		return nil
	}
	rows, err := memberFeedURLs(ctx, s.cfg.Store)
	if err != nil {
		return fmt.Errorf("calendar: read the members' feeds: %w", err)
	}
	s.mu.RLock()
	old := map[int64]*feed{}
	unread := map[int64]bool{} // never read here: another instance may have read it since, and its copy counts
	var next []*feed
	for _, f := range s.feeds {
		if f.member == 0 {
			next = append(next, f)
		} else {
			old[f.member], unread[f.member] = f, f.busy == nil
		}
	}
	s.mu.RUnlock()
	var added, stored []*feed
	for _, r := range rows {
		if f, ok := old[r.id]; ok && f.owner == r.owner {
			next = append(next, f)
			if unread[r.id] {
				stored = append(stored, f)
			}
			continue
		}
		u, err := checkURL(r.url)
		if err != nil {
			continue // AddMemberFeed stores none such
		}
		f := &feed{url: u.String(), key: urlKey(strings.TrimSpace(r.url)), host: u.Hostname(), owner: r.owner, member: r.id,
			name: fmt.Sprintf("member feed %d (%s)", r.id, u.Hostname())}
		next = append(next, f)
		added = append(added, f)
	}
	s.mu.Lock()
	removed := len(s.feeds) != len(next)-len(added)
	s.feeds = next
	s.mu.Unlock()
	copied := false
	for _, f := range append(added, stored...) {
		if err := s.loadCopy(ctx, f); err != nil {
			s.cfg.Logger.Warn("calendar: the stored copy of a feed could not be read", "feed", f.name, "err", err)
		}
		s.mu.RLock()
		copied = copied || f.busy != nil
		s.mu.RUnlock()
	}
	if removed || len(added) > 0 || copied {
		s.recompute()
	}
	return nil
}

// MembersChanged reads the members' feeds again at once: a feed removed
// in the workspace stops counting now rather than at the next Refresh.
func (s *Source) MembersChanged(ctx context.Context) {
	if err := s.syncMembers(ctx); err != nil {
		s.cfg.Logger.Warn("calendar: the members' feeds could not be read", "err", err)
	}
}

// ReadMemberFeed fetches the member's feed id (a row of
// staff_calendar_feeds) at once, rather than at the next Refresh, and
// reports whether its busy time counts now: false when it could not be
// read (it is tried again at every Refresh, as any feed) or ctx ended
// first. The log names the feed by its number and host, never its URL.
func (s *Source) ReadMemberFeed(ctx context.Context, id int64) bool {
	if !s.members() {
		return false
	}
	if err := s.syncMembers(ctx); err != nil {
		s.cfg.Logger.Warn("calendar: the members' feeds could not be read", "err", err)
		return false
	}
	var f *feed
	for _, c := range s.current() {
		if c.member == id {
			f = c
			break
		}
	}
	if f == nil {
		return false
	}
	s.fetch(ctx, f)
	s.recompute()
	s.mu.RLock()
	defer s.mu.RUnlock()
	return f.busy != nil && f.lastError == ""
}

// Run loads the last good copies, fetches every feed, and fetches them
// again every Refresh until ctx is done.
func (s *Source) Run(ctx context.Context) {
	if len(s.feeds) == 0 && !s.members() {
		return
	}
	if err := s.Load(ctx); err != nil {
		s.cfg.Logger.Warn("calendar: the stored copies of the feeds could not be read", "err", err)
	}
	tick := time.NewTicker(s.cfg.Refresh)
	defer tick.Stop()
	var sync <-chan time.Time
	if s.members() {
		t := time.NewTicker(s.cfg.MemberSync)
		defer t.Stop()
		sync = t.C
	}
	for {
		s.Refresh(ctx)
		for refresh := false; !refresh; {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
				refresh = true
			case <-sync:
				s.MembersChanged(ctx)
			}
		}
	}
}

// Load reads the last good copy of each feed from the database.
func (s *Source) Load(ctx context.Context) error {
	if s.cfg.Store == nil {
		return nil
	}
	if err := s.syncMembers(ctx); err != nil {
		return err
	}
	for _, f := range s.current() {
		if f.member != 0 {
			continue // syncMembers has loaded it
		}
		if err := s.loadCopy(ctx, f); err != nil {
			return err
		}
	}
	s.recompute()
	return nil
}

// loadCopy reads f's last good copy from the database, if there is one.
func (s *Source) loadCopy(ctx context.Context, f *feed) error {
	var (
		body           []byte
		etag, modified string
		fetchedAt      int64
	)
	err := s.cfg.Store.QueryRowContext(ctx,
		`SELECT body, etag, last_modified, fetched_at FROM calendar_feeds WHERE feed_key = ?`, f.key).
		Scan(&body, &etag, &modified, &fetchedAt)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("calendar: load %s: %w", f.name, err)
	}
	busy, err := Expand(body, s.cfg.Home, s.span(s.cfg.Now()))
	releaseMemory(len(body))
	if err != nil {
		return nil
	}
	s.mu.Lock()
	f.busy, f.copy, f.etag, f.lastModified, f.loadedAt = busy, compress(body), etag, modified, store.FromMillis(fetchedAt)
	s.mu.Unlock()
	return nil
}

// Refresh fetches every feed once, side by side, and works the busy time
// out again as each one is done: a feed that hangs until its timeout
// delays no other. It returns when every fetch is done.
func (s *Source) Refresh(ctx context.Context) {
	if err := s.syncMembers(ctx); err != nil {
		s.cfg.Logger.Warn("calendar: the members' feeds could not be read", "err", err)
	}
	var wg sync.WaitGroup
	for _, f := range s.current() {
		wg.Go(func() {
			s.fetch(ctx, f)
			s.recompute()
		})
	}
	wg.Wait()
}

// fetch gets f, keeping the last good copy when anything goes wrong.
func (s *Source) fetch(ctx context.Context, f *feed) {
	now := s.cfg.Now()
	body, etag, modified, notModified, err := s.get(ctx, f)
	defer releaseMemory(len(body)) // after the lock below is let go
	var (
		busy   *Busy
		copied []byte
	)
	if err == nil && !notModified {
		copied = compress(body)
		busy, err = Expand(body, s.cfg.Home, s.span(now))
		if err != nil {
			err = errors.New("the answer is not an iCalendar feed")
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err != nil {
		if f.failingSince.IsZero() {
			f.failingSince = now
		}
		f.lastError = err.Error()
		attrs := []any{"feed", f.name, "error", f.lastError, "failing_since", f.failingSince.UTC().Format(time.RFC3339)}
		if f.busy != nil {
			attrs = append(attrs, "using_copy_of", f.loadedAt.UTC().Format(time.RFC3339))
		} else {
			attrs = append(attrs, "using", "the weekly hours alone")
		}
		s.cfg.Logger.Warn("calendar feed not updated", attrs...)
		return
	}
	if !f.failingSince.IsZero() {
		s.cfg.Logger.Info("calendar feed works again", "feed", f.name)
	}
	f.failingSince, f.lastError = time.Time{}, ""
	if notModified {
		return
	}
	f.busy, f.copy, f.etag, f.lastModified, f.loadedAt = busy, copied, etag, modified, now
	s.logProblems(f, busy.Report)
	if s.cfg.Store != nil {
		if err := s.save(ctx, f, body, now); err != nil {
			s.cfg.Logger.Warn("calendar feed copy not stored", "feed", f.name, "err", err)
		}
	}
}

// logProblems logs what of a feed could not be read: a line for each
// event kept in Problems, by UID, so that it can be found and fixed in the
// calendar application, and the count.
func (s *Source) logProblems(f *feed, cal Report) {
	for _, p := range cal.Problems {
		s.cfg.Logger.Warn("calendar event not read", "feed", f.name, "uid", p.UID, "error", p.Err.Error())
	}
	if cal.Skipped > 0 || cal.Dropped > 0 {
		s.cfg.Logger.Warn("calendar feed has events or values that could not be read", "feed", f.name, "events_skipped", cal.Skipped, "values_dropped", cal.Dropped)
	}
}

// get requests f, conditionally on the copy held. Its errors name the
// problem, never the URL.
func (s *Source) get(ctx context.Context, f *feed) (body []byte, etag, modified string, notModified bool, err error) {
	ctx, cancel := context.WithTimeout(ctx, s.cfg.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, f.url, nil)
	if err != nil {
		return nil, "", "", false, errors.New("the request could not be made")
	}
	req.Header.Set("Accept", "text/calendar, */*;q=0.5")
	req.Header.Set("User-Agent", "northbeam-site calendar reader")
	s.mu.RLock()
	if f.busy != nil {
		if f.etag != "" {
			req.Header.Set("If-None-Match", f.etag)
		}
		if f.lastModified != "" {
			req.Header.Set("If-Modified-Since", f.lastModified)
		}
	}
	s.mu.RUnlock()
	res, err := s.cfg.Client.Do(req)
	if err != nil {
		return nil, "", "", false, describe(err)
	}
	defer res.Body.Close()
	switch {
	case res.StatusCode == http.StatusNotModified:
		return nil, "", "", true, nil
	case res.StatusCode != http.StatusOK:
		return nil, "", "", false, fmt.Errorf("HTTP %d", res.StatusCode)
	}
	body, err = io.ReadAll(io.LimitReader(res.Body, s.cfg.MaxBytes+1))
	if err != nil {
		return nil, "", "", false, describe(err)
	}
	if int64(len(body)) > s.cfg.MaxBytes {
		return nil, "", "", false, fmt.Errorf("larger than %d MB", s.cfg.MaxBytes>>20)
	}
	return body, res.Header.Get("ETag"), res.Header.Get("Last-Modified"), false, nil
}

// describe says what went wrong with a request without quoting it: the
// errors of net/http start with the method and the whole URL.
func describe(err error) error {
	var netErr net.Error
	switch {
	case errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &netErr) && netErr.Timeout()):
		return errors.New("no answer in time")
	case errors.Is(err, context.Canceled):
		return errors.New("cancelled")
	}
	var opErr *net.OpError
	if errors.As(err, &opErr) && opErr.Err != nil {
		return fmt.Errorf("cannot connect: %s", opErr.Err.Error())
	}
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) {
		return errors.New("the host name does not resolve")
	}
	return errors.New("the request failed")
}

// save keeps body as f's last good copy.
func (s *Source) save(ctx context.Context, f *feed, body []byte, at time.Time) error {
	return s.cfg.Store.InTx(ctx, func(tx *store.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM calendar_feeds WHERE feed_key = ?`, f.key); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `
INSERT INTO calendar_feeds (feed_key, host, body, etag, last_modified, fetched_at) VALUES (?, ?, ?, ?, ?, ?)`,
			f.key, f.host, body, f.etag, f.lastModified, store.Millis(at))
		return err
	})
}

// span is the time over which busy time is worked out at now: from three
// days back to Ahead and a day more, so that the busy time is worked out
// again from the copy about once a day rather than at every refresh.
func (s *Source) span(now time.Time) Interval {
	return Interval{now.Add(-72 * time.Hour), now.Add(s.cfg.Ahead + 24*time.Hour)}
}

// recompute merges the busy time of every feed over the span ahead,
// working a feed's out again from its copy where its span no longer
// covers what is needed.
func (s *Source) recompute() {
	// One at a time: two feeds done together must not leave the older
	// result in place.
	s.recomputing.Lock()
	defer s.recomputing.Unlock()
	now := s.cfg.Now()
	needed := Interval{now.Add(-48 * time.Hour), now.Add(s.cfg.Ahead + s.cfg.Refresh)}
	var all []Interval
	byOwner := map[string][]Interval{}
	for _, f := range s.current() {
		s.mu.RLock()
		busy, copied := f.busy, f.copy
		s.mu.RUnlock()
		if busy == nil {
			continue
		}
		if needed.Start.Before(busy.Span.Start) || needed.End.After(busy.Span.End) {
			again, err := expandCopy(copied, s.cfg.Home, s.span(now))
			releaseMemory(len(copied) * 10)
			if err == nil {
				busy = again
				s.mu.Lock()
				if f.busy != nil && bytes.Equal(f.copy, copied) {
					f.busy = busy
				}
				s.mu.Unlock()
			}
		}
		if f.owner != "" {
			byOwner[f.owner] = append(byOwner[f.owner], busy.Within(needed)...)
			continue
		}
		all = append(all, busy.Within(needed)...)
	}
	merged := Merge(all)
	for owner, busy := range byOwner {
		byOwner[owner] = Merge(busy)
	}
	s.mu.Lock()
	s.busy, s.busyOf, s.computed = merged, byOwner, needed
	s.mu.Unlock()
}

// Busy returns the consultancy's busy time from its calendars that
// overlaps window, sorted and merged. Before any copy of a feed was
// loaded it has none: the weekly hours alone decide. Beyond the span
// worked out (a window further ahead than Ahead) it knows nothing.
func (s *Source) Busy(window Interval) []Interval {
	return s.BusyOf("", window)
}

// BusyOf returns the busy time of owner's own feeds (a member: Owner of
// their address) that overlaps window, sorted and merged, as Busy does the
// shared feeds' ("" for owner is Busy). A member without feeds is free.
func (s *Source) BusyOf(owner string, window Interval) []Interval {
	if s == nil {
		return nil
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	if !window.Start.Before(s.computed.Start) && !window.End.After(s.computed.End) {
		busy := s.busy
		if owner != "" {
			busy = s.busyOf[owner]
		}
		return (&Busy{Intervals: busy}).Within(window)
	}
	// A clock that moved on since the last refresh: each feed's own span
	// reaches a day further.
	var all []Interval
	for _, f := range s.feeds {
		if f.busy != nil && f.owner == owner {
			all = append(all, f.busy.Within(window)...)
		}
	}
	return Merge(all)
}

// releaseMemory returns at once to the system the memory that reading a
// feed of size bytes took: a large feed is read every few minutes, and Go
// would otherwise hand the pages back only slowly, so that the site's
// resident size would stay at its peak.
func releaseMemory(size int) {
	if size > 1<<20 {
		debug.FreeOSMemory()
	}
}

// compress keeps a feed's copy small: iCalendar text compresses tenfold.
func compress(body []byte) []byte {
	var b bytes.Buffer
	w, _ := gzip.NewWriterLevel(&b, gzip.BestSpeed) // a valid level
	_, _ = w.Write(body)                            // a bytes.Buffer does not fail
	_ = w.Close()
	return b.Bytes()
}

// expandCopy works the busy time of a compressed copy out over span.
func expandCopy(copied []byte, home *time.Location, span Interval) (*Busy, error) {
	r, err := gzip.NewReader(bytes.NewReader(copied))
	if err != nil {
		return nil, err
	}
	body, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	return Expand(body, home, span)
}

// FeedStatus is what /readyz says about a feed.
type FeedStatus struct {
	Name         string    // "feed 1 (calendar.example.com)"
	Loaded       bool      // a copy is in use
	LoadedAt     time.Time // when that copy was fetched
	FailingSince time.Time // zero while it is up to date
	LastError    string
	Skipped      int // events of the copy in use that could not be read
	Dropped      int // values left out of the events that were read
}

// Status returns the state of every feed.
func (s *Source) Status() []FeedStatus {
	if s == nil {
		return nil
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]FeedStatus, len(s.feeds))
	for i, f := range s.feeds {
		out[i] = FeedStatus{Name: f.name, Loaded: f.busy != nil, LoadedAt: f.loadedAt, FailingSince: f.failingSince, LastError: f.lastError}
		if f.busy != nil {
			out[i].Skipped, out[i].Dropped = f.busy.Skipped, f.busy.Dropped
		}
	}
	return out
}
