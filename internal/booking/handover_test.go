package booking

import (
	"context"
	"errors"
	"os"
	"testing"
	"time"

	"github.com/northbeam/site/internal/store"
	"github.com/northbeam/site/internal/store/storetest"
)

// A hand-over keeps the time and changes the host: the reminder waiting
// for its time is written again naming the new host; it is allowed
// within the minimum notice, to a host whose hours hold the time, but not
// to one who does not take the service nor once the consultation began.
func TestHandOver(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		now := utc(t, "2027-03-01T05:00:00Z")
		svc := hostsService(t, st, &now, func(c *Config) { c.ReminderBefore = 24 * time.Hour })
		staff, err := NewStaffCancellation(svc, os.DirFS("../../content"))
		if err != nil {
			t.Fatal(err)
		}
		r := request(t, "discovery", "2027-03-02T09:00:00Z") // Tuesday, 10:00 in Berlin
		r.Person = "ana"
		b, err := svc.Book(ctx, r)
		if err != nil {
			t.Fatal(err)
		}
		var id int64
		if err := st.QueryRowContext(ctx, `SELECT id FROM bookings WHERE token = ?`, b.Token).Scan(&id); err != nil {
			t.Fatal(err)
		}
		// The reminders waiting, and the one the booking names.
		reminders := func() ([]string, string) {
			t.Helper()
			refs, err := store.QueryAll(ctx, st, func(row store.Scanner) (string, error) {
				var s string
				return s, row.Scan(&s)
			}, `SELECT ref FROM outbox WHERE kind = ? ORDER BY id`, KindReminder)
			if err != nil {
				t.Fatal(err)
			}
			var named string
			if err := st.QueryRowContext(ctx, `SELECT reminder_ref FROM bookings WHERE id = ?`, id).Scan(&named); err != nil {
				t.Fatal(err)
			}
			return refs, named
		}
		first, _ := reminders()
		if len(first) != 1 {
			t.Fatalf("%d reminders before the hand-over", len(first))
		}

		// A cap on the day's discovery calls lowered below what the day
		// already holds does not keep a booking from changing hands.
		svc.cfg.Availability.MaxPerDay = map[string]int{"discovery": 0}
		var before Booking
		moved, err := staff.HandOver(ctx, id, "ben", func(_ context.Context, _ *store.Tx, b Booking) error { before = b; return nil })
		if err != nil || moved.Host != "ben" || !moved.Start.Equal(b.Start) || moved.Sequence != 1 || before.Host != "ana" {
			t.Fatalf("HandOver to Ben: %+v (before: %s), %v", moved, before.Host, err)
		}
		if got, named := reminders(); len(got) != 1 || got[0] == first[0] || named != got[0] {
			t.Errorf("the reminders after the hand-over: %q (the booking names %q), want one written anew", got, named)
		}

		svc.cfg.Availability.MaxPerDay = nil
		if _, err := staff.HandOver(ctx, id, "nobody", nil); !errors.Is(err, ErrNotHost) {
			t.Errorf("to no host: %v", err)
		}
		if _, err := staff.HandOver(ctx, id, "ben", nil); !errors.Is(err, ErrSameHost) {
			t.Errorf("to its own host: %v", err)
		}
		// Seven hours before, within the twelve of notice: Cleo's morning
		// holds 10:00.
		now = utc(t, "2027-03-02T02:00:00Z")
		if got, err := staff.HandOver(ctx, id, "cleo", nil); err != nil || got.Host != "cleo" {
			t.Errorf("within the minimum notice: %+v, %v", got, err)
		}
		// In the afternoon Cleo does not work.
		r = request(t, "discovery", "2027-03-03T13:00:00Z")
		r.Person, r.Email = "ana", "late@example.com"
		now = utc(t, "2027-03-01T05:00:00Z")
		late, err := svc.Book(ctx, r)
		if err != nil {
			t.Fatal(err)
		}
		var lateID int64
		if err := st.QueryRowContext(ctx, `SELECT id FROM bookings WHERE token = ?`, late.Token).Scan(&lateID); err != nil {
			t.Fatal(err)
		}
		if _, err := staff.HandOver(ctx, lateID, "cleo", nil); !errors.Is(err, ErrSlotTaken) {
			t.Errorf("to Cleo outside her hours: %v, want ErrSlotTaken", err)
		}
		now = utc(t, "2027-03-02T09:05:00Z")
		if _, err := staff.HandOver(ctx, id, "ana", nil); !errors.Is(err, ErrStarted) {
			t.Errorf("once begun: %v, want ErrStarted", err)
		}
	})
}
