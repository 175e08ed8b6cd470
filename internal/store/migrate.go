package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Migration is one named step of the schema. Steps run in the order of
// [Migrations], each in its own transaction, and each is recorded by name in
// the schema_migrations table once applied, so it runs exactly once per
// database. An applied step is never edited, renamed or removed: a change is
// a new step appended to the list.
type Migration struct {
	// Name identifies the step forever, e.g. "0002_outbox".
	Name string
	// SQLite holds the statements of the step in SQLite's dialect.
	SQLite string
	// Postgres holds the same step for PostgreSQL. Both forms say the same
	// thing: the same tables, columns, keys and rules, in each engine's
	// words; a step without both is refused.
	Postgres string
	// Go, when set, runs after the statements in the same transaction, for
	// steps that move data in ways SQL alone expresses badly.
	Go func(ctx context.Context, tx *Tx) error
}

var createMigrationsTable = map[Backend]string{
	SQLite: `
CREATE TABLE IF NOT EXISTS schema_migrations (
	name       TEXT    PRIMARY KEY,
	applied_at INTEGER NOT NULL -- unix ms, UTC
) STRICT`,
	Postgres: `
CREATE TABLE IF NOT EXISTS schema_migrations (
	name       text   PRIMARY KEY,
	applied_at bigint NOT NULL -- unix ms, UTC
)`,
}

// migrate applies the steps not yet recorded in the database. On
// PostgreSQL it holds an advisory lock meanwhile, so that instances that
// start together migrate once; on SQLite each step's transaction holds the
// write lock, which is enough.
func migrate(ctx context.Context, s *Store, steps []Migration) error {
	if err := checkSteps(steps); err != nil {
		return err
	}
	if s.backend == Postgres {
		return withMigrationLock(ctx, s, func() error { return migrateLocked(ctx, s, steps) })
	}
	return migrateLocked(ctx, s, steps)
}

func migrateLocked(ctx context.Context, s *Store, steps []Migration) error {
	if _, err := s.db.ExecContext(ctx, createMigrationsTable[s.backend]); err != nil {
		return fmt.Errorf("store: create schema_migrations: %w", err)
	}
	applied, err := appliedSteps(ctx, s.db)
	if err != nil {
		return err
	}
	known := make(map[string]bool, len(steps))
	for _, m := range steps {
		known[m.Name] = true
	}
	for name := range applied {
		if !known[name] {
			// A newer binary migrated this database; running an older one
			// against a schema it does not know risks writing wrong data.
			return fmt.Errorf("store: database has migration %q unknown to this version", name)
		}
	}
	for _, m := range steps {
		if applied[m.Name] {
			continue
		}
		if err := s.inTxRetrying(ctx, func(tx *Tx) error { return applyStep(ctx, tx, m) }); err != nil {
			return fmt.Errorf("store: migration %s: %w", m.Name, err)
		}
	}
	return nil
}

func checkSteps(steps []Migration) error {
	seen := make(map[string]bool, len(steps))
	for i, m := range steps {
		if m.Name == "" {
			return fmt.Errorf("store: migration #%d has no name", i+1)
		}
		if seen[m.Name] {
			return fmt.Errorf("store: migration %q listed twice", m.Name)
		}
		if m.SQLite == "" && m.Postgres == "" && m.Go == nil {
			return fmt.Errorf("store: migration %q is empty", m.Name)
		}
		if (m.SQLite == "") != (m.Postgres == "") {
			return fmt.Errorf("store: migration %q has a SQLite form or a PostgreSQL form, not both", m.Name)
		}
		seen[m.Name] = true
	}
	return nil
}

func appliedSteps(ctx context.Context, db *sql.DB) (map[string]bool, error) {
	names, err := QueryAll(ctx, db, Column[string], `SELECT name FROM schema_migrations`)
	if err != nil {
		return nil, fmt.Errorf("store: read schema_migrations: %w", err)
	}
	applied := map[string]bool{}
	for _, name := range names {
		applied[name] = true
	}
	return applied, nil
}

// applyStep runs one step unless another process applied it since the
// caller looked: the check and the record share the transaction, which holds
// the write lock from its start.
func applyStep(ctx context.Context, tx *Tx, m Migration) error {
	var done int
	err := tx.QueryRowContext(ctx, `SELECT 1 FROM schema_migrations WHERE name = ?`, m.Name).Scan(&done)
	if err == nil {
		return nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return err
	}
	statements := m.SQLite
	if tx.Backend() == Postgres {
		statements = m.Postgres
	}
	if statements != "" {
		// Run as written, not rebound: a step is in its engine's own words.
		if _, err := tx.tx.ExecContext(ctx, statements); err != nil {
			return err
		}
	}
	if m.Go != nil {
		if err := m.Go(ctx, tx); err != nil {
			return err
		}
	}
	_, err = tx.ExecContext(ctx,
		`INSERT INTO schema_migrations (name, applied_at) VALUES (?, ?)`, m.Name, Millis(time.Now()))
	return err
}
