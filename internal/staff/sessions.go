package staff

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/northbeam/site/internal/store"
)

// ErrSignedOut is the answer to a session token that opens nothing: never
// issued, signed out, idle for SessionIdle, older than SessionLifetime, or
// its person removed.
var ErrSignedOut = errors.New("staff: not signed in")

// Session is a signed-in staff member's session.
type Session struct {
	ID      int64
	Member  Member
	Expires time.Time // the absolute end
}

// seenGranularity is how stale a session's last-seen time may get before a
// request writes it again: the idle timeout is 12 hours, so a minute
// changes nothing, and most requests then write nothing.
const seenGranularity = time.Minute

// startSession opens a session for staffID inside tx and returns the token
// for its cookie. Every sign-in gets a new token: a token that existed
// before (a fixation attempt) never becomes a signed-in one.
func startSession(ctx context.Context, tx *store.Tx, staffID int64, now time.Time) (string, error) {
	token := newToken()
	_, err := tx.ExecContext(ctx, `
INSERT INTO staff_sessions (staff_id, token_hash, created_at, seen_at, expires_at) VALUES (?, ?, ?, ?, ?)`,
		staffID, hashToken(token), store.Millis(now), store.Millis(now), store.Millis(now.Add(SessionLifetime)))
	if err != nil {
		return "", fmt.Errorf("staff: start a session: %w", err)
	}
	return token, nil
}

// Authenticate returns the session of a cookie's token, and notes that it
// is in use (the idle timeout starts again). It returns ErrSignedOut for
// any token that opens nothing.
func (w *Workspace) Authenticate(ctx context.Context, token string) (Session, error) {
	if !wellFormed(token) {
		return Session{}, ErrSignedOut
	}
	now := w.cfg.Now()
	var (
		s             Session
		seen, expires int64
		created       int64
	)
	err := w.store.QueryRowContext(ctx, `
SELECT x.id, x.seen_at, x.expires_at, s.id, s.email, s.lang, s.created_at, s.handle
FROM staff_sessions x JOIN staff s ON s.id = x.staff_id
WHERE x.token_hash = ?`, hashToken(token)).Scan(
		&s.ID, &seen, &expires, &s.Member.ID, &s.Member.Email, &s.Member.Lang, &created, &s.Member.handle)
	if errors.Is(err, sql.ErrNoRows) {
		return Session{}, ErrSignedOut
	}
	if err != nil {
		return Session{}, fmt.Errorf("staff: read a session: %w", err)
	}
	s.Member.Created, s.Expires = store.FromMillis(created), store.FromMillis(expires)
	nowMs := store.Millis(now)
	if nowMs >= expires || nowMs-seen >= SessionIdle.Milliseconds() {
		return Session{}, ErrSignedOut
	}
	if nowMs-seen >= seenGranularity.Milliseconds() {
		if _, err := w.store.ExecContext(ctx, `UPDATE staff_sessions SET seen_at = ? WHERE id = ?`, nowMs, s.ID); err != nil {
			return Session{}, fmt.Errorf("staff: note a session's use: %w", err)
		}
	}
	return s, nil
}

// SignOut ends the session of token, if it is one.
func (w *Workspace) SignOut(ctx context.Context, s Session) error {
	now := w.cfg.Now()
	return w.store.InTx(ctx, func(tx *store.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM staff_sessions WHERE id = ?`, s.ID); err != nil {
			return fmt.Errorf("staff: sign out: %w", err)
		}
		return record(ctx, tx, now, s.Member.Email, ActionSignOut, "", "")
	})
}

// SignOutEverywhere ends every session of the member of s, this one too:
// a lost phone's session ends with the others.
func (w *Workspace) SignOutEverywhere(ctx context.Context, s Session) (int, error) {
	now := w.cfg.Now()
	var n int64
	err := w.store.InTx(ctx, func(tx *store.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM staff_sessions WHERE staff_id = ?`, s.Member.ID)
		if err != nil {
			return fmt.Errorf("staff: sign out everywhere: %w", err)
		}
		n, _ = res.RowsAffected()
		return record(ctx, tx, now, s.Member.Email, ActionSignOutEverywhere, "", fmt.Sprintf("sessions: %d", n))
	})
	return int(n), err
}
