package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/url"
	"os"
	"path/filepath"
	"time"

	_ "modernc.org/sqlite" // registers the "sqlite" database/sql driver
)

// Store is an open, migrated database. It is safe for concurrent use.
type Store struct {
	db *sql.DB
}

// Open opens (creating it and its directory when missing) the SQLite database
// file at path, and applies every pending migration before returning.
func Open(ctx context.Context, path string) (*Store, error) {
	return open(ctx, path, Migrations())
}

func open(ctx context.Context, path string, steps []Migration) (*Store, error) {
	if path == "" {
		return nil, errors.New("store: empty database path")
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o750); err != nil {
		return nil, fmt.Errorf("store: create data directory: %w", err)
	}
	db, err := sql.Open("sqlite", sqliteDSN(path))
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	// Each pooled connection holds its own page cache (about 2 MB); a small
	// pool is plenty for one process where only one writer runs at a time.
	db.SetMaxOpenConns(8)
	db.SetMaxIdleConns(4)
	db.SetConnMaxIdleTime(5 * time.Minute)

	s := &Store{db: db}
	if err := s.Ping(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	if err := migrate(ctx, s, steps); err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

// sqliteDSN is the one place where the connection is configured. The
// settings travel in the DSN as _pragma parameters, so that every connection
// the database/sql pool opens, now or later, gets them; a PRAGMA executed once
// after sql.Open would reach a single connection only.
func sqliteDSN(path string) string {
	q := url.Values{}
	q.Add("_pragma", "busy_timeout(5000)") // wait up to 5 s for another writer instead of failing with SQLITE_BUSY at once
	q.Add("_pragma", "journal_mode(WAL)")  // readers never block the writer nor the writer the readers; persistent in the file
	q.Add("_pragma", "foreign_keys(ON)")   // SQLite leaves foreign keys unenforced unless asked, per connection
	// NORMAL in WAL mode is durable across a crash of the process (the case
	// the 2xx-means-committed rule is about: the WAL is in the OS page cache,
	// already written); only a power loss or kernel crash may roll back the
	// last transactions. FULL would fsync on every commit for that case.
	q.Add("_pragma", "synchronous(NORMAL)")
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

// DB returns the underlying pool for queries outside a transaction.
func (s *Store) DB() *sql.DB { return s.db }

// Ping reports whether the database answers, for readiness checks.
func (s *Store) Ping(ctx context.Context) error {
	var one int
	if err := s.db.QueryRowContext(ctx, "SELECT 1").Scan(&one); err != nil {
		return fmt.Errorf("store: ping: %w", err)
	}
	return nil
}

// Close lets SQLite update its query planner statistics and closes the pool.
func (s *Store) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_, optimizeErr := s.db.ExecContext(ctx, "PRAGMA optimize")
	if err := s.db.Close(); err != nil {
		return fmt.Errorf("store: close: %w", err)
	}
	if optimizeErr != nil {
		return fmt.Errorf("store: optimize on close: %w", optimizeErr)
	}
	return nil
}

// txAttempts bounds how often InTx runs fn when the database stays busy
// beyond busy_timeout.
const txAttempts = 4

// InTx runs fn inside a write transaction and commits it when fn returns
// nil; any error or panic rolls it back. When the database is busy (another
// writer held the lock for longer than busy_timeout) the whole transaction
// is retried a few times with a growing, jittered pause, so fn must have no
// effects outside tx.
func (s *Store) InTx(ctx context.Context, fn func(*sql.Tx) error) error {
	var err error
	for attempt := range txAttempts {
		if err = s.inTx(ctx, fn); err == nil || !IsBusy(err) {
			return err
		}
		if attempt == txAttempts-1 {
			break
		}
		pause := time.Duration(25<<attempt)*time.Millisecond + rand.N(25*time.Millisecond)
		select {
		case <-ctx.Done():
			return errors.Join(err, ctx.Err())
		case <-time.After(pause):
		}
	}
	return err
}

func (s *Store) inTx(ctx context.Context, fn func(*sql.Tx) error) (err error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("store: begin: %w", err)
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
	if err = fn(tx); err != nil {
		return err
	}
	if err = tx.Commit(); err != nil {
		return fmt.Errorf("store: commit: %w", err)
	}
	return nil
}
