package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"text/tabwriter"
	"time"

	"github.com/northbeam/site/internal/booking"
	"github.com/northbeam/site/internal/config"
	"github.com/northbeam/site/internal/store"
)

// migrateDBCommand copies the SQLite database of DATA_DIR into the
// PostgreSQL database of DATABASE_URL, keeping every id, ref and token, and
// prints the row counts of each table. It may be run again: rows copied
// before are left as they are.
func migrateDBCommand(args []string, getenv func(string) string, out io.Writer) error {
	fs := flag.NewFlagSet("migrate-db", flag.ContinueOnError)
	cfg, err := config.Parse(fs, args, getenv, "DATA_DIR", "DATABASE_URL", "ROOT")
	if err != nil {
		return err
	}
	if cfg.DatabaseURL == "" {
		return errors.New("migrate-db: set DATABASE_URL to the PostgreSQL database to copy into")
	}
	return migrateDB(context.Background(), out, cfg)
}

func migrateDB(ctx context.Context, w io.Writer, cfg config.Config) error {
	path := config.SQLiteFile(cfg.DataDir)
	if _, err := os.Stat(path); err != nil {
		return fmt.Errorf("migrate-db: no SQLite database to copy: %w", err)
	}
	// Bookings made before busy_until existed take the buffer in force.
	content, err := projectSources(cfg).content()
	if err != nil {
		return err
	}
	av, err := booking.LoadAvailability(content, "availability.json")
	if err != nil {
		return err
	}
	src, err := store.Open(ctx, path)
	if err != nil {
		return err
	}
	defer src.Close()
	dst, err := store.OpenPostgres(ctx, cfg.DatabaseURL, 30*time.Second)
	if err != nil {
		return err
	}
	defer dst.Close()

	report, copyErr := store.Copy(ctx, src, dst, store.CopyOptions{BookingBuffer: av.Buffer})
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "table\tSQLite\tcopied now\talready there\tPostgreSQL\t")
	for _, tc := range report {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t\n", tc.Table, tc.Source, tc.Copied, tc.Existing, tc.Total)
	}
	tw.Flush()
	if copyErr != nil {
		return copyErr
	}
	fmt.Fprintln(w, "every row is in PostgreSQL; start the site with DATABASE_URL set")
	return nil
}
