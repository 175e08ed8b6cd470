package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync/atomic"
	"time"
)

// Backend names the database engine behind a [Store].
type Backend string

// The two back-ends.
const (
	SQLite   Backend = "sqlite"   // one file in the data directory, one process
	Postgres Backend = "postgres" // DATABASE_URL, shared by several instances
)

// Store is an open database. It is safe for concurrent use. Until it is
// connected and migrated (see [Store.Connect]), every query fails with
// [ErrNotReady], which [IsUnavailable] recognises.
type Store struct {
	db      *sql.DB
	backend Backend
	// secret is the part of the connection string that must never be
	// printed (the whole PostgreSQL URL); errors are scrubbed of it.
	secret string
	ready  atomic.Bool
	steps  []Migration
	// writeRefused is set when a write failed because the database would
	// not take it (full, read-only, locked, gone) and cleared by the next
	// write that commits; Check then probes before saying all is well.
	writeRefused atomic.Bool
	// writer is SQLite's one write lock, taken in Go before BEGIN
	// IMMEDIATE (nil on PostgreSQL). Without it, concurrent writers of this
	// process wait inside SQLite's busy handler, which polls and is not
	// fair: under a burst of posts one writer could lose every poll for the
	// whole busy timeout and answer 503. A channel queues its waiters in
	// order and lets a request's cancellation end the wait.
	writer chan struct{}
	// busyTimeout is SQLite's busy timeout of every pooled connection.
	busyTimeout time.Duration
	// optimizeOnClose: Close runs PRAGMA optimize (OptimizeOnClose).
	optimizeOnClose bool
	// observer, when set (Observe), is told every statement of the site
	// as it is sent: the plan tests explain each one.
	observer atomic.Pointer[func(query string, args []any)]
}

// Observe makes fn hear every statement sent through s or its
// transactions, with its arguments, before its placeholders are bound;
// nil stops it. For tests that check what the site asks of the database
// (docs/ARCHITECTURE.md, Data: the plan tests).
func (s *Store) Observe(fn func(query string, args []any)) {
	if fn == nil {
		s.observer.Store(nil)
		return
	}
	s.observer.Store(&fn)
}

// Backend reports which engine s runs on.
func (s *Store) Backend() Backend { return s.backend }

// DB returns the underlying pool, for tools that need the driver itself
// (backups, tests). Queries of the site go through the Store, which binds
// their parameters for its engine.
func (s *Store) DB() *sql.DB { return s.db }

// Ready reports whether the store is connected and migrated.
func (s *Store) Ready() bool { return s.ready.Load() }

// Ping reports whether the database answers, for readiness checks.
func (s *Store) Ping(ctx context.Context) error {
	if !s.Ready() {
		return ErrNotReady
	}
	var one int
	if err := s.db.QueryRowContext(ctx, "SELECT 1").Scan(&one); err != nil {
		return s.wrap("ping", err)
	}
	return nil
}

// ErrRefusesWrites is Check's answer when the database answers but will
// not take a write (a full disk, a read-only file system or standby).
var ErrRefusesWrites = errors.New("store: the database refuses writes")

// Check reports whether the database can serve the site now: it answers
// and, when the last write was refused, a probe write goes through. It is
// what /readyz asks; in the usual case it costs one SELECT 1.
func (s *Store) Check(ctx context.Context) error {
	if err := s.Ping(ctx); err != nil {
		return err
	}
	if !s.writeRefused.Load() {
		return nil
	}
	_, err := s.db.ExecContext(ctx, s.bind(`UPDATE health_probe SET checked_at = ? WHERE id = 1`, nil), Millis(time.Now()))
	err = s.scrub(err)
	s.noteWrite(err)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrRefusesWrites, err)
	}
	return nil
}

// noteWrite records the outcome of a write for Check.
func (s *Store) noteWrite(err error) {
	switch {
	case err == nil:
		s.writeRefused.Store(false)
	case IsUnavailable(err) && !errors.Is(err, ErrNotReady):
		s.writeRefused.Store(true)
	}
}

// Connect waits for the database to answer, retrying with a growing pause
// for at most wait, then applies the pending migrations and marks the
// store ready. It is how a PostgreSQL store comes up; an SQLite store is
// ready when [Open] returns.
func (s *Store) Connect(ctx context.Context, wait time.Duration) error {
	if s.Ready() {
		return nil
	}
	deadline := time.Now().Add(wait)
	pause := 100 * time.Millisecond
	for {
		var one int
		err := s.db.QueryRowContext(ctx, "SELECT 1").Scan(&one)
		if err == nil {
			break
		}
		remaining := time.Until(deadline)
		if ctx.Err() != nil || remaining <= 0 {
			return s.wrap(fmt.Sprintf("the database did not answer within %s", wait), err)
		}
		select {
		case <-ctx.Done():
			return s.wrap("connect", ctx.Err())
		case <-time.After(min(pause+rand.N(pause/2), remaining)): //nolint:gosec // G404: jitter, not a secret
		}
		pause = min(2*pause, 5*time.Second)
	}
	if err := migrate(ctx, s, s.steps); err != nil {
		return s.scrub(err)
	}
	s.ready.Store(true)
	return nil
}

// Close closes the pool; the server's SQLite store (OptimizeOnClose)
// first lets SQLite update its query planner statistics.
func (s *Store) Close() error {
	var optimizeErr error
	if s.backend == SQLite && s.optimizeOnClose && s.Ready() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		_, optimizeErr = s.db.ExecContext(ctx, "PRAGMA optimize")
	}
	if err := s.db.Close(); err != nil {
		return s.wrap("close", err)
	}
	if optimizeErr != nil {
		return fmt.Errorf("store: optimize on close: %w", optimizeErr)
	}
	return nil
}

// Querier runs queries written with "?" placeholders on either engine: a
// [Store] outside a transaction, or a [Tx] inside one.
type Querier interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *Row
	// Backend says which engine runs the query, for the few statements
	// whose form differs (row locks that skip, upserts).
	Backend() Backend
}

// Row is the result of QueryRowContext: *sql.Row, or the error that kept
// the query from running.
type Row struct {
	row *sql.Row
	err error
}

// Scan copies the row's columns into dest, or returns the row's error
// ([sql.ErrNoRows] when there was none).
func (r *Row) Scan(dest ...any) error {
	if r.err != nil {
		return r.err
	}
	return r.row.Scan(dest...)
}

// ExecContext runs a statement outside a transaction.
func (s *Store) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	if !s.Ready() {
		return nil, ErrNotReady
	}
	res, err := s.db.ExecContext(ctx, s.bind(query, args), args...)
	err = s.scrub(err)
	s.noteWrite(err)
	return res, err
}

// QueryContext runs a query outside a transaction.
func (s *Store) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	if !s.Ready() {
		return nil, ErrNotReady
	}
	rows, err := s.db.QueryContext(ctx, s.bind(query, args), args...)
	return rows, s.scrub(err)
}

// QueryRowContext runs a query expected to return at most one row.
func (s *Store) QueryRowContext(ctx context.Context, query string, args ...any) *Row {
	if !s.Ready() {
		return &Row{err: ErrNotReady}
	}
	return &Row{row: s.db.QueryRowContext(ctx, s.bind(query, args), args...)}
}

// bind rewrites "?" placeholders into the engine's form, after telling
// the observer (Observe), if any.
func (s *Store) bind(query string, args []any) string {
	if fn := s.observer.Load(); fn != nil {
		(*fn)(query, args)
	}
	if s.backend == Postgres {
		return rebind(query)
	}
	return query
}

// Tx is a write transaction of [Store.InTx].
type Tx struct {
	tx    *sql.Tx
	store *Store
}

// Backend reports which engine runs the transaction.
func (t *Tx) Backend() Backend { return t.store.backend }

// ExecContext runs a statement inside the transaction.
func (t *Tx) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	res, err := t.tx.ExecContext(ctx, t.store.bind(query, args), args...)
	return res, t.store.scrub(err)
}

// QueryContext runs a query inside the transaction.
func (t *Tx) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	rows, err := t.tx.QueryContext(ctx, t.store.bind(query, args), args...)
	return rows, t.store.scrub(err)
}

// QueryRowContext runs a query expected to return at most one row.
func (t *Tx) QueryRowContext(ctx context.Context, query string, args ...any) *Row {
	return &Row{row: t.tx.QueryRowContext(ctx, t.store.bind(query, args), args...)}
}

// txAttempts bounds how often InTx runs fn when the database reports a
// conflict that a retry resolves. SQLite has already waited its busy
// timeout before it says busy, so one more try is enough there; a
// PostgreSQL serialization failure is over at once and worth a few.
var txAttempts = map[Backend]int{SQLite: 2, Postgres: 4}

// InTx runs fn inside a write transaction and commits it when fn returns
// nil; any error or panic rolls it back. When the engine refuses the
// transaction in a way that a retry resolves (SQLite busy beyond its busy
// timeout; a PostgreSQL serialization failure or deadlock) the whole
// transaction is run again a few times with a growing, jittered pause, so
// fn must have no effects outside tx.
func (s *Store) InTx(ctx context.Context, fn func(*Tx) error) error {
	if !s.Ready() {
		return ErrNotReady
	}
	err := s.inTxRetrying(ctx, fn)
	s.noteWrite(err)
	return err
}

func (s *Store) inTxRetrying(ctx context.Context, fn func(*Tx) error) error {
	var err error
	attempts := txAttempts[s.backend]
	for attempt := range attempts {
		if err = s.inTx(ctx, fn); err == nil || !IsBusy(err) && !isStaleSchema(err) {
			return err
		}
		if attempt == attempts-1 {
			break
		}
		pause := time.Duration(25<<attempt)*time.Millisecond + rand.N(25*time.Millisecond) //nolint:gosec // G404: jitter, not a secret
		select {
		case <-ctx.Done():
			return errors.Join(err, ctx.Err())
		case <-time.After(pause):
		}
	}
	return err
}

func (s *Store) inTx(ctx context.Context, fn func(*Tx) error) (err error) {
	if s.writer != nil {
		select {
		case s.writer <- struct{}{}:
			defer func() { <-s.writer }()
		case <-ctx.Done():
			return s.wrap("begin", ctx.Err())
		}
	}
	// On a connection of its own, so that one whose schema reads stale
	// (isStaleSchema) is closed rather than handed to the next try.
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return s.wrap("begin", err)
	}
	defer func() {
		if isStaleSchema(err) {
			_ = conn.Raw(func(any) error { return driver.ErrBadConn }) // the pool drops it
		}
		_ = conn.Close() // back to the pool, or closed when dropped
	}()
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return s.wrap("begin", err)
	}
	defer func() {
		if p := recover(); p != nil {
			tx.Rollback()
			panic(p)
		}
		if err != nil {
			tx.Rollback()
		}
	}()
	if err = fn(&Tx{tx: tx, store: s}); err != nil {
		return err
	}
	if err = tx.Commit(); err != nil {
		return s.wrap("commit", err)
	}
	return nil
}

// wrap returns err as a store error about op, scrubbed of secrets.
func (s *Store) wrap(op string, err error) error {
	return s.scrub(fmt.Errorf("store: %s: %w", op, err))
}
