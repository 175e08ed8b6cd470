package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/northbeam/site/internal/config"
	"github.com/northbeam/site/internal/store"
	"github.com/northbeam/site/internal/testwait"
)

// TestBackupDuringBurstRestores runs the production binary's backup command
// while contact posts and bookings pour into the running binary, restores
// the copy into a fresh data directory, starts the binary on it, and finds
// there, through the binary, every row it acknowledged before the backup
// began. It uses the crash test's helpers (crash_test.go).
func TestBackupDuringBurstRestores(t *testing.T) {
	if testing.Short() {
		t.Skip("the backup test does not run with -short")
	}
	bin := buildSite(t)
	dataDir := t.TempDir()
	proc := startSite(t, bin, siteEnv(dataDir))
	c := newClient()
	c.addr.Store(&proc.addr)
	starts := openStarts(t, c)

	var (
		a                acked
		seq, slot        atomic.Int64
		ok2xx, server5xx atomic.Int64
		stopBurst        = make(chan struct{})
		wg               sync.WaitGroup
	)
	run := fmt.Sprint(time.Now().UnixNano())
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			booker := w == 3
			for {
				select {
				case <-stopBurst:
					return
				default:
				}
				n := seq.Add(1)
				if booker {
					i := slot.Add(1) - 1
					if int(i) >= len(starts) {
						booker = false // every open time is taken: contact posts only
						continue
					}
					status, body, err := c.do("POST", "/api/bookings", bookingBody(starts[i], n))
					if err != nil {
						t.Errorf("booking: %v", err)
						return
					}
					if status >= 500 {
						server5xx.Add(1)
					}
					if status == 201 {
						var created struct{ Booking struct{ Token string } }
						if err := json.Unmarshal(body, &created); err != nil || created.Booking.Token == "" {
							t.Errorf("201 without a token: %s", body)
						}
						ok2xx.Add(1)
						a.add("", created.Booking.Token)
					}
					continue
				}
				message, body := contactBody(run, n)
				status, _, err := c.do("POST", "/api/contact", body)
				if err != nil {
					t.Errorf("contact: %v", err)
					return
				}
				if status >= 500 {
					server5xx.Add(1)
				}
				if status == 201 {
					ok2xx.Add(1)
					a.add(message, "")
				}
			}
		}()
	}

	// The backup begins amid the burst, once it has acknowledged messages
	// and bookings: counted, not timed, so a slow machine gives the same
	// test.
	testwait.Until(t, "messages and bookings acknowledged before the backup", func() bool {
		a.mu.Lock()
		defer a.mu.Unlock()
		return len(a.messages) >= 10 && len(a.bookings) >= 1
	})
	// What was acknowledged before the backup began.
	a.mu.Lock()
	before := &acked{messages: append([]string(nil), a.messages...), bookings: append([]string(nil), a.bookings...)}
	a.mu.Unlock()
	acksAtStart := ok2xx.Load()
	file := filepath.Join(t.TempDir(), "backups", "site.db")
	cmd := exec.Command(bin, "backup", file)
	cmd.Env = append(os.Environ(), "DATA_DIR="+dataDir, "DATABASE_URL=")
	out, err := cmd.CombinedOutput()
	acksDuring := ok2xx.Load() - acksAtStart
	close(stopBurst)
	wg.Wait()
	if err != nil {
		t.Fatalf("backup: %v\n%s", err, out)
	}
	t.Logf("backup command, %d messages and %d bookings acknowledged before it, %d posts acknowledged while it ran:\n%s",
		len(before.messages), len(before.bookings), acksDuring, out)
	if server5xx.Load() != 0 {
		t.Errorf("%d answers were 5xx", server5xx.Load())
	}
	if acksDuring == 0 {
		t.Errorf("no post was acknowledged while the backup ran: the site stopped serving or writing")
	}
	if len(before.messages) == 0 || len(before.bookings) == 0 {
		t.Fatalf("too few posts acknowledged before the backup to mean anything: %d messages, %d bookings", len(before.messages), len(before.bookings))
	}
	if !strings.Contains(string(out), "integrity_check: ok") {
		t.Errorf("the backup did not report integrity_check ok:\n%s", out)
	}
	for table, atLeast := range map[string]int{"messages": len(before.messages), "bookings": len(before.bookings), "outbox": 1, "schema_migrations": 1} {
		m := regexp.MustCompile(`(?m)^\s+` + table + `\s+(\d+)$`).FindSubmatch(out)
		if m == nil {
			t.Errorf("no row count for %s in the report", table)
			continue
		}
		if n, _ := strconv.Atoi(string(m[1])); n < atLeast {
			t.Errorf("the report counts %d rows in %s, want at least %d", n, table, atLeast)
		}
	}
	if err := proc.stop(); err != nil {
		t.Errorf("SIGTERM: %v", err)
	}

	// Restore as the README says: the copy becomes site.db of a data
	// directory, nothing beside it.
	restored := t.TempDir()
	copyFile(t, file, config.SQLiteFile(restored))
	proc = startSite(t, bin, siteEnv(restored))
	c.addr.Store(&proc.addr)
	if status, body, err := c.do("GET", "/readyz", ""); err != nil || status != 200 {
		t.Errorf("readyz on the restored database: %d %v %s", status, err, body)
	}
	for _, token := range before.bookings {
		if status, body, err := c.do("GET", "/api/bookings/"+token+".ics", ""); err != nil || status != 200 || !strings.Contains(string(body), "BEGIN:VCALENDAR") {
			t.Errorf("the invite of a booking acknowledged before the backup: %d %v", status, err)
		}
	}
	listed := exec.Command(bin, "messages", "-n", "1000000")
	listed.Env = append(os.Environ(), "DATA_DIR="+restored, "DATABASE_URL=")
	list, err := listed.Output()
	if err != nil {
		t.Fatalf("messages on the restored database: %v", err)
	}
	missing := 0
	for _, m := range before.messages {
		if !strings.Contains(string(list), m) {
			missing++
		}
	}
	if missing > 0 {
		t.Errorf("%d of %d messages acknowledged before the backup are not listed by the restored binary", missing, len(before.messages))
	}
	if err := proc.stop(); err != nil {
		t.Errorf("SIGTERM: %v", err)
	}

	// And in the database itself: each exactly once, the file sound.
	messages, bookings := checkStored(t, restored, before)
	st, err := store.Open(context.Background(), config.SQLiteFile(restored))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var integrity string
	if err := st.DB().QueryRow("PRAGMA integrity_check").Scan(&integrity); err != nil || integrity != "ok" {
		t.Errorf("integrity_check of the restored database: %q %v", integrity, err)
	}
	t.Logf("restored: %d messages and %d bookings; every one acknowledged before the backup is there", messages, bookings)
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	src, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = src.Close() }() // read only
	dst, err := os.Create(to)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(dst, src); err != nil {
		t.Fatal(err)
	}
	if err := dst.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestBackupCommandRefusals(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name string
		env  map[string]string
		args []string
		want string
	}{
		{"PostgreSQL", map[string]string{"DATABASE_URL": "postgres://site:s3cret@db.internal/site"}, []string{filepath.Join(dir, "x.db")}, "pg_dump"},
		{"no file", nil, nil, "usage"},
		{"two files", nil, []string{"a.db", "b.db"}, "usage"},
		{"keep without a directory", nil, []string{"-keep", "3", "a.db"}, "-keep"},
		{"no database", map[string]string{"DATA_DIR": filepath.Join(dir, "empty")}, []string{filepath.Join(dir, "y.db")}, "no database at"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := backupCommand(tc.args, func(name string) string { return tc.env[name] }, io.Discard)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want one saying %q", err, tc.want)
			}
			if strings.Contains(err.Error(), "s3cret") {
				t.Errorf("the database password reached the message: %v", err)
			}
		})
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("a refused backup left %d files", len(entries))
	}
}

func TestPruneBackupsKeepsTheNewestAndOtherFiles(t *testing.T) {
	dir := t.TempDir()
	start := time.Date(2026, 11, 24, 3, 0, 0, 0, time.UTC)
	var names []string
	for i := range 5 {
		names = append(names, backupName(start.Add(time.Duration(i)*24*time.Hour)))
	}
	for _, name := range append(names, "notes.txt", "site.db") {
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	removed, err := pruneBackups(dir, 2)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(removed, " ") != strings.Join(names[:3], " ") {
		t.Errorf("removed %q, want the three oldest %q", removed, names[:3])
	}
	entries, _ := os.ReadDir(dir)
	var left []string
	for _, e := range entries {
		left = append(left, e.Name())
	}
	if want := []string{"notes.txt", names[3], names[4], "site.db"}; strings.Join(left, " ") != strings.Join(want, " ") {
		t.Errorf("left %q, want %q", left, want)
	}
}
