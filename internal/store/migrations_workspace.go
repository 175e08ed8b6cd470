package store

// workspaceMigrations are the steps of the staff workspace at scale (names
// 0050 to 0059): counts kept by the database, indexes for every list the
// workspace pages through, and word search (docs/ARCHITECTURE.md, Data).
func workspaceMigrations() []Migration {
	return []Migration{
		{
			Name: "0050_workspace_counts",
			// The inbox's folders, its unread messages, and the bookings
			// standing and cancelled, counted as rows change by triggers in
			// the transaction of the change, so that no count reads a
			// table. The bookings' upcoming and past tabs split the
			// standing ones at the present time, by the index on end_at.
			SQLite: `
CREATE TABLE workspace_counts (
	name TEXT    PRIMARY KEY,  -- messages:new, :handled, :spam, :unread; bookings:standing, :cancelled
	n    INTEGER NOT NULL
) STRICT;
INSERT INTO workspace_counts (name, n) VALUES
	('messages:new', (SELECT count(*) FROM messages WHERE spam = 0 AND handled_at IS NULL)),
	('messages:handled', (SELECT count(*) FROM messages WHERE spam = 0 AND handled_at IS NOT NULL)),
	('messages:spam', (SELECT count(*) FROM messages WHERE spam = 1)),
	('messages:unread', (SELECT count(*) FROM messages WHERE spam = 0 AND handled_at IS NULL AND read_at IS NULL)),
	('bookings:standing', (SELECT count(*) FROM bookings WHERE cancelled_at IS NULL)),
	('bookings:cancelled', (SELECT count(*) FROM bookings WHERE cancelled_at IS NOT NULL));
CREATE TRIGGER messages_counts_insert AFTER INSERT ON messages BEGIN
	UPDATE workspace_counts SET n = n + 1
	WHERE name = 'messages:' || CASE WHEN NEW.spam THEN 'spam' WHEN NEW.handled_at IS NULL THEN 'new' ELSE 'handled' END
		OR (name = 'messages:unread' AND NOT NEW.spam AND NEW.handled_at IS NULL AND NEW.read_at IS NULL);
END;
CREATE TRIGGER messages_counts_delete AFTER DELETE ON messages BEGIN
	UPDATE workspace_counts SET n = n - 1
	WHERE name = 'messages:' || CASE WHEN OLD.spam THEN 'spam' WHEN OLD.handled_at IS NULL THEN 'new' ELSE 'handled' END
		OR (name = 'messages:unread' AND NOT OLD.spam AND OLD.handled_at IS NULL AND OLD.read_at IS NULL);
END;
CREATE TRIGGER messages_counts_update AFTER UPDATE OF spam, handled_at, read_at ON messages BEGIN
	UPDATE workspace_counts SET n = n - 1
	WHERE name = 'messages:' || CASE WHEN OLD.spam THEN 'spam' WHEN OLD.handled_at IS NULL THEN 'new' ELSE 'handled' END
		OR (name = 'messages:unread' AND NOT OLD.spam AND OLD.handled_at IS NULL AND OLD.read_at IS NULL);
	UPDATE workspace_counts SET n = n + 1
	WHERE name = 'messages:' || CASE WHEN NEW.spam THEN 'spam' WHEN NEW.handled_at IS NULL THEN 'new' ELSE 'handled' END
		OR (name = 'messages:unread' AND NOT NEW.spam AND NEW.handled_at IS NULL AND NEW.read_at IS NULL);
END;
CREATE TRIGGER bookings_counts_insert AFTER INSERT ON bookings BEGIN
	UPDATE workspace_counts SET n = n + 1
	WHERE name = CASE WHEN NEW.cancelled_at IS NULL THEN 'bookings:standing' ELSE 'bookings:cancelled' END;
END;
CREATE TRIGGER bookings_counts_delete AFTER DELETE ON bookings BEGIN
	UPDATE workspace_counts SET n = n - 1
	WHERE name = CASE WHEN OLD.cancelled_at IS NULL THEN 'bookings:standing' ELSE 'bookings:cancelled' END;
END;
CREATE TRIGGER bookings_counts_update AFTER UPDATE OF cancelled_at ON bookings
WHEN (OLD.cancelled_at IS NULL) <> (NEW.cancelled_at IS NULL) BEGIN
	UPDATE workspace_counts SET n = n + CASE WHEN name = 'bookings:cancelled' THEN 1 ELSE -1 END
	WHERE name IN ('bookings:standing', 'bookings:cancelled') AND NEW.cancelled_at IS NOT NULL;
	UPDATE workspace_counts SET n = n + CASE WHEN name = 'bookings:standing' THEN 1 ELSE -1 END
	WHERE name IN ('bookings:standing', 'bookings:cancelled') AND NEW.cancelled_at IS NULL;
END;
`,
			Postgres: `
CREATE TABLE workspace_counts (
	name text   PRIMARY KEY,
	n    bigint NOT NULL
);
INSERT INTO workspace_counts (name, n) VALUES
	('messages:new', (SELECT count(*) FROM messages WHERE NOT spam AND handled_at IS NULL)),
	('messages:handled', (SELECT count(*) FROM messages WHERE NOT spam AND handled_at IS NOT NULL)),
	('messages:spam', (SELECT count(*) FROM messages WHERE spam)),
	('messages:unread', (SELECT count(*) FROM messages WHERE NOT spam AND handled_at IS NULL AND read_at IS NULL)),
	('bookings:standing', (SELECT count(*) FROM bookings WHERE cancelled_at IS NULL)),
	('bookings:cancelled', (SELECT count(*) FROM bookings WHERE cancelled_at IS NOT NULL));
CREATE FUNCTION messages_counts() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
	IF TG_OP IN ('UPDATE', 'DELETE') THEN
		UPDATE workspace_counts SET n = n - 1
		WHERE name = 'messages:' || CASE WHEN OLD.spam THEN 'spam' WHEN OLD.handled_at IS NULL THEN 'new' ELSE 'handled' END
			OR (name = 'messages:unread' AND NOT OLD.spam AND OLD.handled_at IS NULL AND OLD.read_at IS NULL);
	END IF;
	IF TG_OP IN ('UPDATE', 'INSERT') THEN
		UPDATE workspace_counts SET n = n + 1
		WHERE name = 'messages:' || CASE WHEN NEW.spam THEN 'spam' WHEN NEW.handled_at IS NULL THEN 'new' ELSE 'handled' END
			OR (name = 'messages:unread' AND NOT NEW.spam AND NEW.handled_at IS NULL AND NEW.read_at IS NULL);
	END IF;
	RETURN NULL;
END
$fn$;
CREATE TRIGGER messages_counts AFTER INSERT OR DELETE OR UPDATE OF spam, handled_at, read_at ON messages
	FOR EACH ROW EXECUTE FUNCTION messages_counts();
CREATE FUNCTION bookings_counts() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
	IF TG_OP IN ('UPDATE', 'DELETE') THEN
		UPDATE workspace_counts SET n = n - 1
		WHERE name = CASE WHEN OLD.cancelled_at IS NULL THEN 'bookings:standing' ELSE 'bookings:cancelled' END;
	END IF;
	IF TG_OP IN ('UPDATE', 'INSERT') THEN
		UPDATE workspace_counts SET n = n + 1
		WHERE name = CASE WHEN NEW.cancelled_at IS NULL THEN 'bookings:standing' ELSE 'bookings:cancelled' END;
	END IF;
	RETURN NULL;
END
$fn$;
CREATE TRIGGER bookings_counts AFTER INSERT OR DELETE ON bookings
	FOR EACH ROW EXECUTE FUNCTION bookings_counts();
CREATE TRIGGER bookings_counts_update AFTER UPDATE OF cancelled_at ON bookings
	FOR EACH ROW WHEN ((OLD.cancelled_at IS NULL) <> (NEW.cancelled_at IS NULL)) EXECUTE FUNCTION bookings_counts();
`,
		},
		{
			Name: "0051_workspace_lists",
			// Every list of the workspace reads a page of at most 50 rows
			// through an index in its own order (keyset pages): the inbox's
			// folders by (created_at, id); the agenda's standing bookings
			// by (end_at, id), which for bookings that never overlap is
			// their order of start too; the cancelled ones, and the week
			// and the bookings' export over all of them, by (start_at, id);
			// the mail that could not be sent by (created_at, id). The
			// audit log's entries about a subject (a note's text, which an
			// erasure or the retention job forgets) by subject. The
			// partial indexes' conditions are written in the queries as
			// they are here (spam = false, not a parameter), which SQLite
			// needs to use them.
			SQLite: `
CREATE INDEX messages_new ON messages (created_at, id) WHERE spam = false AND handled_at IS NULL;
CREATE INDEX messages_handled ON messages (created_at, id) WHERE spam = false AND handled_at IS NOT NULL;
CREATE INDEX messages_spam ON messages (created_at, id) WHERE spam = true;
DROP INDEX bookings_standing_end;
CREATE INDEX bookings_standing_end ON bookings (end_at, id) WHERE cancelled_at IS NULL;
CREATE INDEX bookings_cancelled ON bookings (start_at, id) WHERE cancelled_at IS NOT NULL;
CREATE INDEX bookings_start ON bookings (start_at, id);
CREATE INDEX outbox_troubled ON outbox (created_at, id) WHERE state IN ('failed', 'held') OR (state = 'pending' AND attempts > 0);
CREATE INDEX staff_audit_subject ON staff_audit (subject);
`,
			Postgres: `
CREATE INDEX messages_new ON messages (created_at, id) WHERE spam = false AND handled_at IS NULL;
CREATE INDEX messages_handled ON messages (created_at, id) WHERE spam = false AND handled_at IS NOT NULL;
CREATE INDEX messages_spam ON messages (created_at, id) WHERE spam = true;
DROP INDEX bookings_standing_end;
CREATE INDEX bookings_standing_end ON bookings (end_at, id) WHERE cancelled_at IS NULL;
CREATE INDEX bookings_cancelled ON bookings (start_at, id) WHERE cancelled_at IS NOT NULL;
CREATE INDEX bookings_start ON bookings (start_at, id);
CREATE INDEX outbox_troubled ON outbox (created_at, id) WHERE state IN ('failed', 'held') OR (state = 'pending' AND attempts > 0);
CREATE INDEX staff_audit_subject ON staff_audit (subject);
`,
		},
		{
			Name: "0052_workspace_search",
			// Word search over the messages (name, address, text) and the
			// bookings (name, address, company, topic, phone). SQLite: FTS5
			// tables over the rows themselves (external content: the text
			// is not stored twice), tokenizer unicode61 with diacritics
			// removed, kept in step by triggers. A deleted row's words are
			// marked deleted at once and leave the index's pages when its
			// segments merge: an erasure and the retention job merge them
			// then (staff's Workspace.forget); FTS5's secure-delete, which
			// removes them at once, made each deleted row cost milliseconds
			// and a retention batch seconds. PostgreSQL: GIN indexes of the 'simple' text
			// search configuration over search_fold (lower case, accents
			// removed by the unaccent extension where the server has it,
			// every character but letters and digits a space: the words
			// unicode61 makes), kept in step by PostgreSQL itself.
			SQLite: `
CREATE VIRTUAL TABLE messages_search USING fts5(name, email, message,
	content = 'messages', content_rowid = 'id', tokenize = 'unicode61 remove_diacritics 2');
INSERT INTO messages_search (messages_search) VALUES ('rebuild');
CREATE TRIGGER messages_search_insert AFTER INSERT ON messages BEGIN
	INSERT INTO messages_search (rowid, name, email, message) VALUES (NEW.id, NEW.name, NEW.email, NEW.message);
END;
CREATE TRIGGER messages_search_delete AFTER DELETE ON messages BEGIN
	INSERT INTO messages_search (messages_search, rowid, name, email, message) VALUES ('delete', OLD.id, OLD.name, OLD.email, OLD.message);
END;
CREATE TRIGGER messages_search_update AFTER UPDATE OF name, email, message ON messages BEGIN
	INSERT INTO messages_search (messages_search, rowid, name, email, message) VALUES ('delete', OLD.id, OLD.name, OLD.email, OLD.message);
	INSERT INTO messages_search (rowid, name, email, message) VALUES (NEW.id, NEW.name, NEW.email, NEW.message);
END;
CREATE VIRTUAL TABLE bookings_search USING fts5(name, email, company, topic, phone,
	content = 'bookings', content_rowid = 'id', tokenize = 'unicode61 remove_diacritics 2');
INSERT INTO bookings_search (bookings_search) VALUES ('rebuild');
CREATE TRIGGER bookings_search_insert AFTER INSERT ON bookings BEGIN
	INSERT INTO bookings_search (rowid, name, email, company, topic, phone) VALUES (NEW.id, NEW.name, NEW.email, NEW.company, NEW.topic, NEW.phone);
END;
CREATE TRIGGER bookings_search_delete AFTER DELETE ON bookings BEGIN
	INSERT INTO bookings_search (bookings_search, rowid, name, email, company, topic, phone)
	VALUES ('delete', OLD.id, OLD.name, OLD.email, OLD.company, OLD.topic, OLD.phone);
END;
CREATE TRIGGER bookings_search_update AFTER UPDATE OF name, email, company, topic, phone ON bookings BEGIN
	INSERT INTO bookings_search (bookings_search, rowid, name, email, company, topic, phone)
	VALUES ('delete', OLD.id, OLD.name, OLD.email, OLD.company, OLD.topic, OLD.phone);
	INSERT INTO bookings_search (rowid, name, email, company, topic, phone) VALUES (NEW.id, NEW.name, NEW.email, NEW.company, NEW.topic, NEW.phone);
END;
`,
			// The unaccent extension is database-wide: it is created once,
			// in a schema of its own (several schemas may hold a site's
			// tables, each test's its own), under a lock that other
			// schemas' migrations take too; search_fold, in the site's
			// schema, names it there. Without the extension on the server,
			// search_fold only lowers the case.
			Postgres: `
DO $do$
DECLARE
	ext_schema text;
BEGIN
	PERFORM pg_advisory_xact_lock(hashtext('northbeam.extensions'));
	SELECT extnamespace::regnamespace::text INTO ext_schema FROM pg_extension WHERE extname = 'unaccent';
	IF ext_schema IS NULL AND EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'unaccent') THEN
		CREATE SCHEMA IF NOT EXISTS northbeam_extensions;
		CREATE EXTENSION unaccent SCHEMA northbeam_extensions;
		ext_schema := 'northbeam_extensions';
	END IF;
	IF ext_schema IS NULL THEN
		CREATE FUNCTION search_fold(text) RETURNS text LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
			AS $f$ SELECT regexp_replace(lower($1), '[^[:alnum:]]+', ' ', 'g') $f$;
	ELSE
		EXECUTE format($f$CREATE FUNCTION search_fold(text) RETURNS text LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
			AS $body$ SELECT regexp_replace(lower(%1$s.unaccent(%2$L::regdictionary, $1)), '[^[:alnum:]]+', ' ', 'g') $body$$f$,
			ext_schema, ext_schema || '.unaccent');
	END IF;
END
$do$;
CREATE INDEX messages_search ON messages
	USING gin (to_tsvector('simple'::regconfig, search_fold(name || ' ' || email || ' ' || message)));
CREATE INDEX bookings_search ON bookings
	USING gin (to_tsvector('simple'::regconfig, search_fold(name || ' ' || email || ' ' || company || ' ' || topic || ' ' || phone)));
`,
		},
	}
}
