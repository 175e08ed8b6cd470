package staff

import (
	"context"
	"database/sql"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/go-webauthn/webauthn/protocol"
	"github.com/go-webauthn/webauthn/webauthn"

	"github.com/northbeam/site/internal/store"
)

// Refusals of a WebAuthn ceremony.
var (
	// ErrCeremony means the ceremony is unknown, finished or older than
	// CeremonyLifetime: the person starts again.
	ErrCeremony = errors.New("staff: no passkey ceremony under way")
	// ErrPasskeyRefused means the authenticator's answer did not verify:
	// a passkey of another site or person, a replayed or forged answer.
	ErrPasskeyRefused = errors.New("staff: the passkey was not accepted")
)

// Ceremony is a WebAuthn ceremony begun: Options go to the browser's
// navigator.credentials, Token into a cookie that ties the answer to the
// browser that asked.
type Ceremony struct {
	Token   string
	Options any
}

// webUser is a member as go-webauthn sees them.
type webUser struct {
	m     Member
	creds []webauthn.Credential
}

func (u webUser) WebAuthnID() []byte {
	b, _ := base64.RawURLEncoding.DecodeString(u.m.handle)
	return b
}
func (u webUser) WebAuthnName() string                       { return u.m.Email }
func (u webUser) WebAuthnDisplayName() string                { return u.m.Email }
func (u webUser) WebAuthnCredentials() []webauthn.Credential { return u.creds }

// credentials loads the passkeys of staffID for this relying party.
func (w *Workspace) credentials(ctx context.Context, q store.Querier, staffID int64) ([]webauthn.Credential, error) {
	raws, err := store.QueryAll(ctx, q, store.Column[string], `SELECT credential FROM staff_passkeys WHERE staff_id = ? AND rp_id = ? ORDER BY id`, staffID, w.rpID)
	if err != nil {
		return nil, fmt.Errorf("staff: load passkeys: %w", err)
	}
	var out []webauthn.Credential
	for _, raw := range raws {
		var c webauthn.Credential
		if err := json.Unmarshal([]byte(raw), &c); err != nil {
			return nil, fmt.Errorf("staff: a stored passkey: %w", err)
		}
		out = append(out, c)
	}
	return out, nil
}

// saveCeremony stores a ceremony's session data for its answer, and
// forgets the ceremonies that ran out.
func (w *Workspace) saveCeremony(ctx context.Context, kind string, staffID, tokenID int64, sd *webauthn.SessionData, options any) (Ceremony, error) {
	data, err := json.Marshal(sd)
	if err != nil {
		return Ceremony{}, fmt.Errorf("staff: ceremony: %w", err)
	}
	now := w.cfg.Now()
	token := newToken()
	nullable := func(id int64) any {
		if id == 0 {
			return nil
		}
		return id
	}
	err = w.store.InTx(ctx, func(tx *store.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM staff_ceremonies WHERE expires_at <= ?`, store.Millis(now)); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `
INSERT INTO staff_ceremonies (token_hash, kind, staff_id, token_id, data, expires_at) VALUES (?, ?, ?, ?, ?, ?)`,
			hashToken(token), kind, nullable(staffID), nullable(tokenID), string(data), store.Millis(now.Add(CeremonyLifetime)))
		return err
	})
	if err != nil {
		return Ceremony{}, fmt.Errorf("staff: ceremony: %w", err)
	}
	return Ceremony{Token: token, Options: options}, nil
}

// ceremony is a stored ceremony.
type ceremony struct {
	id, staffID, tokenID int64
	data                 webauthn.SessionData
}

// loadCeremony finds the unexpired ceremony of kind behind a cookie's token.
func (w *Workspace) loadCeremony(ctx context.Context, kind, token string) (ceremony, error) {
	if !wellFormed(token) {
		return ceremony{}, ErrCeremony
	}
	var (
		c        ceremony
		staffID  sql.NullInt64
		tokenID  sql.NullInt64
		raw      string
		expires  int64
		nowMilli = store.Millis(w.cfg.Now())
	)
	err := w.store.QueryRowContext(ctx, `SELECT id, staff_id, token_id, data, expires_at FROM staff_ceremonies WHERE token_hash = ? AND kind = ?`,
		hashToken(token), kind).Scan(&c.id, &staffID, &tokenID, &raw, &expires)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && nowMilli >= expires) {
		return ceremony{}, ErrCeremony
	}
	if err != nil {
		return ceremony{}, fmt.Errorf("staff: load a ceremony: %w", err)
	}
	c.staffID, c.tokenID = staffID.Int64, tokenID.Int64
	if err := json.Unmarshal([]byte(raw), &c.data); err != nil {
		return ceremony{}, fmt.Errorf("staff: a stored ceremony: %w", err)
	}
	return c, nil
}

// endCeremony deletes a ceremony inside tx; a ceremony already ended (an
// answer sent twice) refuses the second.
func endCeremony(ctx context.Context, tx *store.Tx, id int64) error {
	res, err := tx.ExecContext(ctx, `DELETE FROM staff_ceremonies WHERE id = ?`, id)
	if err != nil {
		return fmt.Errorf("staff: end a ceremony: %w", err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return ErrCeremony
	}
	return nil
}

// CheckInvitation says what an invitation link can still do.
func (w *Workspace) CheckInvitation(ctx context.Context, token string) (TokenState, error) {
	return tokenState(ctx, w.store, kindInvitation, token, w.cfg.Now())
}

// CheckSignInLink says what a mailed sign-in link can still do.
func (w *Workspace) CheckSignInLink(ctx context.Context, token string) (TokenState, error) {
	return tokenState(ctx, w.store, kindSignIn, token, w.cfg.Now())
}

// BeginEnrolment starts the registration of a passkey through an
// invitation, which stays unused until the passkey is made.
func (w *Workspace) BeginEnrolment(ctx context.Context, invitation string) (Ceremony, error) {
	state, err := w.CheckInvitation(ctx, invitation)
	if err != nil {
		return Ceremony{}, err
	}
	if state != TokenValid {
		return Ceremony{}, &TokenError{State: state}
	}
	var staffID, tokenID int64
	if err := w.store.QueryRowContext(ctx, `SELECT staff_id, id FROM staff_tokens WHERE token_hash = ?`, hashToken(invitation)).Scan(&staffID, &tokenID); err != nil {
		return Ceremony{}, fmt.Errorf("staff: read an invitation: %w", err)
	}
	m, err := memberByID(ctx, w.store, staffID)
	if err != nil {
		return Ceremony{}, err
	}
	return w.beginRegistration(ctx, m, tokenID)
}

// BeginPasskey starts the registration of one more passkey (a phone beside
// a laptop) by a signed-in member.
func (w *Workspace) BeginPasskey(ctx context.Context, s Session) (Ceremony, error) {
	return w.beginRegistration(ctx, s.Member, 0)
}

func (w *Workspace) beginRegistration(ctx context.Context, m Member, tokenID int64) (Ceremony, error) {
	if w.webauthn == nil {
		return Ceremony{}, ErrNoPasskeys
	}
	creds, err := w.credentials(ctx, w.store, m.ID)
	if err != nil {
		return Ceremony{}, err
	}
	creation, sd, err := w.webauthn.BeginRegistration(webUser{m: m, creds: creds},
		webauthn.WithExclusions(webauthn.Credentials(creds).CredentialDescriptors()))
	if err != nil {
		return Ceremony{}, fmt.Errorf("staff: begin a registration: %w", err)
	}
	return w.saveCeremony(ctx, "register", m.ID, tokenID, sd, creation)
}

// Registered is a passkey made: its member, and the token of the session
// an enrolment opens ("" when a signed-in member added a passkey).
type Registered struct {
	Member       Member
	SessionToken string
}

// FinishRegistration verifies the authenticator's answer to the ceremony
// of ceremonyToken and stores the passkey. An enrolment spends its
// invitation (which must be the one it began with) and opens a session, in
// the same transaction; adding a passkey needs the signed-in session of the
// same member.
func (w *Workspace) FinishRegistration(ctx context.Context, ceremonyToken, invitation string, signedIn *Session, response []byte) (Registered, error) {
	if w.webauthn == nil {
		return Registered{}, ErrNoPasskeys
	}
	c, err := w.loadCeremony(ctx, "register", ceremonyToken)
	if err != nil {
		return Registered{}, err
	}
	if c.tokenID == 0 && (signedIn == nil || signedIn.Member.ID != c.staffID) {
		return Registered{}, ErrCeremony
	}
	m, err := memberByID(ctx, w.store, c.staffID)
	if err != nil {
		return Registered{}, ErrCeremony
	}
	creds, err := w.credentials(ctx, w.store, m.ID)
	if err != nil {
		return Registered{}, err
	}
	parsed, err := protocol.ParseCredentialCreationResponseBytes(response)
	if err != nil {
		return Registered{}, fmt.Errorf("%w: %w", ErrPasskeyRefused, err)
	}
	cred, err := w.webauthn.CreateCredential(webUser{m: m, creds: creds}, c.data, parsed)
	if err != nil {
		return Registered{}, fmt.Errorf("%w: %w", ErrPasskeyRefused, err)
	}
	raw, err := json.Marshal(cred)
	if err != nil {
		return Registered{}, fmt.Errorf("staff: store a passkey: %w", err)
	}
	now := w.cfg.Now()
	var out Registered
	err = w.store.InTx(ctx, func(tx *store.Tx) error {
		out = Registered{Member: m}
		if err := endCeremony(ctx, tx, c.id); err != nil {
			return err
		}
		if c.tokenID != 0 {
			staffID, tokenID, err := useToken(ctx, tx, kindInvitation, invitation, now)
			if err != nil {
				return err
			}
			if staffID != m.ID || tokenID != c.tokenID {
				return ErrCeremony
			}
		}
		_, err := tx.ExecContext(ctx, `
INSERT INTO staff_passkeys (staff_id, credential_id, rp_id, credential, created_at) VALUES (?, ?, ?, ?, ?)`,
			m.ID, base64.RawURLEncoding.EncodeToString(cred.ID), w.rpID, string(raw), store.Millis(now))
		if store.IsConflict(err) {
			return fmt.Errorf("%w: the passkey is registered already", ErrPasskeyRefused)
		}
		if err != nil {
			return fmt.Errorf("staff: store a passkey: %w", err)
		}
		if c.tokenID == 0 {
			return record(ctx, tx, now, m.Email, ActionPasskeyAdded, "", "")
		}
		if out.SessionToken, err = startSession(ctx, tx, m.ID, now); err != nil {
			return err
		}
		return record(ctx, tx, now, m.Email, ActionEnrol, "", "")
	})
	if err != nil {
		return Registered{}, err
	}
	return out, nil
}

// BeginSignIn starts a sign-in with a passkey: the browser offers the
// person's passkeys for this site, whoever they are.
func (w *Workspace) BeginSignIn(ctx context.Context) (Ceremony, error) {
	if w.webauthn == nil {
		return Ceremony{}, ErrNoPasskeys
	}
	assertion, sd, err := w.webauthn.BeginDiscoverableLogin()
	if err != nil {
		return Ceremony{}, fmt.Errorf("staff: begin a sign-in: %w", err)
	}
	return w.saveCeremony(ctx, "sign-in", 0, 0, sd, assertion)
}

// FinishSignIn verifies the authenticator's answer to the sign-in ceremony
// of ceremonyToken and opens a session: it returns the member and the new
// session's token.
func (w *Workspace) FinishSignIn(ctx context.Context, ceremonyToken string, response []byte) (Member, string, error) {
	if w.webauthn == nil {
		return Member{}, "", ErrNoPasskeys
	}
	c, err := w.loadCeremony(ctx, "sign-in", ceremonyToken)
	if err != nil {
		return Member{}, "", err
	}
	parsed, err := protocol.ParseCredentialRequestResponseBytes(response)
	if err != nil {
		return Member{}, "", fmt.Errorf("%w: %w", ErrPasskeyRefused, err)
	}
	var found Member
	handler := func(_, userHandle []byte) (webauthn.User, error) {
		m, err := scanMember(w.store.QueryRowContext(ctx, `SELECT `+memberColumns+` FROM staff s WHERE s.handle = ?`,
			base64.RawURLEncoding.EncodeToString(userHandle)))
		if err != nil {
			return nil, ErrPasskeyRefused
		}
		creds, err := w.credentials(ctx, w.store, m.ID)
		if err != nil {
			return nil, err
		}
		found = m
		return webUser{m: m, creds: creds}, nil
	}
	_, cred, err := w.webauthn.ValidatePasskeyLogin(handler, c.data, parsed)
	if err != nil {
		return Member{}, "", fmt.Errorf("%w: %w", ErrPasskeyRefused, err)
	}
	if cred.Authenticator.CloneWarning {
		// The counter went back: two copies of the key may exist.
		return Member{}, "", fmt.Errorf("%w: the authenticator's counter went back", ErrPasskeyRefused)
	}
	raw, err := json.Marshal(cred)
	if err != nil {
		return Member{}, "", fmt.Errorf("staff: update a passkey: %w", err)
	}
	now := w.cfg.Now()
	var token string
	err = w.store.InTx(ctx, func(tx *store.Tx) error {
		if err := endCeremony(ctx, tx, c.id); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `UPDATE staff_passkeys SET credential = ?, last_used_at = ? WHERE credential_id = ? AND staff_id = ?`,
			string(raw), store.Millis(now), base64.RawURLEncoding.EncodeToString(cred.ID), found.ID)
		if err != nil {
			return fmt.Errorf("staff: update a passkey: %w", err)
		}
		if n, _ := res.RowsAffected(); n != 1 { // removed meanwhile
			return ErrPasskeyRefused
		}
		if token, err = startSession(ctx, tx, found.ID, now); err != nil {
			return err
		}
		return record(ctx, tx, now, found.Email, ActionSignIn, "", "passkey")
	})
	if err != nil {
		return Member{}, "", err
	}
	return found, token, nil
}

// Passkey is one of a member's passkeys, as the account page lists them.
type Passkey struct {
	ID       int64
	Created  time.Time
	LastUsed time.Time // zero when never used to sign in
	Name     string    // its member's name for it; "" for none
	Browser  string    // what it was made on (DeviceOf)
	Platform string
}

func scanPasskey(row store.Scanner) (Passkey, error) {
	var p Passkey
	var created int64
	var used sql.NullInt64
	if err := row.Scan(&p.ID, &created, &used, &p.Name, &p.Browser, &p.Platform); err != nil {
		return Passkey{}, err
	}
	p.Created, p.LastUsed = store.FromMillis(created), store.FromMillis(used.Int64)
	return p, nil
}

// Passkeys lists the passkeys of m, oldest first.
func (w *Workspace) Passkeys(ctx context.Context, m Member) ([]Passkey, error) {
	out, err := store.QueryAll(ctx, w.store, scanPasskey, `SELECT id, created_at, last_used_at, name, browser, platform FROM staff_passkeys WHERE staff_id = ? ORDER BY id`, m.ID)
	if err != nil {
		return nil, fmt.Errorf("staff: list passkeys: %w", err)
	}
	return out, nil
}

// RemovePasskey deletes one of the signed-in member's passkeys (a lost
// phone's). The sign-in link by mail stays, should it have been the last.
func (w *Workspace) RemovePasskey(ctx context.Context, s Session, id int64) error {
	return w.removeOwn(ctx, s, "staff_passkeys", id, ActionPasskeyRemoved, "remove a passkey")
}
