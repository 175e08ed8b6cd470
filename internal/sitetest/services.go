package sitetest

import (
	"bytes"
	"context"
	"regexp"
	"sync"
	"testing"
	"time"

	ics "github.com/arran4/golang-ical"

	"github.com/northbeam/site/internal/booking"
	"github.com/northbeam/site/internal/contact"
	"github.com/northbeam/site/internal/sitebuild"
	"github.com/northbeam/site/internal/staff"
	"github.com/northbeam/site/internal/store"
)

// The consultancy's addresses in the tests.
const (
	ContactInbox = "inbox@northbeam.test" // where contact messages are sent
	Inbox        = "team@northbeam.test"  // the bookings' and the workspace's
)

// BookingFixture is the availability of the booking tests: the shape of
// content/availability.json without closed dates, so that editing the
// shipped file never breaks a test.
const BookingFixture = `{
  "timeZone": "Europe/Berlin",
  "weeklyHours": {
    "monday": [{"start": "09:00", "end": "12:30"}, {"start": "13:30", "end": "17:30"}],
    "tuesday": [{"start": "09:00", "end": "12:30"}, {"start": "13:30", "end": "17:30"}],
    "wednesday": [{"start": "09:00", "end": "12:30"}, {"start": "13:30", "end": "17:30"}],
    "thursday": [{"start": "09:00", "end": "12:30"}, {"start": "13:30", "end": "17:30"}],
    "friday": [{"start": "09:00", "end": "12:30"}, {"start": "13:30", "end": "17:30"}],
    "saturday": [],
    "sunday": []
  },
  "services": {"discovery": {"minutes": 15}, "strategy": {"minutes": 30}},
  "slotIntervalMinutes": 15,
  "bufferMinutes": 10,
  "minimumNoticeHours": 12,
  "daysAhead": 30,
  "closedDates": []
}`

// Clock is a clock that tests move by hand.
type Clock struct {
	mu  sync.Mutex
	now time.Time
}

// NewClock returns a clock showing now.
func NewClock(now time.Time) *Clock { return &Clock{now: now} }

// Now tells the time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Advance moves the clock on by d.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// ContactBrand is the consultancy as the contact mails of the tests at
// baseURL see it: in Berlin, with the shipped date formats.
func ContactBrand(t testing.TB, baseURL string) contact.Brand {
	t.Helper()
	s := Site(t)
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	return contact.Brand{Name: s.Info.Name, Email: s.Info.Email, BaseURL: baseURL, ResponseHours: s.Info.Stats.ResponseHours, Zone: berlin, Dates: s.Dates}
}

// ContactService returns the contact service of the tests on st: a form
// filled in faster than minFillTime is taken for a program's; queued is
// called when a mail is queued.
func ContactService(t testing.TB, st *store.Store, minFillTime time.Duration, queued func()) *contact.Service {
	t.Helper()
	svc, err := contact.NewService(st, Content(), contact.Config{
		Inbox:       ContactInbox,
		Brand:       ContactBrand(t, BaseURL),
		MinFillTime: minFillTime,
		Queued:      queued,
	})
	if err != nil {
		t.Fatal(err)
	}
	return svc
}

// BookingService returns the booking service of the tests on st, open as
// availability says, on the clock now, with its configuration changed by
// edits.
func BookingService(t testing.TB, st *store.Store, availability string, now func() time.Time, edits ...func(*booking.Config)) *booking.Service {
	t.Helper()
	av, err := booking.ParseAvailability([]byte(availability))
	if err != nil {
		t.Fatal(err)
	}
	cfg := BookingConfig(Site(t), av, now)
	for _, edit := range edits {
		edit(&cfg)
	}
	svc, err := booking.NewService(st, Content(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return svc
}

// BookingConfig is the configuration of the tests' booking service for
// the site s built, open as av says, on the clock now.
func BookingConfig(s *sitebuild.Build, av booking.Availability, now func() time.Time) booking.Config {
	return booking.Config{
		Availability: av,
		Inbox:        Inbox,
		Brand:        booking.Brand{Name: s.Info.Name, Email: s.Info.Email, BaseURL: BaseURL},
		Texts:        s.Locales,
		Dates:        s.Dates,
		LocalURL: func(lang, path string) string {
			l, ok := s.Info.Language(lang)
			if !ok {
				l = s.Info.Default()
			}
			return BaseURL + l.LocalPath(path)
		},
		Now: now,
		// People in a test type faster than people do; the time trap has
		// tests of its own.
		MinFillTime: time.Millisecond,
		People: func(lang, slug string) (booking.HostProfile, bool) {
			card, ok := s.HostCard(lang, slug)
			return booking.HostProfile{Name: card.Name, Role: card.Role}, ok
		},
	}
}

// StaffWorkspace returns the workspace of the tests on st at baseURL, with
// the shipped strings and mail, the consultancy in Berlin, on the clock
// now, with its configuration changed by edits.
func StaffWorkspace(t testing.TB, st *store.Store, baseURL string, now func() time.Time, edits ...func(*staff.Config)) *staff.Workspace {
	t.Helper()
	s := Site(t)
	mailer, err := contact.NewMailer(Content(), ContactBrand(t, baseURL), Inbox)
	if err != nil {
		t.Fatal(err)
	}
	berlin, _ := time.LoadLocation("Europe/Berlin")
	cfg := staff.Config{
		BaseURL: baseURL, Name: s.Info.Name, Location: berlin,
		Texts: s.StaffLocales, Content: Content(), Contact: mailer, Now: now,
	}
	for _, edit := range edits {
		edit(&cfg)
	}
	ws, err := staff.New(st, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return ws
}

// Count runs a counting query on q.
func Count(t testing.TB, q store.Querier, query string, args ...any) int {
	t.Helper()
	var n int
	if err := q.QueryRowContext(context.Background(), query, args...).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// Outbox returns the kind, recipient and body of every queued mail.
func Outbox(t testing.TB, st *store.Store) [][3]string {
	t.Helper()
	rows, err := st.DB().Query(`SELECT kind, to_addr, text_body FROM outbox ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out [][3]string
	for rows.Next() {
		var r [3]string
		if err := rows.Scan(&r[0], &r[1], &r[2]); err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	return out
}

var cancelLinkPattern = regexp.MustCompile(`https://example\.test(/[a-z]{2})?/schedule/cancel\?token=([A-Za-z0-9_-]{32})`)

// EmailedCancelToken reads the cancel link of the latest confirmation in
// the outbox, as the visitor would find it in their email; its language
// prefix must be wantPrefix.
func EmailedCancelToken(t testing.TB, st *store.Store, wantPrefix string) string {
	t.Helper()
	var token string
	for _, r := range Outbox(t, st) {
		if r[0] != booking.KindConfirmation {
			continue
		}
		m := cancelLinkPattern.FindStringSubmatch(r[2])
		if m == nil {
			t.Fatalf("no cancel link in the confirmation:\n%s", r[2])
		}
		if m[1] != wantPrefix {
			t.Errorf("cancel link %s: language prefix %q, want %q", m[0], m[1], wantPrefix)
		}
		token = m[2]
	}
	if token == "" {
		t.Fatal("no confirmation in the outbox")
	}
	return token
}

// ParseInvite reads a booking's invite, whose METHOD must be method, and
// returns its one event.
func ParseInvite(t testing.TB, data []byte, method string) *ics.VEvent {
	t.Helper()
	cal, err := ics.ParseCalendar(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("parse: %v\n%s", err, data)
	}
	var got string
	for _, p := range cal.CalendarProperties {
		if p.IANAToken == "METHOD" {
			got = p.Value
		}
	}
	if got != method {
		t.Errorf("METHOD %q, want %q", got, method)
	}
	events := cal.Events()
	if len(events) != 1 {
		t.Fatalf("%d events", len(events))
	}
	return events[0]
}

var staffLinkToken = regexp.MustCompile(`/staff/link\?token=([A-Za-z0-9_-]+)`)

// MailedSignInToken returns the token of the latest staff sign-in link in
// the outbox, as the member finds it in their mail.
func MailedSignInToken(t testing.TB, st *store.Store) string {
	t.Helper()
	var body string
	if err := st.QueryRowContext(context.Background(), `SELECT text_body FROM outbox WHERE kind = ? ORDER BY id DESC LIMIT 1`,
		staff.KindSignInLink).Scan(&body); err != nil {
		t.Fatalf("no sign-in link mailed: %v", err)
	}
	m := staffLinkToken.FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("no link in:\n%s", body)
	}
	return m[1]
}
