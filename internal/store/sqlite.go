package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"time"

	_ "modernc.org/sqlite" // registers the "sqlite" database/sql driver
)

// Option tunes an SQLite store opened by [Open].
type Option func(*sqliteOptions)

type sqliteOptions struct {
	busyTimeout     time.Duration
	optimizeOnClose bool
}

// OptimizeOnClose makes [Store.Close] let SQLite update its query
// planner's statistics (PRAGMA optimize), for the server's own store. A
// command run beside a live server (messages, staff, backup, a test's
// look at the file) leaves them alone: the first ANALYZE creates a table,
// a change of the schema under the server's connections, and a loaded
// TestCrashAndLoad saw one of them refuse a contact post just after such
// a look with "no such table: messages", twice in a row (isStaleSchema).
func OptimizeOnClose() Option {
	return func(o *sqliteOptions) { o.optimizeOnClose = true }
}

// WithBusyTimeout sets how long a write waits for another connection's
// write lock before the database answers busy; default 5 s.
func WithBusyTimeout(d time.Duration) Option {
	return func(o *sqliteOptions) { o.busyTimeout = d }
}

// Open opens (creating it and its directory when missing) the SQLite database
// file at path, and applies every pending migration before returning.
func Open(ctx context.Context, path string, opts ...Option) (*Store, error) {
	return openSQLite(ctx, path, Migrations(), opts...)
}

func openSQLite(ctx context.Context, path string, steps []Migration, opts ...Option) (*Store, error) {
	o := sqliteOptions{busyTimeout: 5 * time.Second}
	for _, opt := range opts {
		opt(&o)
	}
	if path == "" {
		return nil, errors.New("store: empty database path")
	}
	if err := makePrivate(path); err != nil {
		return nil, err
	}
	db, err := sql.Open("sqlite", sqliteDSN(path, o))
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	// Each pooled connection holds its own page cache (about 2 MB); a small
	// pool is plenty for one process where only one writer runs at a time.
	db.SetMaxOpenConns(8)
	db.SetMaxIdleConns(4)
	db.SetConnMaxIdleTime(5 * time.Minute)

	s := &Store{db: db, backend: SQLite, steps: steps, writer: make(chan struct{}, 1), busyTimeout: o.busyTimeout,
		optimizeOnClose: o.optimizeOnClose}
	// A local file answers at once or not at all: no waiting.
	if err := s.Connect(ctx, 0); err != nil {
		_ = db.Close() // the connect error is the one to report
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	return s, nil
}

// makePrivate keeps the database to the user the site runs as: it holds
// personal data. The data directory is made (or set to) 0700, and the
// database file is created 0600 before SQLite opens it, so that SQLite,
// which gives its write-ahead log and shared-memory files the mode of the
// database file, makes those 0600 too; files left by an earlier version
// are set to 0600.
func makePrivate(path string) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("store: create data directory: %w", err)
	}
	if err := os.Chmod(dir, 0o700); err != nil { //nolint:gosec // G302 is about files; a directory needs x, and 0700 is its owner alone
		return fmt.Errorf("store: make the data directory private: %w", err)
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("store: create %s: %w", path, err)
	}
	_ = f.Close() // opened only to create it
	for _, suffix := range []string{"", "-wal", "-shm", "-journal"} {
		if err := os.Chmod(path+suffix, 0o600); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("store: make %s private: %w", path+suffix, err)
		}
	}
	return nil
}

// sqliteDSN is the one place where the connection is configured. The
// settings travel in the DSN as _pragma parameters, so that every connection
// the database/sql pool opens, now or later, gets them; a PRAGMA executed once
// after sql.Open would reach a single connection only.
func sqliteDSN(path string, o sqliteOptions) string {
	q := url.Values{}
	// Wait for another writer (up to 5 s by default) instead of failing
	// with SQLITE_BUSY at once.
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", o.busyTimeout.Milliseconds()))
	q.Add("_pragma", "journal_mode(WAL)") // readers never block the writer nor the writer the readers; persistent in the file
	q.Add("_pragma", "foreign_keys(ON)")  // SQLite leaves foreign keys unenforced unless asked, per connection
	// NORMAL in WAL mode is durable across a crash of the process (the case
	// the 2xx-means-committed rule is about: the WAL is in the OS page cache,
	// already written); only a power loss or kernel crash may roll back the
	// last transactions. FULL would fsync on every commit for that case.
	q.Add("_pragma", "synchronous(NORMAL)")
	// What is deleted is overwritten with zeros, not merely unlinked: an
	// erased address or a message past its retention must not linger in
	// free pages of the file (staff privacy requests, the retention job).
	q.Add("_pragma", "secure_delete(ON)")
	// Write transactions start with BEGIN IMMEDIATE: they take the write lock
	// up front, where busy_timeout applies, instead of upgrading a read lock
	// later, which fails with SQLITE_BUSY without waiting.
	q.Set("_txlock", "immediate")
	// Reject "string" used where an identifier is meant, instead of SQLite's
	// legacy fallback that silently turns a misspelt column into a string.
	q.Set("_dqs", "0")
	// The path is written as a URI so that any character in it is escaped
	// and cannot be read as a parameter.
	u := url.URL{Scheme: "file", Opaque: (&url.URL{Path: path}).EscapedPath()}
	return u.String() + "?" + q.Encode()
}

// FoldLog folds SQLite's write-ahead log into the database file and
// empties it, so that what was deleted (overwritten with zeros, see
// secure_delete) lingers in neither: after an erasure or the retention
// job. Most of the log is copied first without the write lock (a passive
// checkpoint, beside the writers); the rest, and the log's truncation,
// take the write lock in this process's queue of writers (as a
// transaction does) and never wait inside SQLite: a reader still on an
// older snapshot makes it answer false at once, to be tried again, rather
// than hold the writers for the busy timeout. On PostgreSQL it does
// nothing and answers true.
func (s *Store) FoldLog(ctx context.Context) (bool, error) {
	if s.backend != SQLite {
		return true, nil
	}
	if !s.Ready() {
		return false, ErrNotReady
	}
	if err := s.Checkpoint(ctx); err != nil {
		return false, err
	}
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return false, s.wrap("checkpoint", err)
	}
	defer func() { _ = conn.Close() }() // back to the pool
	var busy, logPages, moved int
	select {
	case s.writer <- struct{}{}:
		defer func() { <-s.writer }()
	case <-ctx.Done():
		return false, s.wrap("checkpoint", ctx.Err())
	}
	if _, err := conn.ExecContext(ctx, `PRAGMA busy_timeout = 0`); err != nil {
		return false, s.wrap("checkpoint", err)
	}
	err = conn.QueryRowContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`).Scan(&busy, &logPages, &moved)
	// The connection goes back to the pool with the pool's busy timeout.
	if _, rerr := conn.ExecContext(context.WithoutCancel(ctx), fmt.Sprintf(`PRAGMA busy_timeout = %d`, s.busyTimeout.Milliseconds())); rerr != nil {
		_ = conn.Raw(func(any) error { return driver.ErrBadConn }) // not reused without it
		err = errors.Join(err, rerr)
	}
	if err != nil {
		return false, s.wrap("checkpoint", err)
	}
	return busy == 0, nil
}

// Checkpoint copies what SQLite's write-ahead log holds into the database
// file, as far as no reader still needs it, beside the writers (a passive
// checkpoint: it takes no write lock). A long job that writes in batches
// calls it after each, so that the log stays short and no visitor's
// commit, which folds a log longer than 1,000 pages in itself
// (SQLite's automatic checkpoint), pays for the job's pages. On PostgreSQL
// it does nothing.
func (s *Store) Checkpoint(ctx context.Context) error {
	if s.backend != SQLite {
		return nil
	}
	if !s.Ready() {
		return ErrNotReady
	}
	var busy, logPages, moved int
	if err := s.db.QueryRowContext(ctx, `PRAGMA wal_checkpoint(PASSIVE)`).Scan(&busy, &logPages, &moved); err != nil {
		return s.wrap("checkpoint", err)
	}
	return nil
}
