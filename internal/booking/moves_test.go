package booking

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/northbeam/site/internal/calendar"
	"github.com/northbeam/site/internal/store"
	"github.com/northbeam/site/internal/store/storetest"
)

// outboxKinds lists the kinds of the mails in the outbox, oldest first,
// with the time a reminder waits for.
func outboxKinds(t *testing.T, st *store.Store) []string {
	t.Helper()
	rows, err := st.QueryContext(context.Background(), `SELECT kind, next_attempt_at FROM outbox ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var kind string
		var due int64
		if err := rows.Scan(&kind, &due); err != nil {
			t.Fatal(err)
		}
		if kind == KindReminder {
			// Only a reminder waits: the others are due when queued.
			kind += "@" + store.FromMillis(due).Format("2006-01-02T15:04")
		}
		out = append(out, kind)
	}
	return out
}

func offeredOn(t *testing.T, svc *Service, service string, day Date) map[string]bool {
	t.Helper()
	q := SlotsQuery{Service: service, From: day, Days: 1, TimeZone: "UTC", Location: time.UTC}
	days, err := svc.Slots(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for _, s := range days[0].Slots {
		out[s.Start.Format("15:04")] = true
	}
	return out
}

// TestReschedule moves a booking: the new time is taken and the old one
// freed together, the invite is sent again with the same UID and a higher
// SEQUENCE, and the reminder follows the new time.
func TestReschedule(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		now := utc(t, "2027-03-01T05:00:00Z") // Monday, 06:00 in Berlin
		svc := testServiceWith(t, st, &now, func(c *Config) { c.ReminderBefore = 24 * time.Hour })
		b, err := svc.Book(ctx, request(t, "strategy", "2027-03-03T09:00:00Z")) // Wednesday 10:00 Berlin
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(outboxKinds(t, st), " "); got != "booking.confirmation booking.notify booking.reminder@2027-03-02T09:00" {
			t.Errorf("outbox after booking: %s", got)
		}
		moved, err := svc.Reschedule(ctx, b.CancelToken, "2027-03-04T13:00:00Z") // Thursday 14:00 Berlin
		if err != nil {
			t.Fatal(err)
		}
		if !moved.Start.Equal(utc(t, "2027-03-04T13:00:00Z")) || moved.Sequence != 1 || moved.Token != b.Token {
			t.Errorf("moved booking %+v", moved)
		}
		if got := strings.Join(outboxKinds(t, st), " "); got != "booking.confirmation booking.notify booking.moved booking.moved-notify booking.reminder@2027-03-03T13:00" {
			t.Errorf("outbox after the move (the old reminder withdrawn, a new one for the new time): %s", got)
		}
		// The invite of the move: same UID, SEQUENCE 1, the new time.
		var ics []byte
		if err := st.QueryRowContext(ctx, `SELECT data FROM outbox_attachments a JOIN outbox o ON o.id = a.outbox_id WHERE o.kind = 'booking.moved'`).Scan(&ics); err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"UID:" + UID(b, "example.com"), "SEQUENCE:1", "DTSTART:20270304T130000Z", "METHOD:REQUEST"} {
			if !strings.Contains(string(ics), want) {
				t.Errorf("the moved invite lacks %s:\n%s", want, ics)
			}
		}
		// The visitor's mail names the new time and the previous one.
		var movedText string
		if err := st.QueryRowContext(ctx, `SELECT text_body FROM outbox WHERE kind = 'booking.moved'`).Scan(&movedText); err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"strategy 30 Auckland (heure de la Nouvelle-Zélande) jeudi 4 mars 2027", "was=mercredi 3 mars 2027 à 22:00 mercredi 3 mars 2027 à 10:00"} {
			if !strings.Contains(movedText, want) {
				t.Errorf("the moved mail lacks %q:\n%s", want, movedText)
			}
		}
		found, _ := svc.Find(ctx, b.Token)
		if !strings.Contains(string(svc.ICSFile(found)), "SEQUENCE:1") {
			t.Error("the invite served at the booking's address is not the new version")
		}
		// The old time is offered again; the new one is not.
		if !offeredOn(t, svc, "strategy", Date{2027, 3, 3})["09:00"] {
			t.Error("the old time is not offered again")
		}
		if offeredOn(t, svc, "strategy", Date{2027, 3, 4})["13:00"] {
			t.Error("the new time is still offered")
		}
		// Refusals.
		var fe FieldErrors
		if _, err := svc.Reschedule(ctx, b.CancelToken, "next tuesday"); !errors.As(err, &fe) {
			t.Errorf("a start that is not a time: %v", err)
		}
		if _, err := svc.Reschedule(ctx, NewToken(), "2027-03-04T14:00:00Z"); !errors.Is(err, ErrNotFound) {
			t.Errorf("an unknown token: %v", err)
		}
		if _, err := svc.Reschedule(ctx, b.Token, "2027-03-04T14:00:00Z"); !errors.Is(err, ErrNotFound) {
			t.Errorf("the public token, which only the cancel token's holder... : %v", err)
		}
		if _, err := svc.Reschedule(ctx, b.CancelToken, "2027-03-01T10:00:00Z"); !errors.Is(err, ErrSlotTaken) {
			t.Errorf("a time within the minimum notice: %v", err)
		}
		other, err := svc.Book(ctx, BookingRequest{Service: "discovery", Start: "2027-03-05T09:00:00Z", Name: "Ola", Email: "ola@example.com", TimeZone: "UTC", Lang: "en"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := svc.Reschedule(ctx, b.CancelToken, "2027-03-05T09:00:00Z"); !errors.Is(err, ErrSlotTaken) {
			t.Errorf("onto another booking: %v", err)
		}
		later := utc(t, "2027-03-04T05:00:00Z") // 8 hours before: within the 12 hours' notice
		now = later
		if _, err := svc.Reschedule(ctx, b.CancelToken, "2027-03-09T09:00:00Z"); !errors.Is(err, ErrTooLate) {
			t.Errorf("within the notice before the meeting: %v", err)
		}
		now = utc(t, "2027-03-04T13:05:00Z")
		if _, err := svc.Reschedule(ctx, b.CancelToken, "2027-03-09T09:00:00Z"); !errors.Is(err, ErrStarted) {
			t.Errorf("once started: %v", err)
		}
		now = utc(t, "2027-03-01T06:00:00Z")
		if _, _, err := svc.Cancel(ctx, other.CancelToken); err != nil {
			t.Fatal(err)
		}
		if _, err := svc.Reschedule(ctx, other.CancelToken, "2027-03-09T09:00:00Z"); !errors.Is(err, ErrCancelled) {
			t.Errorf("a cancelled booking: %v", err)
		}
	})
}

// Two visitors moving two bookings to the same time at once: one moves,
// the other is refused, and neither old time stays taken by the loser.
func TestConcurrentMovesToOneTime(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		now := utc(t, "2027-03-01T05:00:00Z")
		svc := testService(t, st, &now)
		a, err := svc.Book(ctx, request(t, "strategy", "2027-03-03T09:00:00Z"))
		if err != nil {
			t.Fatal(err)
		}
		b, err := svc.Book(ctx, request(t, "strategy", "2027-03-03T13:00:00Z"))
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		errs := make([]error, 2)
		for i, tok := range []string{a.CancelToken, b.CancelToken} {
			wg.Go(func() { _, errs[i] = svc.Reschedule(ctx, tok, "2027-03-04T10:00:00Z") })
		}
		wg.Wait()
		ok, taken := 0, 0
		for _, err := range errs {
			switch {
			case err == nil:
				ok++
			case errors.Is(err, ErrSlotTaken):
				taken++
			default:
				t.Errorf("move: %v", err)
			}
		}
		if ok != 1 || taken != 1 {
			t.Errorf("%d moved and %d refused, want 1 and 1", ok, taken)
		}
		if n := countRows(t, st, `SELECT count(*) FROM bookings WHERE start_at = `+fmt.Sprint(utc(t, "2027-03-04T10:00:00Z").UnixMilli())); n != 1 {
			t.Errorf("%d bookings at the contested time", n)
		}
	})
}

// TestReminders: a reminder waits in the outbox until its time; a booking
// made inside the window gets none; a cancelled booking's is withdrawn.
func TestReminders(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		now := utc(t, "2027-03-01T05:00:00Z")
		svc := testServiceWith(t, st, &now, func(c *Config) { c.ReminderBefore = 48 * time.Hour })
		// Tuesday 09:00 Berlin is 27 hours away: inside the 48 hours.
		soon, err := svc.Book(ctx, request(t, "discovery", "2027-03-02T08:00:00Z"))
		if err != nil {
			t.Fatal(err)
		}
		later, err := svc.Book(ctx, BookingRequest{Service: "discovery", Start: "2027-03-05T09:00:00Z", Name: "Ola", Email: "ola@example.com", TimeZone: "UTC", Lang: "de"})
		if err != nil {
			t.Fatal(err)
		}
		if soon.ReminderRef != "" || later.ReminderRef == "" {
			t.Errorf("reminders: soon %q, later %q", soon.ReminderRef, later.ReminderRef)
		}
		if n := countRows(t, st, `SELECT count(*) FROM outbox WHERE kind = 'booking.reminder' AND lang = 'de'`); n != 1 {
			t.Errorf("%d reminders queued, want the later booking's, in German", n)
		}
		if _, _, err := svc.Cancel(ctx, later.CancelToken); err != nil {
			t.Fatal(err)
		}
		if n := countRows(t, st, `SELECT count(*) FROM outbox WHERE kind = 'booking.reminder'`); n != 0 {
			t.Errorf("the cancelled booking's reminder is still queued")
		}
	})
}

// TestLimits: standing bookings per address, bookings per day of a
// service, and requests that look automated.
func TestLimits(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		now := utc(t, "2027-03-01T05:00:00Z")
		svc := testServiceWith(t, st, &now, func(c *Config) {
			c.AddressLimit = 2
			c.Availability.MaxPerDay = map[string]int{"strategy": 1}
		})
		for i, start := range []string{"2027-03-02T09:00:00Z", "2027-03-03T09:00:00Z"} {
			if _, err := svc.Book(ctx, request(t, "strategy", start)); err != nil {
				t.Fatalf("booking %d: %v", i, err)
			}
		}
		third := request(t, "discovery", "2027-03-04T09:00:00Z")
		third.Email = "JANE@Example.com"
		if _, err := svc.Book(ctx, third); !errors.Is(err, ErrAddressLimit) {
			t.Errorf("a third standing booking for one address (in other case): %v", err)
		}
		// The cap of a day: the 2nd strategy booking of Tuesday is refused,
		// and Tuesday offers no strategy slot any more; discovery is not capped.
		other := request(t, "strategy", "2027-03-02T13:00:00Z")
		other.Email = "someone@example.com"
		if _, err := svc.Book(ctx, other); !errors.Is(err, ErrDayFull) {
			t.Errorf("a second strategy booking on a day capped at one: %v", err)
		}
		if n := len(offeredOn(t, svc, "strategy", Date{2027, 3, 2})); n != 0 {
			t.Errorf("%d strategy slots still offered on a full day", n)
		}
		if n := len(offeredOn(t, svc, "discovery", Date{2027, 3, 2})); n == 0 {
			t.Error("the discovery slots of the day are gone too")
		}
		// Automated requests: nothing stored, nothing mailed.
		before := countRows(t, st, `SELECT count(*) FROM outbox`)
		bot := request(t, "discovery", "2027-03-05T09:00:00Z")
		bot.Email = "bot@example.com"
		bot.Website = "https://spam.example"
		if _, err := svc.Book(ctx, bot); !errors.Is(err, ErrSpam) {
			t.Errorf("honeypot: %v", err)
		}
		bot.Website, bot.RenderedAt = "", now.Add(-time.Second).UnixMilli()
		if _, err := svc.Book(ctx, bot); !errors.Is(err, ErrSpam) {
			t.Errorf("filled in a second: %v", err)
		}
		if countRows(t, st, `SELECT count(*) FROM bookings WHERE email = 'bot@example.com'`) != 0 || countRows(t, st, `SELECT count(*) FROM outbox`) != before {
			t.Error("an automated request stored a booking or queued mail")
		}
		bot.RenderedAt = now.Add(-time.Minute).UnixMilli()
		if _, err := svc.Book(ctx, bot); err != nil {
			t.Errorf("a person who took a minute: %v", err)
		}
	})
}

// TestCalendarTakesTime: the consultancy's own calendar takes its slots
// away (with the buffer), and a booking of such a time is refused.
func TestCalendarTakesTime(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		now := utc(t, "2027-03-01T05:00:00Z")
		feed := "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:m\r\nDTSTART;TZID=Europe/Berlin:20270302T100000\r\n" +
			"DTEND;TZID=Europe/Berlin:20270302T110000\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
		cal, err := calendar.Parse([]byte(feed), zone(t, "Europe/Berlin"))
		if err != nil {
			t.Fatal(err)
		}
		svc := testServiceWith(t, st, &now, func(c *Config) { c.Calendar = cal })
		offered := offeredOn(t, svc, "discovery", Date{2027, 3, 2})
		// The meeting is 09:00-10:00 UTC; with 10 minutes of buffer no
		// slot may end after 08:50 or start before 10:10.
		for clock, want := range map[string]bool{"08:30": true, "08:45": false, "09:30": false, "10:00": false, "10:15": true} {
			if offered[clock] != want {
				t.Errorf("%s UTC offered = %v, want %v", clock, offered[clock], want)
			}
		}
		if _, err := svc.Book(ctx, request(t, "discovery", "2027-03-02T09:30:00Z")); !errors.Is(err, ErrSlotTaken) {
			t.Errorf("booking a time the calendar takes: %v", err)
		}
	})
}

// TestCancelWithReason keeps why the visitor cancelled, cleaned of what
// could reorder text, and tells the consultancy; a reason too long is a
// field error and cancels nothing.
func TestCancelWithReason(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		now := utc(t, "2027-03-01T05:00:00Z")
		svc := testServiceWith(t, st, &now, nil)
		b, err := svc.Book(ctx, request(t, "strategy", "2027-03-03T09:00:00Z"))
		if err != nil {
			t.Fatal(err)
		}
		var fe FieldErrors
		if _, _, err := svc.CancelWithReason(ctx, b.CancelToken, strings.Repeat("x", MaxCancelReasonLength+1)); !errors.As(err, &fe) || fe["reason"] != KeyCancelReason {
			t.Errorf("a reason too long: %v", err)
		}
		if found, _ := svc.Find(ctx, b.Token); found.IsCancelled() {
			t.Fatal("a refused reason cancelled the booking")
		}
		cancelled, changed, err := svc.CancelWithReason(ctx, b.CancelToken, "  Nous avons\u202e trouvé\nune autre solution.  ")
		if err != nil || !changed {
			t.Fatalf("cancel: %v, changed %v", err, changed)
		}
		const want = "Nous avons trouvé\nune autre solution."
		found, _ := svc.Find(ctx, b.Token)
		if cancelled.CancelReason != want || found.CancelReason != want {
			t.Errorf("reason %q, stored %q; want %q", cancelled.CancelReason, found.CancelReason, want)
		}
		var notice string
		if err := st.QueryRowContext(ctx, `SELECT text_body FROM outbox WHERE kind = 'booking.cancel-notify'`).Scan(&notice); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(notice, "> Nous avons trouvé\n> une autre solution.") {
			t.Errorf("the consultancy's notice lacks the reason, quoted:\n%s", notice)
		}
	})
}
