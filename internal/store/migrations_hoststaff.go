package store

// hostStaffMigrations are the steps of the workspace's side of
// consultations booked with a person (names 0075 to 0079): the lists of
// one host's bookings and their counts, and each member's private
// calendar feed.
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
		{
			Name: "0076_host_counts",
			// The agenda's tabs count one host's bookings beside their
			// lists, as 0050 counts the team's: each host's standing and
			// cancelled bookings are kept in workspace_counts
			// ('bookings:standing:<slug>', 'bookings:cancelled:<slug>') by
			// triggers in the transaction of the change, a host's row
			// made by their first booking; a hand-over moves one from a
			// host's count to the other's. The upcoming tab splits the
			// standing ones at the present by bookings_host_standing_end
			// (0075), which holds only the host's upcoming ones past it.
			// Bookings without a host count for the team alone.
			SQLite: `
INSERT INTO workspace_counts (name, n)
	SELECT 'bookings:standing:' || host, count(*) FROM bookings WHERE host <> '' AND cancelled_at IS NULL GROUP BY host;
INSERT INTO workspace_counts (name, n)
	SELECT 'bookings:cancelled:' || host, count(*) FROM bookings WHERE host <> '' AND cancelled_at IS NOT NULL GROUP BY host;
CREATE TRIGGER bookings_host_counts_insert AFTER INSERT ON bookings WHEN NEW.host <> '' BEGIN
	INSERT OR IGNORE INTO workspace_counts (name, n)
	VALUES ('bookings:' || CASE WHEN NEW.cancelled_at IS NULL THEN 'standing' ELSE 'cancelled' END || ':' || NEW.host, 0);
	UPDATE workspace_counts SET n = n + 1
	WHERE name = 'bookings:' || CASE WHEN NEW.cancelled_at IS NULL THEN 'standing' ELSE 'cancelled' END || ':' || NEW.host;
END;
CREATE TRIGGER bookings_host_counts_delete AFTER DELETE ON bookings WHEN OLD.host <> '' BEGIN
	UPDATE workspace_counts SET n = n - 1
	WHERE name = 'bookings:' || CASE WHEN OLD.cancelled_at IS NULL THEN 'standing' ELSE 'cancelled' END || ':' || OLD.host;
END;
CREATE TRIGGER bookings_host_counts_update AFTER UPDATE OF cancelled_at, host ON bookings
WHEN (OLD.cancelled_at IS NULL) <> (NEW.cancelled_at IS NULL) OR OLD.host <> NEW.host BEGIN
	UPDATE workspace_counts SET n = n - 1
	WHERE OLD.host <> ''
		AND name = 'bookings:' || CASE WHEN OLD.cancelled_at IS NULL THEN 'standing' ELSE 'cancelled' END || ':' || OLD.host;
	INSERT OR IGNORE INTO workspace_counts (name, n)
	SELECT 'bookings:' || CASE WHEN NEW.cancelled_at IS NULL THEN 'standing' ELSE 'cancelled' END || ':' || NEW.host, 0
	WHERE NEW.host <> '';
	UPDATE workspace_counts SET n = n + 1
	WHERE NEW.host <> ''
		AND name = 'bookings:' || CASE WHEN NEW.cancelled_at IS NULL THEN 'standing' ELSE 'cancelled' END || ':' || NEW.host;
END;
`,
			Postgres: `
INSERT INTO workspace_counts (name, n)
	SELECT 'bookings:standing:' || host, count(*) FROM bookings WHERE host <> '' AND cancelled_at IS NULL GROUP BY host;
INSERT INTO workspace_counts (name, n)
	SELECT 'bookings:cancelled:' || host, count(*) FROM bookings WHERE host <> '' AND cancelled_at IS NOT NULL GROUP BY host;
CREATE FUNCTION bookings_host_counts() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
	IF TG_OP IN ('UPDATE', 'DELETE') THEN
		IF OLD.host <> '' THEN
			UPDATE workspace_counts SET n = n - 1
			WHERE name = 'bookings:' || CASE WHEN OLD.cancelled_at IS NULL THEN 'standing' ELSE 'cancelled' END || ':' || OLD.host;
		END IF;
	END IF;
	IF TG_OP IN ('UPDATE', 'INSERT') THEN
		IF NEW.host <> '' THEN
			INSERT INTO workspace_counts (name, n)
			VALUES ('bookings:' || CASE WHEN NEW.cancelled_at IS NULL THEN 'standing' ELSE 'cancelled' END || ':' || NEW.host, 1)
			ON CONFLICT (name) DO UPDATE SET n = workspace_counts.n + 1;
		END IF;
	END IF;
	RETURN NULL;
END
$fn$;
CREATE TRIGGER bookings_host_counts AFTER INSERT OR DELETE ON bookings
	FOR EACH ROW EXECUTE FUNCTION bookings_host_counts();
CREATE TRIGGER bookings_host_counts_update AFTER UPDATE OF cancelled_at, host ON bookings
	FOR EACH ROW WHEN ((OLD.cancelled_at IS NULL) <> (NEW.cancelled_at IS NULL) OR OLD.host <> NEW.host)
	EXECUTE FUNCTION bookings_host_counts();
`,
		},
	}
}
