package store

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"regexp"
	"strings"

	"github.com/northbeam/site/internal/mailaddr"
)

// emailKeysStep keeps every stored address in its canonical form beside
// the address as typed (mailaddr.Key), so that privacy requests and
// retention match an address exactly and whatever its spelling; and ties
// each mail to the contact message (message_ref) or the booking
// (booking_id) it concerns, so that they are found by reference, never by
// searching text. The Go part fills the new columns for the rows already
// stored: the keys from the addresses, the references where the rows say
// them (a notification names its message's reference, a reminder is
// named by its booking, an invite carries its booking's UID) or where one
// message or booking of the address fits.
var emailKeysStep = Migration{
	Name: "0023_email_keys",
	SQLite: `
ALTER TABLE messages ADD COLUMN email_key   TEXT NOT NULL DEFAULT ''; -- mailaddr.Key(email)
ALTER TABLE bookings ADD COLUMN email_key   TEXT NOT NULL DEFAULT '';
ALTER TABLE outbox   ADD COLUMN to_key      TEXT NOT NULL DEFAULT ''; -- mailaddr.Key of to_addr's address
ALTER TABLE outbox   ADD COLUMN reply_key   TEXT NOT NULL DEFAULT '';
ALTER TABLE outbox   ADD COLUMN message_ref TEXT;                     -- messages.ref of the message it is about
ALTER TABLE outbox   ADD COLUMN booking_id  INTEGER;                  -- bookings.id of the booking it is about
CREATE INDEX messages_email_key ON messages (email_key);
CREATE INDEX bookings_email_key ON bookings (email_key);
CREATE INDEX outbox_to_key ON outbox (to_key);
CREATE INDEX outbox_reply_key ON outbox (reply_key);
CREATE INDEX outbox_message_ref ON outbox (message_ref);
CREATE INDEX outbox_booking_id ON outbox (booking_id);
`,
	Postgres: `
ALTER TABLE messages ADD COLUMN email_key   text NOT NULL DEFAULT '';
ALTER TABLE bookings ADD COLUMN email_key   text NOT NULL DEFAULT '';
ALTER TABLE outbox   ADD COLUMN to_key      text NOT NULL DEFAULT '';
ALTER TABLE outbox   ADD COLUMN reply_key   text NOT NULL DEFAULT '';
ALTER TABLE outbox   ADD COLUMN message_ref text;
ALTER TABLE outbox   ADD COLUMN booking_id  bigint;
CREATE INDEX messages_email_key ON messages (email_key);
CREATE INDEX bookings_email_key ON bookings (email_key);
CREATE INDEX outbox_to_key ON outbox (to_key);
CREATE INDEX outbox_reply_key ON outbox (reply_key);
CREATE INDEX outbox_message_ref ON outbox (message_ref);
CREATE INDEX outbox_booking_id ON outbox (booking_id);
`,
	Go: fillEmailKeys,
}

// standingByKeyStep counts the standing bookings of an address (the limit
// per address) by its key, as every lookup of an address now does: the
// index on lower(email) serves no query any more.
var standingByKeyStep = Migration{
	Name: "0024_bookings_standing_by_key",
	SQLite: `
DROP INDEX bookings_standing_email;
CREATE INDEX bookings_standing_email_key ON bookings (email_key) WHERE cancelled_at IS NULL;
`,
	Postgres: `
DROP INDEX bookings_standing_email;
CREATE INDEX bookings_standing_email_key ON bookings (email_key) WHERE cancelled_at IS NULL;
`,
}

// keyedRow is a stored row with an address: its id, the address's key,
// its reference (a message's ref, a booking's UID hash and reminder) and
// when it was made.
type keyedRow struct {
	id       int64
	key      string
	ref      string
	reminder string
	created  int64
}

func fillEmailKeys(ctx context.Context, tx *Tx) error {
	messages, err := keyRows(ctx, tx, `SELECT id, email, ref, '', created_at FROM messages`, `UPDATE messages SET email_key = ? WHERE id = ?`)
	if err != nil {
		return err
	}
	bookings, err := keyRows(ctx, tx, `SELECT id, email, token, coalesce(reminder_ref, ''), created_at FROM bookings`,
		`UPDATE bookings SET email_key = ? WHERE id = ?`)
	if err != nil {
		return err
	}
	for i, b := range bookings {
		sum := sha256.Sum256([]byte("booking uid\x00" + b.ref)) // booking.UID, without the host
		bookings[i].ref = hex.EncodeToString(sum[:16])
	}
	type mailRow struct {
		id            int64
		ref, kind     string
		to, reply     string
		text, subject string
		created       int64
	}
	mails, err := QueryAll(ctx, tx, func(row Scanner) (mailRow, error) {
		var m mailRow
		err := row.Scan(&m.id, &m.ref, &m.kind, &m.to, &m.reply, &m.text, &m.subject, &m.created)
		return m, err
	}, `SELECT id, ref, kind, to_addr, reply_to,
	CASE WHEN kind LIKE 'contact.%' THEN text_body ELSE '' END, subject, created_at FROM outbox`)
	if err != nil {
		return fmt.Errorf("store: read outbox for keys: %w", err)
	}
	byRef, byKey := map[string]keyedRow{}, map[string][]keyedRow{}
	for _, m := range messages {
		byRef[m.ref] = m
		byKey[m.key] = append(byKey[m.key], m)
	}
	reminders, bookingsByKey := map[string]int64{}, map[string][]keyedRow{}
	for _, b := range bookings {
		if b.reminder != "" {
			reminders[b.reminder] = b.id
		}
		bookingsByKey[b.key] = append(bookingsByKey[b.key], b)
	}
	for _, m := range mails {
		toKey, replyKey := mailaddr.KeyOf(m.to), mailaddr.KeyOf(m.reply)
		var messageRef any
		var bookingID any
		switch {
		case strings.HasPrefix(m.kind, "contact."):
			if r, ok := aboutMessage(byRef, candidates(byKey, toKey, replyKey), m.text+m.subject, m.created); ok {
				messageRef = r
			}
		case strings.HasPrefix(m.kind, "booking."):
			if id, ok := reminders[m.ref]; ok {
				bookingID = id
			} else if id, ok, err := aboutBooking(ctx, tx, candidates(bookingsByKey, toKey, replyKey), m.id); err != nil {
				return err
			} else if ok {
				bookingID = id
			}
		}
		if _, err := tx.ExecContext(ctx, `UPDATE outbox SET to_key = ?, reply_key = ?, message_ref = ?, booking_id = ? WHERE id = ?`,
			toKey, replyKey, messageRef, bookingID, m.id); err != nil {
			return fmt.Errorf("store: key outbox row: %w", err)
		}
	}
	return nil
}

// candidates are the rows of the mail's addresses, by their keys.
func candidates(byKey map[string][]keyedRow, toKey, replyKey string) []keyedRow {
	var out []keyedRow
	if toKey != "" {
		out = append(out, byKey[toKey]...)
	}
	if replyKey != "" && replyKey != toKey {
		out = append(out, byKey[replyKey]...)
	}
	return out
}

// uuidPattern finds the references (UUIDs) a mail's text names.
var uuidPattern = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)

// keyRows reads (id, address, ref, reminder, created) with query, writes
// each address's key with update, and returns the rows.
func keyRows(ctx context.Context, tx *Tx, query, update string) ([]keyedRow, error) {
	rows, err := QueryAll(ctx, tx, func(row Scanner) (keyedRow, error) {
		var r keyedRow
		err := row.Scan(&r.id, &r.key, &r.ref, &r.reminder, &r.created)
		r.key = mailaddr.Key(r.key)
		return r, err
	}, query)
	if err != nil {
		return nil, fmt.Errorf("store: read addresses for keys: %w", err)
	}
	for _, r := range rows {
		if _, err := tx.ExecContext(ctx, update, r.key, r.id); err != nil {
			return nil, fmt.Errorf("store: write an address key: %w", err)
		}
	}
	return rows, nil
}

// aboutMessage finds the contact message a contact mail is about: the one
// whose reference the mail names, else the message of one of its
// addresses (mine) received nearest to the mail, within ten minutes.
func aboutMessage(byRef map[string]keyedRow, mine []keyedRow, text string, created int64) (string, bool) {
	for _, ref := range uuidPattern.FindAllString(text, -1) {
		if _, ok := byRef[ref]; ok {
			return ref, true
		}
	}
	best, bestGap := "", int64(10*60*1000)
	for _, m := range mine {
		if gap := max(created-m.created, m.created-created); gap <= bestGap {
			best, bestGap = m.ref, gap
		}
	}
	return best, best != ""
}

// aboutBooking finds the booking a booking mail is about among the
// bookings of its addresses (mine): the only one, else the one whose UID
// the mail's invite carries.
func aboutBooking(ctx context.Context, tx *Tx, mine []keyedRow, id int64) (int64, bool, error) {
	if len(mine) == 1 {
		return mine[0].id, true, nil
	}
	if len(mine) == 0 {
		return 0, false, nil
	}
	files, err := QueryAll(ctx, tx, Column[[]byte], `SELECT data FROM outbox_attachments WHERE outbox_id = ?`, id)
	if err != nil {
		return 0, false, fmt.Errorf("store: read invites for keys: %w", err)
	}
	for _, b := range mine {
		for _, f := range files {
			if bytes.Contains(f, []byte(b.ref)) {
				return b.id, true, nil
			}
		}
	}
	return 0, false, nil
}

// emailKeysCaseOnlyStep computes every stored key again under the rule
// that merges only spellings of one mailbox (mailaddr.Local: NFC and the
// simple lower case of case pairs): the keys 0023 wrote with full case
// folding merged straße@ with strasse@, ſam@ with sam@, ﬀoo@ with ffoo@
// and ς@ with σ@, so one person's privacy request found another's data
// and the limit per address counted two people's bookings as one's. The
// references of the mail (message_ref, booking_id) stay as they are.
var emailKeysCaseOnlyStep = Migration{
	Name: "0048_email_keys_case_only",
	Go:   rekeyEmails,
}

func rekeyEmails(ctx context.Context, tx *Tx) error {
	type addressRow struct {
		id               int64
		a, b, keyA, keyB string
	}
	for _, t := range []struct {
		query, update string
		keyOf         func(string) string
		two           bool // two addresses a row: the outbox's to and reply-to
	}{
		{`SELECT id, email, '', email_key, '' FROM messages`, `UPDATE messages SET email_key = ? WHERE id = ?`, mailaddr.Key, false},
		{`SELECT id, email, '', email_key, '' FROM bookings`, `UPDATE bookings SET email_key = ? WHERE id = ?`, mailaddr.Key, false},
		{`SELECT id, to_addr, reply_to, to_key, reply_key FROM outbox`, `UPDATE outbox SET to_key = ?, reply_key = ? WHERE id = ?`, mailaddr.KeyOf, true},
	} {
		rows, err := QueryAll(ctx, tx, func(row Scanner) (addressRow, error) {
			var r addressRow
			err := row.Scan(&r.id, &r.a, &r.b, &r.keyA, &r.keyB)
			return r, err
		}, t.query)
		if err != nil {
			return fmt.Errorf("store: read addresses to key again: %w", err)
		}
		for _, r := range rows {
			keyA, keyB := t.keyOf(r.a), t.keyOf(r.b)
			if keyA == r.keyA && keyB == r.keyB {
				continue
			}
			args := []any{keyA, r.id}
			if t.two {
				args = []any{keyA, keyB, r.id}
			}
			if _, err := tx.ExecContext(ctx, t.update, args...); err != nil {
				return fmt.Errorf("store: key an address again: %w", err)
			}
		}
	}
	return nil
}
