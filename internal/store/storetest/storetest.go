// Package storetest gives tests a fresh database on each back-end: a
// temporary SQLite file, and a schema of its own in the test PostgreSQL
// server, so that tests run in parallel and leave nothing behind.
//
// The PostgreSQL server is PG_TEST_URL, by default the project machines'
// postgres://postgres@127.0.0.1:5432/test. When it does not answer, tests
// that need it say loudly that they skipped; with CI=true they fail.
package storetest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" database/sql driver

	"github.com/northbeam/site/internal/store"
)

// DefaultPostgresURL is the test server of the project's machines.
const DefaultPostgresURL = "postgres://postgres@127.0.0.1:5432/test?sslmode=disable"

// Backends are the engines every store test runs on.
var Backends = []store.Backend{store.SQLite, store.Postgres}

// Run runs fn once per back-end, each in a subtest named after it with a
// fresh, migrated store.
func Run(t *testing.T, fn func(t *testing.T, st *store.Store)) {
	t.Helper()
	for _, b := range Backends {
		t.Run(string(b), func(t *testing.T) {
			fn(t, Open(t, b))
		})
	}
}

// Open returns a fresh, migrated store on backend, closed (and its
// PostgreSQL schema dropped) when the test ends.
func Open(t testing.TB, backend store.Backend) *store.Store {
	t.Helper()
	ctx := context.Background()
	var (
		st  *store.Store
		err error
	)
	switch backend {
	case store.SQLite:
		st, err = store.Open(ctx, filepath.Join(t.TempDir(), "site.db"))
	case store.Postgres:
		st, err = store.OpenPostgres(ctx, PostgresURL(t), 10*time.Second)
	default:
		t.Fatalf("storetest: unknown back-end %q", backend)
	}
	if err != nil {
		t.Fatalf("storetest: open %s: %v", backend, err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// PostgresURL creates an empty schema in the test server and returns a URL
// whose connections use it (search_path). The schema is dropped when the
// test ends.
func PostgresURL(t testing.TB) string {
	t.Helper()
	admin := adminDB(t)
	schema := "t_" + randomHex(8)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := admin.ExecContext(ctx, "CREATE SCHEMA "+schema); err != nil {
		t.Fatalf("storetest: create schema: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if _, err := admin.ExecContext(ctx, "DROP SCHEMA "+schema+" CASCADE"); err != nil {
			t.Errorf("storetest: drop schema %s: %v", schema, err)
		}
	})
	u, err := url.Parse(serverURL())
	if err != nil {
		t.Fatalf("storetest: PG_TEST_URL: %v", err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}

func serverURL() string {
	if u := os.Getenv("PG_TEST_URL"); u != "" {
		return u
	}
	return DefaultPostgresURL
}

// server is the connection to the test server shared by a test binary, or
// the reason it could not be had.
var server struct {
	once sync.Once
	db   *sql.DB
	err  error
}

// adminDB returns a connection to the test server, skipping (or, under
// CI=true, failing) the test when there is none.
func adminDB(t testing.TB) *sql.DB {
	t.Helper()
	server.once.Do(func() {
		db, err := sql.Open("pgx", serverURL())
		if err == nil {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			err = db.PingContext(ctx)
		}
		if err != nil {
			server.err = err
			return
		}
		db.SetMaxOpenConns(4)
		server.db = db
	})
	if server.err != nil {
		msg := fmt.Sprintf("PostgreSQL tests need a server at PG_TEST_URL (default %s): %v", DefaultPostgresURL, server.err)
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip("SKIPPED (loudly): " + msg)
	}
	return server.db
}

func randomHex(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return hex.EncodeToString(b)
}
