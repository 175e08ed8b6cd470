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
	// SQLite holds the statements of the step in SQLite's dialect. A
	// PostgreSQL store would add a sibling field with the same intent.
	SQLite string
	// Go, when set, runs after the statements in the same transaction, for
	// steps that move data in ways SQL alone expresses badly.
	Go func(ctx context.Context, tx *sql.Tx) error
}

const createMigrationsTable = `
CREATE TABLE IF NOT EXISTS schema_migrations (
	name       TEXT    PRIMARY KEY,
	applied_at INTEGER NOT NULL -- unix ms, UTC
) STRICT`

// migrate applies the steps not yet recorded in the database.
func migrate(ctx context.Context, s *Store, steps []Migration) error {
	if err := checkSteps(steps); err != nil {
		return err
	}
	if _, err := s.db.ExecContext(ctx, createMigrationsTable); err != nil {
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
		if err := s.InTx(ctx, func(tx *sql.Tx) error { return applyStep(ctx, tx, m) }); err != nil {
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
		if m.SQLite == "" && m.Go == nil {
			return fmt.Errorf("store: migration %q is empty", m.Name)
		}
		seen[m.Name] = true
	}
	return nil
}

func appliedSteps(ctx context.Context, db *sql.DB) (map[string]bool, error) {
	rows, err := db.QueryContext(ctx, `SELECT name FROM schema_migrations`)
	if err != nil {
		return nil, fmt.Errorf("store: read schema_migrations: %w", err)
	}
	defer rows.Close()
	applied := map[string]bool{}
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			return nil, fmt.Errorf("store: read schema_migrations: %w", err)
		}
		applied[name] = true
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: read schema_migrations: %w", err)
	}
	return applied, nil
}

// applyStep runs one step unless another process applied it since the
// caller looked: the check and the record share the transaction, which holds
// the write lock from its start.
func applyStep(ctx context.Context, tx *sql.Tx, m Migration) error {
	var done int
	err := tx.QueryRowContext(ctx, `SELECT 1 FROM schema_migrations WHERE name = ?`, m.Name).Scan(&done)
	if err == nil {
		return nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return err
	}
	if m.SQLite != "" {
		if _, err := tx.ExecContext(ctx, m.SQLite); err != nil {
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
