package store

import (
	"errors"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// IsBusy reports whether err says the database was locked by another
// connection for longer than the busy timeout. The whole transaction may be
// retried.
func IsBusy(err error) bool {
	code, ok := resultCode(err)
	return ok && (code&0xff == sqlite3.SQLITE_BUSY || code&0xff == sqlite3.SQLITE_LOCKED)
}

// IsUniqueViolation reports whether err is a UNIQUE or PRIMARY KEY constraint
// failure, for callers that map it to a conflict (a booking slot taken).
func IsUniqueViolation(err error) bool {
	code, ok := resultCode(err)
	return ok && (code == sqlite3.SQLITE_CONSTRAINT_UNIQUE || code == sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY)
}

// resultCode extracts SQLite's extended result code from err.
func resultCode(err error) (int, bool) {
	var e *sqlite.Error
	if !errors.As(err, &e) {
		return 0, false
	}
	return e.Code(), true
}
