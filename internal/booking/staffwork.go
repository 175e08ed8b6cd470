package booking

import (
	"context"

	"github.com/northbeam/site/internal/store"
)

// What staff do for a visitor besides cancelling, through the same
// StaffCancellation the workspace holds: a booking for someone who called
// in, and a move on the visitor's behalf. Each follows the visitor's own
// rules (the times offered, the minimum notice, the limits) and sends the
// visitor's own mails; also, when not nil, runs in the transaction (the
// workspace's audit entry).

// Book books r for a visitor who called in, made by the staff member by:
// the visitor gets the confirmation with the invite, as if they had
// booked, and the consultancy its notification. Its refusals are Book's,
// but for ErrSpam: the time trap is for programs, not for staff.
func (c *StaffCancellation) Book(ctx context.Context, r BookingRequest, by string,
	also func(ctx context.Context, tx *store.Tx, b Booking) error) (Booking, error) {
	return c.svc.book(ctx, r, by, also)
}

// Move moves the booking with id to start, as its visitor's reschedule
// page would: the same rules, the same mails (the visitor's "moved" notice
// with the updated invite, the consultancy's), the reminder following; the
// mails say that the team moved it. Its refusals are Reschedule's.
func (c *StaffCancellation) Move(ctx context.Context, id int64, start string,
	also func(ctx context.Context, tx *store.Tx, b Booking) error) (Booking, error) {
	b, err := FindByID(ctx, c.svc.store, id)
	if err != nil {
		return Booking{}, err
	}
	return c.svc.reschedule(ctx, b.CancelToken, start, true, also)
}
