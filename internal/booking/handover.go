package booking

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/northbeam/site/internal/mail"
	"github.com/northbeam/site/internal/mailaddr"
	"github.com/northbeam/site/internal/site"
	"github.com/northbeam/site/internal/store"
)

// What the workspace does with a booking's host: the hosts it may name,
// and a hand-over, in which a member gives a booking to another host at
// the same time.

// Refusals of a hand-over, beyond ErrNotFound, ErrCancelled, ErrStarted
// and ErrSlotTaken (the new host is not free then).
var (
	// ErrNotHost means the host named does not take the booking's
	// service (or the service has no hosts).
	ErrNotHost = errors.New("booking: not a host of this service")
	// ErrSameHost means the booking is already the host's.
	ErrSameHost = errors.New("booking: the booking is already this host's")
)

// Availability returns the consultancy's bookable time and its hosts.
func (c *StaffCancellation) Availability() Availability { return c.svc.cfg.Availability }

// HostProfile returns how lang names the host slug (see Service.HostProfile).
func (c *StaffCancellation) HostProfile(lang, slug string) HostProfile {
	return c.svc.HostProfile(lang, slug)
}

// HandOver gives the standing booking id to the host to, at its own time,
// in one transaction that holds the bookings' lock (so that no visitor
// takes the new host's time meanwhile, on any instance): to must host the
// booking's service, their hours must hold its time and they must be free
// then (their bookings, their own calendar feeds and the consultancy's,
// and the buffer). The visitor gets the "moved" mail naming the new host
// with the updated invite (same UID, SEQUENCE one higher), the team's
// notice goes to the consultancy, the new host and the previous one, and
// the reminder waiting for its time is written again naming the new host.
// Unlike a move, a hand-over is allowed within the minimum notice: only a
// consultation that has begun stays with its host. also, when not nil,
// runs in the transaction (the workspace's audit entry) with the booking
// as it was before.
func (c *StaffCancellation) HandOver(ctx context.Context, id int64, to string,
	also func(ctx context.Context, tx *store.Tx, before Booking) error) (Booking, error) {
	s := c.svc
	av := s.cfg.Availability
	now := s.cfg.Now().UTC()
	var b Booking
	err := s.store.InTx(ctx, func(tx *store.Tx) error {
		if err := lockBookings(ctx, tx); err != nil {
			return err
		}
		found, err := FindByID(ctx, tx, id)
		if err != nil {
			return err
		}
		before := found
		b = found
		switch {
		case b.IsCancelled():
			return ErrCancelled
		case !now.Before(b.Start):
			return ErrStarted
		case !av.Hosting(b.Service, to):
			return ErrNotHost
		case b.Host == to:
			return ErrSameHost
		}
		// The new host's hours must hold the time: asked as of a moment
		// before the minimum notice, which a hand-over does not keep.
		asOf := now
		if notice := b.Start.Add(-av.MinimumNotice); notice.Before(asOf) {
			asOf = notice.Add(-time.Minute)
		}
		if _, ok := Offered(av.ForHost(to), b.Service, b.Start, asOf, nil); !ok {
			return ErrSlotTaken
		}
		previous := b.Host
		b.Host = to
		// checkFree tells a day at its cap only once the time is free. The
		// cap is for visitors: the team may hand a booking to a host whose
		// day already holds their most of the service (README, "Hosts").
		if err := s.checkFree(ctx, tx, b, b.Token); err != nil && !errors.Is(err, ErrDayFull) {
			return err
		}
		b.Sequence++
		b.Updated = now.Truncate(time.Millisecond)
		// The reminder waiting for its time names the host: it is written
		// again with the new one.
		if b.ReminderRef != "" {
			if _, err := mail.Withdraw(ctx, tx, b.ReminderRef); err != nil {
				return err
			}
		}
		reminder, err := s.scheduleReminder(&b, now)
		if err != nil {
			return err
		}
		if err := setHost(ctx, tx, b); err != nil {
			return err
		}
		mails, err := s.mailer.handedOverMails(av, b, previous)
		if err != nil {
			return err
		}
		if err := enqueue(ctx, tx, b.Token, append(mails, reminder...)); err != nil {
			return err
		}
		if also != nil {
			return also(ctx, tx, before)
		}
		return nil
	})
	if err != nil {
		return Booking{}, err
	}
	s.queued()
	return b, nil
}

// setHost stores b's new host with its new sequence and reminder.
func setHost(ctx context.Context, tx *store.Tx, b Booking) error {
	_, err := tx.ExecContext(ctx, `UPDATE bookings SET host = ?, sequence = ?, updated_at = ?, reminder_ref = ? WHERE token = ? AND cancelled_at IS NULL`,
		b.Host, b.Sequence, store.Millis(b.Updated), store.NullIfZero(b.ReminderRef), b.Token)
	if store.IsConflict(err) {
		return ErrSlotTaken
	}
	if err != nil {
		return fmt.Errorf("booking: hand over: %w", err)
	}
	return nil
}

// handedOverMails returns the mails of b handed from the host previous to
// its host: the visitor's "moved" notice naming the new host with the
// updated invite, and the team's notice to the consultancy, to the new
// host and to previous.
func (m *mailer) handedOverMails(av Availability, b Booking, previous string) ([]mail.Message, error) {
	out, err := m.pair(av, b, pairOf{m.moved, m.movedNotify, KindMoved, KindMovedNotify, "invite.ics", "REQUEST", ICS, time.Time{}, true, previous})
	if err != nil {
		return nil, err
	}
	if h, ok := m.hosts[previous]; ok && previous != "" {
		to := mailaddr.Key(h.Staff)
		sent := slices.ContainsFunc(out, func(msg mail.Message) bool { return mailaddr.Key(msg.To) == to })
		if !sent {
			own := out[1] // the consultancy's notice
			own.To = h.Staff
			out = append(out, own)
		}
	}
	return out, nil
}

// previousConsultant names the host slug in lang as the mails of a
// hand-over do (isolated in a language written right to left); "" for "".
func (m *mailer) previousConsultant(lang, slug string) string {
	if slug == "" {
		return ""
	}
	name := mail.OneLine(m.hostProfile(lang, slug).Name)
	if l, _ := m.langs.Find(lang); l.Dir == "rtl" {
		return mail.Isolate(name)
	}
	return name
}

// HostBookings returns the standing bookings of host that end after
// from, soonest first, at most limit: what a member's private calendar
// feed lists. It reads the index of standing starts per host.
func HostBookings(ctx context.Context, q store.Querier, host string, from time.Time, limit int) ([]Booking, error) {
	// A booking lasts at most maxServiceLength: one that ends after from
	// starts after from less that.
	out, err := store.QueryAll(ctx, q, scanBooking, `SELECT `+bookingColumns+` FROM bookings
WHERE host = ? AND cancelled_at IS NULL AND start_at > ? AND end_at > ?
ORDER BY host, start_at LIMIT ?`, host, store.Millis(from.Add(-maxServiceLength)), store.Millis(from), limit)
	if err != nil {
		return nil, fmt.Errorf("booking: list a host's bookings: %w", err)
	}
	return out, nil
}

// scanBooking reads a row of bookingColumns, as findBooking does.
func scanBooking(row store.Scanner) (Booking, error) {
	var b Booking
	var start, end, created int64
	var cancelled, updated sql.NullInt64
	var reminder sql.NullString
	err := row.Scan(&b.Token, &b.CancelToken, &b.Service, &start, &end, &b.Name, &b.Email, &b.Company, &b.Topic,
		&b.TimeZone, &b.Lang, &created, &cancelled, &b.Phone, &b.MeetingURL, &b.Sequence, &updated, &reminder, &b.CancelReason, &b.Host)
	if err != nil {
		return Booking{}, err
	}
	b.Start, b.End, b.Created = store.FromMillis(start), store.FromMillis(end), store.FromMillis(created)
	if updated.Valid {
		b.Updated = store.FromMillis(updated.Int64)
	}
	if cancelled.Valid {
		b.Cancelled = store.FromMillis(cancelled.Int64)
	}
	b.ReminderRef = reminder.String
	return b, nil
}

// FeedICS returns a calendar to subscribe to (RFC 5545, no METHOD) named
// name, holding the event of each of bookings as the consultancy keeps it
// (the visitor's name and topic, the host as an attendee), each with its
// own UID and SEQUENCE, so that a calendar that reads it again updates
// the events in place, and drops those that left it.
func (c *StaffCancellation) FeedICS(name string, bookings []Booking) []byte {
	m := c.svc.mailer
	var w icsWriter
	w.line("BEGIN:VCALENDAR")
	w.line("PRODID:" + escapeText("-//"+m.brand.Name+"//Consultation booking//EN"))
	w.line("VERSION:2.0")
	w.line("CALSCALE:GREGORIAN")
	w.line("X-WR-CALNAME:" + escapeText(name))
	w.line("REFRESH-INTERVAL;VALUE=DURATION:PT15M")
	w.line("X-PUBLISHED-TTL:PT15M")
	for _, b := range bookings {
		inv := m.invite(b)
		inv.Summary = m.texts.T(site.NoticeLanguage, "booking.invite.summary", "service", m.serviceTitle(site.NoticeLanguage, b.Service), "name", m.brand.Name)
		if b.Name != "" {
			inv.Summary += " – " + b.Name
		}
		event := icsCalendar(b, inv, icsForm{status: "CONFIRMED", sequence: inv.Sequence, stamp: b.Stamp(), accepted: true, alarm: true})
		w.buf.Write(eventOf(event))
	}
	w.line("END:VCALENDAR")
	return w.buf.Bytes()
}

// eventOf returns the lines of the VEVENT of a calendar icsCalendar wrote,
// with their CRLFs.
func eventOf(cal []byte) []byte {
	start := bytes.Index(cal, []byte("BEGIN:VEVENT\r\n"))
	end := bytes.Index(cal, []byte("END:VEVENT\r\n"))
	if start < 0 || end < start {
		return nil
	}
	return cal[start : end+len("END:VEVENT\r\n")]
}
