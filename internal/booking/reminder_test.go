package booking

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	ical "github.com/emersion/go-ical"

	"github.com/northbeam/site/internal/logtest"
	"github.com/northbeam/site/internal/mail"
	"github.com/northbeam/site/internal/mail/mailtest"
	"github.com/northbeam/site/internal/store"
	"github.com/northbeam/site/internal/store/storetest"
)

// workerClock is the mail worker's clock, moved by the test.
type workerClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *workerClock) Now() time.Time  { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *workerClock) Set(t time.Time) { c.mu.Lock(); defer c.mu.Unlock(); c.now = t }

// TestReminderIsSentOnce: a reminder falls due while the server is down;
// the server that starts next sends it, once, and any later start (or
// another instance) does not send it again. A cancelled booking's reminder
// is never sent. The invites that went out are read back with an
// iCalendar parser.
func TestReminderIsSentOnce(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		now := utc(t, "2027-03-01T05:00:00Z")
		svc := testServiceWith(t, st, &now, func(c *Config) { c.ReminderBefore = 24 * time.Hour })
		r := request(t, "strategy", "2027-03-03T09:00:00Z")
		r.TimeZone = "America/New_York"
		b, err := svc.Book(ctx, r)
		if err != nil {
			t.Fatal(err)
		}
		cancelled, err := svc.Book(ctx, BookingRequest{Service: "discovery", Start: "2027-03-04T09:00:00Z", Name: "Ola", Email: "ola@example.com", TimeZone: "UTC", Lang: "en"})
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := svc.Cancel(ctx, cancelled.CancelToken); err != nil {
			t.Fatal(err)
		}

		smtp := mailtest.Start(t)
		clock := &workerClock{now: utc(t, "2027-03-01T06:00:00Z")}
		start := func() *mail.Worker { // a start of the server: a new worker on the same database
			sender, err := mail.NewSMTPSender(mail.SMTPConfig{URL: smtp.URL(), From: "Northbeam <hello@example.com>"})
			if err != nil {
				t.Fatal(err)
			}
			return mail.NewWorker(st, sender, mail.WorkerConfig{Now: clock.Now, Logger: (&logtest.Buffer{}).Logger()})
		}
		reminders := func() []mailtest.Received {
			var out []mailtest.Received
			for _, m := range smtp.Received() {
				if strings.Contains(m.Header.Get("Message-Id"), b.ReminderRef) {
					out = append(out, m)
				}
			}
			return out
		}

		if _, err := start().DrainOnce(ctx); err != nil {
			t.Fatal(err)
		}
		if n := len(smtp.Received()); n != 6 || len(reminders()) != 0 {
			t.Fatalf("%d mails sent at booking time (%d reminders), want the 2 confirmations and 2 cancellations, no reminder", n, len(reminders()))
		}
		// The server is down while the reminder falls due (Tuesday 09:00
		// UTC), and starts again at 09:30.
		clock.Set(utc(t, "2027-03-02T09:30:00Z"))
		if n, err := start().DrainOnce(ctx); err != nil || n != 1 {
			t.Fatalf("the start after the reminder fell due sent %d (%v), want the reminder", n, err)
		}
		for range 2 {
			if n, err := start().DrainOnce(ctx); err != nil || n != 0 {
				t.Errorf("a later start sent %d more (%v)", n, err)
			}
		}
		got := reminders()
		if len(got) != 1 {
			t.Fatalf("%d reminders received, want 1", len(got))
		}
		text, _ := got[0].Text()
		if got[0].To[0] != "jane@example.com" || got[0].Header.Get("Content-Language") != "fr" ||
			!strings.Contains(text, "New York (heure de l’Est nord-américain)") || !strings.Contains(text, "/schedule/reschedule?token="+b.CancelToken) ||
			!strings.Contains(text, "/schedule/cancel?token="+b.CancelToken) {
			t.Errorf("the reminder to %v (%s):\n%s", got[0].To, got[0].Header.Get("Content-Language"), text)
		}

		// Every invite sent parses, and says what the booking is.
		invites := 0
		for _, m := range smtp.Received() {
			for _, a := range m.Attachments() {
				cal, err := ical.NewDecoder(strings.NewReader(string(a.Body))).Decode()
				if err != nil {
					t.Fatalf("an invite does not parse: %v\n%s", err, a.Body)
				}
				ev := cal.Events()[0]
				start, err := ev.DateTimeStart(time.UTC)
				if err != nil || (!start.Equal(b.Start) && !start.Equal(cancelled.Start)) {
					t.Errorf("an invite starts at %v (%v)", start, err)
				}
				invites++
			}
		}
		if invites != 6 {
			t.Errorf("%d invites parsed, want 6 (two bookings, one cancellation, each to both sides)", invites)
		}
	})
}
