// Package ratelimit counts requests per client in the shared database, so
// that several instances of the site behind one load balancer enforce one
// limit: a client spread over N instances gets what it would get from one.
package ratelimit

import (
	"context"
	"database/sql"
	"fmt"
	"sync"
	"time"

	"github.com/northbeam/site/internal/store"
)

// Shared is a sliding-log limiter whose log lives in the rate_hits table:
// a client may make Requests requests in any Window. It is safe for
// concurrent use by any number of processes on one database.
type Shared struct {
	store    *store.Store
	bucket   string // names the limit in the table: contact, booking, slots
	requests int
	window   time.Duration

	mu        sync.Mutex
	nextSweep time.Time
}

// NewShared returns a limiter named bucket of requests per window in st.
func NewShared(st *store.Store, bucket string, requests int, window time.Duration) *Shared {
	return &Shared{store: st, bucket: bucket, requests: requests, window: window}
}

// Allow counts a request from client at now when it is within the limit;
// when it is not, it returns how long the client has to wait. Refused
// requests are not counted, so waiting that long is always enough.
//
// The requests of one client are counted one at a time across every
// instance: on PostgreSQL a transaction-scoped advisory lock on the
// (bucket, client) pair serialises them; on SQLite the write lock does.
func (l *Shared) Allow(ctx context.Context, client string, now time.Time) (bool, time.Duration, error) {
	if err := l.sweep(ctx, now); err != nil {
		return false, 0, err
	}
	nowMs := store.Millis(now)
	windowMs := l.window.Milliseconds()
	var (
		allowed bool
		wait    time.Duration
	)
	err := l.store.InTx(ctx, func(tx *store.Tx) error {
		allowed, wait = false, 0
		if tx.Backend() == store.Postgres {
			if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(hashtext(?))`,
				"northbeam.rate."+l.bucket+"."+client); err != nil {
				return err
			}
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM rate_hits WHERE bucket = ? AND client = ? AND at <= ?`,
			l.bucket, client, nowMs-windowMs); err != nil {
			return err
		}
		var (
			n      int
			oldest sql.NullInt64
		)
		if err := tx.QueryRowContext(ctx, `SELECT count(*), min(at) FROM rate_hits WHERE bucket = ? AND client = ?`,
			l.bucket, client).Scan(&n, &oldest); err != nil {
			return err
		}
		if n >= l.requests {
			wait = time.Duration(oldest.Int64+windowMs-nowMs) * time.Millisecond
			return nil
		}
		allowed = true
		_, err := tx.ExecContext(ctx, `INSERT INTO rate_hits (bucket, client, at, expires_at) VALUES (?, ?, ?, ?)`,
			l.bucket, client, nowMs, nowMs+windowMs)
		return err
	})
	if err != nil {
		return false, 0, fmt.Errorf("ratelimit: %s: %w", l.bucket, err)
	}
	return allowed, wait, nil
}

// sweep forgets, once per window and instance, the hits of clients that
// went quiet, so that the table holds only the last window or two.
func (l *Shared) sweep(ctx context.Context, now time.Time) error {
	l.mu.Lock()
	due := !now.Before(l.nextSweep)
	if due {
		l.nextSweep = now.Add(l.window)
	}
	l.mu.Unlock()
	if !due {
		return nil
	}
	if _, err := l.store.ExecContext(ctx, `DELETE FROM rate_hits WHERE bucket = ? AND expires_at <= ?`,
		l.bucket, store.Millis(now)); err != nil {
		return fmt.Errorf("ratelimit: sweep %s: %w", l.bucket, err)
	}
	return nil
}
