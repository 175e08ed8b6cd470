package store

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
)

// NewPostgres returns a store for the PostgreSQL database at databaseURL
// (postgres://user:pass@host:port/db?...) without connecting to it: call
// [Store.Connect] to wait for the database and migrate it. Until then the
// store answers every query with [ErrNotReady], so that a site can start
// serving its pages while the database comes up.
//
// The URL is a secret: no error of the store contains it or its password.
func NewPostgres(databaseURL string) (*Store, error) {
	return newPostgres(databaseURL, Migrations())
}

// OpenPostgres is [NewPostgres] then [Store.Connect]: a store that is ready
// when it returns, or an error once wait has passed.
func OpenPostgres(ctx context.Context, databaseURL string, wait time.Duration) (*Store, error) {
	s, err := NewPostgres(databaseURL)
	if err != nil {
		return nil, err
	}
	if err := s.Connect(ctx, wait); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

func newPostgres(databaseURL string, steps []Migration) (*Store, error) {
	cfg, err := pgx.ParseConfig(databaseURL)
	if err != nil {
		// pgx's parse errors may quote the URL; say only what is wrong.
		return nil, errors.New("store: DATABASE_URL is not a valid PostgreSQL URL (postgres://user:password@host:5432/database)")
	}
	if cfg.ConnectTimeout == 0 {
		// Without it, a host that drops packets holds a request until the
		// HTTP server's own timeout; with it, the API answers 503 quickly.
		cfg.ConnectTimeout = 5 * time.Second
	}
	if cfg.RuntimeParams["application_name"] == "" {
		cfg.RuntimeParams["application_name"] = "northbeam-site"
	}
	db := stdlib.OpenDB(*cfg)
	// A few connections per instance: requests are short, and several
	// instances share the server's max_connections (100 by default).
	db.SetMaxOpenConns(10)
	db.SetMaxIdleConns(5)
	db.SetConnMaxIdleTime(5 * time.Minute)
	db.SetConnMaxLifetime(time.Hour)
	return &Store{db: db, backend: Postgres, secret: databaseURL, steps: steps}, nil
}

// scrub returns err with the store's secret (the database URL and its
// password) removed from its text; nil stays nil. The error chain stays
// intact for errors.Is and errors.As.
func (s *Store) scrub(err error) error {
	if err == nil || s.secret == "" {
		return err
	}
	msg := err.Error()
	clean := msg
	for _, secret := range secretsOf(s.secret) {
		clean = strings.ReplaceAll(clean, secret, "[redacted]")
	}
	if clean == msg {
		return err
	}
	return &scrubbed{msg: clean, err: err}
}

// secretsOf lists the substrings of a database URL that must not be shown:
// the URL itself and its password, raw and escaped.
func secretsOf(databaseURL string) []string {
	out := []string{databaseURL}
	if u, err := url.Parse(databaseURL); err == nil && u.User != nil {
		if p, ok := u.User.Password(); ok && len(p) >= 3 {
			out = append(out, p, url.QueryEscape(p), url.PathEscape(p))
		}
	}
	return out
}

// scrubbed is an error whose text has been cleaned but whose chain is kept.
type scrubbed struct {
	msg string
	err error
}

func (e *scrubbed) Error() string { return e.msg }
func (e *scrubbed) Unwrap() error { return e.err }

// rebind rewrites the "?" placeholders of query into PostgreSQL's $1, $2,
// ... leaving question marks inside quoted strings, quoted identifiers and
// comments alone.
func rebind(query string) string {
	if !strings.Contains(query, "?") {
		return query
	}
	var b strings.Builder
	b.Grow(len(query) + 8)
	n := 0
	for i := 0; i < len(query); i++ {
		c := query[i]
		switch {
		case c == '\'' || c == '"':
			end := strings.IndexByte(query[i+1:], c)
			if end < 0 {
				b.WriteString(query[i:])
				return b.String()
			}
			b.WriteString(query[i : i+end+2])
			i += end + 1
		case c == '-' && i+1 < len(query) && query[i+1] == '-':
			end := strings.IndexByte(query[i:], '\n')
			if end < 0 {
				b.WriteString(query[i:])
				return b.String()
			}
			b.WriteString(query[i : i+end+1])
			i += end
		case c == '?':
			n++
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(n))
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// advisoryLockKey is the key of the lock that migrations of one schema
// hold, so that instances starting together migrate once. It mixes the
// schema's name in, so that databases of separate tests in their own
// schemas do not wait for each other.
const advisoryLockSQL = `SELECT pg_advisory_lock(hashtext('northbeam.migrate.' || current_schema()))`
const advisoryUnlockSQL = `SELECT pg_advisory_unlock(hashtext('northbeam.migrate.' || current_schema()))`

// withMigrationLock runs fn while holding the schema's migration lock on a
// connection of its own; the lock is released by PostgreSQL should this
// process die.
func withMigrationLock(ctx context.Context, s *Store, fn func() error) error {
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return fmt.Errorf("store: migration lock: %w", err)
	}
	defer func() { _ = conn.Close() }() // back to the pool: nothing to lose
	if _, err := conn.ExecContext(ctx, advisoryLockSQL); err != nil {
		return fmt.Errorf("store: migration lock: %w", err)
	}
	// The unlock fails only with the connection, and then PostgreSQL has
	// released the lock with the session.
	defer func() { _, _ = conn.ExecContext(context.WithoutCancel(ctx), advisoryUnlockSQL) }()
	return fn()
}
