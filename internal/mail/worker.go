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
	// SendTimeout bounds one delivery; default 30 s.
	SendTimeout time.Duration
	// Lease is how long a message being sent is reserved. If the process
	// dies mid-send, the message becomes due again after it, for any
	// instance's worker. It must exceed SendTimeout; default 1 min.
	Lease time.Duration
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
		c.SendTimeout = 30 * time.Second
	}
	if c.Lease <= c.SendTimeout {
		c.Lease = max(time.Minute, 2*c.SendTimeout)
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	return c
}

// Worker drains the outbox through a Sender. Each instance of the site
// runs one; several workers on one database share the work, each message
// claimed by one of them at a time (see [Worker.DrainOnce]).
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

// Run drains the outbox at start, on every Wake, and whenever a message
// falls due (a retry, or a lease of a worker that died), at least every
// PollInterval, until ctx is done. A message being sent when ctx is
// cancelled is finished and recorded first. Run returns nil after a
// cancellation.
func (w *Worker) Run(ctx context.Context) error {
	_, holding := w.sender.(holder)
	if holding {
		if st, err := CountOutbox(ctx, w.store); err == nil && st.Pending+st.Held > 0 {
			w.log.InfoContext(ctx, "mail waits in the outbox until SMTP_URL is set",
				"pending", st.Pending, "held", st.Held)
		}
	}
	timer := time.NewTimer(w.cfg.PollInterval)
	defer timer.Stop()
	for {
		if _, err := w.DrainOnce(ctx); err != nil && ctx.Err() == nil {
			w.log.ErrorContext(ctx, "mail outbox drain failed", "error", err)
		}
		timer.Reset(w.untilNextDue(ctx, holding))
		select {
		case <-ctx.Done():
			return nil
		case <-timer.C:
		case <-w.wake:
		}
	}
}

// untilNextDue is how long Run may sleep: until the earliest message falls
// due, and no longer than PollInterval.
func (w *Worker) untilNextDue(ctx context.Context, holding bool) time.Duration {
	states := `('pending', 'held')`
	if holding {
		states = `('pending')`
	}
	var next sql.NullInt64
	err := w.store.QueryRowContext(ctx, `SELECT min(next_attempt_at) FROM outbox WHERE state IN `+states).Scan(&next)
	if err != nil || !next.Valid {
		return w.cfg.PollInterval
	}
	return min(w.cfg.PollInterval, max(50*time.Millisecond, store.FromMillis(next.Int64).Sub(w.cfg.Now())))
}

// DrainOnce sends every message due now and returns how many were
// delivered. It stops early when ctx is done, but never in the middle of a
// message: the one in progress is sent (within SendTimeout) and its outcome
// recorded. For tests and for a last flush at shutdown.
//
// Several workers (one per instance) may drain one database at once: each
// message is claimed by one of them for a Lease, and the others pass over
// it. Should the claiming instance die before recording the outcome, the
// message is due again when the lease ends and another worker sends it,
// with the same Message-ID: delivery is at least once.
func (w *Worker) DrainOnce(ctx context.Context) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()

	// Messages that become due while this drain runs (a retry scheduled
	// for soon) wait for the next one, so that a drain always ends.
	cutoff := w.cfg.Now()
	_, holding := w.sender.(holder)
	seen := map[int64]bool{}
	delivered := 0
	for {
		if err := ctx.Err(); err != nil {
			return delivered, err
		}
		q, ok, err := w.claimNext(ctx, cutoff, holding)
		if err != nil {
			return delivered, err
		}
		if !ok || seen[q.id] {
			return delivered, nil
		}
		seen[q.id] = true
		if w.send(ctx, q) {
			delivered++
		}
	}
}

// claimNext reserves the next message due at cutoff for one Lease and
// loads it; ok is false when none is due. Held rows are due too, unless
// the sender would only hold them again.
//
// On PostgreSQL the row is locked FOR UPDATE SKIP LOCKED: a worker of
// another instance claiming at the same moment takes the next row instead
// of waiting for this one. On SQLite the transaction holds the database's
// write lock, which serialises claims the same way.
func (w *Worker) claimNext(ctx context.Context, cutoff time.Time, holding bool) (queued, bool, error) {
	states := `('pending', 'held')`
	if holding {
		states = `('pending')`
	}
	query := `SELECT id FROM outbox WHERE state IN ` + states + ` AND next_attempt_at <= ?
ORDER BY next_attempt_at, id LIMIT 1`
	if w.store.Backend() == store.Postgres {
		query += ` FOR UPDATE SKIP LOCKED`
	}
	var (
		q       queued
		claimed bool
	)
	err := w.store.InTx(ctx, func(tx *store.Tx) error {
		claimed = false
		var id int64
		err := tx.QueryRowContext(ctx, query, store.Millis(cutoff)).Scan(&id)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		if err != nil {
			return err
		}
		if q, err = loadQueued(ctx, tx, id); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE outbox SET next_attempt_at = ? WHERE id = ?`,
			store.Millis(w.cfg.Now().Add(w.cfg.Lease)), id); err != nil {
			return err
		}
		claimed = true
		return nil
	})
	if err != nil {
		return queued{}, false, fmt.Errorf("mail: claim a due outbox row: %w", err)
	}
	return q, claimed, nil
}

// send delivers a claimed message and records the outcome, and reports
// whether it was delivered. An outcome that cannot be recorded (the
// database went away meanwhile) is logged: the lease then ends and the
// message is sent again, which at-least-once delivery allows.
func (w *Worker) send(ctx context.Context, q queued) bool {
	// From here on the message is finished even if ctx is cancelled: a
	// half-sent message would only be sent again after the lease.
	ctx = context.WithoutCancel(ctx)
	sendCtx, cancel := context.WithTimeout(ctx, w.cfg.SendTimeout)
	sendErr := w.sender.Send(sendCtx, q.ref, q.msg)
	cancel()

	recordCtx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := w.record(recordCtx, q, sendErr); err != nil {
		w.log.ErrorContext(ctx, "mail outcome not recorded; the message is due again after its lease",
			"outbox_ref", q.ref, "error", err)
	}
	return sendErr == nil
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
	_, err := w.store.ExecContext(ctx, query, args...)
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
	return half + rand.N(d-half+1) //nolint:gosec // G404: jitter, not a secret
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
