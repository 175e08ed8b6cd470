package staff

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
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
	// Host is the slug of the person of content/team who takes the call;
	// "" for a booking with the consultancy as a whole.
	Host string
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
	booked_by, no_show_at, cancel_reason, host`

func scanBooking(row store.Scanner) (Booking, error) {
	var b Booking
	var start, end, created int64
	var cancelled, noShow sql.NullInt64
	if err := row.Scan(&b.ID, &b.Service, &start, &end, &b.Name, &b.Email, &b.Company, &b.Topic, &b.Phone, &b.Meeting, &b.TimeZone, &b.Lang, &created, &cancelled,
		&b.BookedBy, &noShow, &b.CancelReason, &b.Host); err != nil {
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

// BookingQuery selects a page of a view of the agenda.
type BookingQuery struct {
	View   string // ViewUpcoming, ViewPast or ViewCancelled
	Search string // words that begin words of the name, the address, the company, the topic or the phone; "" for all
	After  string // the cursor of the previous page, "" for the first
	Limit  int    // at most PageSize, the default
	// Host keeps the bookings of that host (a person's slug) alone; ""
	// keeps every booking.
	Host string
}

// BookingPage is a page of a view and the cursor of the next page (""
// when this is the last).
type BookingPage struct {
	Bookings []Booking
	Next     string
	// Searched says the bookings are a search's matches, the latest
	// booked first, rather than in the view's order of time.
	Searched bool
}

// Bookings returns a page of a view of the agenda: the standing
// consultations not over yet, soonest first (upcoming); those that are
// over, latest first (past); the cancelled ones, the latest planned first
// (cancelled). Each reads its index in its own order (store's
// 0051_workspace_lists): the standing bookings by their end, which for
// bookings that never overlap is the order of their starts. A search's
// matches come the latest booked first, in the search index's order (see
// wordSearch).
func (w *Workspace) Bookings(ctx context.Context, q BookingQuery) (BookingPage, error) {
	if q.Limit <= 0 || q.Limit > PageSize {
		q.Limit = PageSize
	}
	now := store.Millis(w.cfg.Now())
	var where []string
	var args []any
	key, desc := "end_at", false
	switch q.View {
	case ViewPast:
		where, args, desc = []string{`cancelled_at IS NULL`, `end_at <= ?`}, []any{now}, true
	case ViewCancelled:
		where, key, desc = []string{`cancelled_at IS NOT NULL`}, "start_at", true
	default:
		where, args = []string{`cancelled_at IS NULL`, `end_at > ?`}, []any{now}
	}
	if q.Host != "" {
		// The same lists of one host read their own indexes (store's
		// 0075_host_lists_and_feeds), which lead with the host.
		where = append(where, `host = ?`)
		args = append(args, q.Host)
	}
	order, beyond := key+`, id`, `>`
	if desc {
		order, beyond = key+` DESC, id DESC`, `<`
	}
	from, columns := `bookings`, staffBookingColumns
	search, searching := newWordSearch(w.store.Backend(), "bookings", q.Search)
	if searching {
		from, order, beyond = search.from, search.id+` DESC`, `<`
		columns = qualified("bookings", staffBookingColumns)
		where = append(where, search.cond)
		args = append(args, search.args...)
	}
	if q.After != "" {
		at, id, ok := parseCursor(q.After)
		if !ok {
			return BookingPage{}, ErrCursor
		}
		if searching {
			where = append(where, search.id+` < ?`)
			args = append(args, id)
		} else {
			where = append(where, `(`+key+` `+beyond+` ? OR (`+key+` = ? AND id `+beyond+` ?))`)
			args = append(args, at, at, id)
		}
	}
	rows, err := store.QueryAll(ctx, w.store, scanBooking, `SELECT `+columns+` FROM `+from+` WHERE `+strings.Join(where, " AND ")+
		` ORDER BY `+order+` LIMIT ?`, append(args, q.Limit+1)...)
	if err != nil {
		return BookingPage{}, fmt.Errorf("staff: list bookings: %w", err)
	}
	page := BookingPage{Bookings: rows, Searched: searching}
	if len(rows) > q.Limit {
		page.Bookings = rows[:q.Limit]
		last := page.Bookings[q.Limit-1]
		at := last.End
		if key == "start_at" {
			at = last.Start
		}
		page.Next = fmt.Sprintf("%d.%d", store.Millis(at), last.ID)
	}
	return page, nil
}

// GroupByDay groups bookings, in their order, by their day in the
// consultancy's zone.
func (w *Workspace) GroupByDay(bookings []Booking) []Day {
	days := []Day{}
	for _, b := range bookings {
		date := b.Start.In(w.cfg.Location).Format(time.DateOnly)
		if len(days) == 0 || days[len(days)-1].Date != date {
			days = append(days, Day{Date: date})
		}
		days[len(days)-1].Bookings = append(days[len(days)-1].Bookings, b)
	}
	return days
}

// BookingCounts returns how many consultations each view of the agenda
// holds, the team's or, for a host's slug, that host's alone (the lists
// of BookingQuery.Host): the standing and the cancelled ones as the
// database keeps them (store's 0050_workspace_counts, and
// 0076_host_counts for a host's), the standing ones split at the present
// by the index on their end (a host's: bookings_host_standing_end), which
// holds only the upcoming ones past it.
func (w *Workspace) BookingCounts(ctx context.Context, host string) (map[string]int, error) {
	standing, cancelled := "bookings:standing", "bookings:cancelled"
	upcomingQuery, args := `SELECT count(*) FROM bookings WHERE cancelled_at IS NULL AND end_at > ?`, []any{store.Millis(w.cfg.Now())}
	if host != "" {
		standing, cancelled = standing+":"+host, cancelled+":"+host
		upcomingQuery, args = `SELECT count(*) FROM bookings WHERE host = ? AND cancelled_at IS NULL AND end_at > ?`, append([]any{host}, args...)
	}
	kept := map[string]int{}
	if err := countGroups(ctx, w.store, kept, `SELECT name, n FROM workspace_counts WHERE name IN (?, ?)`, standing, cancelled); err != nil {
		return nil, fmt.Errorf("staff: count bookings: %w", err)
	}
	var upcoming int
	if err := w.store.QueryRowContext(ctx, upcomingQuery, args...).Scan(&upcoming); err != nil {
		return nil, fmt.Errorf("staff: count upcoming bookings: %w", err)
	}
	return map[string]int{
		ViewUpcoming:  upcoming,
		ViewPast:      kept[standing] - upcoming,
		ViewCancelled: kept[cancelled],
	}, nil
}

// clampLimit keeps a list's length within a page.
func clampLimit(limit int) int {
	if limit <= 0 || limit > PageSize {
		return PageSize
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
