package store

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
)

// TestWritesBesideAnotherProcessChangingTheSchema writes messages, and
// with them the search index's rows (0052_workspace_search's triggers),
// while another process opens the same database and changes its schema
// the ways a second process beside a running site does: ANALYZE (which
// creates sqlite_stat1 the first time), PRAGMA optimize (what every Close
// runs), sqlite_stat1 dropped. Each change makes this process's
// connections read the schema anew. No write may fail, on its first try:
// the transactions here are not retried (inTx, not InTx). This is the
// cause once suspected of a contact post refused with "no such table"
// (TestCrashAndLoad; see isStaleSchema): it does not bring the error
// back.
func TestWritesBesideAnotherProcessChangingTheSchema(t *testing.T) {
	ctx := context.Background()
	path := otherProcessDatabase(os.Getpid())
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(filepath.Dir(path)) })
	st, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var others atomic.Int64
	done := make(chan struct{})
	bin, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		defer close(done)
		for range 4 {
			cmd := exec.Command(bin) // TestMain makes it the other process
			cmd.Env = append(os.Environ(), "STORE_OTHER_PROCESS=1")
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("the other process: %v\n%s", err, out)
			}
			others.Add(1)
		}
	}()
	var seq, writes atomic.Int64
	var wg sync.WaitGroup
	for range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for others.Load() < 4 {
				i := seq.Add(1)
				err := st.inTx(ctx, func(tx *Tx) error {
					if _, err := tx.ExecContext(ctx, `INSERT INTO messages (ref, created_at, name, email, message, lang)
VALUES (?, 1, 'Zoë', 'zoe@example.com', 'Un résumé du projet', 'fr')`, fmt.Sprint(i)); err != nil {
						return err
					}
					if i%4 == 0 { // and the index's deletions
						_, err := tx.ExecContext(ctx, `DELETE FROM messages WHERE ref = ?`, fmt.Sprint(i-2))
						return err
					}
					return nil
				})
				switch {
				case err == nil:
					writes.Add(1)
				case !IsBusy(err):
					t.Errorf("write %d: %v", i, err)
					return
				}
			}
		}()
	}
	wg.Wait()
	<-done
	if writes.Load() == 0 {
		t.Error("no write went through while the other process ran")
	}
	t.Logf("%d writes beside 4 runs of the other process", writes.Load())
}

// otherProcessDatabase is the database of
// TestWritesBesideAnotherProcessChangingTheSchema run by the process pid.
func otherProcessDatabase(pid int) string {
	return filepath.Join(os.TempDir(), fmt.Sprintf("store-schema-change-%d", pid), "site.db")
}

// TestMain runs the package's tests, or, started by
// TestWritesBesideAnotherProcessChangingTheSchema with STORE_OTHER_PROCESS
// set, is that test's other process, on its parent's database.
func TestMain(m *testing.M) {
	if os.Getenv("STORE_OTHER_PROCESS") != "" {
		if err := changeTheSchema(otherProcessDatabase(os.Getppid())); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// changeTheSchema opens the database at path and changes its schema as a
// second process beside a running site may, ten times over.
func changeTheSchema(path string) error {
	ctx := context.Background()
	other, err := Open(ctx, path)
	if err != nil {
		return err
	}
	for range 10 {
		for _, q := range []string{"ANALYZE", "PRAGMA optimize", "DROP TABLE IF EXISTS sqlite_stat1"} {
			if _, err := other.DB().ExecContext(ctx, q); err != nil && !IsBusy(err) {
				return fmt.Errorf("%s: %w", q, err)
			}
		}
	}
	return other.Close()
}
