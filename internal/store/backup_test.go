package store_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/northbeam/site/internal/store"
)

// TestBackupWhileWriting copies a database of some megabytes while writers
// keep committing through the store's own pool: the writers are not held up,
// and the copy is one verified file holding every row committed before the
// backup began.
func TestBackupWhileWriting(t *testing.T) {
	ctx := context.Background()
	s, path := openTemp(t)
	if _, err := s.DB().ExecContext(ctx, `CREATE TABLE filler (id INTEGER PRIMARY KEY, body TEXT NOT NULL)`); err != nil {
		t.Fatal(err)
	}
	// Enough data that the copy takes a while: writes land during it.
	if err := s.InTx(ctx, func(tx *store.Tx) error {
		for i := range 20000 {
			if _, err := tx.ExecContext(ctx, `INSERT INTO filler (body) VALUES (?)`, strings.Repeat(fmt.Sprint(i%10), 1000)); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}

	var (
		mu        sync.Mutex
		committed []string // refs of the messages committed so far
		during    atomic.Int64
		copying   atomic.Bool
		stop      = make(chan struct{})
		wg        sync.WaitGroup
	)
	for w := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				ref := fmt.Sprintf("w%d-%d", w, i)
				err := s.InTx(ctx, func(tx *store.Tx) error {
					_, err := tx.ExecContext(ctx, `INSERT INTO messages (ref, created_at, name, email, message, lang) VALUES (?, ?, 'n', 'e@x.io', 'hello world', 'en')`,
						ref, time.Now().UnixMilli())
					return err
				})
				if err != nil {
					t.Errorf("write during the backup: %v", err)
					return
				}
				if copying.Load() {
					during.Add(1)
				}
				mu.Lock()
				committed = append(committed, ref)
				mu.Unlock()
			}
		}()
	}
	time.Sleep(100 * time.Millisecond)
	mu.Lock()
	before := append([]string(nil), committed...)
	mu.Unlock()
	dst := filepath.Join(t.TempDir(), "backups", "site-copy.db")
	copying.Store(true)
	report, err := store.BackupFile(ctx, path, dst)
	copying.Store(false)
	time.Sleep(50 * time.Millisecond)
	close(stop)
	wg.Wait()
	if err != nil {
		t.Fatalf("BackupFile: %v", err)
	}
	t.Logf("backup of %d bytes in %v; %d messages committed before it, %d while it ran", report.Bytes, report.Took, len(before), during.Load())
	if during.Load() == 0 {
		t.Errorf("no write was committed during a backup of %v: the backup held the writers up", report.Took)
	}
	if report.Integrity != "ok" {
		t.Errorf("integrity %q", report.Integrity)
	}
	entries, err := os.ReadDir(filepath.Dir(dst))
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 || entries[0].Name() != "site-copy.db" {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("beside the backup: %q, want the one file", names)
	}
	if info, err := os.Stat(dst); err != nil || info.Size() != report.Bytes {
		t.Errorf("the file at %s: %v, size %d, reported %d", dst, err, info.Size(), report.Bytes)
	}

	counts := map[string]int64{}
	for _, tr := range report.Tables {
		counts[tr.Name] = tr.Rows
	}
	for _, name := range []string{"messages", "bookings", "outbox", "filler"} {
		if _, ok := counts[name]; !ok {
			t.Errorf("no row count for table %s in %v", name, report.Tables)
		}
	}
	if counts["filler"] != 20000 || counts["messages"] < int64(len(before)) {
		t.Errorf("counts %v, want 20000 filler rows and at least %d messages", counts, len(before))
	}

	// The copy opens on its own, in rollback-journal mode, and holds every
	// message committed before the backup began.
	copied, err := store.Open(ctx, dst)
	if err != nil {
		t.Fatal(err)
	}
	defer copied.Close()
	var integrity string
	if err := copied.DB().QueryRowContext(ctx, "PRAGMA integrity_check").Scan(&integrity); err != nil || integrity != "ok" {
		t.Errorf("integrity_check of the copy: %q %v", integrity, err)
	}
	missing := 0
	for _, ref := range before {
		var n int
		if err := copied.DB().QueryRowContext(ctx, `SELECT count(*) FROM messages WHERE ref = ?`, ref).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n != 1 {
			missing++
		}
	}
	if missing > 0 {
		t.Errorf("%d of %d messages committed before the backup are not in it", missing, len(before))
	}
}

func TestBackupLeavesAnExistingFileAlone(t *testing.T) {
	s, _ := openTemp(t)
	dst := filepath.Join(t.TempDir(), "taken.db")
	if err := os.WriteFile(dst, []byte("an earlier backup"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := store.Backup(context.Background(), s.DB(), dst)
	if err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Errorf("err = %v, want a refusal naming the existing file", err)
	}
	if b, _ := os.ReadFile(dst); string(b) != "an earlier backup" {
		t.Errorf("the existing file was changed: %q", b)
	}
	if entries, _ := os.ReadDir(filepath.Dir(dst)); len(entries) != 1 {
		t.Errorf("%d files beside it, want none left behind", len(entries)-1)
	}
}

func TestBackupFileDoesNotCreateAMissingDatabase(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "site.db")
	if _, err := store.BackupFile(context.Background(), src, filepath.Join(dir, "copy.db")); err == nil {
		t.Fatal("a backup of no database succeeded")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("files created: %d", len(entries))
	}
}
