package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// BackupReport describes a backup copy once it is written and verified.
type BackupReport struct {
	Path      string        // the copy, absolute
	Bytes     int64         // its size
	Integrity string        // what PRAGMA integrity_check said of the copy: "ok"
	Tables    []TableRows   // every table of the copy and its row count, by name
	Took      time.Duration // from the start of the copy to the end of its verification
}

// TableRows is a table's row count.
type TableRows struct {
	Name string
	Rows int64
}

// BackupFile writes a consistent copy of the SQLite database file at src to
// dst, while other processes keep reading and writing it (see [Backup]).
// src is opened read-only: it is neither created nor migrated, so a backup
// by a binary of another version leaves the live schema alone.
func BackupFile(ctx context.Context, src, dst string) (BackupReport, error) {
	if _, err := os.Stat(src); err != nil {
		return BackupReport{}, fmt.Errorf("store: backup: no database to copy: %w", err)
	}
	db, err := sql.Open("sqlite", fileURI(src, url.Values{
		"mode":    {"ro"},
		"_pragma": {"busy_timeout(5000)"},
	}))
	if err != nil {
		return BackupReport{}, fmt.Errorf("store: backup: open %s: %w", src, err)
	}
	defer func() { _ = db.Close() }() // read-only (mode=ro): closing it loses nothing
	return Backup(ctx, db, dst)
}

// Backup writes a consistent copy of the SQLite database behind db to the
// file dst, which must not exist, verifies it and reports on it.
//
// The copy is VACUUM INTO: one read transaction, so in WAL mode writers go
// on committing while it runs and the copy holds exactly the transactions
// committed when it began. It is written beside dst under a temporary name,
// checked with PRAGMA integrity_check, switched out of WAL mode (one
// self-contained file, nothing to copy beside it), synced, and only then
// renamed to dst: a file at dst is always a whole, verified backup.
func Backup(ctx context.Context, db *sql.DB, dst string) (BackupReport, error) {
	started := time.Now()
	var version string
	if err := db.QueryRowContext(ctx, "SELECT sqlite_version()").Scan(&version); err != nil {
		return BackupReport{}, fmt.Errorf("store: backup: not an SQLite database (for PostgreSQL use pg_dump): %w", err)
	}
	dst, err := filepath.Abs(dst)
	if err != nil {
		return BackupReport{}, fmt.Errorf("store: backup: %w", err)
	}
	if _, err := os.Lstat(dst); err == nil {
		return BackupReport{}, fmt.Errorf("store: backup: %s already exists; choose a new name", dst)
	} else if !errors.Is(err, os.ErrNotExist) {
		return BackupReport{}, fmt.Errorf("store: backup: %w", err)
	}
	dir := filepath.Dir(dst)
	if err := os.MkdirAll(dir, 0o700); err != nil { // a backup holds personal data, as the database does
		return BackupReport{}, fmt.Errorf("store: backup: create %s: %w", dir, err)
	}
	// VACUUM INTO writes into a file that does not exist or is empty.
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(dst)+".*.partial")
	if err != nil {
		return BackupReport{}, fmt.Errorf("store: backup: %w", err)
	}
	tmpPath := tmp.Name()
	_ = tmp.Close() // nothing was written through it
	done := false
	defer func() {
		if !done {
			// Best effort: most of these names never existed, and the
			// error that stopped the backup is the one to report.
			for _, suffix := range []string{"", "-journal", "-wal", "-shm"} {
				_ = os.Remove(tmpPath + suffix)
			}
		}
	}()
	if _, err := db.ExecContext(ctx, "VACUUM INTO ?", tmpPath); err != nil {
		return BackupReport{}, fmt.Errorf("store: backup: copy: %w", err)
	}
	report, err := verifyCopy(ctx, tmpPath)
	if err != nil {
		return BackupReport{}, err
	}
	if err := os.Chmod(tmpPath, 0o600); err != nil {
		return BackupReport{}, fmt.Errorf("store: backup: %w", err)
	}
	if err := syncFile(tmpPath); err != nil {
		return BackupReport{}, err
	}
	// Link, not rename: a file that appeared at dst meanwhile is not
	// replaced.
	if err := os.Link(tmpPath, dst); err != nil {
		return BackupReport{}, fmt.Errorf("store: backup: %w", err)
	}
	// dst is a second name for the same file: the backup is whole, and a
	// temporary name left behind takes no space.
	_ = os.Remove(tmpPath)
	done = true
	if err := syncFile(dir); err != nil {
		return BackupReport{}, err
	}
	info, err := os.Stat(dst)
	if err != nil {
		return BackupReport{}, fmt.Errorf("store: backup: %w", err)
	}
	report.Path, report.Bytes, report.Took = dst, info.Size(), time.Since(started)
	return report, nil
}

// verifyCopy checks the copy at path, counts the rows of each of its tables
// (as its own schema lists them) and leaves it in rollback-journal mode.
func verifyCopy(ctx context.Context, path string) (BackupReport, error) {
	db, err := sql.Open("sqlite", fileURI(path, url.Values{"_pragma": {"busy_timeout(5000)"}}))
	if err != nil {
		return BackupReport{}, fmt.Errorf("store: backup: open the copy: %w", err)
	}
	// On the error paths: the copy is discarded. Otherwise it is closed,
	// and checked, below; a second Close does nothing.
	defer func() { _ = db.Close() }()
	db.SetMaxOpenConns(1)
	var report BackupReport
	problems, err := QueryAll(ctx, db, Column[string], "PRAGMA integrity_check")
	if err != nil {
		return BackupReport{}, fmt.Errorf("store: backup: integrity_check: %w", err)
	}
	report.Integrity = strings.Join(problems, "; ")
	if report.Integrity != "ok" {
		return BackupReport{}, fmt.Errorf("store: backup: the copy failed integrity_check: %s", report.Integrity)
	}

	names, err := tableNames(ctx, db)
	if err != nil {
		return BackupReport{}, err
	}
	for _, name := range names {
		var n int64
		q := `SELECT count(*) FROM "` + strings.ReplaceAll(name, `"`, `""`) + `"`
		if err := db.QueryRowContext(ctx, q).Scan(&n); err != nil {
			return BackupReport{}, fmt.Errorf("store: backup: count %s: %w", name, err)
		}
		report.Tables = append(report.Tables, TableRows{Name: name, Rows: n})
	}
	var mode string
	if err := db.QueryRowContext(ctx, "PRAGMA journal_mode = DELETE").Scan(&mode); err != nil {
		return BackupReport{}, fmt.Errorf("store: backup: journal mode of the copy: %w", err)
	}
	if err := db.Close(); err != nil {
		return BackupReport{}, fmt.Errorf("store: backup: close the copy: %w", err)
	}
	return report, nil
}

// tableNames lists the tables of db, SQLite's own left out, by name.
func tableNames(ctx context.Context, db *sql.DB) ([]string, error) {
	names, err := QueryAll(ctx, db, Column[string],
		`SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\_%' ESCAPE '\' ORDER BY name`)
	if err != nil {
		return nil, fmt.Errorf("store: backup: list tables: %w", err)
	}
	return names, nil
}

// fileURI is path as an SQLite URI with query parameters; the path is
// escaped, so no character of it is read as a parameter.
func fileURI(path string, q url.Values) string {
	u := url.URL{Scheme: "file", Opaque: (&url.URL{Path: path}).EscapedPath()}
	return u.String() + "?" + q.Encode()
}

// syncFile flushes a file or directory to stable storage.
func syncFile(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("store: backup: %w", err)
	}
	defer func() { _ = f.Close() }() // opened read-only, to Sync it
	if err := f.Sync(); err != nil {
		return fmt.Errorf("store: backup: sync %s: %w", path, err)
	}
	return nil
}
