package calendar

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/northbeam/site/internal/mailaddr"
	"github.com/northbeam/site/internal/store"
)

// A member's own feeds: the calendar feeds a staff member adds in the
// workspace for their own busy time (table staff_calendar_feeds). The
// Source reads them beside the consultancy's shared feeds, each under
// its owner (the member's address in its canonical form, mailaddr.Key),
// and a host's free time leaves out their owner's busy time (BusyOf).
// The URL is a secret: it is stored because it must be fetched, and it
// leaves this package only as its host name.

// ErrFeedURL is returned for a feed address that is not an http(s) or
// webcal URL with a host.
var ErrFeedURL = errors.New("calendar: not an http(s) or webcal address")

// MemberFeed is one of a member's feeds as the workspace shows it: never
// its URL, only the URL's host.
type MemberFeed struct {
	ID      int64
	StaffID int64
	Host    string // "calendar.google.com"
	Created time.Time
}

// checkURL reads a feed address as NewSource does: http, https or webcal
// (read as https), with a host. The error never quotes it.
func checkURL(raw string) (*url.URL, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || (u.Scheme != "https" && u.Scheme != "http" && u.Scheme != "webcal") || u.Hostname() == "" || len(raw) > 2048 {
		return nil, ErrFeedURL
	}
	if u.Scheme == "webcal" {
		u.Scheme = "https"
	}
	return u, nil
}

func urlKey(raw string) string {
	sum := sha256.Sum256([]byte(raw))
	return hex.EncodeToString(sum[:])
}

// AddMemberFeed stores rawURL as a feed of the staff member staffID and
// returns it; a feed the member has already added is returned as it is.
// It returns ErrFeedURL for an address that is not a feed's. A Source
// fetches it at its next Refresh.
func AddMemberFeed(ctx context.Context, st *store.Store, staffID int64, rawURL string, now time.Time) (MemberFeed, error) {
	raw := strings.TrimSpace(rawURL)
	u, err := checkURL(raw)
	if err != nil {
		return MemberFeed{}, err
	}
	f := MemberFeed{StaffID: staffID, Host: u.Hostname(), Created: now.UTC().Truncate(time.Millisecond)}
	err = st.InTx(ctx, func(tx *store.Tx) error {
		var created int64
		err := tx.QueryRowContext(ctx, `SELECT id, created_at FROM staff_calendar_feeds WHERE staff_id = ? AND url_key = ?`,
			staffID, urlKey(raw)).Scan(&f.ID, &created)
		if err == nil {
			f.Created = store.FromMillis(created)
			return nil
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		return tx.QueryRowContext(ctx, `
INSERT INTO staff_calendar_feeds (staff_id, url, url_key, host, created_at) VALUES (?, ?, ?, ?, ?) RETURNING id`,
			staffID, raw, urlKey(raw), f.Host, store.Millis(f.Created)).Scan(&f.ID)
	})
	if err != nil {
		return MemberFeed{}, fmt.Errorf("calendar: add a member's feed: %w", err)
	}
	return f, nil
}

// MemberFeeds returns the feeds of the staff member staffID, oldest first.
func MemberFeeds(ctx context.Context, q store.Querier, staffID int64) ([]MemberFeed, error) {
	feeds, err := store.QueryAll(ctx, q, func(row store.Scanner) (MemberFeed, error) {
		var f MemberFeed
		var created int64
		err := row.Scan(&f.ID, &f.StaffID, &f.Host, &created)
		f.Created = store.FromMillis(created)
		return f, err
	}, `SELECT id, staff_id, host, created_at FROM staff_calendar_feeds WHERE staff_id = ? ORDER BY id`, staffID)
	if err != nil {
		return nil, fmt.Errorf("calendar: list a member's feeds: %w", err)
	}
	return feeds, nil
}

// RemoveMemberFeed removes the feed id of the staff member staffID and
// its stored copy, and reports whether there was one. A Source stops
// using it at its next Refresh.
func RemoveMemberFeed(ctx context.Context, st *store.Store, staffID, id int64) (bool, error) {
	removed := false
	err := st.InTx(ctx, func(tx *store.Tx) error {
		var key string
		err := tx.QueryRowContext(ctx, `SELECT url_key FROM staff_calendar_feeds WHERE id = ? AND staff_id = ?`, id, staffID).Scan(&key)
		if err != nil {
			if errors.Is(err, sql.ErrNoRows) {
				return nil
			}
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM staff_calendar_feeds WHERE id = ?`, id); err != nil {
			return err
		}
		removed = true
		var others int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM staff_calendar_feeds WHERE url_key = ?`, key).Scan(&others); err != nil {
			return err
		}
		if others > 0 {
			return nil
		}
		_, err = tx.ExecContext(ctx, `DELETE FROM calendar_feeds WHERE feed_key = ?`, key)
		return err
	})
	if err != nil {
		return false, fmt.Errorf("calendar: remove a member's feed: %w", err)
	}
	return removed, nil
}

// memberFeed is a member's feed as the Source reads it.
type memberFeed struct {
	id    int64
	url   string
	owner string // mailaddr.Key of the member's address
}

// memberFeedURLs returns every member's feeds with their owner.
func memberFeedURLs(ctx context.Context, q store.Querier) ([]memberFeed, error) {
	return store.QueryAll(ctx, q, func(row store.Scanner) (memberFeed, error) {
		var f memberFeed
		var email string
		err := row.Scan(&f.id, &f.url, &email)
		f.owner = mailaddr.Key(email)
		return f, err
	}, `SELECT f.id, f.url, s.email FROM staff_calendar_feeds f JOIN staff s ON s.id = f.staff_id ORDER BY f.id`)
}

// Owner is how BusyOf names a member: their address in its canonical form.
func Owner(address string) string { return mailaddr.Key(address) }
