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

	"github.com/northbeam/site/internal/assets"
	"github.com/northbeam/site/internal/booking"
	"github.com/northbeam/site/internal/store"
)

// migrateDBCommand copies the SQLite database of DATA_DIR into the
// PostgreSQL database of DATABASE_URL, keeping every id, ref and token, and
// prints the row counts of each table. It may be run again: rows copied
// before are left as they are.
func migrateDBCommand(args []string) error {
	fs := flag.NewFlagSet("migrate-db", flag.ContinueOnError)
	dataDir := fs.String("data_dir", envOr("DATA_DIR", "./data"), "data directory holding site.db")
	databaseURL := fs.String("database_url", os.Getenv("DATABASE_URL"), "the PostgreSQL URL to copy into")
	root := fs.String("root", envOr("ROOT", "."), "project directory")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *databaseURL == "" {
		return errors.New("migrate-db: set DATABASE_URL to the PostgreSQL database to copy into")
	}
	return migrateDB(context.Background(), os.Stdout, *dataDir, *databaseURL, *root)
}

func migrateDB(ctx context.Context, w io.Writer, dataDir, databaseURL, root string) error {
	path := databasePath(dataDir)
	if _, err := os.Stat(path); err != nil {
		return fmt.Errorf("migrate-db: no SQLite database to copy: %w", err)
	}
	// Bookings made before busy_until existed take the buffer in force.
	content, err := (sources{root: absolute(root), embedded: assets.Embedded()}).content()
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
	dst, err := store.OpenPostgres(ctx, databaseURL, 30*time.Second)
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
