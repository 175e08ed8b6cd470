package store_test

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/northbeam/site/internal/store"
	"github.com/northbeam/site/internal/store/storetest"
)

func openTemp(t *testing.T) (*store.Store, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "nested", "dir", "site.db")
	s, err := store.Open(context.Background(), path)
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
	s, err := store.Open(context.Background(), path)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	defer s.Close()
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("expected the file under its literal name: %v", err)
	}
}

func TestOpenRejectsEmptyPath(t *testing.T) {
	if _, err := store.Open(context.Background(), ""); err == nil {
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
			{"secure_delete", "1"},
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
		_ = c.Close() // back to the pool
	}
}

// reopen opens the database of a store of backend again, as a second
// start (or a second instance) would.
type reopener func(t *testing.T, steps []store.Migration) (*store.Store, error)

// fresh returns an empty database on backend and a way to open it, as many
// times as a test likes, with a given list of migrations.
func fresh(t *testing.T, backend store.Backend) reopener {
	t.Helper()
	ctx := context.Background()
	switch backend {
	case store.SQLite:
		path := filepath.Join(t.TempDir(), "m.db")
		return func(t *testing.T, steps []store.Migration) (*store.Store, error) {
			return store.OpenSQLiteWithSteps(ctx, path, steps)
		}
	default:
		url := storetest.PostgresURL(t)
		return func(t *testing.T, steps []store.Migration) (*store.Store, error) {
			s, err := store.NewPostgresWithSteps(url, steps)
			if err != nil {
				return nil, err
			}
			if err := s.Connect(ctx, 5*time.Second); err != nil {
				s.Close()
				return nil, err
			}
			return s, nil
		}
	}
}

func TestMigrationsIdempotentOnReopen(t *testing.T) {
	for _, backend := range storetest.Backends {
		t.Run(string(backend), func(t *testing.T) {
			ctx := context.Background()
			open := fresh(t, backend)
			s, err := open(t, store.Migrations())
			if err != nil {
				t.Fatal(err)
			}
			if _, err := s.ExecContext(ctx,
				`INSERT INTO messages (ref, created_at, name, email, message, lang) VALUES ('r1', 1, 'n', 'e@x.io', 'hello world', 'en')`); err != nil {
				t.Fatal(err)
			}
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			for range 2 {
				s2, err := open(t, store.Migrations())
				if err != nil {
					t.Fatalf("reopen: %v", err)
				}
				var steps, msgs int
				if err := s2.QueryRowContext(ctx, `SELECT count(*) FROM schema_migrations`).Scan(&steps); err != nil {
					t.Fatal(err)
				}
				if steps != len(store.Migrations()) {
					t.Errorf("schema_migrations has %d rows, want %d", steps, len(store.Migrations()))
				}
				if err := s2.QueryRowContext(ctx, `SELECT count(*) FROM messages`).Scan(&msgs); err != nil {
					t.Fatal(err)
				}
				if msgs != 1 {
					t.Errorf("messages has %d rows after reopen, want 1", msgs)
				}
				s2.Close()
			}
		})
	}
}

// Instances that start together on one PostgreSQL database migrate it
// once: the advisory lock makes the others wait, then find every step
// applied.
func TestConcurrentStartsMigrateOnce(t *testing.T) {
	url := storetest.PostgresURL(t)
	ctx := context.Background()
	var calls sync.Map
	steps := append(store.Migrations(), store.Migration{
		Name:     "9999_count",
		SQLite:   `CREATE TABLE started (n INTEGER) STRICT`,
		Postgres: `CREATE TABLE started (n integer)`,
		Go: func(ctx context.Context, tx *store.Tx) error {
			calls.Store(time.Now().UnixNano(), true)
			_, err := tx.ExecContext(ctx, `INSERT INTO started VALUES (1)`)
			return err
		},
	})
	const instances = 4
	var wg sync.WaitGroup
	errs := make(chan error, instances)
	for range instances {
		wg.Go(func() {
			s, err := store.NewPostgresWithSteps(url, steps)
			if err == nil {
				err = s.Connect(ctx, 10*time.Second)
				s.Close()
			}
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatalf("an instance failed to start: %v", err)
		}
	}
	n := 0
	calls.Range(func(any, any) bool { n++; return true })
	if n != 1 {
		t.Errorf("the last step ran %d times, want once", n)
	}
}

func TestMigrationSteps(t *testing.T) {
	for _, backend := range storetest.Backends {
		t.Run(string(backend), func(t *testing.T) {
			ctx := context.Background()
			first := store.Migration{Name: "0001_a",
				SQLite: `CREATE TABLE a (x INTEGER) STRICT`, Postgres: `CREATE TABLE a (x integer)`}
			broken := store.Migration{Name: "0002_b",
				SQLite:   `CREATE TABLE b (x INTEGER) STRICT; INSERT INTO nowhere VALUES (1)`,
				Postgres: `CREATE TABLE b (x integer); INSERT INTO nowhere VALUES (1)`}
			fixed := store.Migration{Name: "0002_b",
				SQLite:   `CREATE TABLE b (x INTEGER) STRICT; INSERT INTO b VALUES (1)`,
				Postgres: `CREATE TABLE b (x integer); INSERT INTO b VALUES (1)`}
			withGo := store.Migration{Name: "0003_c", Go: func(ctx context.Context, tx *store.Tx) error {
				_, err := tx.ExecContext(ctx, `INSERT INTO a VALUES (?)`, 42)
				return err
			}}
			open := fresh(t, backend)

			// A failing step leaves nothing behind: neither its table nor its record.
			if _, err := open(t, []store.Migration{first, broken}); err == nil || !strings.Contains(err.Error(), "0002_b") {
				t.Fatalf("open with broken step: err = %v, want an error naming the step", err)
			}
			s, err := open(t, []store.Migration{first, fixed, withGo})
			if err != nil {
				t.Fatalf("open with fixed step: %v", err)
			}
			var names []string
			rows, err := s.QueryContext(ctx, `SELECT name FROM schema_migrations ORDER BY name`)
			if err != nil {
				t.Fatal(err)
			}
			for rows.Next() {
				var n string
				if err := rows.Scan(&n); err != nil {
					t.Fatal(err)
				}
				names = append(names, n)
			}
			rows.Close()
			if got := strings.Join(names, ","); got != "0001_a,0002_b,0003_c" {
				t.Errorf("applied = %s", got)
			}
			var b, a int
			if err := s.QueryRowContext(ctx, `SELECT count(*) FROM b`).Scan(&b); err != nil {
				t.Fatal(err)
			}
			if err := s.QueryRowContext(ctx, `SELECT x FROM a`).Scan(&a); err != nil {
				t.Fatal(err)
			}
			if b != 1 || a != 42 {
				t.Errorf("b rows = %d, a.x = %d; want 1 and 42 (each step once)", b, a)
			}
			s.Close()

			// Reopening runs nothing again.
			s, err = open(t, []store.Migration{first, fixed, withGo})
			if err != nil {
				t.Fatal(err)
			}
			if err := s.QueryRowContext(ctx, `SELECT count(*) FROM b`).Scan(&b); err != nil {
				t.Fatal(err)
			}
			if b != 1 {
				t.Errorf("b rows after reopen = %d, want 1", b)
			}
			s.Close()

			// An older binary refuses a database migrated further than it knows.
			if _, err := open(t, []store.Migration{first}); err == nil {
				t.Error("open with fewer steps than applied succeeded")
			}
		})
	}
}

func TestCheckSteps(t *testing.T) {
	tests := []struct {
		name  string
		steps []store.Migration
	}{
		{"duplicate", []store.Migration{{Name: "x", SQLite: "SELECT 1", Postgres: "SELECT 1"}, {Name: "x", SQLite: "SELECT 1", Postgres: "SELECT 1"}}},
		{"unnamed", []store.Migration{{SQLite: "SELECT 1", Postgres: "SELECT 1"}}},
		{"empty", []store.Migration{{Name: "x"}}},
		{"SQLite only", []store.Migration{{Name: "x", SQLite: "SELECT 1"}}},
		{"PostgreSQL only", []store.Migration{{Name: "x", Postgres: "SELECT 1"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := store.CheckSteps(tt.steps); err == nil {
				t.Error("checkSteps accepted a bad list")
			}
		})
	}
	if err := store.CheckSteps(store.Migrations()); err != nil {
		t.Errorf("the shipped list: %v", err)
	}
	// Each step has a form for each back-end, or is Go that runs on both
	// through the store's placeholders (a step that computes what SQL
	// cannot, such as an address's key).
	for _, m := range store.Migrations() {
		if m.Go == nil && (m.SQLite == "" || m.Postgres == "") {
			t.Errorf("migration %s lacks a form for one of the back-ends", m.Name)
		}
	}
}

// Both back-ends end up with the same tables and columns, so that
// migrate-db can copy one into the other and queries run on either.
func TestSchemasAgree(t *testing.T) {
	ctx := context.Background()
	columns := func(s *store.Store, query string) map[string]bool {
		rows, err := s.QueryContext(ctx, query)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		out := map[string]bool{}
		for rows.Next() {
			var table, column string
			if err := rows.Scan(&table, &column); err != nil {
				t.Fatal(err)
			}
			out[table+"."+column] = true
		}
		return out
	}
	// The word search's FTS5 tables are SQLite's form of what PostgreSQL
	// keeps as GIN indexes (docs/ARCHITECTURE.md, Data): not columns.
	lite := columns(storetest.Open(t, store.SQLite), `
SELECT m.name, p.name FROM sqlite_master m JOIN pragma_table_info(m.name) p
WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%' AND m.name NOT LIKE '%\_search%' ESCAPE '\'`)
	pg := columns(storetest.Open(t, store.Postgres), `
SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema()`)
	for c := range lite {
		if !pg[c] {
			t.Errorf("%s exists in SQLite only", c)
		}
	}
	for c := range pg {
		if !lite[c] {
			t.Errorf("%s exists in PostgreSQL only", c)
		}
	}
	if len(lite) < 40 {
		t.Errorf("only %d columns found: the query reads the wrong place", len(lite))
	}
}

func TestInTx(t *testing.T) {
	storetest.Run(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		count := func() int {
			var n int
			if err := s.QueryRowContext(ctx, `SELECT count(*) FROM messages`).Scan(&n); err != nil {
				t.Fatal(err)
			}
			return n
		}
		insert := func(tx *store.Tx, ref string) error {
			_, err := tx.ExecContext(ctx,
				`INSERT INTO messages (ref, created_at, name, email, message, lang) VALUES (?, 1, 'n', 'e@x.io', 'is this ok?', 'en')`, ref)
			return err
		}

		if err := s.InTx(ctx, func(tx *store.Tx) error { return insert(tx, "a") }); err != nil {
			t.Fatal(err)
		}
		errBoom := errors.New("boom")
		err := s.InTx(ctx, func(tx *store.Tx) error {
			if err := insert(tx, "b"); err != nil {
				return err
			}
			return errBoom
		})
		if !errors.Is(err, errBoom) {
			t.Errorf("InTx error = %v, want boom", err)
		}
		func() {
			defer func() {
				if recover() == nil {
					t.Error("InTx did not pass the panic on")
				}
			}()
			_ = s.InTx(ctx, func(tx *store.Tx) error {
				if err := insert(tx, "c"); err != nil {
					t.Error(err)
				}
				panic("boom")
			})
		}()
		if n := count(); n != 1 {
			t.Errorf("rows = %d, want 1 (rolled back on error and panic)", n)
		}
		var text string
		if err := s.QueryRowContext(ctx, `SELECT message FROM messages WHERE ref = ?`, "a").Scan(&text); err != nil {
			t.Fatal(err)
		}
		if text != "is this ok?" {
			t.Errorf("a question mark inside a string literal was bound: %q", text)
		}

		err = s.InTx(ctx, func(tx *store.Tx) error { return insert(tx, "a") })
		if !store.IsConflict(err) {
			t.Errorf("duplicate ref: IsConflict(%v) = false", err)
		}
		if store.IsBusy(err) || store.IsConflict(errBoom) || store.IsUnavailable(err) {
			t.Error("error classification too broad")
		}
	})
}

func TestIsBusy(t *testing.T) {
	ctx := context.Background()
	s, path := openTemp(t)
	impatient, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(0)&_txlock=immediate")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = impatient.Close() }()

	locked := make(chan struct{})
	release := make(chan struct{})
	done := make(chan error)
	go func() {
		done <- s.InTx(ctx, func(tx *store.Tx) error {
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
	if !store.IsBusy(err) || !store.IsUnavailable(err) {
		t.Errorf("IsBusy(%v) = false, want true", err)
	}
}

func TestRebind(t *testing.T) {
	tests := []struct{ in, want string }{
		{`SELECT 1`, `SELECT 1`},
		{`SELECT a FROM t WHERE x = ? AND y = ?`, `SELECT a FROM t WHERE x = $1 AND y = $2`},
		{`SELECT '?' || ?, "odd?col" FROM t -- why?
WHERE z = ?`, `SELECT '?' || $1, "odd?col" FROM t -- why?
WHERE z = $2`},
		{`INSERT INTO t VALUES (?, 'it''s ?', ?)`, `INSERT INTO t VALUES ($1, 'it''s ?', $2)`},
	}
	for _, tt := range tests {
		if got := store.Rebind(tt.in); got != tt.want {
			t.Errorf("rebind(%q)\n got %q\nwant %q", tt.in, got, tt.want)
		}
	}
}

// A store that is not connected yet answers every query with ErrNotReady,
// which callers turn into 503s; it never leaks its URL.
func TestNotReadyAndNoSecretInErrors(t *testing.T) {
	ctx := context.Background()
	const secretURL = "postgres://site:hunter2-secret@127.0.0.1:1/db?sslmode=disable"
	s, err := store.NewPostgres(secretURL)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.ExecContext(ctx, `SELECT 1`); !errors.Is(err, store.ErrNotReady) || !store.IsUnavailable(err) {
		t.Errorf("query before Connect: %v, want ErrNotReady", err)
	}
	if err := s.InTx(ctx, func(*store.Tx) error { return nil }); !errors.Is(err, store.ErrNotReady) {
		t.Errorf("InTx before Connect: %v", err)
	}
	if err := s.Ping(ctx); err == nil {
		t.Error("Ping before Connect succeeded")
	}
	start := time.Now()
	err = s.Connect(ctx, 600*time.Millisecond)
	if err == nil {
		t.Fatal("Connect to a closed port succeeded")
	}
	if waited := time.Since(start); waited < 300*time.Millisecond {
		t.Errorf("Connect gave up after %s, before the 600ms it was given", waited)
	}
	if strings.Contains(err.Error(), "hunter2") || strings.Contains(err.Error(), secretURL) {
		t.Errorf("the error shows the secret: %v", err)
	}
	if !store.IsUnavailable(err) {
		t.Errorf("IsUnavailable(%v) = false", err)
	}
	if _, err := store.NewPostgres("postgres://u:hunter2@[::1"); err == nil || strings.Contains(err.Error(), "hunter2") {
		t.Errorf("a malformed URL: %v", err)
	}
}

func TestMillis(t *testing.T) {
	berlin := time.FixedZone("CET", 3600)
	in := time.Date(2026, 11, 20, 10, 30, 15, 123_456_789, berlin)
	out := store.FromMillis(store.Millis(in))
	if !out.Equal(in.Truncate(time.Millisecond)) || out.Location() != time.UTC {
		t.Errorf("round trip: %v -> %v", in, out)
	}
	if store.Millis(time.Time{}) != 0 || !store.FromMillis(0).IsZero() {
		t.Error("zero time is not stored as 0")
	}
}
