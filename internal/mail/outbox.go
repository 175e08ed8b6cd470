package mail

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/northbeam/site/internal/mailaddr"
	"github.com/northbeam/site/internal/store"
)

// States of an outbox row.
const (
	statePending = "pending" // waiting for its next attempt
	stateHeld    = "held"    // seen by a LogSender; sent once an SMTP sender runs
	stateSent    = "sent"
	stateFailed  = "failed" // invalid, or out of attempts; kept for staff to inspect
)

// Enqueue validates m and writes it to the outbox inside tx, the caller's
// transaction, so the mail exists exactly when the caller's data does. It
// is sent by the next drain of a [Worker] after m.NotBefore; call
// [Worker.Wake] after the commit to send it at once.
func Enqueue(ctx context.Context, tx *store.Tx, m Message) error {
	if err := m.Validate(); err != nil {
		return err
	}
	now := store.Millis(time.Now())
	due := max(now, store.Millis(m.NotBefore))
	ref := m.Ref
	if ref == "" {
		ref = uuid.NewString()
	}
	var id int64
	err := tx.QueryRowContext(ctx, `
INSERT INTO outbox (ref, kind, to_addr, reply_to, subject, text_body, html_body, lang,
                    state, next_attempt_at, created_at, to_key, reply_key, message_ref, booking_id)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
RETURNING id`,
		ref, m.Kind, m.To, m.ReplyTo, m.Subject, m.Text, m.HTML, m.Lang,
		statePending, due, now, mailaddr.KeyOf(m.To), mailaddr.KeyOf(m.ReplyTo), store.NullIfZero(m.MessageRef), store.NullIfZero(m.BookingID),
	).Scan(&id)
	if err != nil {
		return fmt.Errorf("mail: enqueue %s: %w", m.Kind, err)
	}
	for _, a := range m.Attachments {
		data := a.Data
		if data == nil {
			data = []byte{} // NOT NULL: an empty file is still a file
		}
		if _, err := tx.ExecContext(ctx, `
INSERT INTO outbox_attachments (outbox_id, filename, content_type, data) VALUES (?, ?, ?, ?)`,
			id, a.Filename, a.ContentType, data); err != nil {
			return fmt.Errorf("mail: enqueue %s attachment: %w", m.Kind, err)
		}
	}
	return nil
}

// Withdraw deletes the message with ref from the outbox inside tx if it
// has not been sent yet (a reminder of a booking that was cancelled or
// moved), and reports whether it did. A message already sent stays as the
// record of what went out.
func Withdraw(ctx context.Context, tx *store.Tx, ref string) (bool, error) {
	res, err := tx.ExecContext(ctx, `DELETE FROM outbox WHERE ref = ? AND state IN ('pending', 'held')`, ref)
	if err != nil {
		return false, fmt.Errorf("mail: withdraw %s: %w", ref, err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// queued is an outbox row on its way to the sender.
type queued struct {
	id       int64
	ref      string
	attempts int
	due      int64 // next_attempt_at before the claim
	msg      Message
}

// loadQueued reads the message of row id with its attachments.
func loadQueued(ctx context.Context, tx store.Querier, id int64) (queued, error) {
	q := queued{id: id}
	m := &q.msg
	err := tx.QueryRowContext(ctx, `
SELECT ref, attempts, next_attempt_at, kind, to_addr, reply_to, subject, text_body, html_body, lang
FROM outbox WHERE id = ?`, id).Scan(
		&q.ref, &q.attempts, &q.due, &m.Kind, &m.To, &m.ReplyTo, &m.Subject, &m.Text, &m.HTML, &m.Lang)
	if err != nil {
		return q, fmt.Errorf("mail: load outbox row %d: %w", id, err)
	}
	m.Attachments, err = store.QueryAll(ctx, tx, scanAttachment, `
SELECT filename, content_type, data FROM outbox_attachments WHERE outbox_id = ? ORDER BY id`, id)
	if err != nil {
		return q, fmt.Errorf("mail: load attachments of outbox row %d: %w", id, err)
	}
	return q, nil
}

func scanAttachment(row store.Scanner) (Attachment, error) {
	var a Attachment
	err := row.Scan(&a.Filename, &a.ContentType, &a.Data)
	return a, err
}

// Stats counts outbox rows by state.
type Stats struct {
	Pending int // waiting for a first or further attempt
	Held    int // waiting for SMTP to be configured
	Sent    int
	Failed  int // given up; see last_error
}

// CountOutbox returns the number of outbox rows in each state, for health
// checks and the staff command.
func CountOutbox(ctx context.Context, db store.Querier) (Stats, error) {
	var s Stats
	err := store.QueryEach(ctx, db, func(row store.Scanner) error {
		var state string
		var n int
		if err := row.Scan(&state, &n); err != nil {
			return err
		}
		switch state {
		case statePending:
			s.Pending = n
		case stateHeld:
			s.Held = n
		case stateSent:
			s.Sent = n
		case stateFailed:
			s.Failed = n
		}
		return nil
	}, `SELECT state, count(*) FROM outbox GROUP BY state`)
	if err != nil {
		return Stats{}, fmt.Errorf("mail: count outbox: %w", err)
	}
	return s, nil
}
