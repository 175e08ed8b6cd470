package staff

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"

	"github.com/northbeam/site/internal/mail"
	"github.com/northbeam/site/internal/store"
)

// KindSignInLink is the mail carrying a sign-in link, as the outbox and the
// logs name it.
const KindSignInLink = "staff.sign-in"

// signInMailData is what the sign-in mail's templates see.
type signInMailData struct {
	Name    string // the consultancy
	URL     string // the link
	Minutes int    // how long it works
}

// signInMail writes the mail carrying token's link to a member.
func (w *Workspace) signInMail(to, lang, token string) (mail.Message, error) {
	lang = w.language(lang)
	m, err := mail.Render(w.signIn[lang], signInMailData{
		Name:    w.cfg.Name,
		URL:     w.cfg.BaseURL + "/staff/link?token=" + url.QueryEscape(token),
		Minutes: int(SignInLinkLifetime.Minutes()),
	})
	if err != nil {
		return mail.Message{}, err
	}
	m.Kind, m.To, m.Lang = KindSignInLink, to, lang
	return m, nil
}

// RequestSignInLink mails a one-time sign-in link, valid for
// SignInLinkLifetime, to email if it belongs to a member, through the
// outbox in the same transaction as the link. For any other well-formed
// address it does nothing, and answers the same: nil. It takes longer for
// a member: a request from outside goes through [Workspace.QueueSignInLink].
func (w *Workspace) RequestSignInLink(ctx context.Context, email string) error {
	email, ok := NormalizeEmail(email)
	if !ok {
		return ErrInvalidEmail
	}
	now := w.cfg.Now()
	queued := false
	err := w.store.InTx(ctx, func(tx *store.Tx) error {
		queued = false
		var id int64
		var lang string
		err := tx.QueryRowContext(ctx, `SELECT id, lang FROM staff WHERE email = ?`, email).Scan(&id, &lang)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("staff: find a member: %w", err)
		}
		token, _, err := issueToken(ctx, tx, id, kindSignIn, now, SignInLinkLifetime)
		if err != nil {
			return err
		}
		m, err := w.signInMail(email, lang, token)
		if err != nil {
			return err
		}
		if err := mail.Enqueue(ctx, tx, m); err != nil {
			return fmt.Errorf("staff: queue a sign-in link: %w", err)
		}
		queued = true
		return nil
	})
	if err != nil {
		return err
	}
	if queued {
		w.queued()
	}
	return nil
}

// UseSignInLink spends a mailed sign-in link and opens a session: it
// returns the member and the new session's token. A link that cannot be
// used returns a *TokenError.
func (w *Workspace) UseSignInLink(ctx context.Context, token string) (Member, string, error) {
	now := w.cfg.Now()
	var (
		m       Member
		session string
	)
	err := w.store.InTx(ctx, func(tx *store.Tx) error {
		staffID, _, err := useToken(ctx, tx, kindSignIn, token, now)
		if err != nil {
			return err
		}
		if m, err = memberByID(ctx, tx, staffID); err != nil {
			return err
		}
		if session, err = startSession(ctx, tx, staffID, now); err != nil {
			return err
		}
		return record(ctx, tx, now, m.Email, ActionSignIn, "", "link")
	})
	if err != nil {
		return Member{}, "", err
	}
	return m, session, nil
}
