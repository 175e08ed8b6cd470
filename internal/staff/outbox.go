package staff

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/northbeam/site/internal/mail"
	"github.com/northbeam/site/internal/store"
)

// Mail is an outbox row as staff see it.
type Mail struct {
	Ref       string
	Kind      string
	To        string
	Subject   string
	State     string // pending, held, sent, failed, or erased (see MailErased)
	Attempts  int
	LastError string
	// Reason names why a failed mail can never go as it is, in words the
	// workspace translates: "smtputf8" for an address that needs SMTPUTF8
	// from a server that does not offer it (mail.ErrNeedsSMTPUTF8); "".
	Reason      string
	Created     time.Time
	NextAttempt time.Time
	Sent        time.Time // zero until sent
}

// ReasonSMTPUTF8 is Mail.Reason of a mail given up for want of SMTPUTF8.
const ReasonSMTPUTF8 = "smtputf8"

// MailErased is the state staff see of a mail whose address and text were
// erased (a privacy request, the retention job): nothing is left to send
// or to read, whatever the outbox's state says.
const MailErased = "erased"

// MailText is a mail with what it says.
type MailText struct {
	Mail
	ReplyTo string
	Lang    string
	Text    string
}

const mailColumns = `ref, kind, to_addr, subject, state, attempts, last_error, created_at, next_attempt_at, sent_at`

func scanMail(row store.Scanner) (Mail, error) {
	var m Mail
	err := scanMailInto(row, &m)
	return m, err
}

// scanMailInto reads mailColumns into m, then the columns after them into
// more.
func scanMailInto(row store.Scanner, m *Mail, more ...any) error {
	var created, next int64
	var sent sql.NullInt64
	dst := append([]any{&m.Ref, &m.Kind, &m.To, &m.Subject, &m.State, &m.Attempts, &m.LastError, &created, &next, &sent}, more...)
	if err := row.Scan(dst...); err != nil {
		return err
	}
	m.Created, m.NextAttempt, m.Sent = store.FromMillis(created), store.FromMillis(next), store.FromMillis(sent.Int64)
	if m.To == "" {
		m.State, m.LastError = MailErased, ""
	}
	if m.State == "failed" && strings.Contains(m.LastError, mail.ReasonNeedsSMTPUTF8) {
		m.Reason = ReasonSMTPUTF8
	}
	return nil
}

// troubled is the condition of a mail that did not go out and still may:
// the index outbox_troubled's (store's 0051_workspace_lists), written out
// so that SQLite uses it. Erased mail is not troubled: it has nowhere to go.
const troubled = `(state IN ('failed', 'held') OR (state = 'pending' AND attempts > 0)) AND to_addr <> ''`

// MailPage is a page of mail, newest first, and the cursor of the next
// page: the ref of its last mail ("" when this is the last page).
type MailPage struct {
	Mail []Mail
	Next string
}

// TroubledMail returns a page of the mail that did not go out and still
// may, newest first: the mails written before the mail ref before ("" for
// the newest), in the order of the index on (created_at, id). The cursor
// stays good when its mail has gone out since (retried): it only marks a
// place. An unknown ref is ErrCursor.
func (w *Workspace) TroubledMail(ctx context.Context, before string) (MailPage, error) {
	where, args := troubled, []any{}
	if before != "" {
		var created, id int64
		err := w.store.QueryRowContext(ctx, `SELECT created_at, id FROM outbox WHERE ref = ?`, before).Scan(&created, &id)
		if errors.Is(err, sql.ErrNoRows) {
			return MailPage{}, ErrCursor
		} else if err != nil {
			return MailPage{}, fmt.Errorf("staff: list mail: %w", err)
		}
		where += ` AND (created_at < ? OR (created_at = ? AND id < ?))`
		args = append(args, created, created, id)
	}
	out, err := store.QueryAll(ctx, w.store, scanMail, `SELECT `+mailColumns+` FROM outbox WHERE `+where+`
ORDER BY created_at DESC, id DESC LIMIT ?`, append(args, PageSize+1)...)
	if err != nil {
		return MailPage{}, fmt.Errorf("staff: list mail: %w", err)
	}
	return mailPage(out), nil
}

// mailPage makes a page of up to PageSize+1 mails read.
func mailPage(out []Mail) MailPage {
	page := MailPage{Mail: out}
	if len(out) > PageSize {
		page.Mail = out[:PageSize]
		page.Next = page.Mail[PageSize-1].Ref
	}
	return page
}

// RecentMail returns a page of the outbox, newest first: the mails
// written before the mail ref before ("" for the newest). An unknown ref
// is ErrCursor.
func (w *Workspace) RecentMail(ctx context.Context, before string) (MailPage, error) {
	where, args := `1 = 1`, []any{}
	if before != "" {
		var id int64
		if err := w.store.QueryRowContext(ctx, `SELECT id FROM outbox WHERE ref = ?`, before).Scan(&id); errors.Is(err, sql.ErrNoRows) {
			return MailPage{}, ErrCursor
		} else if err != nil {
			return MailPage{}, fmt.Errorf("staff: list the outbox: %w", err)
		}
		where, args = `id < ?`, append(args, id)
	}
	out, err := store.QueryAll(ctx, w.store, scanMail, `SELECT `+mailColumns+` FROM outbox WHERE `+where+`
ORDER BY id DESC LIMIT ?`, append(args, PageSize+1)...)
	if err != nil {
		return MailPage{}, fmt.Errorf("staff: list the outbox: %w", err)
	}
	return mailPage(out), nil
}

// ReadMail returns the mail ref with its text, as it was sent (or will
// be); an erased mail has none left. ErrNotFound when there is no such mail.
func (w *Workspace) ReadMail(ctx context.Context, ref string) (MailText, error) {
	var out MailText
	row := w.store.QueryRowContext(ctx, `SELECT `+mailColumns+`, reply_to, lang, text_body FROM outbox WHERE ref = ?`, ref)
	err := scanMailInto(row, &out.Mail, &out.ReplyTo, &out.Lang, &out.Text)
	if errors.Is(err, sql.ErrNoRows) {
		return MailText{}, ErrNotFound
	}
	if err != nil {
		return MailText{}, fmt.Errorf("staff: read a mail: %w", err)
	}
	return out, nil
}

// RetryMail makes a mail that failed, is held or waits for a retry due at
// once, with a fresh count of attempts, and wakes the mail worker. A mail
// whose address was erased, or already sent, is not retried: ErrNotFound.
func (w *Workspace) RetryMail(ctx context.Context, ref, actor string) error {
	now := w.cfg.Now()
	err := w.store.InTx(ctx, func(tx *store.Tx) error {
		res, err := tx.ExecContext(ctx, `
UPDATE outbox SET state = 'pending', attempts = 0, next_attempt_at = ?
WHERE ref = ? AND state IN ('failed', 'held', 'pending') AND to_addr <> ''`, store.Millis(now), ref)
		if err != nil {
			return fmt.Errorf("staff: retry a mail: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return ErrNotFound
		}
		return record(ctx, tx, now, actor, ActionMailRetry, ref, "")
	})
	if err != nil {
		return err
	}
	w.queued()
	return nil
}
