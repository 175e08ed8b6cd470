package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"slices"
	"syscall"
	"time"

	"github.com/northbeam/site/internal/config"
	"github.com/northbeam/site/internal/store"
)

// backupCommand writes a verified copy of the embedded database while the
// site keeps serving:
//
//	northbeam-site backup FILE                 the copy at FILE
//	northbeam-site backup -dir DIR [-keep N]   the copy at DIR/site-<UTC time>.db;
//	                                           with -keep, only the N newest stay
//
// It reads DATA_DIR (or -data_dir) as the server does. With DATABASE_URL the
// database is PostgreSQL, whose own tool makes the backup: pg_dump.
func backupCommand(args []string, getenv func(string) string, out io.Writer) error {
	fs := flag.NewFlagSet("backup", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	dir := fs.String("dir", "", "write the copy into this directory, named by the time")
	keep := fs.Int("keep", 0, "with -dir: keep this many newest copies, delete the older ones (0 keeps all)")
	cfg, err := config.Parse(fs, args, getenv, "DATA_DIR", "DATABASE_URL")
	if err != nil {
		return fmt.Errorf("backup: %w (%s)", err, backupUsage)
	}
	if cfg.DatabaseURL != "" {
		return errors.New("backup: DATABASE_URL is set, so the database is PostgreSQL: back it up with its own tool, " +
			`pg_dump --format=custom --file=site.dump "$DATABASE_URL", and restore with pg_restore (see the README)`)
	}
	var dst string
	switch {
	case *dir != "" && fs.NArg() == 0:
		dst = filepath.Join(*dir, backupName(time.Now()))
	case *dir == "" && fs.NArg() == 1:
		dst = fs.Arg(0)
	default:
		return errors.New("backup: " + backupUsage)
	}
	if *keep < 0 || (*keep > 0 && *dir == "") {
		return errors.New("backup: -keep takes a number of copies, with -dir")
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	src := config.SQLiteFile(cfg.DataDir)
	if _, err := os.Stat(src); err != nil {
		return fmt.Errorf("backup: no database at %s: set DATA_DIR (or -data_dir) to the server's data directory: %w", src, err)
	}
	report, err := store.BackupFile(ctx, src, dst)
	if err != nil {
		return fmt.Errorf("backup of %s: %w", src, err)
	}
	writeBackupReport(out, src, report)
	if *keep > 0 {
		removed, err := pruneBackups(*dir, *keep)
		for _, name := range removed {
			fmt.Fprintf(out, "  removed the older copy %s\n", name)
		}
		if err != nil {
			return fmt.Errorf("backup: written, but the older copies were not all removed: %w", err)
		}
	}
	return nil
}

// backupUsage is the backup command's synopsis.
const backupUsage = "usage: " + program + " backup FILE, or " + program + " backup -dir DIR [-keep N]"

// writeBackupReport prints what was copied, and what the copy holds.
func writeBackupReport(w io.Writer, src string, r store.BackupReport) {
	fmt.Fprintf(w, "backup: %s -> %s\n", src, r.Path)
	fmt.Fprintf(w, "  size: %s (%d bytes), in %v\n", humanBytes(r.Bytes), r.Bytes, r.Took.Round(time.Millisecond))
	fmt.Fprintf(w, "  integrity_check: %s\n", r.Integrity)
	fmt.Fprintf(w, "  rows:\n")
	width := 0
	for _, t := range r.Tables {
		width = max(width, len(t.Name))
	}
	for _, t := range r.Tables {
		fmt.Fprintf(w, "    %-*s %d\n", width, t.Name, t.Rows)
	}
}

func humanBytes(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// backupName names a scheduled copy by its time, so that names sort as
// times do.
func backupName(t time.Time) string {
	return "site-" + t.UTC().Format("20060102T150405.000Z") + ".db"
}

var backupNamePattern = regexp.MustCompile(`^site-\d{8}T\d{6}\.\d{3}Z\.db$`)

// pruneBackups deletes all but the keep newest copies in dir that
// backupName named; other files are left alone.
func pruneBackups(dir string, keep int) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range entries {
		if e.Type().IsRegular() && backupNamePattern.MatchString(e.Name()) {
			names = append(names, e.Name())
		}
	}
	slices.Sort(names)
	if len(names) <= keep {
		return nil, nil
	}
	var removed []string
	var errs []error
	for _, name := range names[:len(names)-keep] {
		if err := os.Remove(filepath.Join(dir, name)); err != nil {
			errs = append(errs, err)
			continue
		}
		removed = append(removed, name)
	}
	return removed, errors.Join(errs...)
}
