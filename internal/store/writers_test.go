package store_test

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/northbeam/site/internal/store"
)

// TestSQLiteWritersOfOneProcessQueue: a burst of writers, more than SQLite's
// busy handler serves fairly, all commit. Each holds the write lock for
// 10 ms and the busy timeout is 50 ms, so writers left to SQLite's polling
// answer busy (a visitor's 503); queued in the process, every one waits its
// turn, however long the queue.
func TestSQLiteWritersOfOneProcessQueue(t *testing.T) {
	ctx := context.Background()
	s, err := store.Open(ctx, filepath.Join(t.TempDir(), "site.db"), store.WithBusyTimeout(50*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	const writers = 24
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	for i := range writers {
		wg.Go(func() {
			errs <- s.InTx(ctx, func(tx *store.Tx) error {
				_, err := tx.ExecContext(ctx, `INSERT INTO messages (ref, created_at, name, email, message, lang) VALUES (?, 1, 'n', 'e@x.io', 'hello world', 'en')`, fmt.Sprint("r", i))
				time.Sleep(10 * time.Millisecond)
				return err
			})
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Errorf("a writer was refused: %v", err)
		}
	}
	var n int
	if err := s.QueryRowContext(ctx, `SELECT count(*) FROM messages`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != writers {
		t.Errorf("%d messages stored, want %d", n, writers)
	}
}
