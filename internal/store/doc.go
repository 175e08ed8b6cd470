// Package store owns the site's database: opening it, configuring it,
// migrating it and running transactions against it.
//
// The embedded default is one SQLite file under the data directory, opened
// with the pure-Go driver modernc.org/sqlite (no cgo). Every domain package
// (contact, mail, booking) keeps its queries to itself and reaches the
// database through [Store.DB] and [Store.InTx]; the schema of all of them is
// declared in one ordered list of migrations in migrations.go.
//
// Conventions every query follows, so that a PostgreSQL implementation
// (DATABASE_URL) can follow later with the same intent:
//
//   - Times are stored as INTEGER milliseconds since the Unix epoch, UTC
//     (see [Millis] and [FromMillis]). They sort and compare as numbers, need
//     no parsing, and carry no zone to get wrong; PostgreSQL would use
//     bigint or timestamptz behind the same Go types.
//   - Booleans are INTEGER 0 or 1; the Go side scans them into bool.
//   - Each table has an INTEGER surrogate key for joins and, where a value
//     leaves the process (mail, URLs, logs), a separate random "ref" (UUID)
//     so that row counts never leak.
//   - SQL text uses "?" placeholders and nothing SQLite-only outside
//     migrations; a PostgreSQL store would rebind them.
package store
