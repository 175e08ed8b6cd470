package booking

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/northbeam/site/internal/mail"
	"github.com/northbeam/site/internal/mailaddr"
	"github.com/northbeam/site/internal/store"
)

// Errors of the persistence layer, for the handlers to map to statuses.
var (
	// ErrSlotTaken means the time overlaps a standing booking (plus the
	// buffer) committed since the visitor saw it offered: a 409.
	ErrSlotTaken = errors.New("booking: the time is no longer free")
	// ErrNotFound means no booking has the token: a 404.
	ErrNotFound = errors.New("booking: no such booking")
	// ErrStarted means a cancellation or a move came once the meeting had
	// begun.
	ErrStarted = errors.New("booking: the consultation has already begun")
	// ErrCancelled means a move of a booking that was cancelled.
	ErrCancelled = errors.New("booking: the consultation was cancelled")
	// ErrTooLate means a move within the minimum notice before the start.
	ErrTooLate = errors.New("booking: too close to the consultation to move it")
	// ErrAddressLimit means the visitor's address already holds as many
	// standing bookings as one address may.
	ErrAddressLimit = errors.New("booking: this address has enough standing bookings")
	// ErrDayFull means the service's day already holds its most bookings.
	ErrDayFull = errors.New("booking: the day is fully booked")
)

// maxServiceLength bounds every service (see the availability file's
// validation); it lets the overlap query use the index on start_at.
const maxServiceLength = 24 * time.Hour

// busyDuring returns the standing bookings that overlap iv, as intervals
// without buffer, leaving out the booking whose token is except (a booking
// being moved does not stand in its own way).
func busyDuring(ctx context.Context, q store.Querier, iv Interval, except string) ([]Interval, error) {
	busy, err := store.QueryAll(ctx, q, scanInterval, `
SELECT start_at, end_at FROM bookings
WHERE cancelled_at IS NULL AND start_at < ? AND start_at > ? AND end_at > ? AND token <> ?
ORDER BY start_at`,
		store.Millis(iv.End), store.Millis(iv.Start.Add(-maxServiceLength)), store.Millis(iv.Start), except)
	if err != nil {
		return nil, fmt.Errorf("booking: read busy times: %w", err)
	}
	return busy, nil
}

// hostBusyDuring is busyDuring for host: the standing bookings of host,
// and those without a host (booked with the consultancy as one calendar,
// which takes everyone's time), that overlap iv, but the booking whose
// token is except. For host "" it is busyDuring: every booking.
func hostBusyDuring(ctx context.Context, q store.Querier, host string, iv Interval, except string) ([]Interval, error) {
	if host == "" {
		return busyDuring(ctx, q, iv, except)
	}
	busy, err := store.QueryAll(ctx, q, scanInterval, `
SELECT start_at, end_at FROM bookings
WHERE cancelled_at IS NULL AND host IN (?, '') AND start_at < ? AND start_at > ? AND end_at > ? AND token <> ?
ORDER BY start_at`,
		host, store.Millis(iv.End), store.Millis(iv.Start.Add(-maxServiceLength)), store.Millis(iv.Start), except)
	if err != nil {
		return nil, fmt.Errorf("booking: read a host's busy times: %w", err)
	}
	return busy, nil
}

// hosted is a standing booking's time and host.
type hosted struct {
	Interval
	host string
}

// hostedDuring returns the standing bookings that overlap iv, with their
// hosts.
func hostedDuring(ctx context.Context, q store.Querier, iv Interval) ([]hosted, error) {
	out, err := store.QueryAll(ctx, q, func(row store.Scanner) (hosted, error) {
		var start, end int64
		var h hosted
		err := row.Scan(&start, &end, &h.host)
		h.Interval = Interval{Start: store.FromMillis(start), End: store.FromMillis(end)}
		return h, err
	}, `
SELECT start_at, end_at, host FROM bookings
WHERE cancelled_at IS NULL AND start_at < ? AND start_at > ? AND end_at > ?
ORDER BY start_at`,
		store.Millis(iv.End), store.Millis(iv.Start.Add(-maxServiceLength)), store.Millis(iv.Start))
	if err != nil {
		return nil, fmt.Errorf("booking: read the hosts' busy times: %w", err)
	}
	return out, nil
}

// hostedStart is the start of a standing booking and its host.
type hostedStart struct {
	start time.Time
	host  string
}

// serviceStarts returns the starts of the standing bookings of service
// within span, with their hosts.
func serviceStarts(ctx context.Context, q store.Querier, service string, span Interval) ([]hostedStart, error) {
	out, err := store.QueryAll(ctx, q, func(row store.Scanner) (hostedStart, error) {
		var start int64
		var h hostedStart
		err := row.Scan(&start, &h.host)
		h.start = store.FromMillis(start)
		return h, err
	}, `SELECT start_at, host FROM bookings WHERE service = ? AND cancelled_at IS NULL AND start_at >= ? AND start_at < ?`,
		service, store.Millis(span.Start), store.Millis(span.End))
	if err != nil {
		return nil, fmt.Errorf("booking: count the days' bookings: %w", err)
	}
	return out, nil
}

// lastBooked returns the row id of each host's latest standing booking,
// the order in which they were booked (the bookings' lock makes one
// booking at a time); a host never booked is missing.
func lastBooked(ctx context.Context, q store.Querier, hosts []string) (map[string]int64, error) {
	out := make(map[string]int64, len(hosts))
	for _, h := range hosts {
		var id sql.NullInt64
		err := q.QueryRowContext(ctx, `SELECT max(id) FROM bookings WHERE host = ? AND cancelled_at IS NULL`, h).Scan(&id)
		if err != nil {
			return nil, fmt.Errorf("booking: read when a host was last booked: %w", err)
		}
		if id.Valid {
			out[h] = id.Int64
		}
	}
	return out, nil
}

// scanInterval reads a row of start and end.
func scanInterval(row store.Scanner) (Interval, error) {
	var start, end int64
	if err := row.Scan(&start, &end); err != nil {
		return Interval{}, err
	}
	return Interval{Start: store.FromMillis(start), End: store.FromMillis(end)}, nil
}

// insertBooking writes b inside tx. The caller has checked that its time
// is free (see [Service.Book]); the unique index on a standing start and,
// on PostgreSQL, the exclusion constraint over [start_at, busy_until)
// refuse it as ErrSlotTaken should another booking have taken the time
// all the same.
func insertBooking(ctx context.Context, tx *store.Tx, av Availability, b Booking) error {
	_, err := tx.ExecContext(ctx, `
INSERT INTO bookings (token, cancel_token, service, start_at, end_at, busy_until, name, email, company,
                      topic, time_zone, lang, created_at, phone, meeting_url, reminder_ref, email_key, booked_by, host)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		b.Token, b.CancelToken, b.Service, store.Millis(b.Start), store.Millis(b.End), store.Millis(b.End.Add(av.Buffer)),
		b.Name, b.Email, b.Company, b.Topic, b.TimeZone, b.Lang, store.Millis(b.Created),
		b.Phone, b.MeetingURL, store.NullIfZero(b.ReminderRef), mailaddr.Key(b.Email), b.BookedBy, b.Host)
	if store.IsConflict(err) {
		// Only the partial index on a standing start or the overlap
		// constraint can refuse the row (tokens are random): taken.
		return ErrSlotTaken
	}
	if err != nil {
		return fmt.Errorf("booking: insert: %w", err)
	}
	return nil
}

// moveBooking gives the standing booking b its new time, counts the move
// in its sequence and records its waiting reminder, inside tx. Like
// insertBooking, it returns ErrSlotTaken when the constraints refuse the
// new time.
func moveBooking(ctx context.Context, tx *store.Tx, av Availability, b Booking) error {
	_, err := tx.ExecContext(ctx, `
UPDATE bookings SET start_at = ?, end_at = ?, busy_until = ?, sequence = ?, updated_at = ?, reminder_ref = ?
WHERE token = ? AND cancelled_at IS NULL`,
		store.Millis(b.Start), store.Millis(b.End), store.Millis(b.End.Add(av.Buffer)), b.Sequence,
		store.Millis(b.Updated), store.NullIfZero(b.ReminderRef), b.Token)
	if store.IsConflict(err) {
		return ErrSlotTaken
	}
	if err != nil {
		return fmt.Errorf("booking: move: %w", err)
	}
	return nil
}

// standingFor counts the standing bookings of email (in any spelling) that
// have not started at now.
func standingFor(ctx context.Context, q store.Querier, email string, now time.Time) (int, error) {
	var n int
	err := q.QueryRowContext(ctx, `
SELECT count(*) FROM bookings WHERE email_key = ? AND cancelled_at IS NULL AND start_at > ?`,
		mailaddr.Key(email), store.Millis(now)).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("booking: count standing bookings: %w", err)
	}
	return n, nil
}

// bookedOn counts the standing bookings of service that start within day
// (a day of the consultancy), leaving out the booking whose token is
// except: those of host and those without a host (booked before the
// service had hosts, which took everyone's time), or, for host "", every
// one of them.
func bookedOn(ctx context.Context, q store.Querier, service, host string, day Interval, except string) (int, error) {
	var n int
	where, args := ``, []any{service}
	if host != "" {
		where = ` AND host IN (?, '')`
		args = append(args, host)
	}
	err := q.QueryRowContext(ctx, `
SELECT count(*) FROM bookings
WHERE service = ? AND cancelled_at IS NULL`+where+` AND start_at >= ? AND start_at < ? AND token <> ?`,
		append(args, store.Millis(day.Start), store.Millis(day.End), except)...).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("booking: count the day's bookings: %w", err)
	}
	return n, nil
}

const bookingColumns = `token, cancel_token, service, start_at, end_at, name, email, company, topic,
       time_zone, lang, created_at, cancelled_at, phone, meeting_url, sequence, updated_at, reminder_ref, cancel_reason, host`

// findBooking returns the booking whose column (token or cancel_token)
// equals value, or ErrNotFound.
func findBooking(ctx context.Context, q store.Querier, column, value string) (Booking, error) {
	if column != "token" && column != "cancel_token" {
		return Booking{}, fmt.Errorf("booking: find by %q: not a token column", column)
	}
	var b Booking
	var start, end, created int64
	var cancelled, updated sql.NullInt64
	var reminder sql.NullString
	err := q.QueryRowContext(ctx, `SELECT `+bookingColumns+` FROM bookings WHERE `+column+` = ?`, value).Scan(
		&b.Token, &b.CancelToken, &b.Service, &start, &end, &b.Name, &b.Email, &b.Company, &b.Topic,
		&b.TimeZone, &b.Lang, &created, &cancelled, &b.Phone, &b.MeetingURL, &b.Sequence, &updated, &reminder, &b.CancelReason, &b.Host)
	if errors.Is(err, sql.ErrNoRows) {
		return Booking{}, ErrNotFound
	}
	if err != nil {
		return Booking{}, fmt.Errorf("booking: find: %w", err)
	}
	b.Start, b.End, b.Created = store.FromMillis(start), store.FromMillis(end), store.FromMillis(created)
	if cancelled.Valid {
		b.Cancelled = store.FromMillis(cancelled.Int64)
	}
	if updated.Valid {
		b.Updated = store.FromMillis(updated.Int64)
	}
	b.ReminderRef = reminder.String
	return b, nil
}

// markCancelled sets the cancellation time of the standing booking with
// cancelToken and reports whether it did (false when it was cancelled
// already).
func markCancelled(ctx context.Context, tx *store.Tx, cancelToken string, at time.Time, reason string) (bool, error) {
	res, err := tx.ExecContext(ctx,
		`UPDATE bookings SET cancelled_at = ?, reminder_ref = NULL, cancel_reason = ? WHERE cancel_token = ? AND cancelled_at IS NULL`,
		store.Millis(at), reason, cancelToken)
	if err != nil {
		return false, fmt.Errorf("booking: cancel: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, fmt.Errorf("booking: cancel: %w", err)
	}
	return n == 1, nil
}

// enqueue queues mails about the booking with token inside tx, each tied
// to the booking by its row id.
func enqueue(ctx context.Context, tx *store.Tx, token string, mails []mail.Message) error {
	var id int64
	if err := tx.QueryRowContext(ctx, `SELECT id FROM bookings WHERE token = ?`, token).Scan(&id); err != nil {
		return fmt.Errorf("booking: find the booking of its mail: %w", err)
	}
	return enqueueFor(ctx, tx, id, mails)
}

// enqueueFor queues mails about the booking with id inside tx.
func enqueueFor(ctx context.Context, tx *store.Tx, id int64, mails []mail.Message) error {
	for _, m := range mails {
		m.BookingID = id
		if err := mail.Enqueue(ctx, tx, m); err != nil {
			return fmt.Errorf("booking: queue %s: %w", m.Kind, err)
		}
	}
	return nil
}
