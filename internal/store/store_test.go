package store

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func openTemp(t *testing.T) (*Store, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "nested", "dir", "site.db")
	s, err := Open(context.Background(), path)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s, path
}

func TestOpenCreatesDirectoryAndFile(t *testing.T) {
	_, path := openTemp(t)
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("database file: %v", err)
	}
}

func TestOpenEscapesPath(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "odd?name#with%chars&_pragma=x.db")
	s, err := Open(context.Background(), path)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	defer s.Close()
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("expected the file under its literal name: %v", err)
	}
}

func TestOpenRejectsEmptyPath(t *testing.T) {
	if _, err := Open(context.Background(), ""); err == nil {
		t.Fatal("Open(\"\") succeeded")
	}
}

// Every connection of the pool must carry the pragmas, not just the first.
func TestPragmasOnEveryConnection(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	var conns []*sql.Conn
	for range 4 {
		c, err := s.DB().Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
	}
	for i, c := range conns {
		checks := []struct {
			pragma string
			want   string
		}{
			{"journal_mode", "wal"},
			{"foreign_keys", "1"},
			{"busy_timeout", "5000"},
			{"synchronous", "1"}, // NORMAL
		}
		for _, ck := range checks {
			var got string
			if err := c.QueryRowContext(ctx, "PRAGMA "+ck.pragma).Scan(&got); err != nil {
				t.Fatalf("conn %d: PRAGMA %s: %v", i, ck.pragma, err)
			}
			if strings.ToLower(got) != ck.want {
				t.Errorf("conn %d: PRAGMA %s = %q, want %q", i, ck.pragma, got, ck.want)
			}
		}
	}
	for _, c := range conns {
		c.Close()
	}
}

func TestMigrationsIdempotentOnReopen(t *testing.T) {
	ctx := context.Background()
	s, path := openTemp(t)
	if _, err := s.DB().ExecContext(ctx,
		`INSERT INTO messages (ref, created_at, name, email, message, lang) VALUES ('r1', 1, 'n', 'e@x.io', 'hello world', 'en')`); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		s2, err := Open(ctx, path)
		if err != nil {
			t.Fatalf("reopen: %v", err)
		}
		var steps, msgs int
		if err := s2.DB().QueryRowContext(ctx, `SELECT count(*) FROM schema_migrations`).Scan(&steps); err != nil {
			t.Fatal(err)
		}
		if steps != len(Migrations()) {
			t.Errorf("schema_migrations has %d rows, want %d", steps, len(Migrations()))
		}
		if err := s2.DB().QueryRowContext(ctx, `SELECT count(*) FROM messages`).Scan(&msgs); err != nil {
			t.Fatal(err)
		}
		if msgs != 1 {
			t.Errorf("messages has %d rows after reopen, want 1", msgs)
		}
		s2.Close()
	}
}

func TestMigrationSteps(t *testing.T) {
	ctx := context.Background()
	first := Migration{Name: "0001_a", SQLite: `CREATE TABLE a (x INTEGER) STRICT`}
	broken := Migration{Name: "0002_b", SQLite: `CREATE TABLE b (x INTEGER) STRICT; INSERT INTO nowhere VALUES (1)`}
	fixed := Migration{Name: "0002_b", SQLite: `CREATE TABLE b (x INTEGER) STRICT; INSERT INTO b VALUES (1)`}
	withGo := Migration{Name: "0003_c", Go: func(ctx context.Context, tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO a VALUES (42)`)
		return err
	}}

	path := filepath.Join(t.TempDir(), "m.db")

	// A failing step leaves nothing behind: neither its table nor its record.
	if _, err := open(ctx, path, []Migration{first, broken}); err == nil || !strings.Contains(err.Error(), "0002_b") {
		t.Fatalf("open with broken step: err = %v, want an error naming the step", err)
	}
	s, err := open(ctx, path, []Migration{first, fixed, withGo})
	if err != nil {
		t.Fatalf("open with fixed step: %v", err)
	}
	var names []string
	rows, err := s.DB().QueryContext(ctx, `SELECT name FROM schema_migrations ORDER BY name`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var n string
		rows.Scan(&n)
		names = append(names, n)
	}
	rows.Close()
	if got := strings.Join(names, ","); got != "0001_a,0002_b,0003_c" {
		t.Errorf("applied = %s", got)
	}
	var b, a int
	s.DB().QueryRowContext(ctx, `SELECT count(*) FROM b`).Scan(&b)
	s.DB().QueryRowContext(ctx, `SELECT x FROM a`).Scan(&a)
	if b != 1 || a != 42 {
		t.Errorf("b rows = %d, a.x = %d; want 1 and 42 (each step once)", b, a)
	}
	s.Close()

	// Reopening runs nothing again.
	s, err = open(ctx, path, []Migration{first, fixed, withGo})
	if err != nil {
		t.Fatal(err)
	}
	s.DB().QueryRowContext(ctx, `SELECT count(*) FROM b`).Scan(&b)
	if b != 1 {
		t.Errorf("b rows after reopen = %d, want 1", b)
	}
	s.Close()

	// An older binary refuses a database migrated further than it knows.
	if _, err := open(ctx, path, []Migration{first}); err == nil {
		t.Error("open with fewer steps than applied succeeded")
	}
}

func TestCheckSteps(t *testing.T) {
	tests := []struct {
		name  string
		steps []Migration
	}{
		{"duplicate", []Migration{{Name: "x", SQLite: "SELECT 1"}, {Name: "x", SQLite: "SELECT 1"}}},
		{"unnamed", []Migration{{SQLite: "SELECT 1"}}},
		{"empty", []Migration{{Name: "x"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := checkSteps(tt.steps); err == nil {
				t.Error("checkSteps accepted a bad list")
			}
		})
	}
	if err := checkSteps(Migrations()); err != nil {
		t.Errorf("the shipped list: %v", err)
	}
}

func TestInTx(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	count := func() int {
		var n int
		s.DB().QueryRowContext(ctx, `SELECT count(*) FROM messages`).Scan(&n)
		return n
	}
	insert := func(tx *sql.Tx, ref string) error {
		_, err := tx.ExecContext(ctx,
			`INSERT INTO messages (ref, created_at, name, email, message, lang) VALUES (?, 1, 'n', 'e@x.io', 'hello world', 'en')`, ref)
		return err
	}

	if err := s.InTx(ctx, func(tx *sql.Tx) error { return insert(tx, "a") }); err != nil {
		t.Fatal(err)
	}
	errBoom := errors.New("boom")
	err := s.InTx(ctx, func(tx *sql.Tx) error {
		if err := insert(tx, "b"); err != nil {
			return err
		}
		return errBoom
	})
	if !errors.Is(err, errBoom) {
		t.Errorf("InTx error = %v, want boom", err)
	}
	func() {
		defer func() { recover() }()
		s.InTx(ctx, func(tx *sql.Tx) error {
			insert(tx, "c")
			panic("boom")
		})
	}()
	if n := count(); n != 1 {
		t.Errorf("rows = %d, want 1 (rolled back on error and panic)", n)
	}

	err = s.InTx(ctx, func(tx *sql.Tx) error { return insert(tx, "a") })
	if !IsUniqueViolation(err) {
		t.Errorf("duplicate ref: IsUniqueViolation(%v) = false", err)
	}
	if IsBusy(err) || IsUniqueViolation(errBoom) {
		t.Error("error classification too broad")
	}
}

func TestIsBusy(t *testing.T) {
	ctx := context.Background()
	s, path := openTemp(t)
	impatient, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(0)&_txlock=immediate")
	if err != nil {
		t.Fatal(err)
	}
	defer impatient.Close()

	locked := make(chan struct{})
	release := make(chan struct{})
	done := make(chan error)
	go func() {
		done <- s.InTx(ctx, func(tx *sql.Tx) error {
			close(locked)
			<-release
			return nil
		})
	}()
	<-locked
	_, err = impatient.BeginTx(ctx, nil)
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if !IsBusy(err) {
		t.Errorf("IsBusy(%v) = false, want true", err)
	}
}

func TestMillis(t *testing.T) {
	berlin := time.FixedZone("CET", 3600)
	in := time.Date(2026, 11, 20, 10, 30, 15, 123_456_789, berlin)
	out := FromMillis(Millis(in))
	if !out.Equal(in.Truncate(time.Millisecond)) || out.Location() != time.UTC {
		t.Errorf("round trip: %v -> %v", in, out)
	}
	if Millis(time.Time{}) != 0 || !FromMillis(0).IsZero() {
		t.Error("zero time is not stored as 0")
	}
}
