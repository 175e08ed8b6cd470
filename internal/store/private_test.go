package store_test

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/northbeam/site/internal/store"
)

// TestDataIsPrivate: the data directory is 0700, the database and its
// write-ahead log and shared memory 0600, whatever the umask and whatever
// an earlier version left; a backup and its directory too.
func TestDataIsPrivate(t *testing.T) {
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "data")
	if err := os.Mkdir(dir, 0o755); err != nil { // as systemd's StateDirectory makes it
		t.Fatal(err)
	}
	path := filepath.Join(dir, "site.db")
	mode := func(p string) os.FileMode {
		t.Helper()
		info, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		return info.Mode().Perm()
	}
	check := func(when string, files ...string) {
		t.Helper()
		if m := mode(dir); m != 0o700 {
			t.Errorf("%s: DATA_DIR is %o, want 700", when, m)
		}
		for _, f := range files {
			if m := mode(f); m != 0o600 {
				t.Errorf("%s: %s is %o, want 600", when, filepath.Base(f), m)
			}
		}
	}
	st, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.ExecContext(ctx, `INSERT INTO messages (ref, created_at, name, email, message, lang) VALUES ('r', 1, 'n', 'e@x.io', 'm', 'en')`); err != nil {
		t.Fatal(err)
	}
	check("new", path, path+"-wal", path+"-shm")

	backups := filepath.Join(t.TempDir(), "backups")
	report, err := store.Backup(ctx, st.DB(), filepath.Join(backups, "site-1.db"))
	if err != nil {
		t.Fatal(err)
	}
	if m := mode(backups); m != 0o700 {
		t.Errorf("the backup directory is %o, want 700", m)
	}
	if m := mode(report.Path); m != 0o600 {
		t.Errorf("the backup is %o, want 600", m)
	}
	st.Close()

	// What an earlier version left: readable by everyone.
	for _, p := range []string{dir, path} {
		if err := os.Chmod(p, 0o755); err != nil { //nolint:gosec // G302: the readable mode an earlier version left, on purpose
			t.Fatal(err)
		}
	}
	st, err = store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := st.ExecContext(ctx, `DELETE FROM messages`); err != nil {
		t.Fatal(err)
	}
	check("reopened", path, path+"-wal", path+"-shm")
}
