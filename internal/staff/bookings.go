package staff

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/northbeam/site/internal/booking"
	"github.com/northbeam/site/internal/store"
)

// Booking is a consultation as staff see it.
type Booking struct {
	ID        int64
	Service   string
	Start     time.Time
	End       time.Time
	Name      string // "" once erased or past retention
	Email     string
	Company   string
	Topic     string
	Phone     string // E.164, for a consultation by phone; "" once erased
	Meeting   string // the video room, for a video consultation
	TimeZone  string // the visitor's
	Lang      string
	Created   time.Time
	Cancelled time.Time // zero while it stands
	// CancelReason is why the visitor cancelled, in their words; "".
	CancelReason string
	BookedBy     string    // the staff member who booked it for a caller; "" when the visitor did
	NoShow       time.Time // when staff marked that the visitor did not come; zero otherwise
}

// Status says where b stands at now: "cancelled", "noShow" (past, and the
// visitor did not come), "past", "ongoing" or "upcoming".
func (b Booking) Status(now time.Time) string {
	switch {
	case !b.Cancelled.IsZero():
		return "cancelled"
	case !b.NoShow.IsZero():
		return "noShow"
	case !now.Before(b.End):
		return "past"
	case !now.Before(b.Start):
		return "ongoing"
	}
	return "upcoming"
}

// Views of the agenda.
const (
	ViewUpcoming  = "upcoming"
	ViewPast      = "past"
	ViewCancelled = "cancelled"
)

// ValidView reports whether v names a view of the agenda.
func ValidView(v string) bool { return v == ViewUpcoming || v == ViewPast || v == ViewCancelled }

// Day is one day of the agenda in the consultancy's zone.
type Day struct {
	Date     string // YYYY-MM-DD
	Bookings []Booking
}

const staffBookingColumns = `id, service, start_at, end_at, name, email, company, topic, phone, meeting_url, time_zone, lang, created_at, cancelled_at,
	booked_by, no_show_at, cancel_reason`

func scanBooking(row store.Scanner) (Booking, error) {
	var b Booking
	var start, end, created int64
	var cancelled, noShow sql.NullInt64
	if err := row.Scan(&b.ID, &b.Service, &start, &end, &b.Name, &b.Email, &b.Company, &b.Topic, &b.Phone, &b.Meeting, &b.TimeZone, &b.Lang, &created, &cancelled,
		&b.BookedBy, &noShow, &b.CancelReason); err != nil {
		return Booking{}, err
	}
	b.Start, b.End, b.Created, b.Cancelled = store.FromMillis(start), store.FromMillis(end), store.FromMillis(created), store.FromMillis(cancelled.Int64)
	b.NoShow = store.FromMillis(noShow.Int64)
	return b, nil
}

func queryBookings(ctx context.Context, q store.Querier, where, order string, args ...any) ([]Booking, error) {
	out, err := store.QueryAll(ctx, q, scanBooking, `SELECT `+staffBookingColumns+` FROM bookings WHERE `+where+` ORDER BY `+order, args...)
	if err != nil {
		return nil, fmt.Errorf("staff: list bookings: %w", err)
	}
	return out, nil
}

// Agenda returns the standing consultations not over yet, soonest first,
// grouped by day in the consultancy's zone.
func (w *Workspace) Agenda(ctx context.Context) ([]Day, error) {
	bookings, err := queryBookings(ctx, w.store, `cancelled_at IS NULL AND end_at > ?`, `start_at, id`, store.Millis(w.cfg.Now()))
	if err != nil {
		return nil, err
	}
	var days []Day
	for _, b := range bookings {
		date := b.Start.In(w.cfg.Location).Format(time.DateOnly)
		if len(days) == 0 || days[len(days)-1].Date != date {
			days = append(days, Day{Date: date})
		}
		days[len(days)-1].Bookings = append(days[len(days)-1].Bookings, b)
	}
	return days, nil
}

// PastBookings returns the standing consultations that are over, and
// CancelledBookings the cancelled ones, newest first, at most limit.
func (w *Workspace) PastBookings(ctx context.Context, limit int) ([]Booking, error) {
	return queryBookings(ctx, w.store, `cancelled_at IS NULL AND end_at <= ?`, `start_at DESC, id DESC LIMIT ?`,
		store.Millis(w.cfg.Now()), clampLimit(limit))
}

// CancelledBookings returns the cancelled consultations, most recently
// planned first, at most limit.
func (w *Workspace) CancelledBookings(ctx context.Context, limit int) ([]Booking, error) {
	return queryBookings(ctx, w.store, `cancelled_at IS NOT NULL`, `start_at DESC, id DESC LIMIT ?`, clampLimit(limit))
}

// BookingCounts returns how many consultations each view of the agenda
// holds.
func (w *Workspace) BookingCounts(ctx context.Context) (map[string]int, error) {
	counts := map[string]int{ViewUpcoming: 0, ViewPast: 0, ViewCancelled: 0}
	err := countGroups(ctx, w.store, counts, `
SELECT CASE WHEN cancelled_at IS NOT NULL THEN 'cancelled' WHEN end_at > ? THEN 'upcoming' ELSE 'past' END AS view, count(*)
FROM bookings GROUP BY 1`, store.Millis(w.cfg.Now()))
	if err != nil {
		return nil, fmt.Errorf("staff: count bookings: %w", err)
	}
	return counts, nil
}

func clampLimit(limit int) int {
	if limit <= 0 || limit > 500 {
		return 200
	}
	return limit
}

// Booking returns the booking with id.
func (w *Workspace) Booking(ctx context.Context, id int64) (Booking, error) {
	rows, err := queryBookings(ctx, w.store, `id = ?`, `id`, id)
	if err != nil {
		return Booking{}, err
	}
	if len(rows) == 0 {
		return Booking{}, ErrNotFound
	}
	return rows[0], nil
}

// ErrCannotCancel is the answer of a workspace without the booking
// service (a test serving pages only).
var ErrCannotCancel = errors.New("staff: bookings cannot be cancelled here")

// CancelBooking cancels the standing booking id on its visitor's behalf:
// the visitor is mailed the reason in their language with the invite's
// cancellation, and the audit log records who did it, in one transaction.
// Its refusals are booking.ErrStarted, booking.ErrCancelledAlready and
// booking.ErrReason, and ErrNotFound.
func (w *Workspace) CancelBooking(ctx context.Context, id int64, reason, actor string) (Booking, error) {
	if w.cfg.Bookings == nil {
		return Booking{}, ErrCannotCancel
	}
	_, err := w.cfg.Bookings.Cancel(ctx, id, reason, actor, func(ctx context.Context, tx *store.Tx, b booking.Booking) error {
		return record(ctx, tx, w.cfg.Now(), actor, ActionCancel, fmt.Sprint(id), "")
	})
	switch {
	case errors.Is(err, booking.ErrNotFound):
		return Booking{}, ErrNotFound
	case err != nil:
		return Booking{}, err
	}
	return w.Booking(ctx, id)
}
