package staff

import (
	"context"
	"fmt"
	"time"

	"github.com/northbeam/site/internal/store"
)

// Mail is an outbox row that needs a look: given up (failed), waiting for
// SMTP to be configured (held), or failing and being retried (pending with
// attempts behind it).
type Mail struct {
	Ref         string
	Kind        string
	To          string
	Subject     string
	State       string // failed, held or pending
	Attempts    int
	LastError   string
	Created     time.Time
	NextAttempt time.Time
}

func scanMail(row store.Scanner) (Mail, error) {
	var m Mail
	var created, next int64
	if err := row.Scan(&m.Ref, &m.Kind, &m.To, &m.Subject, &m.State, &m.Attempts, &m.LastError, &created, &next); err != nil {
		return Mail{}, err
	}
	m.Created, m.NextAttempt = store.FromMillis(created), store.FromMillis(next)
	return m, nil
}

// TroubledMail lists the mail that did not go out, newest first, at most
// limit.
func (w *Workspace) TroubledMail(ctx context.Context, limit int) ([]Mail, error) {
	out, err := store.QueryAll(ctx, w.store, scanMail, `
SELECT ref, kind, to_addr, subject, state, attempts, last_error, created_at, next_attempt_at
FROM outbox WHERE state IN ('failed', 'held') OR (state = 'pending' AND attempts > 0)
ORDER BY created_at DESC, id DESC LIMIT ?`, clampLimit(limit))
	if err != nil {
		return nil, fmt.Errorf("staff: list mail: %w", err)
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
