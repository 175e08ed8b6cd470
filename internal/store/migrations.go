package store

// Migrations returns the schema of the whole site as an ordered list of
// named steps. Append new steps at the end; never edit, reorder or remove a
// step that has been released, because databases record steps by name and
// will not run them again.
//
// Times are INTEGER unix milliseconds, UTC (see the package documentation).
// Tables are STRICT so SQLite enforces the declared column types.
func Migrations() []Migration {
	return []Migration{
		{
			Name: "0001_messages",
			// Contact form submissions. Spam is kept (flagged) rather than
			// dropped, so a false positive can still be read.
			SQLite: `
CREATE TABLE messages (
	id          INTEGER PRIMARY KEY,
	ref         TEXT    NOT NULL UNIQUE,            -- random UUID, shown to staff and in mail
	created_at  INTEGER NOT NULL,                   -- unix ms, UTC
	name        TEXT    NOT NULL,
	email       TEXT    NOT NULL,
	message     TEXT    NOT NULL,
	service     TEXT    NOT NULL DEFAULT '',        -- '' or a service key
	lang        TEXT    NOT NULL,                   -- en, fr, de, ar
	spam        INTEGER NOT NULL DEFAULT 0 CHECK (spam IN (0, 1)),
	spam_reason TEXT    NOT NULL DEFAULT ''
) STRICT;
CREATE INDEX messages_created_at ON messages (created_at);
`,
		},
		{
			Name: "0002_outbox",
			// Mail waiting to be sent, written in the same transaction as the
			// row it is about; the mail worker drains it. Rows are kept after
			// sending as a record of what went out.
			SQLite: `
CREATE TABLE outbox (
	id              INTEGER PRIMARY KEY,
	ref             TEXT    NOT NULL UNIQUE,        -- random UUID, the Message-ID, stable across retries
	kind            TEXT    NOT NULL,               -- e.g. contact.notify, for logs
	to_addr         TEXT    NOT NULL,
	reply_to        TEXT    NOT NULL DEFAULT '',
	subject         TEXT    NOT NULL,
	text_body       TEXT    NOT NULL,
	html_body       TEXT    NOT NULL DEFAULT '',
	lang            TEXT    NOT NULL DEFAULT '',
	state           TEXT    NOT NULL DEFAULT 'pending'
	                CHECK (state IN ('pending', 'held', 'sent', 'failed')),
	attempts        INTEGER NOT NULL DEFAULT 0,
	next_attempt_at INTEGER NOT NULL,               -- unix ms, UTC
	last_error      TEXT    NOT NULL DEFAULT '',
	created_at      INTEGER NOT NULL,               -- unix ms, UTC
	sent_at         INTEGER                         -- unix ms, UTC; NULL until sent
) STRICT;
CREATE INDEX outbox_due ON outbox (next_attempt_at) WHERE state IN ('pending', 'held');

CREATE TABLE outbox_attachments (
	id           INTEGER PRIMARY KEY,
	outbox_id    INTEGER NOT NULL REFERENCES outbox (id) ON DELETE CASCADE,
	filename     TEXT    NOT NULL,
	content_type TEXT    NOT NULL,
	data         BLOB    NOT NULL
) STRICT;
CREATE INDEX outbox_attachments_outbox_id ON outbox_attachments (outbox_id);
`,
		},
		{
			Name: "0003_bookings",
			// Booked consultations (internal/booking). A cancelled booking is
			// kept with cancelled_at set, so its invite and cancel links keep
			// answering; only standing bookings take time. Overlaps (plus the
			// buffer) are refused by the inserting transaction, which runs
			// with the write lock held; the partial unique index is the last
			// line of defence for the exact same start.
			SQLite: `
CREATE TABLE bookings (
	id           INTEGER PRIMARY KEY,
	token        TEXT    NOT NULL UNIQUE,           -- random, opens the invite (/api/bookings/<token>.ics)
	cancel_token TEXT    NOT NULL UNIQUE,           -- random, only ever sent to the visitor's address
	service      TEXT    NOT NULL,                  -- a key of content/availability.json services
	start_at     INTEGER NOT NULL,                  -- unix ms, UTC
	end_at       INTEGER NOT NULL CHECK (end_at > start_at), -- unix ms, UTC
	name         TEXT    NOT NULL,
	email        TEXT    NOT NULL,
	company      TEXT    NOT NULL DEFAULT '',
	topic        TEXT    NOT NULL DEFAULT '',
	time_zone    TEXT    NOT NULL,                  -- the visitor's IANA zone
	lang         TEXT    NOT NULL,                  -- en, fr, de, ar
	created_at   INTEGER NOT NULL,                  -- unix ms, UTC
	cancelled_at INTEGER                            -- unix ms, UTC; NULL while the booking stands
) STRICT;
CREATE UNIQUE INDEX bookings_standing_start ON bookings (start_at) WHERE cancelled_at IS NULL;
CREATE INDEX bookings_standing_end ON bookings (end_at) WHERE cancelled_at IS NULL;
`,
		},
	}
}
