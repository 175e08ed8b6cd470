package staff

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"github.com/northbeam/site/internal/randtoken"
	"github.com/northbeam/site/internal/store"
)

// Lifetimes of what opens the workspace.
const (
	// InvitationLifetime is how long an invitation link can enrol a passkey.
	InvitationLifetime = 24 * time.Hour
	// SignInLinkLifetime is how long a mailed sign-in link works.
	SignInLinkLifetime = 15 * time.Minute
	// SessionIdle ends a session nobody used for that long.
	SessionIdle = 12 * time.Hour
	// SessionLifetime ends every session that long after it began.
	SessionLifetime = 7 * 24 * time.Hour
	// CeremonyLifetime bounds a WebAuthn ceremony, from its options to the
	// authenticator's answer.
	CeremonyLifetime = 5 * time.Minute
)

// Kinds of one-time token.
const (
	kindInvitation = "invitation"
	kindSignIn     = "sign-in"
)

// tokenBytes is the entropy of every token: 256 bits.
const tokenBytes = 32

// newToken returns a fresh random token: 43 characters of unpadded
// base64url, safe in URLs and cookies.
func newToken() string { return randtoken.New(tokenBytes) }

// wellFormed reports whether s could be a token of newToken, so that
// anything else is refused without a query.
func wellFormed(s string) bool { return randtoken.Valid(s, tokenBytes) }

// hashToken is what the database keeps of a token.
func hashToken(token string) string {
	sum := sha256.Sum256([]byte("northbeam staff token\x00" + token))
	return hex.EncodeToString(sum[:])
}

// TokenState says what a one-time link can still do.
type TokenState string

// States of a one-time link.
const (
	TokenValid   TokenState = "valid"
	TokenUsed    TokenState = "used"
	TokenExpired TokenState = "expired"
	TokenUnknown TokenState = "unknown" // never issued, or its person was removed
)

// TokenError is the refusal of a link that cannot be used: its State says
// why, for a page that says it clearly.
type TokenError struct{ State TokenState }

func (e *TokenError) Error() string { return "staff: the link is " + string(e.State) }

// tokenState reads what a token of kind can do at now.
func tokenState(ctx context.Context, q store.Querier, kind, token string, now time.Time) (TokenState, error) {
	if !wellFormed(token) {
		return TokenUnknown, nil
	}
	var expires int64
	var used sql.NullInt64
	err := q.QueryRowContext(ctx, `SELECT expires_at, used_at FROM staff_tokens WHERE token_hash = ? AND kind = ?`,
		hashToken(token), kind).Scan(&expires, &used)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return TokenUnknown, nil
	case err != nil:
		return "", fmt.Errorf("staff: read a link: %w", err)
	case used.Valid:
		return TokenUsed, nil
	case store.Millis(now) >= expires:
		return TokenExpired, nil
	}
	return TokenValid, nil
}

// issueToken writes a new token of kind for staffID, valid for lifetime,
// and returns it.
func issueToken(ctx context.Context, tx *store.Tx, staffID int64, kind string, now time.Time, lifetime time.Duration) (token string, id int64, err error) {
	token = newToken()
	err = tx.QueryRowContext(ctx, `
INSERT INTO staff_tokens (staff_id, kind, token_hash, created_at, expires_at) VALUES (?, ?, ?, ?, ?)
RETURNING id`, staffID, kind, hashToken(token), store.Millis(now), store.Millis(now.Add(lifetime))).Scan(&id)
	if err != nil {
		return "", 0, fmt.Errorf("staff: issue a %s link: %w", kind, err)
	}
	return token, id, nil
}

// useToken spends a token of kind inside tx and returns whose it was: one
// statement marks it used only if it is unused and unexpired, so that two
// requests racing with the same link cannot both succeed, on either engine.
// A token that cannot be used returns a *TokenError.
func useToken(ctx context.Context, tx *store.Tx, kind, token string, now time.Time) (staffID, tokenID int64, err error) {
	if !wellFormed(token) {
		return 0, 0, &TokenError{State: TokenUnknown}
	}
	err = tx.QueryRowContext(ctx, `
UPDATE staff_tokens SET used_at = ?
WHERE token_hash = ? AND kind = ? AND used_at IS NULL AND expires_at > ?
RETURNING staff_id, id`, store.Millis(now), hashToken(token), kind, store.Millis(now)).Scan(&staffID, &tokenID)
	if errors.Is(err, sql.ErrNoRows) {
		state, err := tokenState(ctx, tx, kind, token, now)
		if err != nil {
			return 0, 0, err
		}
		if state == TokenValid { // cannot happen inside the transaction; be safe
			state = TokenUsed
		}
		return 0, 0, &TokenError{State: state}
	}
	if err != nil {
		return 0, 0, fmt.Errorf("staff: use a %s link: %w", kind, err)
	}
	return staffID, tokenID, nil
}
