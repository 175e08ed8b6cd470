package staff

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/northbeam/site/internal/store"
)

// Notes are the team's own remarks on a message or a booking: never shown
// to the visitor, each kept in the audit log with its text when written.

// What a note is about.
const (
	NoteOnMessage = "message"
	NoteOnBooking = "booking"
)

// ActionNote is a note written, in the audit log: its subject is
// "message <ref>" or "booking <id>", its detail the note's text.
const ActionNote = "note"

// NoteMax bounds a note, in characters.
const NoteMax = 2000

// ErrNote refuses a note that is empty, longer than NoteMax or holds
// control characters other than line breaks and tabs.
var ErrNote = fmt.Errorf("staff: a note of 1 to %d characters", NoteMax)

// Note is one of the team's notes.
type Note struct {
	ID      int64
	Author  string
	Text    string
	Created time.Time
}

// AddNote writes a note on the message of ref or the booking of id (ref,
// its number): ErrNotFound when there is none, ErrNote for a text that is
// no note. It returns the notes on it, oldest first.
func (w *Workspace) AddNote(ctx context.Context, subject, ref, text, actor string) ([]Note, error) {
	text = strings.TrimSpace(strings.ReplaceAll(text, "\r\n", "\n"))
	n := utf8.RuneCountInString(text)
	if n == 0 || n > NoteMax || strings.IndexFunc(text, func(r rune) bool { return unicode.IsControl(r) && r != '\n' && r != '\t' }) >= 0 {
		return nil, ErrNote
	}
	now := w.cfg.Now()
	err := w.store.InTx(ctx, func(tx *store.Tx) error {
		if err := noteSubjectExists(ctx, tx, subject, ref); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO staff_notes (subject, ref, author, body, created_at) VALUES (?, ?, ?, ?, ?)`,
			subject, ref, actor, text, store.Millis(now)); err != nil {
			return fmt.Errorf("staff: write a note: %w", err)
		}
		return record(ctx, tx, now, actor, ActionNote, subject+" "+ref, text)
	})
	if err != nil {
		return nil, err
	}
	return w.Notes(ctx, subject, ref)
}

// noteSubjectExists returns ErrNotFound unless the message or booking a
// note is about exists.
func noteSubjectExists(ctx context.Context, q store.Querier, subject, ref string) error {
	var query string
	var arg any = ref
	switch subject {
	case NoteOnMessage:
		query = `SELECT count(*) FROM messages WHERE ref = ?`
	case NoteOnBooking:
		id, err := strconv.ParseInt(ref, 10, 64)
		if err != nil {
			return ErrNotFound
		}
		query, arg = `SELECT count(*) FROM bookings WHERE id = ?`, id
	default:
		return ErrNotFound
	}
	var n int
	if err := q.QueryRowContext(ctx, query, arg).Scan(&n); err != nil {
		return fmt.Errorf("staff: find a note's subject: %w", err)
	}
	if n == 0 {
		return ErrNotFound
	}
	return nil
}

// Notes returns the notes on a message or a booking, oldest first.
func (w *Workspace) Notes(ctx context.Context, subject, ref string) ([]Note, error) {
	out, err := store.QueryAll(ctx, w.store, func(row store.Scanner) (Note, error) {
		var n Note
		var created int64
		err := row.Scan(&n.ID, &n.Author, &n.Text, &created)
		n.Created = store.FromMillis(created)
		return n, err
	}, `SELECT id, author, body, created_at FROM staff_notes WHERE subject = ? AND ref = ? ORDER BY id`, subject, ref)
	if err != nil {
		return nil, fmt.Errorf("staff: read notes: %w", err)
	}
	return out, nil
}

// forgetNotes deletes the notes on the messages refs or the bookings ids
// (as text) of subject, and empties their text in the audit log: what an
// erasure or the retention job does with the things they were about.
func forgetNotes(ctx context.Context, tx *store.Tx, subject string, refs []string) error {
	for _, ref := range refs {
		if _, err := tx.ExecContext(ctx, `DELETE FROM staff_notes WHERE subject = ? AND ref = ?`, subject, ref); err != nil {
			return fmt.Errorf("staff: forget notes: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE staff_audit SET detail = '' WHERE action = ? AND subject = ?`, ActionNote, subject+" "+ref); err != nil {
			return fmt.Errorf("staff: forget notes in the audit log: %w", err)
		}
	}
	return nil
}

// forgetNotesAbout forgets (forgetNotes) the notes on the messages that
// messageWhere finds and the bookings that bookingWhere finds, before
// they are deleted or emptied.
func forgetNotesAbout(ctx context.Context, tx *store.Tx, messageWhere string, messageArgs []any, bookingWhere string, bookingArgs []any) error {
	refs, err := store.QueryAll(ctx, tx, store.Column[string], `SELECT ref FROM messages WHERE `+messageWhere, messageArgs...)
	if err != nil {
		return fmt.Errorf("staff: find notes to forget: %w", err)
	}
	if err := forgetNotes(ctx, tx, NoteOnMessage, refs); err != nil {
		return err
	}
	ids, err := store.QueryAll(ctx, tx, store.Column[int64], `SELECT id FROM bookings WHERE `+bookingWhere, bookingArgs...)
	if err != nil {
		return fmt.Errorf("staff: find notes to forget: %w", err)
	}
	refs = refs[:0]
	for _, id := range ids {
		refs = append(refs, strconv.FormatInt(id, 10))
	}
	return forgetNotes(ctx, tx, NoteOnBooking, refs)
}
