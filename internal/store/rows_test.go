package store_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/northbeam/site/internal/store"
	"github.com/northbeam/site/internal/store/storetest"
)

// TestQueryAll: every row in the query's order, nil for none, and the
// first error, the query's or a row's, as it is.
func TestQueryAll(t *testing.T) {
	for _, backend := range storetest.Backends {
		t.Run(string(backend), func(t *testing.T) {
			ctx := context.Background()
			st := storetest.Open(t, backend)
			for _, name := range []string{"b", "c", "a"} {
				if _, err := st.ExecContext(ctx, `INSERT INTO schema_migrations (name, applied_at) VALUES (?, ?)`, "test-"+name, 0); err != nil {
					t.Fatal(err)
				}
			}
			const q = `SELECT name FROM schema_migrations WHERE name LIKE 'test-%' ORDER BY name DESC`
			names, err := store.QueryAll(ctx, st, store.Column[string], q)
			if err != nil || !slices.Equal(names, []string{"test-c", "test-b", "test-a"}) {
				t.Errorf("QueryAll = %q, %v", names, err)
			}
			none, err := store.QueryAll(ctx, st, store.Column[string], `SELECT name FROM schema_migrations WHERE name = ?`, "nobody")
			if err != nil || none != nil {
				t.Errorf("no rows: %#v, %v; want nil, nil", none, err)
			}
			refused := errors.New("refused")
			seen := 0
			err = store.QueryEach(ctx, st, func(store.Scanner) error {
				seen++
				return refused
			}, q)
			if !errors.Is(err, refused) || seen != 1 {
				t.Errorf("a row's error: %v after %d rows, want %v after 1", err, seen, refused)
			}
			if _, err := store.QueryAll(ctx, st, store.Column[string], `SELECT nothing FROM nowhere`); err == nil {
				t.Error("a query that cannot run: no error")
			}
		})
	}
}
