package store_test

import (
	"context"
	"database/sql"
	"fmt"
	"testing"

	"github.com/northbeam/site/internal/store"
	"github.com/northbeam/site/internal/store/storetest"
)

// TestEmailKeysOfStoredRows: the rows stored before the address keys get
// them, in their canonical form, and the mail already queued is tied to
// the message or booking it is about.
func TestEmailKeysOfStoredRows(t *testing.T) {
	ctx := context.Background()
	all := store.Migrations()
	before := -1
	for i, m := range all {
		if m.Name == "0023_email_keys" {
			before = i
		}
	}
	if before < 0 {
		t.Fatal("no step 0023_email_keys")
	}
	for _, backend := range []store.Backend{store.SQLite, store.Postgres} {
		t.Run(string(backend), func(t *testing.T) {
			open := fresh(t, backend)
			old, err := open(t, all[:before])
			if err != nil {
				t.Fatal(err)
			}
			run := func(q string, args ...any) {
				t.Helper()
				if _, err := old.ExecContext(ctx, q, args...); err != nil {
					t.Fatal(err)
				}
			}
			const ref, other = "6f1c1a0e-0000-4000-8000-000000000001", "6f1c1a0e-0000-4000-8000-000000000002"
			run(`INSERT INTO messages (ref, created_at, name, email, message, lang) VALUES (?, 1000, 'Jörg', 'JÖRG@ÄXAMPLE.de', 'hi', 'de')`, ref)
			run(`INSERT INTO messages (ref, created_at, name, email, message, lang) VALUES (?, 1000, 'Inge', 'inj1@example.net', 'hi', 'de')`, other)
			run(`INSERT INTO bookings (token, cancel_token, service, start_at, end_at, busy_until, name, email, time_zone, lang, created_at, reminder_ref)
VALUES ('tok', 'ctok', 'strategy', 5000, 6000, 6000, 'Éric', 'e` + "\u0301" + `ric@example.com', 'UTC', 'fr', 900, 'reminder-1')`)
			insertMail := func(ref, kind, to, reply, text string, created int) {
				run(`INSERT INTO outbox (ref, kind, to_addr, reply_to, subject, text_body, state, next_attempt_at, created_at)
VALUES (?, ?, ?, ?, 's', ?, 'sent', 0, ?)`, ref, kind, to, reply, text, created)
			}
			insertMail("m1", "contact.notify", "team@northbeam.test", "JÖRG@ÄXAMPLE.de", "Reference: "+ref, 1001)
			insertMail("m2", "contact.ack", "Jörg <jörg@äxample.de>", "", "Thanks", 1001)
			insertMail("m3", "contact.notify", "team@northbeam.test", "inj1@example.net", "Reference: "+other, 1001)
			insertMail("m4", "booking.confirmation", "ÉRIC@EXAMPLE.COM", "", "See you", 900)
			insertMail("reminder-1", "booking.reminder", "team-forward@northbeam.test", "", "Soon", 900)
			old.Close()

			st, err := open(t, all)
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			key := func(q string, args ...any) string {
				t.Helper()
				var s sql.NullString
				if err := st.QueryRowContext(ctx, q, args...).Scan(&s); err != nil {
					t.Fatal(err)
				}
				return s.String
			}
			if k := key(`SELECT email_key FROM messages WHERE ref = ?`, ref); k != "jörg@äxample.de" {
				t.Errorf("message key %q", k)
			}
			if k := key(`SELECT email_key FROM bookings WHERE token = 'tok'`); k != "éric@example.com" {
				t.Errorf("booking key %q", k)
			}
			for ref, want := range map[string]string{"m1": ref, "m2": ref, "m3": other, "m4": "", "reminder-1": ""} {
				if got := key(`SELECT message_ref FROM outbox WHERE ref = ?`, ref); got != want {
					t.Errorf("mail %s is about message %q, want %q", ref, got, want)
				}
			}
			bookingID := key(`SELECT CAST(id AS TEXT) FROM bookings WHERE token = 'tok'`)
			for _, ref := range []string{"m4", "reminder-1"} {
				if got := key(`SELECT CAST(booking_id AS TEXT) FROM outbox WHERE ref = ?`, ref); got != bookingID {
					t.Errorf("mail %s is about booking %q, want %q", ref, got, bookingID)
				}
			}
			if k := key(`SELECT reply_key FROM outbox WHERE ref = 'm1'`); k != "jörg@äxample.de" {
				t.Errorf("reply key %q", k)
			}
			if k := key(`SELECT to_key FROM outbox WHERE ref = 'm2'`); k != "jörg@äxample.de" {
				t.Errorf("to key %q", k)
			}
		})
	}
}

// TestEmailKeysAgainWithoutFolding: keys written with full case folding
// are written again under the rule that merges only one mailbox's
// spellings, so that straße@ and strasse@, ſam@ and sam@, ﬀoo@ and ffoo@,
// ς@ and σ@, the Kelvin sign's K and k are two people again; a key that
// only differs by case stays merged.
func TestEmailKeysAgainWithoutFolding(t *testing.T) {
	ctx := context.Background()
	all := store.Migrations()
	step := -1
	for i, m := range all {
		if m.Name == "0048_email_keys_case_only" {
			step = i
		}
	}
	if step < 0 {
		t.Fatal("no step 0048_email_keys_case_only")
	}
	before := append(append([]store.Migration{}, all[:step]...), all[step+1:]...)
	// typed → the key that full case folding gave it → the key now
	cases := []struct{ typed, folded, want string }{
		{"straße@example.de", "strasse@example.de", "straße@example.de"},
		{"strasse@example.de", "strasse@example.de", "strasse@example.de"},
		{"ſam@example.com", "sam@example.com", "ſam@example.com"},
		{"ﬀoo@example.com", "ffoo@example.com", "ﬀoo@example.com"},
		{"ς@example.gr", "σ@example.gr", "ς@example.gr"},
		{"\u212Aevin@example.com", "kevin@example.com", "\u212Aevin@example.com"},
		{"ANN@Example.com", "ann@example.com", "ann@example.com"},
	}
	for _, backend := range storetest.Backends {
		t.Run(string(backend), func(t *testing.T) {
			open := fresh(t, backend)
			old, err := open(t, before)
			if err != nil {
				t.Fatal(err)
			}
			run := func(q string, args ...any) {
				t.Helper()
				if _, err := old.ExecContext(ctx, q, args...); err != nil {
					t.Fatal(err)
				}
			}
			for i, c := range cases {
				run(`INSERT INTO messages (ref, created_at, name, email, message, lang, email_key) VALUES (?, 1000, 'x', ?, 'hi', 'de', ?)`,
					fmt.Sprint("ref-", i), c.typed, c.folded)
				run(`INSERT INTO bookings (token, cancel_token, service, start_at, end_at, busy_until, name, email, time_zone, lang, created_at, email_key)
VALUES (?, ?, 'strategy', ?, ?, ?, 'x', ?, 'UTC', 'fr', 900, ?)`, fmt.Sprint("tok-", i), fmt.Sprint("ctok-", i), 5000+i*2000, 6000+i*2000, 6000+i*2000, c.typed, c.folded)
				run(`INSERT INTO outbox (ref, kind, to_addr, reply_to, subject, text_body, state, next_attempt_at, created_at, to_key, reply_key)
VALUES (?, 'contact.notify', 'team@northbeam.test', ?, 's', 't', 'sent', 0, 1000, 'team@northbeam.test', ?)`, fmt.Sprint("mail-", i), "X <"+c.typed+">", c.folded)
			}
			old.Close()
			st, err := open(t, all)
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			for i, c := range cases {
				for _, q := range []struct{ query, id string }{
					{`SELECT email_key FROM messages WHERE ref = ?`, "ref-"},
					{`SELECT email_key FROM bookings WHERE token = ?`, "tok-"},
					{`SELECT reply_key FROM outbox WHERE ref = ?`, "mail-"},
				} {
					var got string
					if err := st.QueryRowContext(ctx, q.query, fmt.Sprint(q.id, i)).Scan(&got); err != nil {
						t.Fatal(err)
					}
					if got != c.want {
						t.Errorf("%s of %q: %q, want %q", q.query, c.typed, got, c.want)
					}
				}
			}
			var team string
			if err := st.QueryRowContext(ctx, `SELECT to_key FROM outbox WHERE ref = 'mail-0'`).Scan(&team); err != nil || team != "team@northbeam.test" {
				t.Errorf("the team's key: %q %v", team, err)
			}
		})
	}
}
