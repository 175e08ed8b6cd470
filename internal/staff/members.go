package staff

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/base64"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/northbeam/site/internal/contact"
	"github.com/northbeam/site/internal/store"
)

// Member is a person with access to the workspace.
type Member struct {
	ID      int64
	Email   string // lower case
	Lang    string // the workspace's language for them
	Created time.Time
	handle  string // WebAuthn user handle, base64url
}

// ActorCommandLine is who the audit log says acted when the staff command
// did (invitations and removals on the server).
const ActorCommandLine = "command line"

// ErrInvalidEmail refuses an address that is not a plain one.
var ErrInvalidEmail = errors.New("staff: not a valid email address")

// NormalizeEmail trims and lower-cases an address, and reports whether it
// is a plain one (a@example.com).
func NormalizeEmail(email string) (string, bool) {
	e := strings.ToLower(strings.TrimSpace(email))
	return e, contact.ValidEmail(e)
}

// Invitation is a one-time link that lets a person enrol a passkey.
type Invitation struct {
	Email   string
	URL     string
	Expires time.Time
}

// Invite gives email access to the workspace (adding them when they are
// new) and returns a fresh invitation link, valid InvitationLifetime, to
// hand to them. actor is who invites, for the audit log.
func (w *Workspace) Invite(ctx context.Context, email, actor string) (Invitation, error) {
	email, ok := NormalizeEmail(email)
	if !ok {
		return Invitation{}, ErrInvalidEmail
	}
	now := w.cfg.Now()
	var token string
	err := w.store.InTx(ctx, func(tx *store.Tx) error {
		id, err := ensureMember(ctx, tx, email, now)
		if err != nil {
			return err
		}
		if token, _, err = issueToken(ctx, tx, id, kindInvitation, now, InvitationLifetime); err != nil {
			return err
		}
		return record(ctx, tx, now, actor, ActionInvite, email, "")
	})
	if err != nil {
		return Invitation{}, err
	}
	return Invitation{Email: email, URL: w.cfg.BaseURL + "/staff/enrol?token=" + url.QueryEscape(token), Expires: now.Add(InvitationLifetime)}, nil
}

// ensureMember returns the id of the member with email, adding them.
func ensureMember(ctx context.Context, tx *store.Tx, email string, now time.Time) (int64, error) {
	var id int64
	err := tx.QueryRowContext(ctx, `SELECT id FROM staff WHERE email = ?`, email).Scan(&id)
	if err == nil {
		return id, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return 0, fmt.Errorf("staff: find %s: %w", email, err)
	}
	err = tx.QueryRowContext(ctx, `INSERT INTO staff (email, handle, lang, created_at) VALUES (?, ?, 'en', ?) RETURNING id`,
		email, newHandle(), store.Millis(now)).Scan(&id)
	if err != nil {
		return 0, fmt.Errorf("staff: add %s: %w", email, err)
	}
	return id, nil
}

// newHandle returns a WebAuthn user handle: 32 random bytes, which say
// nothing about the person.
func newHandle() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// MemberSummary is a line of the staff list.
type MemberSummary struct {
	Email    string
	Created  time.Time
	Passkeys int
	Sessions int       // open sessions
	Invited  time.Time // expiry of the latest open invitation; zero when none
}

func scanMemberSummary(row store.Scanner) (MemberSummary, error) {
	var m MemberSummary
	var created, invited int64
	if err := row.Scan(&m.Email, &created, &m.Passkeys, &m.Sessions, &invited); err != nil {
		return MemberSummary{}, err
	}
	m.Created, m.Invited = store.FromMillis(created), store.FromMillis(invited)
	return m, nil
}

// Members lists everyone with access, by address.
func (w *Workspace) Members(ctx context.Context) ([]MemberSummary, error) {
	now := store.Millis(w.cfg.Now())
	out, err := store.QueryAll(ctx, w.store, scanMemberSummary, `
SELECT s.email, s.created_at,
       (SELECT count(*) FROM staff_passkeys p WHERE p.staff_id = s.id),
       (SELECT count(*) FROM staff_sessions x WHERE x.staff_id = s.id AND x.expires_at > ? AND x.seen_at > ?),
       (SELECT coalesce(max(t.expires_at), 0) FROM staff_tokens t
        WHERE t.staff_id = s.id AND t.kind = 'invitation' AND t.used_at IS NULL AND t.expires_at > ?)
FROM staff s ORDER BY s.email`, now, now-SessionIdle.Milliseconds(), now)
	if err != nil {
		return nil, fmt.Errorf("staff: list members: %w", err)
	}
	return out, nil
}

// Remove takes access away from email: their passkeys, links and sessions
// go with them, so that a session open elsewhere ends at its next request.
func (w *Workspace) Remove(ctx context.Context, email, actor string) error {
	email, ok := NormalizeEmail(email)
	if !ok {
		return ErrInvalidEmail
	}
	now := w.cfg.Now()
	return w.store.InTx(ctx, func(tx *store.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM staff WHERE email = ?`, email)
		if err != nil {
			return fmt.Errorf("staff: remove %s: %w", email, err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return ErrNotFound
		}
		return record(ctx, tx, now, actor, ActionRemove, email, "")
	})
}

// SetLanguage changes the workspace's language for m.
func (w *Workspace) SetLanguage(ctx context.Context, m Member, lang string) (Member, error) {
	lang = w.language(lang)
	if _, err := w.store.ExecContext(ctx, `UPDATE staff SET lang = ? WHERE id = ?`, lang, m.ID); err != nil {
		return m, fmt.Errorf("staff: set language: %w", err)
	}
	m.Lang = lang
	return m, nil
}

// memberColumns are what loadMember scans, from staff aliased s.
const memberColumns = `s.id, s.email, s.lang, s.created_at, s.handle`

func scanMember(row interface{ Scan(...any) error }) (Member, error) {
	var m Member
	var created int64
	if err := row.Scan(&m.ID, &m.Email, &m.Lang, &created, &m.handle); err != nil {
		return Member{}, err
	}
	m.Created = store.FromMillis(created)
	return m, nil
}

// memberByID loads a member.
func memberByID(ctx context.Context, q store.Querier, id int64) (Member, error) {
	m, err := scanMember(q.QueryRowContext(ctx, `SELECT `+memberColumns+` FROM staff s WHERE s.id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return Member{}, ErrNotFound
	}
	if err != nil {
		return Member{}, fmt.Errorf("staff: load member: %w", err)
	}
	return m, nil
}
