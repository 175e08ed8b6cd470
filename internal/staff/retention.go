package staff

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/northbeam/site/internal/contact"
	"github.com/northbeam/site/internal/store"
)

// Retention defaults: the privacy policy's promise (content/legal), which
// reads the same setting through its {{retention}} placeholder.
const (
	DefaultRetentionMonths = 12
	DefaultSpamRetention   = contact.SpamRetention
	// MaxRetentionMonths bounds RETENTION: ten years.
	MaxRetentionMonths = 120
)

// retentionJob is the job's name in the jobs table.
const retentionJob = "retention"

// RetentionInterval is how often the retention job runs: once a day, on
// whichever instance claims the day's run first.
const RetentionInterval = 24 * time.Hour

// RetentionReport says what a run of the retention job did.
type RetentionReport struct {
	Ran      bool // false: another instance (or an earlier run) had today's run
	Messages int  // deleted, past retention
	Spam     int  // deleted, flagged as spam for longer than SpamRetention
	Bookings int  // whose personal fields were removed
	Mail     int  // cleared
	Expired  int  // sessions, links and ceremonies past their end, deleted
	// Took is how long the run took, its batches and the database's
	// folding in of what it removed.
	Took time.Duration
}

func (r RetentionReport) String() string {
	return fmt.Sprintf("messages: %d, spam: %d, bookings: %d, mail: %d, expired sign-ins: %d",
		r.Messages, r.Spam, r.Bookings, r.Mail, r.Expired)
}

// RunRetention claims today's run of the retention job and, if this call
// got it, deletes or anonymises what is older than the retention allows:
// messages received more than RetentionMonths ago (spam after
// SpamRetention); the name, address, company and topic of bookings that
// ended, or were cancelled, more than RetentionMonths ago; the addresses,
// subject, texts and attachments of mail queued more than RetentionMonths
// ago. It also deletes sessions, links and ceremonies that have ended.
//
// The claim is one UPDATE of the job's row that succeeds only when the last
// claim is at least a day old; both engines decide it atomically, so of
// several instances (or a restart within the day) exactly one runs.
func (w *Workspace) RunRetention(ctx context.Context) (RetentionReport, error) {
	now := w.cfg.Now()
	res, err := w.store.ExecContext(ctx, `UPDATE jobs SET last_run_at = ? WHERE name = ? AND last_run_at <= ?`,
		store.Millis(now), retentionJob, store.Millis(now.Add(-RetentionInterval)))
	if err != nil {
		return RetentionReport{}, fmt.Errorf("staff: claim the retention job: %w", err)
	}
	if affected(res) != 1 {
		return RetentionReport{}, nil
	}
	report, err := w.retain(ctx, now)
	result := report.String()
	if err != nil {
		result = "failed: " + err.Error()
		// Try again within the hour rather than tomorrow.
		_, _ = w.store.ExecContext(ctx, `UPDATE jobs SET last_run_at = ? WHERE name = ?`,
			store.Millis(now.Add(-RetentionInterval+time.Hour)), retentionJob)
	}
	if _, uerr := w.store.ExecContext(ctx, `UPDATE jobs SET last_result = ? WHERE name = ?`, result, retentionJob); uerr != nil && err == nil {
		err = fmt.Errorf("staff: record the retention job: %w", uerr)
	}
	return report, err
}

// DefaultRetentionBatch is the most rows one transaction of the retention
// job deletes or empties (Config.RetentionBatch), and
// DefaultRetentionBatchTime how long one should hold the database
// (Config.RetentionBatchTime): each batch's rows are found by a read that
// holds no lock, then changed in a short transaction, whose size follows
// how long the last one took; between two, the job pauses as long as the
// last took, so that a visitor's post waits for SQLite's one writer at most
// one short batch and the job takes at most about half the machine
// (docs/ARCHITECTURE.md, Data).
const (
	DefaultRetentionBatch     = 500
	DefaultRetentionBatchTime = 20 * time.Millisecond
)

// firstRetentionBatch is how many rows the job's first transaction of a
// kind changes, before it knows how long a row takes.
const firstRetentionBatch = 50

// mailToClear is the condition of a mail past retention that still holds
// something to clear.
const mailToClear = `created_at < ? AND (to_addr <> '' OR reply_to <> '' OR to_key <> '' OR reply_key <> '' OR subject <> '' OR text_body <> ''
	OR html_body <> '' OR last_error <> '' OR EXISTS (SELECT 1 FROM outbox_attachments a WHERE a.outbox_id = outbox.id))`

// bookingToEmpty is the condition of a booking past retention whose
// personal fields are not empty yet.
const bookingToEmpty = `(end_at < ? OR cancelled_at < ?) AND (name <> '' OR email <> '' OR company <> '' OR topic <> '' OR phone <> '')`

func (w *Workspace) retain(ctx context.Context, now time.Time) (RetentionReport, error) {
	started := time.Now()
	cutoff := store.Millis(now.AddDate(0, -w.cfg.RetentionMonths, 0))
	spamCutoff := store.Millis(now.Add(-w.cfg.SpamRetention))
	r := RetentionReport{Ran: true}
	var err error
	// Messages, spam first: each batch is the oldest left, by the folder's
	// index or the one on created_at; what a batch deletes, the next
	// cannot find.
	deleteMessages := func(where string, args ...any) (int, error) {
		return w.inBatches(ctx, func(int64) (string, []any) {
			return `SELECT id, ref FROM messages WHERE ` + where + ` ORDER BY created_at, id LIMIT ?`, args
		}, func(tx *store.Tx, ids []int64, refs []string) error {
			if err := forgetNotes(ctx, tx, NoteOnMessage, refs); err != nil {
				return err
			}
			in, inArgs := inList("id", ids)
			if _, err := tx.ExecContext(ctx, `DELETE FROM messages WHERE `+in+` AND `+where, append(inArgs, args...)...); err != nil {
				return fmt.Errorf("staff: delete old messages: %w", err)
			}
			return nil
		})
	}
	if r.Spam, err = deleteMessages(`spam = true AND created_at < ?`, spamCutoff); err != nil {
		return r, err
	}
	if r.Messages, err = deleteMessages(`created_at < ?`, cutoff); err != nil {
		return r, err
	}
	// Bookings and mail stay, emptied: they are walked once by id.
	if r.Bookings, err = w.inBatches(ctx, func(after int64) (string, []any) {
		return `SELECT id, '' FROM bookings WHERE id > ? AND ` + bookingToEmpty + ` ORDER BY id LIMIT ?`, []any{after, cutoff, cutoff}
	}, func(tx *store.Tx, ids []int64, _ []string) error {
		refs := make([]string, len(ids))
		for i, id := range ids {
			refs[i] = strconv.FormatInt(id, 10)
		}
		if err := forgetNotes(ctx, tx, NoteOnBooking, refs); err != nil {
			return err
		}
		in, inArgs := inList("id", ids)
		if _, err := tx.ExecContext(ctx, `
UPDATE bookings SET name = '', email = '', email_key = '', company = '', topic = '', phone = '', cancel_reason = ''
WHERE `+in+` AND `+bookingToEmpty, append(inArgs, cutoff, cutoff)...); err != nil {
			return fmt.Errorf("staff: anonymise old bookings: %w", err)
		}
		return nil
	}); err != nil {
		return r, err
	}
	if r.Mail, err = w.inBatches(ctx, func(after int64) (string, []any) {
		return `SELECT id, '' FROM outbox WHERE id > ? AND ` + mailToClear + ` ORDER BY id LIMIT ?`, []any{after, cutoff}
	}, func(tx *store.Tx, ids []int64, _ []string) error {
		in, inArgs := inList("id", ids)
		_, err := clearMail(ctx, tx, in+` AND `+mailToClear, append(inArgs, cutoff), "past retention")
		return err
	}); err != nil {
		return r, err
	}
	err = w.store.InTx(ctx, func(tx *store.Tx) error {
		r.Expired = 0
		nowMs := store.Millis(now)
		for _, q := range []struct {
			query string
			arg   int64
		}{
			{`DELETE FROM staff_sessions WHERE expires_at <= ? OR seen_at <= ?`, nowMs - SessionIdle.Milliseconds()},
			// A link is kept a week past its end, so that opening it again
			// says "used" or "expired" rather than "unknown".
			{`DELETE FROM staff_tokens WHERE expires_at <= ? AND expires_at <= ?`, nowMs - 7*24*time.Hour.Milliseconds()},
			{`DELETE FROM staff_ceremonies WHERE expires_at <= ? OR expires_at <= ?`, nowMs},
		} {
			res, err := tx.ExecContext(ctx, q.query, nowMs, q.arg)
			if err != nil {
				return fmt.Errorf("staff: delete ended sign-ins: %w", err)
			}
			r.Expired += affected(res)
		}
		if r.Messages+r.Spam+r.Bookings+r.Mail == 0 {
			return nil
		}
		return record(ctx, tx, now, ActorRetention, ActionRetention, "", r.String())
	})
	if err != nil {
		return r, err
	}
	if r.Messages+r.Spam+r.Bookings+r.Mail > 0 {
		w.forget(ctx, "messages", "bookings", "outbox", "outbox_attachments")
	}
	r.Took = time.Since(started)
	return r, nil
}

// inBatches runs a part of the retention job in batches: find reads the
// next batch's ids (and refs) after the last id of the batch before (0 at
// first), outside any transaction; change changes them in a transaction of
// their own, checking again what find checked, since a row may have
// changed between. It returns how many rows it changed, and stops at the
// first batch smaller than the one asked for.
func (w *Workspace) inBatches(ctx context.Context, find func(after int64) (string, []any),
	change func(tx *store.Tx, ids []int64, refs []string) error) (int, error) {
	total := 0
	var after int64
	size := min(firstRetentionBatch, w.cfg.RetentionBatch)
	for {
		query, args := find(after)
		var ids []int64
		var refs []string
		err := store.QueryEach(ctx, w.store, func(row store.Scanner) error {
			var id int64
			var ref string
			if err := row.Scan(&id, &ref); err != nil {
				return err
			}
			ids, refs = append(ids, id), append(refs, ref)
			return nil
		}, query, append(args, size)...)
		if err != nil {
			return total, fmt.Errorf("staff: find what the retention removes: %w", err)
		}
		if len(ids) == 0 {
			return total, nil
		}
		took, err := w.timedTx(ctx, func(tx *store.Tx) error { return change(tx, ids, refs) })
		if err != nil {
			return total, err
		}

		total += len(ids)
		after = ids[len(ids)-1]
		if len(ids) < size {
			return total, nil
		}
		size = nextBatch(size, took, w.cfg.RetentionBatchTime, w.cfg.RetentionBatch)
		if err := w.afterBatch(ctx, took); err != nil {
			return total, err
		}
	}
}

// timedTx runs fn in a transaction and says how long the transaction held
// the database, from its start to its commit (not the wait for its turn).
func (w *Workspace) timedTx(ctx context.Context, fn func(tx *store.Tx) error) (time.Duration, error) {
	var began time.Time
	err := w.store.InTx(ctx, func(tx *store.Tx) error {
		began = time.Now()
		return fn(tx)
	})
	return time.Since(began), err
}

// nextBatch is the size of the batch after one of size rows that took
// took: the size that would take target at the same pace, at most a
// quarter of this one or twice it, between 1 and most.
func nextBatch(size int, took, target time.Duration, most int) int {
	want := int(float64(size) * float64(target) / float64(max(took, time.Microsecond)))
	return max(1, min(most, 2*size, max(size/4, want)))
}

// afterBatch lets the visitors have the writer and the machine after a
// batch that held the database for took: it folds the batch's pages into
// the database file (Store.Checkpoint, beside the writers), so that no
// visitor's commit finds a long write-ahead log to fold in itself, then
// pauses as long as the batch and the checkpoint took.
func (w *Workspace) afterBatch(ctx context.Context, took time.Duration) error {
	began := time.Now()
	if err := w.store.Checkpoint(ctx); err != nil && ctx.Err() == nil {
		// The log is folded by the next commit instead: slower, not wrong.
		w.cfg.Logger.WarnContext(ctx, "a checkpoint between the retention job's batches failed", "error", err)
	}
	return pause(ctx, took+time.Since(began))
}

// pause lets the visitors have the writer and the machine after a batch
// that took took: as long again, within 1 to 200 ms.
func pause(ctx context.Context, took time.Duration) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(min(max(took, time.Millisecond), 200*time.Millisecond)):
		return nil
	}
}

// RunRetentionDaily runs the retention job as soon as the database is
// ready, then every hour until ctx is done; each attempt runs only if no
// instance ran it within the last day (see RunRetention).
func (w *Workspace) RunRetentionDaily(ctx context.Context) {
	for {
		wait := time.Hour
		r, err := w.RunRetention(ctx)
		switch {
		case errors.Is(err, store.ErrNotReady):
			wait = 5 * time.Second // PostgreSQL is still coming up
		case err != nil && ctx.Err() == nil:
			w.cfg.Logger.ErrorContext(ctx, "retention job failed; it runs again within the hour", "error", err)
		case r.Ran:
			w.cfg.Logger.InfoContext(ctx, "retention job ran", "messages", r.Messages, "spam", r.Spam,
				"bookings", r.Bookings, "mail", r.Mail, "expired_sign_ins", r.Expired, "took", r.Took.Round(time.Millisecond).String())
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
	}
}
