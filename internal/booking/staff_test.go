package booking

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/northbeam/site/internal/store"
	"github.com/northbeam/site/internal/store/storetest"
)

// A cancellation by staff frees the time, tells the visitor why in their
// language with the invite's cancellation, and tells the consultancy who
// did it; it is refused when there is nothing to cancel any more.
func TestStaffCancellation(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		now := utc(t, "2027-03-01T05:00:00Z")
		svc := testService(t, st, &now)
		staff, err := NewStaffCancellation(svc, os.DirFS("../../content"))
		if err != nil {
			t.Fatal(err)
		}
		b, err := svc.Book(ctx, request(t, "strategy", "2027-03-02T09:00:00Z"))
		if err != nil {
			t.Fatal(err)
		}
		var id int64
		if err := st.QueryRowContext(ctx, `SELECT id FROM bookings WHERE token = ?`, b.Token).Scan(&id); err != nil {
			t.Fatal(err)
		}
		if _, err := staff.Cancel(ctx, id, " \n ", "ops@example.com", nil); !errors.Is(err, ErrReason) {
			t.Errorf("empty reason: %v", err)
		}
		if _, err := staff.Cancel(ctx, id, strings.Repeat("x", ReasonMax+1), "ops@example.com", nil); !errors.Is(err, ErrReason) {
			t.Errorf("long reason: %v", err)
		}
		if _, err := staff.Cancel(ctx, 999, "Ill", "ops@example.com", nil); !errors.Is(err, ErrNotFound) {
			t.Errorf("unknown booking: %v", err)
		}
		if n := countRows(t, st, `SELECT count(*) FROM outbox`); n != 2 {
			t.Fatalf("refusals queued mail: %d rows", n)
		}

		alsoRan := false
		got, err := staff.Cancel(ctx, id, "Notre consultante est malade.", "ops@example.com", func(ctx context.Context, tx *store.Tx, b Booking) error {
			alsoRan = b.IsCancelled()
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if !got.IsCancelled() || !alsoRan {
			t.Errorf("cancelled %v, hook saw it cancelled %v", got.IsCancelled(), alsoRan)
		}
		var subject, text string
		if err := st.QueryRowContext(ctx, `SELECT subject, text_body FROM outbox WHERE kind = ?`, KindStaffCancelled).Scan(&subject, &text); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(subject, "annulée") || !strings.Contains(text, "Notre consultante est malade.") || strings.Contains(text, "Jane Doe") {
			t.Errorf("the visitor's mail (French, with the reason, without the name they typed):\n%s\n%s", subject, text)
		}
		if err := st.QueryRowContext(ctx, `SELECT text_body FROM outbox WHERE kind = ?`, KindStaffCancelNotify).Scan(&text); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(text, "ops@example.com") || !strings.Contains(text, "Notre consultante est malade.") {
			t.Errorf("the consultancy's copy names who and why:\n%s", text)
		}
		if n := countRows(t, st, `SELECT count(*) FROM outbox_attachments WHERE content_type LIKE '%method=CANCEL' AND filename = 'cancellation.ics'`); n != 2 {
			t.Errorf("%d cancellations attached, want 2", n)
		}
		// The time is free again.
		if _, err := svc.Book(ctx, request(t, "strategy", "2027-03-02T09:00:00Z")); err != nil {
			t.Errorf("booking the freed time: %v", err)
		}

		if _, err := staff.Cancel(ctx, id, "Again", "ops@example.com", nil); !errors.Is(err, ErrCancelledAlready) {
			t.Errorf("second cancellation: %v", err)
		}
		var second int64
		if err := st.QueryRowContext(ctx, `SELECT max(id) FROM bookings`).Scan(&second); err != nil {
			t.Fatal(err)
		}
		now = now.Add(30 * time.Hour) // Tuesday 11:00 in Berlin: the meeting has begun
		if _, err := staff.Cancel(ctx, second, "Too late", "ops@example.com", nil); !errors.Is(err, ErrStarted) {
			t.Errorf("cancellation of a meeting under way: %v", err)
		}
	})
}
