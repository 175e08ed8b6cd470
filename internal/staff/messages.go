package staff

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/northbeam/site/internal/contact"
	"github.com/northbeam/site/internal/mail"
	"github.com/northbeam/site/internal/store"
)

// Folders of the inbox.
const (
	FolderNew     = "new"
	FolderHandled = "handled"
	FolderSpam    = "spam"
)

// ValidFolder reports whether f names a folder.
func ValidFolder(f string) bool { return f == FolderNew || f == FolderHandled || f == FolderSpam }

// Message is a contact message as staff see it.
type Message struct {
	Ref        string
	Received   time.Time
	Name       string
	Email      string
	Text       string
	Service    string // "" or a service key
	Lang       string
	Handled    time.Time // zero while new
	Spam       bool
	SpamReason string
	Read       time.Time // zero while no member has opened it
}

// Folder is where m is filed.
func (m Message) Folder() string {
	switch {
	case m.Spam:
		return FolderSpam
	case !m.Handled.IsZero():
		return FolderHandled
	}
	return FolderNew
}

// PageSize is how many rows a page of any list of the workspace holds at
// most (docs/ARCHITECTURE.md, Data).
const PageSize = 50

// MessageQuery selects a page of the inbox.
type MessageQuery struct {
	Folder string // FolderNew, FolderHandled or FolderSpam
	Search string // words that begin words of the name, the address or the text (see searchCondition); "" for all
	After  string // the cursor of the previous page, "" for the first
	Limit  int    // at most PageSize, the default
}

// MessagePage is a page of messages, newest first, and the cursor of the
// next page ("" when this is the last).
type MessagePage struct {
	Messages []Message
	Next     string
}

const messageColumns = `ref, created_at, name, email, message, service, lang, handled_at, spam, spam_reason, read_at`

func scanMessage(row store.Scanner) (Message, error) {
	var m Message
	err := scanMessageInto(row, &m)
	return m, err
}

// scanMessageInto reads messageColumns into m, then the columns after
// them into more.
func scanMessageInto(row store.Scanner, m *Message, more ...any) error {
	var created int64
	var handled, read sql.NullInt64
	dst := append([]any{&m.Ref, &created, &m.Name, &m.Email, &m.Text, &m.Service, &m.Lang, &handled, &m.Spam, &m.SpamReason, &read}, more...)
	if err := row.Scan(dst...); err != nil {
		return err
	}
	m.Received, m.Handled, m.Read = store.FromMillis(created), store.FromMillis(handled.Int64), store.FromMillis(read.Int64)
	return nil
}

// Messages returns a page of a folder, newest first (the folder's index,
// store's 0051_workspace_lists), optionally only the messages where every
// word of Search begins a word of the name, the address or the text: then
// newest stored first, in the search index's order (see wordSearch).
func (w *Workspace) Messages(ctx context.Context, q MessageQuery) (MessagePage, error) {
	if q.Limit <= 0 || q.Limit > PageSize {
		q.Limit = PageSize
	}
	// The folders' conditions are the partial indexes' own (store's
	// 0051_workspace_lists), written out so that SQLite uses them.
	var where []string
	var args []any
	switch q.Folder {
	case FolderSpam:
		where = append(where, `spam = true`)
	case FolderHandled:
		where = append(where, `spam = false`, `handled_at IS NOT NULL`)
	default:
		where = append(where, `spam = false`, `handled_at IS NULL`)
	}
	from, columns, order := `messages`, messageColumns+`, id`, `created_at DESC, id DESC`
	search, searching := newWordSearch(w.store.Backend(), "messages", q.Search)
	if searching {
		from, order = search.from, search.id+` DESC`
		columns = qualified("messages", messageColumns) + `, messages.id`
		where = append(where, search.cond)
		args = append(args, search.args...)
	}
	if q.After != "" {
		created, id, ok := parseCursor(q.After)
		if !ok {
			return MessagePage{}, ErrCursor
		}
		if searching {
			where = append(where, search.id+` < ?`)
			args = append(args, id)
		} else {
			where = append(where, `(created_at < ? OR (created_at = ? AND id < ?))`)
			args = append(args, created, created, id)
		}
	}
	args = append(args, q.Limit+1)
	var page MessagePage
	var ids []int64
	err := store.QueryEach(ctx, w.store, func(row store.Scanner) error {
		var m Message
		var id int64
		if err := scanMessageInto(row, &m, &id); err != nil {
			return err
		}
		page.Messages = append(page.Messages, m)
		ids = append(ids, id)
		return nil
	}, `SELECT `+columns+` FROM `+from+` WHERE `+strings.Join(where, " AND ")+`
ORDER BY `+order+` LIMIT ?`, args...)
	if err != nil {
		return MessagePage{}, fmt.Errorf("staff: list messages: %w", err)
	}
	if len(page.Messages) > q.Limit {
		page.Messages = page.Messages[:q.Limit]
		last := page.Messages[q.Limit-1]
		page.Next = fmt.Sprintf("%d.%d", store.Millis(last.Received), ids[q.Limit-1])
	}
	return page, nil
}

// ErrCursor refuses the cursor of a page that no page gave.
var ErrCursor = errors.New("staff: not the cursor of a page")

// parseCursor reads a page's cursor, "millis.id": the sort key of the last
// row of the page before (a time) and its id.
func parseCursor(s string) (created, id int64, ok bool) {
	a, b, found := strings.Cut(s, ".")
	if !found {
		return 0, 0, false
	}
	created, err1 := strconv.ParseInt(a, 10, 64)
	id, err2 := strconv.ParseInt(b, 10, 64)
	return created, id, err1 == nil && err2 == nil
}

// Unread is the count of FolderCounts of the new messages no member has
// opened yet.
const Unread = "unread"

// countGroups sets counts[group] = n for each (group, n) row of a query
// that counts rows by a group it names (folders, agenda views).
func countGroups(ctx context.Context, st *store.Store, counts map[string]int, query string, args ...any) error {
	return store.QueryEach(ctx, st, func(row store.Scanner) error {
		var group string
		var n int
		if err := row.Scan(&group, &n); err != nil {
			return err
		}
		counts[group] = n
		return nil
	}, query, args...)
}

// FolderCounts returns how many messages each folder holds, and how many
// new ones are unread (Unread): the counts the database keeps as messages
// come, move and go (store's 0050_workspace_counts), never counted anew.
func (w *Workspace) FolderCounts(ctx context.Context) (map[string]int, error) {
	counts := map[string]int{FolderNew: 0, FolderHandled: 0, FolderSpam: 0, Unread: 0}
	err := countGroups(ctx, w.store, counts, `
SELECT substr(name, 10), n FROM workspace_counts WHERE name IN ('messages:new', 'messages:handled', 'messages:spam', 'messages:unread')`)
	if err != nil {
		return nil, fmt.Errorf("staff: count messages: %w", err)
	}
	return counts, nil
}

// Message returns the message of ref.
func (w *Workspace) Message(ctx context.Context, ref string) (Message, error) {
	return findMessage(ctx, w.store, ref)
}

func findMessage(ctx context.Context, q store.Querier, ref string) (Message, error) {
	m, err := scanMessage(q.QueryRowContext(ctx, `SELECT `+messageColumns+` FROM messages WHERE ref = ?`, ref))
	if errors.Is(err, sql.ErrNoRows) {
		return Message{}, ErrNotFound
	}
	if err != nil {
		return Message{}, fmt.Errorf("staff: read a message: %w", err)
	}
	return m, nil
}

// SetHandled files the message of ref as handled, or back as new.
func (w *Workspace) SetHandled(ctx context.Context, ref string, handled bool, actor string) (Message, error) {
	now := w.cfg.Now()
	var m Message
	err := w.store.InTx(ctx, func(tx *store.Tx) error {
		var at any
		action := ActionMessageReopened
		if handled {
			at, action = store.Millis(now), ActionMessageHandled
		}
		res, err := tx.ExecContext(ctx, `UPDATE messages SET handled_at = ? WHERE ref = ?`, at, ref)
		if err != nil {
			return fmt.Errorf("staff: file a message: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return ErrNotFound
		}
		if m, err = findMessage(ctx, tx, ref); err != nil {
			return err
		}
		return record(ctx, tx, now, actor, action, ref, "")
	})
	return m, err
}

// MarkRead notes that a member opened the message of ref (read), or marks
// it unread again for the team.
func (w *Workspace) MarkRead(ctx context.Context, ref string, read bool) (Message, error) {
	var at any
	if read {
		at = store.Millis(w.cfg.Now())
	}
	query := `UPDATE messages SET read_at = ? WHERE ref = ?`
	if read {
		query += ` AND read_at IS NULL`
	}
	if _, err := w.store.ExecContext(ctx, query, at, ref); err != nil {
		return Message{}, fmt.Errorf("staff: mark a message read: %w", err)
	}
	return w.Message(ctx, ref)
}

// SpamByStaff is the spam reason of a message a staff member filed as
// spam: its mails went out when it came.
const SpamByStaff = "staff"

// MarkSpam files a new or handled message as spam. Nothing is mailed: the
// notification and the acknowledgement went out when it came.
func (w *Workspace) MarkSpam(ctx context.Context, ref, actor string) (Message, error) {
	now := w.cfg.Now()
	var m Message
	err := w.store.InTx(ctx, func(tx *store.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE messages SET spam = ?, spam_reason = ? WHERE ref = ? AND spam = ?`, true, SpamByStaff, ref, false)
		if err != nil {
			return fmt.Errorf("staff: flag a message: %w", err)
		}
		if m, err = findMessage(ctx, tx, ref); err != nil || affected(res) == 0 {
			return err
		}
		return record(ctx, tx, now, actor, ActionMarkedSpam, ref, "")
	})
	return m, err
}

// NotSpam moves a message out of the spam folder into the new messages.
// A message the spam filter kept gets now the mails it never sent: the
// consultancy's notification and the visitor's acknowledgement (a person
// looked at it: it is no stranger's address typed by a program). One that
// staff filed as spam sends nothing again.
func (w *Workspace) NotSpam(ctx context.Context, ref, actor string) (Message, error) {
	now := w.cfg.Now()
	var m Message
	queued := false
	err := w.store.InTx(ctx, func(tx *store.Tx) error {
		queued = false
		found, err := findMessage(ctx, tx, ref)
		if err != nil {
			return err
		}
		if !found.Spam {
			m = found
			return nil
		}
		if _, err := tx.ExecContext(ctx, `UPDATE messages SET spam = ?, spam_reason = '' WHERE ref = ?`, false, ref); err != nil {
			return fmt.Errorf("staff: unflag a message: %w", err)
		}
		byStaff := found.SpamReason == SpamByStaff
		found.Spam, found.SpamReason = false, ""
		m = found
		if w.cfg.Contact != nil && !byStaff {
			mails, err := w.cfg.Contact.Compose(contact.Record{
				Ref: found.Ref, CreatedAt: found.Received, Name: found.Name, Email: found.Email,
				Message: found.Text, Service: found.Service, Lang: found.Lang,
			})
			if err != nil {
				return err
			}
			for _, msg := range mails {
				msg.MessageRef = found.Ref
				if err := mail.Enqueue(ctx, tx, msg); err != nil {
					return fmt.Errorf("staff: queue %s: %w", msg.Kind, err)
				}
				queued = true
			}
		}
		return record(ctx, tx, now, actor, ActionNotSpam, ref, "")
	})
	if err != nil {
		return Message{}, err
	}
	if queued {
		w.queued()
	}
	return m, nil
}
