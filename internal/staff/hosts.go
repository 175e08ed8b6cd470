package staff

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strconv"
	"time"

	"github.com/northbeam/site/internal/booking"
	"github.com/northbeam/site/internal/calendar"
	"github.com/northbeam/site/internal/store"
)

// The workspace's side of consultations booked with a person: who hosts
// each booking (a member is the host whose "staff" address in
// content/availability.json is theirs), a hand-over to another host, each
// member's own calendar feeds (their busy time as a host), and each
// member's private calendar feed of their own bookings.

// Hosts returns the slugs of the hosts of content/availability.json,
// sorted; none without the booking service.
func (w *Workspace) Hosts() []string {
	if w.cfg.Bookings == nil {
		return nil
	}
	return slices.Sorted(maps.Keys(w.cfg.Bookings.Availability().Hosts))
}

// IsHost reports whether slug is a host of content/availability.json.
func (w *Workspace) IsHost(slug string) bool {
	return slug != "" && slices.Contains(w.Hosts(), slug)
}

// HostOf returns the slug of the host who is m (linked by address), and
// whether m is one.
func (w *Workspace) HostOf(m Member) (string, bool) {
	if w.cfg.Bookings == nil {
		return "", false
	}
	h, ok := w.cfg.Bookings.Availability().HostOfStaff(m.Email)
	return h.Slug, ok
}

// ServicesOf returns the services the host slug takes, sorted.
func (w *Workspace) ServicesOf(slug string) []string {
	if w.cfg.Bookings == nil {
		return []string{}
	}
	return append([]string{}, w.cfg.Bookings.Availability().ServicesOf(slug)...)
}

// HostName returns how lang names the host slug: their name on the team's
// page, or the slug when the team does not know them.
func (w *Workspace) HostName(lang, slug string) string {
	if w.cfg.Bookings == nil || slug == "" {
		return slug
	}
	return w.cfg.Bookings.HostProfile(lang, slug).Name
}

// HandOver gives the standing booking id to the host to, at its time,
// made by actor: the new host must host its service and be free then
// (checked under the bookings' lock, so that no visitor takes that time
// meanwhile), the visitor is mailed the "moved" notice naming the new
// host, the team's notice goes to the consultancy and both hosts, and the
// audit log records it ("from → to"), in one transaction. Its refusals are
// booking.ErrNotHost, booking.ErrSameHost, booking.ErrSlotTaken,
// booking.ErrCancelled, booking.ErrStarted and ErrNotFound.
func (w *Workspace) HandOver(ctx context.Context, id int64, to, actor string) (Booking, error) {
	if w.cfg.Bookings == nil {
		return Booking{}, ErrCannotCancel
	}
	_, err := w.cfg.Bookings.HandOver(ctx, id, to, func(ctx context.Context, tx *store.Tx, before booking.Booking) error {
		from := before.Host
		if from == "" {
			from = "-"
		}
		return record(ctx, tx, w.cfg.Now(), actor, ActionHandOver, strconv.FormatInt(id, 10), from+" → "+to)
	})
	if errors.Is(err, booking.ErrNotFound) {
		return Booking{}, ErrNotFound
	}
	if err != nil {
		return Booking{}, err
	}
	return w.Booking(ctx, id)
}

// ---- A member's own calendar feeds ----

// MaxOwnFeeds bounds the calendar feeds one member adds.
const MaxOwnFeeds = 10

// ErrTooManyFeeds refuses a feed beyond MaxOwnFeeds.
var ErrTooManyFeeds = errors.New("staff: too many calendar feeds")

// OwnFeeds returns m's own calendar feeds, oldest first: never their
// addresses, only their host names.
func (w *Workspace) OwnFeeds(ctx context.Context, m Member) ([]calendar.MemberFeed, error) {
	return calendar.MemberFeeds(ctx, w.store, m.ID)
}

// MemberCalendars is what reads the members' own calendar feeds:
// calendar.Source.
type MemberCalendars interface {
	// ReadMemberFeed fetches the feed id at once and reports whether its
	// busy time counts now.
	ReadMemberFeed(ctx context.Context, id int64) bool
	// MembersChanged reads the members' feeds again at once.
	MembersChanged(ctx context.Context)
}

// OwnFeedWait bounds how long adding a feed waits for its first reading:
// a calendar that does not answer by then is read at the next refresh.
const OwnFeedWait = 10 * time.Second

// AddOwnFeed adds rawURL to m's own calendar feeds, whose busy time is
// then m's as a host: it is read at once (within OwnFeedWait), and read
// reports whether its busy time already counts; one that could not be
// read is tried again at each refresh (CALENDAR_REFRESH, five minutes by
// default). It returns calendar.ErrFeedURL for an address that is no
// feed's (the error never quotes it) and ErrTooManyFeeds past
// MaxOwnFeeds. The audit log records the feed's host name, never its
// address.
func (w *Workspace) AddOwnFeed(ctx context.Context, m Member, rawURL string) (f calendar.MemberFeed, read bool, err error) {
	feeds, err := w.OwnFeeds(ctx, m)
	if err != nil {
		return calendar.MemberFeed{}, false, err
	}
	if len(feeds) >= MaxOwnFeeds {
		return calendar.MemberFeed{}, false, ErrTooManyFeeds
	}
	f, err = calendar.AddMemberFeed(ctx, w.store, m.ID, rawURL, w.cfg.Now())
	if err != nil {
		return calendar.MemberFeed{}, false, err
	}
	if err := record(ctx, w.store, w.cfg.Now(), m.Email, ActionFeedAdded, m.Email, f.Host); err != nil {
		return calendar.MemberFeed{}, false, err
	}
	if w.cfg.Calendars == nil {
		return f, false, nil
	}
	// The member waits for the reading, not the member's connection: a
	// reading begun is finished even when they leave the page.
	readCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), OwnFeedWait)
	defer cancel()
	return f, w.cfg.Calendars.ReadMemberFeed(readCtx, f.ID), nil
}

// RemoveOwnFeed removes m's feed id, or answers ErrNotFound.
func (w *Workspace) RemoveOwnFeed(ctx context.Context, m Member, id int64) error {
	removed, err := calendar.RemoveMemberFeed(ctx, w.store, m.ID, id)
	if err != nil {
		return err
	}
	if !removed {
		return ErrNotFound
	}
	if err := record(ctx, w.store, w.cfg.Now(), m.Email, ActionFeedRemoved, m.Email, ""); err != nil {
		return err
	}
	if w.cfg.Calendars != nil {
		w.cfg.Calendars.MembersChanged(ctx)
	}
	return nil
}

// ---- A member's private calendar feed ----

// FeedPast is how long a consultation stays in its host's private feed
// after it ended.
const FeedPast = 30 * 24 * time.Hour

// FeedLimit bounds the consultations one private feed lists.
const FeedLimit = 1000

// FeedPath is the path of the private feeds; the secret is the token
// query parameter, which logs never show.
const FeedPath = "/staff/calendar.ics"

// PrivateFeed is whether a member has a private calendar feed, and since
// when (its address is shown once, when made).
type PrivateFeed struct {
	Active  bool
	Created time.Time
}

// hashFeedToken is what the database keeps of a private feed's secret.
func hashFeedToken(token string) string { return hashToken("feed\x00" + token) }

// PrivateFeedOf returns whether m has a private feed.
func (w *Workspace) PrivateFeedOf(ctx context.Context, m Member) (PrivateFeed, error) {
	var created int64
	err := w.store.QueryRowContext(ctx, `SELECT created_at FROM staff_feed_tokens WHERE staff_id = ?`, m.ID).Scan(&created)
	if errors.Is(err, sql.ErrNoRows) {
		return PrivateFeed{}, nil
	}
	if err != nil {
		return PrivateFeed{}, fmt.Errorf("staff: read the private feed: %w", err)
	}
	return PrivateFeed{Active: true, Created: store.FromMillis(created)}, nil
}

// RenewPrivateFeed gives m a private feed with a new secret address, which
// it returns (the only time it is shown): the previous address, if any,
// stops working at once.
func (w *Workspace) RenewPrivateFeed(ctx context.Context, m Member) (string, error) {
	token := newToken()
	now := w.cfg.Now()
	err := w.store.InTx(ctx, func(tx *store.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM staff_feed_tokens WHERE staff_id = ?`, m.ID); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO staff_feed_tokens (staff_id, token_hash, created_at) VALUES (?, ?, ?)`,
			m.ID, hashFeedToken(token), store.Millis(now)); err != nil {
			return err
		}
		return record(ctx, tx, now, m.Email, ActionFeedRenewed, m.Email, "")
	})
	if err != nil {
		return "", fmt.Errorf("staff: renew the private feed: %w", err)
	}
	return w.cfg.BaseURL + FeedPath + "?token=" + url.QueryEscape(token), nil
}

// RevokePrivateFeed ends m's private feed: its address answers 404 from
// now on. Revoking a feed m does not have changes nothing.
func (w *Workspace) RevokePrivateFeed(ctx context.Context, m Member) error {
	now := w.cfg.Now()
	return w.store.InTx(ctx, func(tx *store.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM staff_feed_tokens WHERE staff_id = ?`, m.ID)
		if err != nil {
			return fmt.Errorf("staff: revoke the private feed: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return nil
		}
		return record(ctx, tx, now, m.Email, ActionFeedRevoked, m.Email, "")
	})
}

// FeedBookings returns the member whose private feed token opens, and the
// consultations it lists: the standing bookings of the host who is that
// member, from FeedPast ago on, soonest first. A token that opens no feed
// (revoked, renewed, never made, malformed) is ErrNotFound; a member who
// is no host has an empty feed.
func (w *Workspace) FeedBookings(ctx context.Context, token string) (Member, []booking.Booking, error) {
	if !wellFormed(token) {
		return Member{}, nil, ErrNotFound
	}
	m, err := scanMember(w.store.QueryRowContext(ctx, `SELECT `+memberColumns+`
FROM staff_feed_tokens f JOIN staff s ON s.id = f.staff_id WHERE f.token_hash = ?`, hashFeedToken(token)))
	if errors.Is(err, sql.ErrNoRows) {
		return Member{}, nil, ErrNotFound
	}
	if err != nil {
		return Member{}, nil, fmt.Errorf("staff: open a private feed: %w", err)
	}
	host, ok := w.HostOf(m)
	if !ok {
		return m, nil, nil
	}
	bookings, err := booking.HostBookings(ctx, w.store, host, w.cfg.Now().Add(-FeedPast), FeedLimit)
	if err != nil {
		return Member{}, nil, err
	}
	return m, bookings, nil
}

// FeedICS is the private feed of m listing bookings, as text/calendar.
func (w *Workspace) FeedICS(m Member, bookings []booking.Booking) []byte {
	name := w.cfg.Texts.T(w.language(m.Lang), "feed.name", "name", w.cfg.Name)
	if w.cfg.Bookings == nil {
		return nil
	}
	return w.cfg.Bookings.FeedICS(name, bookings)
}
