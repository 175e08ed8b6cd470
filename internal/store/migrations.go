package store

// Migrations returns the schema of the whole site as an ordered list of
// named steps. Append new steps at the end (the booking tables come next, as
// "0003_..."); never edit, reorder or remove a step that has been released,
// because databases record steps by name and will not run them again.
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
		// Booking tables are appended here as "0003_..." by internal/booking.
	}
}
