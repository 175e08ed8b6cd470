package booking

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/northbeam/site/internal/store"
)

// Errors of the persistence layer, for the handlers to map to statuses.
var (
	// ErrSlotTaken means the time overlaps a standing booking (plus the
	// buffer) committed since the visitor saw it offered: a 409.
	ErrSlotTaken = errors.New("booking: the time is no longer free")
	// ErrNotFound means no booking has the token: a 404.
	ErrNotFound = errors.New("booking: no such booking")
	// ErrStarted means a cancellation came once the meeting had begun.
	ErrStarted = errors.New("booking: the consultation has already begun")
)

// maxServiceLength bounds every service (see the availability file's
// validation); it lets the overlap query use the index on start_at.
const maxServiceLength = 24 * time.Hour

// busyDuring returns the standing bookings that overlap iv, as intervals
// without buffer.
func busyDuring(ctx context.Context, q store.Querier, iv Interval) ([]Interval, error) {
	rows, err := q.QueryContext(ctx, `
SELECT start_at, end_at FROM bookings
WHERE cancelled_at IS NULL AND start_at < ? AND start_at > ? AND end_at > ?
ORDER BY start_at`,
		store.Millis(iv.End), store.Millis(iv.Start.Add(-maxServiceLength)), store.Millis(iv.Start))
	if err != nil {
		return nil, fmt.Errorf("booking: read busy times: %w", err)
	}
	defer rows.Close()
	var busy []Interval
	for rows.Next() {
		var start, end int64
		if err := rows.Scan(&start, &end); err != nil {
			return nil, fmt.Errorf("booking: read busy times: %w", err)
		}
		busy = append(busy, Interval{Start: store.FromMillis(start), End: store.FromMillis(end)})
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("booking: read busy times: %w", err)
	}
	return busy, nil
}

// insertBooking writes b inside tx unless it collides with a standing
// booking widened by av.Buffer, in which case it returns ErrSlotTaken. On
// SQLite the caller's transaction holds the write lock from its start (the
// store opens write transactions with BEGIN IMMEDIATE), so no other booking
// can be committed between the check and the insert. On PostgreSQL several
// instances insert at once: the check answers most collisions early, and
// the exclusion constraint over [start_at, busy_until) refuses the rest,
// which commit in between.
func insertBooking(ctx context.Context, tx *store.Tx, av Availability, b Booking) error {
	busy, err := busyDuring(ctx, tx, b.Interval().Extend(av.Buffer))
	if err != nil {
		return err
	}
	if Conflicts(av, b.Interval(), busy) {
		return ErrSlotTaken
	}
	_, err = tx.ExecContext(ctx, `
INSERT INTO bookings (token, cancel_token, service, start_at, end_at, busy_until, name, email, company,
                      topic, time_zone, lang, created_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		b.Token, b.CancelToken, b.Service, store.Millis(b.Start), store.Millis(b.End), store.Millis(b.End.Add(av.Buffer)),
		b.Name, b.Email, b.Company, b.Topic, b.TimeZone, b.Lang, store.Millis(b.Created))
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

const bookingColumns = `token, cancel_token, service, start_at, end_at, name, email, company, topic,
       time_zone, lang, created_at, cancelled_at`

// findBooking returns the booking whose column (token or cancel_token)
// equals value, or ErrNotFound.
func findBooking(ctx context.Context, q store.Querier, column, value string) (Booking, error) {
	if column != "token" && column != "cancel_token" {
		return Booking{}, fmt.Errorf("booking: find by %q: not a token column", column)
	}
	var b Booking
	var start, end, created int64
	var cancelled sql.NullInt64
	err := q.QueryRowContext(ctx, `SELECT `+bookingColumns+` FROM bookings WHERE `+column+` = ?`, value).Scan(
		&b.Token, &b.CancelToken, &b.Service, &start, &end, &b.Name, &b.Email, &b.Company, &b.Topic,
		&b.TimeZone, &b.Lang, &created, &cancelled)
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
	return b, nil
}

// markCancelled sets the cancellation time of the standing booking with
// cancelToken and reports whether it did (false when it was cancelled
// already).
func markCancelled(ctx context.Context, tx *store.Tx, cancelToken string, at time.Time) (bool, error) {
	res, err := tx.ExecContext(ctx,
		`UPDATE bookings SET cancelled_at = ? WHERE cancel_token = ? AND cancelled_at IS NULL`,
		store.Millis(at), cancelToken)
	if err != nil {
		return false, fmt.Errorf("booking: cancel: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, fmt.Errorf("booking: cancel: %w", err)
	}
	return n == 1, nil
}
