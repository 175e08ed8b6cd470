package store

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// CopyOptions tunes [Copy].
type CopyOptions struct {
	// BookingBuffer completes bookings made before busy_until existed:
	// their busy_until becomes end_at plus this buffer (the one in force).
	BookingBuffer time.Duration
}

// TableCount is one line of a copy's report.
type TableCount struct {
	Table    string
	Source   int // rows in the SQLite database
	Copied   int // rows this run inserted
	Existing int // rows the destination already had from an earlier run
	Total    int // rows in the destination afterwards
}

// Copy copies every table of [CopiedTables] from the SQLite store src into
// the PostgreSQL store dst, keeping ids, refs and tokens. A row whose id
// dst already holds is left as it is, so a copy that was interrupted can be
// run again and a second run changes nothing (the members' private feeds
// follow the source: see copyFeedTokens). Each table is copied in one
// transaction; afterwards dst's identity sequences continue after the
// copied ids, and the row counts of both sides are compared: Copy fails
// when dst has a row that src does not.
func Copy(ctx context.Context, src, dst *Store, opts CopyOptions) ([]TableCount, error) {
	if src.Backend() != SQLite || dst.Backend() != Postgres {
		return nil, fmt.Errorf("store: copy goes from SQLite to PostgreSQL, not from %s to %s", src.Backend(), dst.Backend())
	}
	var report []TableCount
	for _, table := range CopiedTables() {
		copyOne := copyTable
		if table == "staff_feed_tokens" {
			copyOne = copyFeedTokens
		}
		tc, err := copyOne(ctx, src, dst, table, opts)
		if err != nil {
			return report, fmt.Errorf("store: copy %s: %w", table, err)
		}
		report = append(report, tc)
	}
	for _, tc := range report {
		if tc.Total != tc.Source {
			return report, fmt.Errorf("store: copy %s: PostgreSQL has %d rows, SQLite %d: the destination holds rows that did not come from this SQLite database",
				tc.Table, tc.Total, tc.Source)
		}
	}
	return report, nil
}

// column is a destination column and its PostgreSQL type.
type column struct{ name, dataType string }

func copyTable(ctx context.Context, src, dst *Store, table string, opts CopyOptions) (TableCount, error) {
	tc := TableCount{Table: table}
	cols, err := destinationColumns(ctx, dst, table)
	if err != nil {
		return tc, err
	}
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = c.name
	}
	list := strings.Join(names, ", ")
	insert := `INSERT INTO ` + table + ` (` + list + `) VALUES (?` + strings.Repeat(", ?", len(cols)-1) + `)
ON CONFLICT (id) DO NOTHING`

	if err := src.QueryRowContext(ctx, `SELECT count(*) FROM `+table).Scan(&tc.Source); err != nil {
		return tc, err
	}
	err = dst.InTx(ctx, func(tx *Tx) error {
		tc.Copied = 0
		rows, err := src.QueryContext(ctx, `SELECT `+list+` FROM `+table+` ORDER BY id`)
		if err != nil {
			return err
		}
		defer rows.Close()
		values := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range values {
			ptrs[i] = &values[i]
		}
		for rows.Next() {
			if err := rows.Scan(ptrs...); err != nil {
				return err
			}
			args := make([]any, len(cols))
			for i, c := range cols {
				args[i] = convert(c, values[i])
			}
			if table == "bookings" {
				fillBusyUntil(names, args, opts.BookingBuffer)
			}
			res, err := tx.ExecContext(ctx, insert, args...)
			if err != nil {
				return err
			}
			if n, _ := res.RowsAffected(); n == 1 {
				tc.Copied++
			}
		}
		if err := rows.Err(); err != nil {
			return err
		}
		// Ids given explicitly leave the identity's sequence behind: move
		// it past them, so that the next row PostgreSQL numbers is new.
		_, err = tx.ExecContext(ctx, `SELECT setval(pg_get_serial_sequence('`+table+`', 'id'),
	(SELECT coalesce(max(id), 0) + 1 FROM `+table+`), false)`)
		return err
	})
	if err != nil {
		return tc, err
	}
	if err := dst.QueryRowContext(ctx, `SELECT count(*) FROM `+table).Scan(&tc.Total); err != nil {
		return tc, err
	}
	tc.Existing = tc.Total - tc.Copied
	return tc, nil
}

// destinationColumns lists the columns of table in dst, in order.
func destinationColumns(ctx context.Context, dst *Store, table string) ([]column, error) {
	cols, err := QueryAll(ctx, dst, func(row Scanner) (column, error) {
		var c column
		err := row.Scan(&c.name, &c.dataType)
		return c, err
	}, `
SELECT column_name, data_type FROM information_schema.columns
WHERE table_schema = current_schema() AND table_name = ? ORDER BY ordinal_position`, table)
	if err != nil {
		return nil, err
	}
	if len(cols) == 0 {
		return nil, fmt.Errorf("no table %s in the destination: is it migrated?", table)
	}
	return cols, nil
}

// convert turns a value read from SQLite into what the PostgreSQL column
// takes: SQLite keeps booleans as 0 and 1.
func convert(c column, v any) any {
	if c.dataType == "boolean" {
		if n, ok := v.(int64); ok {
			return n != 0
		}
	}
	return v
}

// fillBusyUntil completes a booking row made before busy_until existed.
func fillBusyUntil(names []string, args []any, buffer time.Duration) {
	var end, busy = -1, -1
	for i, n := range names {
		switch n {
		case "end_at":
			end = i
		case "busy_until":
			busy = i
		}
	}
	if end < 0 || busy < 0 || args[busy] != nil {
		return
	}
	if e, ok := args[end].(int64); ok {
		args[busy] = e + buffer.Milliseconds()
	}
}

// feedToken is a row of staff_feed_tokens: a member's private calendar
// feed, by the SHA-256 of its secret.
type feedToken struct {
	staffID   int64
	hash      string
	createdAt int64
}

func scanFeedToken(row Scanner) (feedToken, error) {
	var t feedToken
	err := row.Scan(&t.staffID, &t.hash, &t.createdAt)
	return t, err
}

// copyFeedTokens copies the members' private calendar feeds
// (staff_feed_tokens: one row a member, keyed by the member rather than by
// an id of its own). A member renews or revokes their address in place,
// and an address revoked on the old site must not open the new one: so
// where the other tables leave a row copied before as it is, this one is
// made the source's, each run: a member's row is written when it is new or
// its address was renewed, and the row of a member who has none in the
// source any more (revoked between two runs) is deleted. The secret itself
// is stored nowhere: the hash is all that moves, and the subscribed
// calendars' address keeps working.
func copyFeedTokens(ctx context.Context, src, dst *Store, table string, _ CopyOptions) (TableCount, error) {
	tc := TableCount{Table: table}
	source, err := QueryAll(ctx, src, scanFeedToken, `SELECT staff_id, token_hash, created_at FROM `+table+` ORDER BY staff_id`)
	if err != nil {
		return tc, err
	}
	tc.Source = len(source)
	err = dst.InTx(ctx, func(tx *Tx) error {
		tc.Copied = 0
		there, err := QueryAll(ctx, tx, scanFeedToken, `SELECT staff_id, token_hash, created_at FROM `+table)
		if err != nil {
			return err
		}
		held := make(map[int64]feedToken, len(there))
		for _, t := range there {
			held[t.staffID] = t
		}
		for _, t := range source {
			if h, ok := held[t.staffID]; ok && h == t {
				delete(held, t.staffID)
				continue
			}
			delete(held, t.staffID)
			// A renewed address's old hash goes first: hashes are unique.
			if _, err := tx.ExecContext(ctx, `DELETE FROM `+table+` WHERE staff_id = ?`, t.staffID); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO `+table+` (staff_id, token_hash, created_at) VALUES (?, ?, ?)`,
				t.staffID, t.hash, t.createdAt); err != nil {
				return err
			}
			tc.Copied++
		}
		for id := range held { // revoked on the old site since an earlier run
			if _, err := tx.ExecContext(ctx, `DELETE FROM `+table+` WHERE staff_id = ?`, id); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return tc, err
	}
	if err := dst.QueryRowContext(ctx, `SELECT count(*) FROM `+table).Scan(&tc.Total); err != nil {
		return tc, err
	}
	tc.Existing = tc.Total - tc.Copied
	return tc, nil
}
