package store

// hostStaffMigrations are the steps of the workspace's side of
// consultations booked with a person (names 0075 to 0079): the lists of
// one host's bookings, and each member's private calendar feed.
func hostStaffMigrations() []Migration {
	return []Migration{
		{
			Name: "0075_host_lists_and_feeds",
			// The workspace's lists filtered by host ("my bookings") read
			// their own indexes in their own order, as the unfiltered ones
			// read 0051's: the standing bookings of a host by their end,
			// the cancelled ones by their start. (A host's private feed
			// reads bookings_standing_start, (host, start_at).)
			//
			// staff_feed_tokens holds each member's private calendar feed:
			// the SHA-256 of the secret in its address (the address itself
			// is shown once, when made), one per member; renewing replaces
			// it, revoking deletes it, and removing the member removes it.
			SQLite: `
CREATE INDEX bookings_host_standing_end ON bookings (host, end_at, id) WHERE cancelled_at IS NULL;
CREATE INDEX bookings_host_cancelled ON bookings (host, start_at, id) WHERE cancelled_at IS NOT NULL;
CREATE TABLE staff_feed_tokens (
	staff_id   INTEGER PRIMARY KEY REFERENCES staff (id) ON DELETE CASCADE,
	token_hash TEXT    NOT NULL UNIQUE,          -- hex SHA-256 of the feed's secret
	created_at INTEGER NOT NULL                  -- unix ms, UTC
) STRICT;
`,
			Postgres: `
CREATE INDEX bookings_host_standing_end ON bookings (host, end_at, id) WHERE cancelled_at IS NULL;
CREATE INDEX bookings_host_cancelled ON bookings (host, start_at, id) WHERE cancelled_at IS NOT NULL;
CREATE TABLE staff_feed_tokens (
	staff_id   bigint PRIMARY KEY REFERENCES staff (id) ON DELETE CASCADE,
	token_hash text   NOT NULL UNIQUE,
	created_at bigint NOT NULL
);
`,
		},
	}
}
