package staff

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/northbeam/site/internal/booking"
	"github.com/northbeam/site/internal/store"
)

// A staff member's work on the agenda beyond cancelling: a move on the
// visitor's behalf, a booking for someone who called in, a no-show, and
// the week's view. Moves and bookings go through the booking service, its
// rules and its mails; each is audited in its transaction.

// Actions of the agenda, in the audit log.
const (
	ActionMove       = "booking-move"
	ActionBookByHand = "booking-by-staff"
	ActionNoShow     = "no-show"
	ActionShowedUp   = "no-show-undone"
)

// MoveBooking moves the standing booking id to start (RFC 3339) on its
// visitor's behalf: the rules and the mails of the visitor's own move (the
// "moved" notice with the updated invite, the consultancy's copy), and an
// audit entry saying from when to when. Its refusals are
// booking.Service.Reschedule's, and ErrNotFound.
func (w *Workspace) MoveBooking(ctx context.Context, id int64, start, actor string) (Booking, error) {
	if w.cfg.Bookings == nil {
		return Booking{}, ErrCannotCancel
	}
	before, err := w.Booking(ctx, id)
	if err != nil {
		return Booking{}, err
	}
	_, err = w.cfg.Bookings.Move(ctx, id, start, func(ctx context.Context, tx *store.Tx, b booking.Booking) error {
		return record(ctx, tx, w.cfg.Now(), actor, ActionMove, strconv.FormatInt(id, 10),
			w.csvTime(before.Start)+" → "+w.csvTime(b.Start))
	})
	if errors.Is(err, booking.ErrNotFound) {
		return Booking{}, ErrNotFound
	}
	if err != nil {
		return Booking{}, err
	}
	return w.Booking(ctx, id)
}

// BookFor books a consultation for a visitor who called in, as the staff
// member actor: the visitor gets the confirmation and the invite, as if
// they had booked themselves. Its refusals are booking.Service.Book's
// (but ErrSpam).
func (w *Workspace) BookFor(ctx context.Context, r booking.BookingRequest, actor string) (Booking, error) {
	if w.cfg.Bookings == nil {
		return Booking{}, ErrCannotCancel
	}
	var id int64
	_, err := w.cfg.Bookings.Book(ctx, r, actor, func(ctx context.Context, tx *store.Tx, b booking.Booking) error {
		if err := tx.QueryRowContext(ctx, `SELECT id FROM bookings WHERE token = ?`, b.Token).Scan(&id); err != nil {
			return fmt.Errorf("staff: find the booking made: %w", err)
		}
		return record(ctx, tx, w.cfg.Now(), actor, ActionBookByHand, strconv.FormatInt(id, 10), "")
	})
	if err != nil {
		return Booking{}, err
	}
	return w.Booking(ctx, id)
}

// Refusals of a no-show.
var (
	// ErrNotYet means the consultation has not begun: nobody can have
	// missed it.
	ErrNotYet = errors.New("staff: the consultation has not begun")
	// ErrCancelledBooking means the booking was cancelled: there was
	// nothing to come to.
	ErrCancelledBooking = errors.New("staff: the consultation was cancelled")
)

// MarkNoShow notes that the visitor of booking id did not come (noShow),
// or takes the note back; only once the consultation has begun, and not
// for a cancelled one.
func (w *Workspace) MarkNoShow(ctx context.Context, id int64, noShow bool, actor string) (Booking, error) {
	now := w.cfg.Now()
	err := w.store.InTx(ctx, func(tx *store.Tx) error {
		rows, err := queryBookings(ctx, tx, `id = ?`, `id`, id)
		if err != nil {
			return err
		}
		switch {
		case len(rows) == 0:
			return ErrNotFound
		case !rows[0].Cancelled.IsZero():
			return ErrCancelledBooking
		case now.Before(rows[0].Start):
			return ErrNotYet
		}
		var at any
		action := ActionShowedUp
		if noShow {
			at, action = store.Millis(now), ActionNoShow
		}
		if _, err := tx.ExecContext(ctx, `UPDATE bookings SET no_show_at = ? WHERE id = ?`, at, id); err != nil {
			return fmt.Errorf("staff: mark a no-show: %w", err)
		}
		return record(ctx, tx, now, actor, action, strconv.FormatInt(id, 10), "")
	})
	if err != nil {
		return Booking{}, err
	}
	return w.Booking(ctx, id)
}

// ErrWeek refuses a week that is not a date (YYYY-MM-DD).
var ErrWeek = errors.New("staff: a week starts on a date, YYYY-MM-DD")

// Week returns the seven days, in the consultancy's zone, of the week
// (Monday to Sunday) holding the date day ("" for today), each with its
// consultations, standing or not, soonest first; and the Mondays of the
// weeks before and after.
func (w *Workspace) Week(ctx context.Context, day string) (days []Day, prev, next string, err error) {
	loc := w.cfg.Location
	d := w.cfg.Now().In(loc)
	if day != "" {
		if d, err = time.ParseInLocation(time.DateOnly, day, loc); err != nil {
			return nil, "", "", ErrWeek
		}
	}
	monday := time.Date(d.Year(), d.Month(), d.Day()-(int(d.Weekday())+6)%7, 0, 0, 0, 0, loc)
	end := monday.AddDate(0, 0, 7)
	bookings, err := queryBookings(ctx, w.store, `start_at >= ? AND start_at < ?`, `start_at, id`, store.Millis(monday), store.Millis(end))
	if err != nil {
		return nil, "", "", err
	}
	index := map[string]int{}
	for i := range 7 {
		date := monday.AddDate(0, 0, i).Format(time.DateOnly)
		index[date] = i
		days = append(days, Day{Date: date})
	}
	for _, b := range bookings {
		if i, ok := index[b.Start.In(loc).Format(time.DateOnly)]; ok {
			days[i].Bookings = append(days[i].Bookings, b)
		}
	}
	return days, monday.AddDate(0, 0, -7).Format(time.DateOnly), end.Format(time.DateOnly), nil
}
