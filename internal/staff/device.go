package staff

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/northbeam/site/internal/store"
)

// DeviceOf names the browser and the system of a User-Agent, as a member
// recognises a session or a passkey by ("Firefox", "Android"); "" for what
// it does not recognise. Browsers that say they are others come first.
func DeviceOf(userAgent string) (browser, platform string) {
	ua := userAgent
	for _, b := range []struct{ token, name string }{
		{"Edg/", "Edge"}, {"OPR/", "Opera"}, {"SamsungBrowser/", "Samsung Internet"}, {"Firefox/", "Firefox"},
		{"FxiOS/", "Firefox"}, {"CriOS/", "Chrome"}, {"Chromium/", "Chromium"}, {"Chrome/", "Chrome"}, {"Safari/", "Safari"},
	} {
		if strings.Contains(ua, b.token) {
			browser = b.name
			break
		}
	}
	for _, p := range []struct{ token, name string }{
		{"iPhone", "iPhone"}, {"iPad", "iPad"}, {"Android", "Android"}, {"CrOS", "ChromeOS"},
		{"Windows", "Windows"}, {"Macintosh", "macOS"}, {"Linux", "Linux"},
	} {
		if strings.Contains(ua, p.token) {
			platform = p.name
			break
		}
	}
	return browser, platform
}

// DescribeSession notes the browser and system of the session of token,
// as DeviceOf names them from userAgent.
func (w *Workspace) DescribeSession(ctx context.Context, token, userAgent string) error {
	browser, platform := DeviceOf(userAgent)
	if _, err := w.store.ExecContext(ctx, `UPDATE staff_sessions SET browser = ?, platform = ? WHERE token_hash = ?`,
		browser, platform, hashToken(token)); err != nil {
		return fmt.Errorf("staff: describe a session: %w", err)
	}
	return nil
}

// DescribeNewestPasskey notes the browser and system on which m's newest
// passkey was just made.
func (w *Workspace) DescribeNewestPasskey(ctx context.Context, m Member, userAgent string) error {
	browser, platform := DeviceOf(userAgent)
	if _, err := w.store.ExecContext(ctx, `UPDATE staff_passkeys SET browser = ?, platform = ?
WHERE id = (SELECT max(id) FROM staff_passkeys WHERE staff_id = ?)`, browser, platform, m.ID); err != nil {
		return fmt.Errorf("staff: describe a passkey: %w", err)
	}
	return nil
}

// PasskeyNameMax bounds a passkey's name, in characters.
const PasskeyNameMax = 60

// RenamePasskey names one of the signed-in member's passkeys; an empty
// name gives it back the name of its browser and system.
func (w *Workspace) RenamePasskey(ctx context.Context, s Session, id int64, name string) error {
	name = strings.Join(strings.Fields(name), " ")
	if len([]rune(name)) > PasskeyNameMax {
		return ErrName
	}
	res, err := w.store.ExecContext(ctx, `UPDATE staff_passkeys SET name = ? WHERE id = ? AND staff_id = ?`, name, id, s.Member.ID)
	if err != nil {
		return fmt.Errorf("staff: rename a passkey: %w", err)
	}
	if affected(res) == 0 {
		return ErrNotFound
	}
	return nil
}

// ErrName refuses a passkey's name longer than PasskeyNameMax.
var ErrName = fmt.Errorf("staff: a name of at most %d characters", PasskeyNameMax)

// SessionInfo is one of a member's open sessions, as the account page
// lists them.
type SessionInfo struct {
	ID       int64
	Created  time.Time
	Seen     time.Time
	Browser  string
	Platform string
	Current  bool // the session asking
}

// Sessions lists the open sessions of the member of s, the most recently
// used first.
func (w *Workspace) Sessions(ctx context.Context, s Session) ([]SessionInfo, error) {
	nowMs := store.Millis(w.cfg.Now())
	out, err := store.QueryAll(ctx, w.store, func(row store.Scanner) (SessionInfo, error) {
		var i SessionInfo
		var created, seen int64
		err := row.Scan(&i.ID, &created, &seen, &i.Browser, &i.Platform)
		i.Created, i.Seen, i.Current = store.FromMillis(created), store.FromMillis(seen), i.ID == s.ID
		return i, err
	}, `SELECT id, created_at, seen_at, browser, platform FROM staff_sessions
WHERE staff_id = ? AND expires_at > ? AND seen_at > ? ORDER BY seen_at DESC, id DESC`,
		s.Member.ID, nowMs, nowMs-SessionIdle.Milliseconds())
	if err != nil {
		return nil, fmt.Errorf("staff: list sessions: %w", err)
	}
	return out, nil
}

// EndSession signs out one of the member's other sessions (a phone left
// somewhere), recorded as a sign-out.
func (w *Workspace) EndSession(ctx context.Context, s Session, id int64) error {
	return w.removeOwn(ctx, s, "staff_sessions", id, ActionSignOut, "end a session")
}

// removeOwn deletes the row id of table (staff_sessions, staff_passkeys)
// if it is the member of s's, and records action in the audit log:
// ErrNotFound when the member has no such row. doing names the change in
// an error.
func (w *Workspace) removeOwn(ctx context.Context, s Session, table string, id int64, action, doing string) error {
	now := w.cfg.Now()
	return w.store.InTx(ctx, func(tx *store.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM `+table+` WHERE id = ? AND staff_id = ?`, id, s.Member.ID)
		if err != nil {
			return fmt.Errorf("staff: %s: %w", doing, err)
		}
		if affected(res) == 0 {
			return ErrNotFound
		}
		return record(ctx, tx, now, s.Member.Email, action, fmt.Sprint(id), "")
	})
}
