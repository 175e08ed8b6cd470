package staff

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"github.com/northbeam/site/internal/store"
)

// Person is everything the site stores about one email address: what a
// privacy request (GDPR Art. 15, 17, 20) is about.
type Person struct {
	Email    string          `json:"email"`
	Messages []PersonMessage `json:"messages"`
	Bookings []PersonBooking `json:"bookings"`
	Mail     []PersonMail    `json:"mail"`
}

// Empty reports whether nothing is stored about the person.
func (p Person) Empty() bool { return len(p.Messages)+len(p.Bookings)+len(p.Mail) == 0 }

// PersonMessage is a contact message of the person.
type PersonMessage struct {
	Ref      string    `json:"reference"`
	Received time.Time `json:"received"`
	Name     string    `json:"name"`
	Email    string    `json:"email"`
	Text     string    `json:"message"`
	Service  string    `json:"service,omitempty"`
	Lang     string    `json:"language"`
	Spam     bool      `json:"flaggedAsSpam"`
}

// PersonBooking is a consultation the person booked.
type PersonBooking struct {
	ID        int64      `json:"number"`
	Service   string     `json:"service"`
	Start     time.Time  `json:"start"`
	End       time.Time  `json:"end"`
	Name      string     `json:"name"`
	Email     string     `json:"email"`
	Company   string     `json:"company,omitempty"`
	Topic     string     `json:"topic,omitempty"`
	TimeZone  string     `json:"timeZone"`
	Lang      string     `json:"language"`
	Created   time.Time  `json:"booked"`
	Cancelled *time.Time `json:"cancelled,omitempty"`
}

// PersonMail is a mail to the person, or about them to the consultancy.
type PersonMail struct {
	Ref         string     `json:"reference"`
	Kind        string     `json:"kind"`
	To          string     `json:"to"`
	ReplyTo     string     `json:"replyTo,omitempty"`
	Subject     string     `json:"subject"`
	Text        string     `json:"text"`
	Attachments []string   `json:"attachments,omitempty"`
	State       string     `json:"state"`
	Created     time.Time  `json:"created"`
	Sent        *time.Time `json:"sent,omitempty"`
}

// mailAbout is the condition that finds the outbox rows concerning an
// address: sent to it, answering to it, or naming it in the text.
func mailAbout(b store.Backend) string {
	return `(lower(to_addr) = ? OR lower(reply_to) = ? OR ` + containsIgnoringCase(b, "text_body") + ` OR ` +
		containsIgnoringCase(b, "html_body") + ` OR ` + containsIgnoringCase(b, "subject") + `)`
}

func mailAboutArgs(email string) []any {
	p := likePattern(email)
	return []any{email, email, p, p, p}
}

// FindPerson gathers everything stored about email. actor looks, which
// the audit log records (not the address).
func (w *Workspace) FindPerson(ctx context.Context, email, actor string) (Person, error) {
	return w.recordedPerson(ctx, email, actor, ActionPrivacySearch)
}

// ExportPerson is FindPerson for a download (Art. 15 and 20), recorded as
// such.
func (w *Workspace) ExportPerson(ctx context.Context, email, actor string) (Person, error) {
	return w.recordedPerson(ctx, email, actor, ActionPrivacyExport)
}

// recordedPerson gathers everything stored about email, and records in the
// audit log that actor did action: with counts, not the address.
func (w *Workspace) recordedPerson(ctx context.Context, email, actor, action string) (Person, error) {
	p, err := w.person(ctx, email)
	if err != nil {
		return Person{}, err
	}
	detail := fmt.Sprintf("messages: %d, bookings: %d, mail: %d", len(p.Messages), len(p.Bookings), len(p.Mail))
	return p, w.Record(ctx, actor, action, "", detail)
}

func (w *Workspace) person(ctx context.Context, email string) (Person, error) {
	email, ok := NormalizeEmail(email)
	if !ok {
		return Person{}, ErrInvalidEmail
	}
	p := Person{Email: email, Messages: []PersonMessage{}, Bookings: []PersonBooking{}, Mail: []PersonMail{}}
	messages, err := store.QueryAll(ctx, w.store, scanMessage, `SELECT `+messageColumns+` FROM messages WHERE lower(email) = ? ORDER BY created_at, id`, email)
	if err != nil {
		return Person{}, fmt.Errorf("staff: find messages: %w", err)
	}
	for _, m := range messages {
		p.Messages = append(p.Messages, PersonMessage{Ref: m.Ref, Received: m.Received, Name: m.Name, Email: m.Email,
			Text: m.Text, Service: m.Service, Lang: m.Lang, Spam: m.Spam})
	}
	bookings, err := queryBookings(ctx, w.store, `lower(email) = ?`, `start_at, id`, email)
	if err != nil {
		return Person{}, err
	}
	for _, b := range bookings {
		pb := PersonBooking{ID: b.ID, Service: b.Service, Start: b.Start, End: b.End, Name: b.Name, Email: b.Email,
			Company: b.Company, Topic: b.Topic, TimeZone: b.TimeZone, Lang: b.Lang, Created: b.Created}
		if !b.Cancelled.IsZero() {
			c := b.Cancelled
			pb.Cancelled = &c
		}
		p.Bookings = append(p.Bookings, pb)
	}
	var ids []int64
	err = store.QueryEach(ctx, w.store, func(row store.Scanner) error {
		var m PersonMail
		var id, created int64
		var sent sql.NullInt64
		if err := row.Scan(&id, &m.Ref, &m.Kind, &m.To, &m.ReplyTo, &m.Subject, &m.Text, &m.State, &created, &sent); err != nil {
			return err
		}
		m.Created = store.FromMillis(created)
		if sent.Valid {
			s := store.FromMillis(sent.Int64)
			m.Sent = &s
		}
		p.Mail = append(p.Mail, m)
		ids = append(ids, id)
		return nil
	}, `
SELECT id, ref, kind, to_addr, reply_to, subject, text_body, state, created_at, sent_at FROM outbox
WHERE `+mailAbout(w.store.Backend())+` ORDER BY created_at, id`, mailAboutArgs(email)...)
	if err != nil {
		return Person{}, fmt.Errorf("staff: find mail: %w", err)
	}
	for i, id := range ids {
		names, err := attachmentNames(ctx, w.store, id)
		if err != nil {
			return Person{}, err
		}
		p.Mail[i].Attachments = names
	}
	return p, nil
}

func attachmentNames(ctx context.Context, q store.Querier, outboxID int64) ([]string, error) {
	names, err := store.QueryAll(ctx, q, store.Column[string], `SELECT filename FROM outbox_attachments WHERE outbox_id = ? ORDER BY id`, outboxID)
	if err != nil {
		return nil, fmt.Errorf("staff: find attachments: %w", err)
	}
	return names, nil
}

// Erased counts what an erasure removed.
type Erased struct {
	Messages int `json:"messages"` // deleted
	Bookings int `json:"bookings"` // whose personal fields were removed; their time stays taken
	Mail     int `json:"mail"`     // whose addresses, subject, texts and attachments were cleared
}

// ErasePerson erases everything stored about email (GDPR Art. 17), in one
// transaction: the person's messages are deleted; their bookings lose the
// name, address, company and topic, and keep their time (a standing one
// still takes it); the mail to or about them keeps only its kind, dates and
// state, with no address, subject, text or attachment (mail still waiting
// is given up); an audit entry that quoted the address is emptied. The
// audit log records the erasure with counts, not the address. Afterwards
// the database itself is made to forget: SQLite's write-ahead log is folded
// into the file and truncated (deleted content is zeroed, see store), and
// PostgreSQL vacuums the tables, so the old row versions are gone too.
func (w *Workspace) ErasePerson(ctx context.Context, email, actor string) (Erased, error) {
	email, ok := NormalizeEmail(email)
	if !ok {
		return Erased{}, ErrInvalidEmail
	}
	now := w.cfg.Now()
	var e Erased
	err := w.store.InTx(ctx, func(tx *store.Tx) error {
		e = Erased{}
		res, err := tx.ExecContext(ctx, `DELETE FROM messages WHERE lower(email) = ?`, email)
		if err != nil {
			return fmt.Errorf("staff: erase messages: %w", err)
		}
		e.Messages = affected(res)
		// A reminder waiting for an erased booking goes too: it would go to
		// the address being forgotten.
		if _, err := tx.ExecContext(ctx, `DELETE FROM outbox WHERE state IN ('pending', 'held') AND ref IN
	(SELECT reminder_ref FROM bookings WHERE lower(email) = ? AND reminder_ref IS NOT NULL)`, email); err != nil {
			return fmt.Errorf("staff: withdraw reminders: %w", err)
		}
		if res, err = tx.ExecContext(ctx, `UPDATE bookings SET name = '', email = '', company = '', topic = '', phone = '', reminder_ref = NULL
WHERE lower(email) = ?`, email); err != nil {
			return fmt.Errorf("staff: erase bookings: %w", err)
		}
		e.Bookings = affected(res)
		if e.Mail, err = clearMail(ctx, tx, mailAbout(tx.Backend()), mailAboutArgs(email), "erased"); err != nil {
			return err
		}
		p := likePattern(email)
		if _, err := tx.ExecContext(ctx, `UPDATE staff_audit SET subject = '', detail = '' WHERE `+
			containsIgnoringCase(tx.Backend(), "subject")+` OR `+containsIgnoringCase(tx.Backend(), "detail"), p, p); err != nil {
			return fmt.Errorf("staff: erase from the audit log: %w", err)
		}
		return record(ctx, tx, now, actor, ActionErasure, "",
			fmt.Sprintf("messages: %d, bookings: %d, mail: %d", e.Messages, e.Bookings, e.Mail))
	})
	if err != nil {
		return Erased{}, err
	}
	w.forget(ctx, "messages", "bookings", "outbox", "outbox_attachments", "staff_audit")
	return e, nil
}

// clearMail empties the outbox rows matching where: no address, subject,
// text, error or attachment is left, only the kind, the dates and the
// state; mail that was still to be sent is given up with reason as its
// error. It returns how many rows it cleared.
func clearMail(ctx context.Context, tx *store.Tx, where string, args []any, reason string) (int, error) {
	ids, err := store.QueryAll(ctx, tx, store.Column[int64], `SELECT id FROM outbox WHERE `+where, args...)
	if err != nil {
		return 0, fmt.Errorf("staff: find mail to clear: %w", err)
	}
	for _, id := range ids {
		if _, err := tx.ExecContext(ctx, `DELETE FROM outbox_attachments WHERE outbox_id = ?`, id); err != nil {
			return 0, fmt.Errorf("staff: clear attachments: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `
UPDATE outbox SET to_addr = '', reply_to = '', subject = '', text_body = '', html_body = '',
	last_error = CASE WHEN state IN ('pending', 'held') THEN ? ELSE '' END,
	state = CASE WHEN state IN ('pending', 'held') THEN 'failed' ELSE state END
WHERE id = ?`, reason, id); err != nil {
			return 0, fmt.Errorf("staff: clear mail: %w", err)
		}
	}
	return len(ids), nil
}

func affected(res interface{ RowsAffected() (int64, error) }) int {
	n, _ := res.RowsAffected()
	return int(n)
}

// forget makes the database drop what was deleted from tables for good:
// on SQLite the write-ahead log, which still holds the pages as they were,
// is checkpointed into the file and truncated (the file's deleted content
// is zeroed as it goes, secure_delete); on PostgreSQL the tables are
// vacuumed, so that the dead row versions are removed. A reader holding an
// old snapshot can delay the checkpoint: it is tried a few times. The rows
// are gone for every query already; what fails here is logged, and the
// next erasure or retention run tries again.
func (w *Workspace) forget(ctx context.Context, tables ...string) {
	db := w.store.DB()
	if w.store.Backend() == store.Postgres {
		if _, err := db.ExecContext(ctx, `VACUUM `+strings.Join(tables, ", ")); err != nil {
			w.cfg.Logger.WarnContext(ctx, "vacuum after an erasure failed", "error", err)
		}
		return
	}
	for attempt := 0; ; attempt++ {
		var busy, logPages, moved int
		if err := db.QueryRowContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`).Scan(&busy, &logPages, &moved); err != nil {
			w.cfg.Logger.WarnContext(ctx, "checkpoint after an erasure failed", "error", err)
			return
		}
		if busy == 0 {
			return
		}
		if attempt == 4 {
			w.cfg.Logger.WarnContext(ctx, "checkpoint after an erasure kept waiting for a reader; the write-ahead log is folded in later")
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(100 * time.Millisecond):
		}
	}
}
