package staff

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/mail"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/northbeam/site/internal/mailaddr"
	"github.com/northbeam/site/internal/store"
	"golang.org/x/text/unicode/norm"
)

// Person is everything the site stores about one email address: what a
// privacy request (GDPR Art. 15, 17, 20) is about.
type Person struct {
	Email string `json:"email"`
	// Addresses are the spellings stored under the address's key, each as
	// typed (docs/ARCHITECTURE.md, Data): they differ only by case, and
	// the member confirms which are the person's.
	Addresses []PersonAddress `json:"addresses"`
	Messages  []PersonMessage `json:"messages"`
	Bookings  []PersonBooking `json:"bookings"`
	Mail      []PersonMail    `json:"mail"`
	Notes     []PersonNote    `json:"notes"`

	mailIDs []int64 // the outbox rows of Mail
}

// PersonAddress is one spelling of the address, as typed, and how many of
// the rows found carry it.
type PersonAddress struct {
	Email    string `json:"email"`
	Messages int    `json:"messages"`
	Bookings int    `json:"bookings"`
	Mail     int    `json:"mail"`
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
	Phone     string     `json:"phone,omitempty"`
	Company   string     `json:"company,omitempty"`
	Topic     string     `json:"topic,omitempty"`
	TimeZone  string     `json:"timeZone"`
	Lang      string     `json:"language"`
	Created   time.Time  `json:"booked"`
	Cancelled *time.Time `json:"cancelled,omitempty"`
	// CancelReason is why they cancelled, as they wrote it.
	CancelReason string `json:"cancelReason,omitempty"`
}

// PersonNote is a note of the team on one of the person's messages or
// bookings.
type PersonNote struct {
	About   string    `json:"about"`     // "message" or "booking"
	Ref     string    `json:"reference"` // the message's reference, the booking's number
	Text    string    `json:"text"`
	Written time.Time `json:"written"`
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

// ErrChooseAddresses refuses an export or an erasure that does not say
// which spellings of the address are the person's, when several are
// stored, or that names an address which is not a spelling of the one
// asked for.
var ErrChooseAddresses = errors.New("staff: choose the person's addresses")

// mailAbout is the condition that finds the outbox rows concerning the
// address whose key (mailaddr.Key) is the argument: sent to it, answering
// to it, or about one of its messages or bookings. Every match is exact:
// another address that contains this one is another person. Each of the
// four ways is read through its own index and their ids joined: an OR of
// them, with its two subqueries, had both engines read the outbox whole.
const mailAbout = `id IN (SELECT id FROM outbox WHERE to_key = ?
	UNION SELECT id FROM outbox WHERE reply_key = ?
	UNION SELECT o.id FROM messages m JOIN outbox o ON o.message_ref = m.ref WHERE m.email_key = ?
	UNION SELECT o.id FROM bookings b JOIN outbox o ON o.booking_id = b.id WHERE b.email_key = ?)`

func mailAboutArgs(key string) []any { return []any{key, key, key, key} }

// personKey checks email and returns its key, under which it is stored.
func personKey(email string) (string, bool) {
	if _, ok := NormalizeEmail(email); !ok {
		return "", false
	}
	return mailaddr.Key(email), true
}

// spelling is how an address was typed, as the privacy page lists it: in
// NFC (a spelling that differs only by its Unicode form looks the same,
// and is the same), without the spaces around it.
func spelling(address string) string {
	return norm.NFC.String(strings.TrimSpace(address))
}

// headerSpelling is the spelling of the address in a header value such as
// "Name <a@example.com>".
func headerSpelling(header string) string {
	if a, err := mail.ParseAddress(header); err == nil {
		return spelling(a.Address)
	}
	return spelling(header)
}

// FindPerson gathers everything stored about email, in every spelling of
// it (Person.Addresses lists them). actor looks, which the audit log
// records (not the address).
func (w *Workspace) FindPerson(ctx context.Context, email, actor string) (Person, error) {
	return w.recordedPerson(ctx, email, nil, true, actor, ActionPrivacySearch)
}

// ExportPerson gathers for a download (Art. 15 and 20) what is stored
// under the spellings of email that the member confirmed (addresses);
// none confirmed means every spelling, which is allowed only when there
// is one (ErrChooseAddresses). It is recorded as such.
func (w *Workspace) ExportPerson(ctx context.Context, email string, addresses []string, actor string) (Person, error) {
	return w.recordedPerson(ctx, email, addresses, false, actor, ActionPrivacyExport)
}

// recordedPerson gathers what is stored about email, and records in the
// audit log that actor did action: with counts, not the address.
func (w *Workspace) recordedPerson(ctx context.Context, email string, addresses []string, every bool, actor, action string) (Person, error) {
	key, ok := personKey(email)
	if !ok {
		return Person{}, ErrInvalidEmail
	}
	p, err := gatherPerson(ctx, w.store, key, addresses, every)
	if err != nil {
		return Person{}, err
	}
	detail := fmt.Sprintf("messages: %d, bookings: %d, mail: %d, notes: %d", len(p.Messages), len(p.Bookings), len(p.Mail), len(p.Notes))
	return p, w.Record(ctx, actor, action, "", detail)
}

// mailRow is an outbox row about a person, with what ties it to them.
type mailRow struct {
	PersonMail
	id                  int64
	toKey, replyKey     string
	messageRef          sql.NullString
	bookingID           sql.NullInt64
	toSpelling, replyOf string
}

// gatherPerson reads what is stored under key. With every, all of it;
// otherwise the rows of the spellings in addresses only (each must have
// key), or of the one spelling stored when addresses is empty.
func gatherPerson(ctx context.Context, q store.Querier, key string, addresses []string, every bool) (Person, error) {
	p := Person{Email: key, Addresses: []PersonAddress{}, Messages: []PersonMessage{}, Bookings: []PersonBooking{},
		Mail: []PersonMail{}, Notes: []PersonNote{}}
	messages, err := store.QueryAll(ctx, q, scanMessage, `SELECT `+messageColumns+` FROM messages WHERE email_key = ? ORDER BY created_at, id`, key)
	if err != nil {
		return Person{}, fmt.Errorf("staff: find messages: %w", err)
	}
	bookings, err := queryBookings(ctx, q, `email_key = ?`, `start_at, id`, key)
	if err != nil {
		return Person{}, err
	}
	mails, err := store.QueryAll(ctx, q, func(row store.Scanner) (mailRow, error) {
		var m mailRow
		var created int64
		var sent sql.NullInt64
		if err := row.Scan(&m.id, &m.Ref, &m.Kind, &m.To, &m.ReplyTo, &m.Subject, &m.Text, &m.State, &created, &sent,
			&m.toKey, &m.replyKey, &m.messageRef, &m.bookingID); err != nil {
			return m, err
		}
		m.Created = store.FromMillis(created)
		if sent.Valid {
			s := store.FromMillis(sent.Int64)
			m.Sent = &s
		}
		m.toSpelling, m.replyOf = headerSpelling(m.To), headerSpelling(m.ReplyTo)
		return m, nil
	}, `
SELECT id, ref, kind, to_addr, reply_to, subject, text_body, state, created_at, sent_at, to_key, reply_key, message_ref, booking_id
FROM outbox WHERE `+mailAbout+` ORDER BY created_at, id`, mailAboutArgs(key)...)
	if err != nil {
		return Person{}, fmt.Errorf("staff: find mail: %w", err)
	}

	// Every spelling stored, in the order first found, with its counts.
	index := map[string]int{}
	count := func(address string, field func(*PersonAddress)) {
		sp := spelling(address)
		i, ok := index[sp]
		if !ok {
			i = len(p.Addresses)
			index[sp] = i
			p.Addresses = append(p.Addresses, PersonAddress{Email: sp})
		}
		field(&p.Addresses[i])
	}
	for _, m := range messages {
		count(m.Email, func(a *PersonAddress) { a.Messages++ })
	}
	for _, b := range bookings {
		count(b.Email, func(a *PersonAddress) { a.Bookings++ })
	}
	messageSpelling, bookingSpelling := map[string]string{}, map[int64]string{}
	for _, m := range messages {
		messageSpelling[m.Ref] = spelling(m.Email)
	}
	for _, b := range bookings {
		bookingSpelling[b.ID] = spelling(b.Email)
	}
	mailSpellings := func(m mailRow) []string {
		var out []string
		if m.toKey == key {
			out = append(out, m.toSpelling)
		}
		if m.replyKey == key {
			out = append(out, m.replyOf)
		}
		if sp, ok := messageSpelling[m.messageRef.String]; ok && m.messageRef.Valid {
			out = append(out, sp)
		}
		if sp, ok := bookingSpelling[m.bookingID.Int64]; ok && m.bookingID.Valid {
			out = append(out, sp)
		}
		slices.Sort(out)
		return slices.Compact(out)
	}
	for _, m := range mails {
		for _, sp := range mailSpellings(m) {
			count(sp, func(a *PersonAddress) { a.Mail++ })
		}
	}

	chosen := map[string]bool{}
	switch {
	case every || (len(addresses) == 0 && len(p.Addresses) <= 1):
		for _, a := range p.Addresses {
			chosen[a.Email] = true
		}
	case len(addresses) == 0:
		return Person{}, ErrChooseAddresses
	default:
		for _, a := range addresses {
			if mailaddr.Key(a) != key {
				return Person{}, ErrChooseAddresses
			}
			chosen[spelling(a)] = true
		}
	}

	for _, m := range messages {
		if !chosen[spelling(m.Email)] {
			continue
		}
		p.Messages = append(p.Messages, PersonMessage{Ref: m.Ref, Received: m.Received, Name: m.Name, Email: m.Email,
			Text: m.Text, Service: m.Service, Lang: m.Lang, Spam: m.Spam})
	}
	for _, b := range bookings {
		if !chosen[spelling(b.Email)] {
			continue
		}
		pb := PersonBooking{ID: b.ID, Service: b.Service, Start: b.Start, End: b.End, Name: b.Name, Email: b.Email,
			Phone: b.Phone, Company: b.Company, Topic: b.Topic, TimeZone: b.TimeZone, Lang: b.Lang, Created: b.Created,
			CancelReason: b.CancelReason}
		if !b.Cancelled.IsZero() {
			c := b.Cancelled
			pb.Cancelled = &c
		}
		p.Bookings = append(p.Bookings, pb)
	}
	p.mailIDs = p.mailIDs[:0]
	for _, m := range mails {
		if !slices.ContainsFunc(mailSpellings(m), func(sp string) bool { return chosen[sp] }) {
			continue
		}
		names, err := attachmentNames(ctx, q, m.id)
		if err != nil {
			return Person{}, err
		}
		m.Attachments = names
		p.Mail = append(p.Mail, m.PersonMail)
		p.mailIDs = append(p.mailIDs, m.id)
	}
	refs, ids := p.messageRefs(), p.bookingIDs()
	if p.Notes, err = personNotes(ctx, q, refs, ids); err != nil {
		return Person{}, err
	}
	return p, nil
}

// messageRefs are the references of the person's messages found.
func (p Person) messageRefs() []string {
	out := make([]string, len(p.Messages))
	for i, m := range p.Messages {
		out[i] = m.Ref
	}
	return out
}

// bookingIDs are the numbers of the person's bookings found.
func (p Person) bookingIDs() []int64 {
	out := make([]int64, len(p.Bookings))
	for i, b := range p.Bookings {
		out[i] = b.ID
	}
	return out
}

// inList is "column IN (?, ?, …)" with its arguments; an empty list
// matches nothing.
func inList[T any](column string, values []T) (string, []any) {
	if len(values) == 0 {
		return "1 = 0", nil
	}
	args := make([]any, len(values))
	for i, v := range values {
		args[i] = v
	}
	return column + " IN (" + strings.TrimSuffix(strings.Repeat("?, ", len(values)), ", ") + ")", args
}

// personNotes returns the team's notes on the messages (refs) and
// bookings (ids) of a person, oldest first.
func personNotes(ctx context.Context, q store.Querier, refs []string, ids []int64) ([]PersonNote, error) {
	bookingRefs := make([]string, len(ids))
	for i, id := range ids {
		bookingRefs[i] = strconv.FormatInt(id, 10)
	}
	onMessages, messageArgs := inList("ref", refs)
	onBookings, bookingArgs := inList("ref", bookingRefs)
	args := append(append([]any{NoteOnMessage}, messageArgs...), NoteOnBooking)
	notes, err := store.QueryAll(ctx, q, func(row store.Scanner) (PersonNote, error) {
		var n PersonNote
		var written int64
		err := row.Scan(&n.About, &n.Ref, &n.Text, &written)
		n.Written = store.FromMillis(written)
		return n, err
	}, `SELECT subject, ref, body, created_at FROM staff_notes
WHERE (subject = ? AND `+onMessages+`) OR (subject = ? AND `+onBookings+`)
ORDER BY created_at, id`, append(args, bookingArgs...)...)
	if err != nil {
		return nil, fmt.Errorf("staff: find notes: %w", err)
	}
	if notes == nil {
		notes = []PersonNote{}
	}
	return notes, nil
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

// ErasePerson erases everything stored under the spellings of email that
// the member confirmed (addresses; none means every spelling, allowed
// only when there is one, as for ExportPerson) (GDPR Art. 17), in one
// transaction: the person's messages are deleted; their bookings lose the
// name, address, phone, company and topic, and keep their time (a standing
// one still takes it); the mail to or about them keeps only its kind,
// dates and state, with no address, subject, text or attachment (mail
// still waiting is given up); an audit entry that names the address is
// emptied. Every match is exact, on the address's key and the confirmed
// spellings: no other address. The audit log records the erasure with
// counts, not the address. Afterwards the database itself is made to
// forget: SQLite's write-ahead log is folded into the file and truncated
// (deleted content is zeroed, see store), and PostgreSQL vacuums the
// tables, so the old row versions are gone too.
func (w *Workspace) ErasePerson(ctx context.Context, email string, addresses []string, actor string) (Erased, error) {
	key, ok := personKey(email)
	if !ok {
		return Erased{}, ErrInvalidEmail
	}
	staffForm, _ := NormalizeEmail(email)
	now := w.cfg.Now()
	var e Erased
	err := w.store.InTx(ctx, func(tx *store.Tx) error {
		e = Erased{}
		p, err := gatherPerson(ctx, tx, key, addresses, false)
		if err != nil {
			return err
		}
		onMessages, messageArgs := inList("ref", p.messageRefs())
		onBookings, bookingArgs := inList("id", p.bookingIDs())
		// A reminder waiting for an erased booking goes too: it would go to
		// the address being forgotten.
		if _, err := tx.ExecContext(ctx, `DELETE FROM outbox WHERE state IN ('pending', 'held') AND ref IN
	(SELECT reminder_ref FROM bookings WHERE `+onBookings+` AND reminder_ref IS NOT NULL)`, bookingArgs...); err != nil {
			return fmt.Errorf("staff: withdraw reminders: %w", err)
		}
		// The mail before the messages and bookings, through which it is
		// found.
		onMail, mailArgs := inList("id", p.mailIDs)
		if e.Mail, err = clearMail(ctx, tx, onMail, mailArgs, "erased"); err != nil {
			return err
		}
		// The team's notes on them may name the person too.
		if err := forgetNotesAbout(ctx, tx, onMessages, messageArgs, onBookings, bookingArgs); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `DELETE FROM messages WHERE `+onMessages, messageArgs...)
		if err != nil {
			return fmt.Errorf("staff: erase messages: %w", err)
		}
		e.Messages = affected(res)
		if res, err = tx.ExecContext(ctx, `UPDATE bookings SET name = '', email = '', email_key = '', company = '', topic = '', phone = '', cancel_reason = '',
	reminder_ref = NULL WHERE `+onBookings, bookingArgs...); err != nil {
			return fmt.Errorf("staff: erase bookings: %w", err)
		}
		e.Bookings = affected(res)
		// The audit log names staff by address (an invitation, a removal):
		// the entries that name this one.
		if _, err := tx.ExecContext(ctx, `UPDATE staff_audit SET subject = '', detail = '' WHERE subject IN (?, ?)`,
			key, staffForm); err != nil {
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
UPDATE outbox SET to_addr = '', reply_to = '', to_key = '', reply_key = '', subject = '', text_body = '', html_body = '',
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
// on SQLite the search indexes are merged, so that a deleted row's words,
// kept marked deleted until their segments merge, leave them, then the
// write-ahead log, which still holds the pages as they were, is folded
// into the file and truncated (the file's deleted content is zeroed as it
// goes, secure_delete); on PostgreSQL the tables are vacuumed, so that the
// dead row versions are removed. A reader holding an old snapshot can delay
// the checkpoint: it is tried a few times. The rows are gone for every
// query already; what fails here is logged, and the next erasure or
// retention run tries again.
func (w *Workspace) forget(ctx context.Context, tables ...string) {
	if w.store.Backend() == store.Postgres {
		if _, err := w.store.DB().ExecContext(ctx, `VACUUM `+strings.Join(tables, ", ")); err != nil {
			w.cfg.Logger.WarnContext(ctx, "vacuum after an erasure failed", "error", err)
		}
		return
	}
	for _, index := range []string{"messages_search", "bookings_search"} {
		if err := w.mergeIndex(ctx, index); err != nil {
			w.cfg.Logger.WarnContext(ctx, "merging the search indexes after an erasure failed", "error", err)
			break
		}
	}
	for attempt := 0; ; attempt++ {
		folded, err := w.store.FoldLog(ctx)
		if err != nil {
			w.cfg.Logger.WarnContext(ctx, "checkpoint after an erasure failed", "error", err)
			return
		}
		if folded {
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

// mergePages is how many pages of an SQLite search index one 'merge'
// command writes, about.
const mergePages = 32

// mergeIndex merges the segments of the FTS5 index that hold the words
// of the deleted rows, as its 'optimize' command does, which drops those
// words; but in transactions of about Config.RetentionBatchTime, each a
// series of FTS5 'merge' commands (a negative count: every segment merges
// with the others, the oldest included), with a pause between, so that a
// visitor's post never waits behind a merge of the whole index. It ends
// when a 'merge' changed fewer than two rows (nothing left to merge,
// SQLite's FTS5 documentation), or once it has written twice the pages the
// index held at the start: enough for the merge of all of them into one,
// after one already under way. Segments that visitors' posts add meanwhile
// are not waited for: merging them in would write the whole index again,
// and again with each post.
func (w *Workspace) mergeIndex(ctx context.Context, index string) error {
	// The pages of the index now: a merge of every segment into one
	// writes about as many. The segments' ids are no mark of progress:
	// FTS5 gives a new segment the smallest id free.
	var structure []byte
	if err := w.store.QueryRowContext(ctx, `SELECT block FROM `+index+`_data WHERE id = 10`).Scan(&structure); err != nil {
		return fmt.Errorf("staff: read the structure of %s: %w", index, err)
	}
	pages, err := fts5Pages(structure)
	if err != nil {
		return fmt.Errorf("staff: read the structure of %s: %w", index, err)
	}
	// A merge already under way may be finished first: twice the pages.
	budget := 2*pages + 2*mergePages
	for {
		done, merges := false, 0
		took, err := w.timedTx(ctx, func(tx *store.Tx) error {
			done, merges = false, 0 // a transaction tried again starts over
			// At least one merge, however short the time.
			for began := time.Now(); ; {
				var before, after int64
				if err := tx.QueryRowContext(ctx, `SELECT total_changes()`).Scan(&before); err != nil {
					return err
				}
				if _, err := tx.ExecContext(ctx, `INSERT INTO `+index+` (`+index+`, rank) VALUES ('merge', ?)`, -mergePages); err != nil {
					return err
				}
				if err := tx.QueryRowContext(ctx, `SELECT total_changes()`).Scan(&after); err != nil {
					return err
				}
				merges++
				if after-before < 2 || merges*mergePages >= budget {
					done = true
					return nil
				}
				if time.Since(began) >= w.cfg.RetentionBatchTime {
					return nil
				}
			}
		})
		if err != nil {
			return fmt.Errorf("staff: merge %s: %w", index, err)
		}
		budget -= merges * mergePages
		if done {
			return nil
		}
		if err := w.afterBatch(ctx, took); err != nil {
			return err
		}
	}
}

// fts5Pages reads how many pages the segments of an FTS5 index hold from
// its structure record (its %_data row 10), as SQLite's fts5_index.c
// writes it: a
// 4-byte cookie, the 4-byte mark of the second version of the record if
// present, then varints: the number of levels, of segments, the write
// counter; for each level, its merge count and number of segments; for
// each segment, its id, first and last page (and, in the second version,
// five more).
func fts5Pages(record []byte) (int, error) {
	bad := errors.New("not an FTS5 structure record this version knows")
	if len(record) < 4 {
		return 0, bad
	}
	i := 4
	perSegment := 3
	if len(record) >= 8 && string(record[4:8]) == "\xff\x00\x00\x01" {
		i, perSegment = 8, 8
	}
	// next reads a varint: 7 bits a byte while the high bit is set, the
	// ninth byte's 8 whole.
	next := func() (uint64, bool) {
		var v uint64
		for n := range 9 {
			if i >= len(record) {
				return 0, false
			}
			b := record[i]
			i++
			if n == 8 {
				return v<<8 | uint64(b), true
			}
			v = v<<7 | uint64(b&0x7f)
			if b&0x80 == 0 {
				return v, true
			}
		}
		return 0, false
	}
	levels, ok1 := next()
	_, ok2 := next() // segments
	_, ok3 := next() // write counter
	if !ok1 || !ok2 || !ok3 {
		return 0, bad
	}
	var pages uint64
	for range levels {
		_, ok1 := next() // merge count
		segs, ok2 := next()
		if !ok1 || !ok2 {
			return 0, bad
		}
		for range segs {
			var fields [8]uint64
			for f := range perSegment {
				var ok bool
				if fields[f], ok = next(); !ok {
					return 0, bad
				}
			}
			if fields[2] < fields[1] { // id, first page, last page
				return 0, bad
			}
			pages += fields[2] - fields[1] + 1
		}
	}
	if pages > 1<<31 {
		return 0, bad
	}
	return int(pages), nil
}
