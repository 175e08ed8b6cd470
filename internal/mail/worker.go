package mail

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"regexp"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/northbeam/site/internal/store"
)

// WorkerConfig tunes a [Worker]. Zero values take the defaults noted.
type WorkerConfig struct {
	// Logger receives one line per attempt; default slog.Default().
	Logger *slog.Logger
	// PollInterval is how often the outbox is checked without a Wake;
	// default 30 s.
	PollInterval time.Duration
	// RetryBase is the delay after the first failed attempt, doubled after
	// each further one; default 30 s.
	RetryBase time.Duration
	// RetryMax caps the delay between attempts; default 1 h.
	RetryMax time.Duration
	// MaxAttempts is how many failed attempts a message gets before it is
	// marked failed and left for staff; default 60 (with the defaults above,
	// about two and a half days of trying). Negative means never give up.
	MaxAttempts int
	// SendTimeout bounds one delivery; default 60 s.
	SendTimeout time.Duration
	// Lease is how long a message being sent is reserved. If the process
	// dies mid-send, the message becomes due again after it. It must exceed
	// SendTimeout; default 5 min.
	Lease time.Duration
	// BatchSize is how many due rows are read per query; default 20.
	BatchSize int
	// Now is the clock; default time.Now. Tests move it forward.
	Now func() time.Time
}

func (c WorkerConfig) withDefaults() WorkerConfig {
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	if c.PollInterval <= 0 {
		c.PollInterval = 30 * time.Second
	}
	if c.RetryBase <= 0 {
		c.RetryBase = 30 * time.Second
	}
	if c.RetryMax <= 0 {
		c.RetryMax = time.Hour
	}
	if c.RetryMax < c.RetryBase {
		c.RetryMax = c.RetryBase
	}
	if c.MaxAttempts == 0 {
		c.MaxAttempts = 60
	}
	if c.SendTimeout <= 0 {
		c.SendTimeout = 60 * time.Second
	}
	if c.Lease <= c.SendTimeout {
		c.Lease = max(5*time.Minute, 2*c.SendTimeout)
	}
	if c.BatchSize <= 0 {
		c.BatchSize = 20
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	return c
}

// Worker drains the outbox through a Sender. One Worker per process is
// enough; should two ever run against one database, the lease on each
// message keeps them from sending it twice.
type Worker struct {
	store  *store.Store
	sender Sender
	cfg    WorkerConfig
	log    *slog.Logger
	wake   chan struct{}
	mu     sync.Mutex // one drain at a time: Run's and a shutdown's
}

// NewWorker returns a worker sending the outbox of st through sender.
func NewWorker(st *store.Store, sender Sender, cfg WorkerConfig) *Worker {
	cfg = cfg.withDefaults()
	return &Worker{
		store:  st,
		sender: sender,
		cfg:    cfg,
		log:    cfg.Logger,
		wake:   make(chan struct{}, 1),
	}
}

// Wake asks a running worker to drain now, e.g. after a commit that
// enqueued mail. It never blocks.
func (w *Worker) Wake() {
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// Run drains the outbox at start, on every Wake and every PollInterval,
// until ctx is done. A message being sent when ctx is cancelled is finished
// and recorded first. Run returns nil after a cancellation.
func (w *Worker) Run(ctx context.Context) error {
	if _, ok := w.sender.(holder); ok {
		if st, err := CountOutbox(ctx, w.store.DB()); err == nil && st.Pending+st.Held > 0 {
			w.log.InfoContext(ctx, "mail waits in the outbox until SMTP_URL is set",
				"pending", st.Pending, "held", st.Held)
		}
	}
	ticker := time.NewTicker(w.cfg.PollInterval)
	defer ticker.Stop()
	for {
		if _, err := w.DrainOnce(ctx); err != nil && ctx.Err() == nil {
			w.log.ErrorContext(ctx, "mail outbox drain failed", "error", err)
		}
		select {
		case <-ctx.Done():
			return nil
		case <-ticker.C:
		case <-w.wake:
		}
	}
}

// DrainOnce sends every message due now and returns how many were
// delivered. It stops early when ctx is done, but never in the middle of a
// message: the one in progress is sent (within SendTimeout) and its outcome
// recorded. For tests and for a last flush at shutdown.
func (w *Worker) DrainOnce(ctx context.Context) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()

	start := w.cfg.Now()
	_, holding := w.sender.(holder)
	seen := map[int64]bool{}
	delivered := 0
	for {
		if err := ctx.Err(); err != nil {
			return delivered, err
		}
		ids, err := w.due(ctx, start, holding)
		if err != nil {
			return delivered, err
		}
		fresh := 0
		for _, id := range ids {
			if seen[id] {
				continue
			}
			seen[id] = true
			fresh++
			if err := ctx.Err(); err != nil {
				return delivered, err
			}
			sent, err := w.attempt(ctx, id)
			if err != nil {
				return delivered, err
			}
			if sent {
				delivered++
			}
		}
		if fresh == 0 {
			return delivered, nil
		}
	}
}

// due lists rows whose next attempt is at or before now. Held rows are due
// too, unless the sender would only hold them again.
func (w *Worker) due(ctx context.Context, now time.Time, holding bool) ([]int64, error) {
	query := `SELECT id FROM outbox WHERE state IN ('pending', 'held') AND next_attempt_at <= ?
ORDER BY next_attempt_at, id LIMIT ?`
	if holding {
		query = `SELECT id FROM outbox WHERE state = 'pending' AND next_attempt_at <= ?
ORDER BY next_attempt_at, id LIMIT ?`
	}
	rows, err := w.store.DB().QueryContext(ctx, query, store.Millis(now), w.cfg.BatchSize)
	if err != nil {
		return nil, fmt.Errorf("mail: list due outbox rows: %w", err)
	}
	defer rows.Close()
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("mail: list due outbox rows: %w", err)
		}
		ids = append(ids, id)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("mail: list due outbox rows: %w", err)
	}
	return ids, nil
}

// attempt claims row id, sends it and records the outcome. It reports
// whether the message was delivered; its error is about the database only.
func (w *Worker) attempt(ctx context.Context, id int64) (bool, error) {
	now := w.cfg.Now()
	q, claimed, err := w.claim(ctx, id, now)
	if err != nil || !claimed {
		return false, err
	}

	// From here on the message is finished even if ctx is cancelled: a
	// half-sent message would only be sent again after the lease.
	ctx = context.WithoutCancel(ctx)
	sendCtx, cancel := context.WithTimeout(ctx, w.cfg.SendTimeout)
	sendErr := w.sender.Send(sendCtx, q.ref, q.msg)
	cancel()

	recordCtx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	return sendErr == nil, w.record(recordCtx, q, sendErr)
}

// claim reserves row id for one Lease if it is still due, and loads it.
func (w *Worker) claim(ctx context.Context, id int64, now time.Time) (queued, bool, error) {
	var q queued
	claimed := false
	err := w.store.InTx(ctx, func(tx *sql.Tx) error {
		var err error
		q, err = loadQueued(ctx, tx, id)
		if err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `
UPDATE outbox SET next_attempt_at = ?
WHERE id = ? AND state IN ('pending', 'held') AND next_attempt_at <= ?`,
			store.Millis(now.Add(w.cfg.Lease)), id, store.Millis(now))
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		claimed = n == 1
		return err
	})
	if err != nil {
		return q, false, fmt.Errorf("mail: claim outbox row %d: %w", id, err)
	}
	return q, claimed, nil
}

// record stores the outcome of one attempt and logs it.
func (w *Worker) record(ctx context.Context, q queued, sendErr error) error {
	now := w.cfg.Now()
	attempts := q.attempts + 1
	attrs := []any{"kind", q.msg.Kind, "outbox_ref", q.ref, "to_domain", recipientDomain(q.msg.To), "attempt", attempts}

	var (
		query string
		args  []any
	)
	switch {
	case sendErr == nil:
		query = `UPDATE outbox SET state = 'sent', attempts = ?, sent_at = ?, last_error = '' WHERE id = ?`
		args = []any{attempts, store.Millis(now), q.id}
		w.log.InfoContext(ctx, "mail sent", attrs...)

	case errors.Is(sendErr, ErrHeld):
		// Not an attempt: due again as soon as a real sender runs.
		query = `UPDATE outbox SET state = 'held', next_attempt_at = ? WHERE id = ?`
		args = []any{q.due, q.id}

	case errors.Is(sendErr, ErrInvalid) || (w.cfg.MaxAttempts > 0 && attempts >= w.cfg.MaxAttempts):
		query = `UPDATE outbox SET state = 'failed', attempts = ?, last_error = ? WHERE id = ?`
		args = []any{attempts, truncate(sendErr.Error(), 2000), q.id}
		w.log.ErrorContext(ctx, "mail given up, left in the outbox as failed",
			append(attrs, "error", redactAddresses(sendErr.Error()))...)

	default:
		delay := w.retryDelay(attempts)
		query = `UPDATE outbox SET state = 'pending', attempts = ?, last_error = ?, next_attempt_at = ? WHERE id = ?`
		args = []any{attempts, truncate(sendErr.Error(), 2000), store.Millis(now.Add(delay)), q.id}
		w.log.WarnContext(ctx, "mail not sent, will retry",
			append(attrs, "retry_in", delay.Round(time.Second).String(), "error", redactAddresses(sendErr.Error()))...)
	}
	err := w.store.InTx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, query, args...)
		return err
	})
	if err != nil {
		return fmt.Errorf("mail: record attempt on outbox row %d: %w", q.id, err)
	}
	return nil
}

// retryDelay is the pause after the given number of failed attempts:
// RetryBase doubled per attempt, capped at RetryMax, then drawn uniformly
// from its upper half so that messages failing together spread out.
func (w *Worker) retryDelay(attempts int) time.Duration {
	d := w.cfg.RetryMax
	if shift := attempts - 1; shift < 32 {
		if b := w.cfg.RetryBase << shift; b > 0 && b < d {
			d = b
		}
	}
	half := d / 2
	return half + rand.N(d-half+1)
}

// addressPattern matches anything shaped like an e-mail address. SMTP
// errors often quote the recipient, which logs must not hold.
var addressPattern = regexp.MustCompile(`[^\s<>()\[\],;:"']+@[^\s<>()\[\],;:"']+`)

func redactAddresses(s string) string {
	return addressPattern.ReplaceAllString(s, "<address>")
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
