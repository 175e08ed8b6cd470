package store_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/northbeam/site/internal/store"
	"github.com/northbeam/site/internal/store/storetest"
)

func TestCopySQLiteToPostgres(t *testing.T) {
	ctx := context.Background()
	lite := storetest.Open(t, store.SQLite)
	pg := storetest.Open(t, store.Postgres)

	exec := func(s *store.Store, q string, args ...any) {
		t.Helper()
		if _, err := s.ExecContext(ctx, q, args...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	exec(lite, `INSERT INTO messages (id, ref, created_at, name, email, message, lang, spam, spam_reason)
VALUES (7, 'ref-7', 1000, 'Zoë Ø', 'z@example.com', 'مرحبا', 'ar', 1, 'honeypot'),
       (9, 'ref-9', 2000, 'Ada', 'a@example.com', 'hello', 'en', 0, '')`)
	exec(lite, `INSERT INTO outbox (id, ref, kind, to_addr, subject, text_body, state, next_attempt_at, created_at)
VALUES (3, 'mail-3', 'booking.confirm', 'a@example.com', 'Hi', 'Body', 'sent', 1, 1)`)
	exec(lite, `INSERT INTO outbox_attachments (outbox_id, filename, content_type, data) VALUES (3, 'invite.ics', 'text/calendar', ?)`,
		[]byte("BEGIN:VCALENDAR\r\n\x00\xff"))
	exec(lite, `INSERT INTO bookings (id, token, cancel_token, service, start_at, end_at, name, email, time_zone, lang, created_at)
VALUES (1, 'tok-1', 'cancel-1', 'discovery', 3600000, 4500000, 'Ada', 'a@example.com', 'Europe/Berlin', 'de', 1)`)

	exec(lite, `INSERT INTO staff (id, email, handle, lang, created_at) VALUES (4, 'ada@northbeam.test', 'handle-4', 'ar', 1)`)
	exec(lite, `INSERT INTO staff_passkeys (staff_id, credential_id, rp_id, credential, created_at) VALUES (4, 'cred-1', 'northbeam.test', '{}', 1)`)
	exec(lite, `INSERT INTO staff_sessions (staff_id, token_hash, created_at, seen_at, expires_at) VALUES (4, 'hash-1', 1, 1, 2)`)
	exec(lite, `INSERT INTO staff_tokens (staff_id, kind, token_hash, created_at, expires_at) VALUES (4, 'invitation', 'hash-2', 1, 2)`)
	exec(lite, `INSERT INTO staff_audit (at, actor, action) VALUES (1, 'command line', 'invitation')`)
	exec(lite, `INSERT INTO staff_feed_tokens (staff_id, token_hash, created_at) VALUES (4, 'feed-hash-4', 5)`)

	opts := store.CopyOptions{BookingBuffer: 10 * time.Minute}
	first, err := store.Copy(ctx, lite, pg, opts)
	if err != nil {
		t.Fatalf("first copy: %v", err)
	}
	want := map[string]int{"messages": 2, "outbox": 1, "outbox_attachments": 1, "bookings": 1,
		"staff": 1, "staff_passkeys": 1, "staff_sessions": 1, "staff_tokens": 1, "staff_audit": 1, "staff_feed_tokens": 1}
	for _, tc := range first {
		if tc.Copied != want[tc.Table] || tc.Total != want[tc.Table] || tc.Source != want[tc.Table] {
			t.Errorf("first copy of %s: %+v, want %d rows", tc.Table, tc, want[tc.Table])
		}
	}
	second, err := store.Copy(ctx, lite, pg, opts)
	if err != nil {
		t.Fatalf("second copy: %v", err)
	}
	for _, tc := range second {
		if tc.Copied != 0 || tc.Existing != want[tc.Table] {
			t.Errorf("second copy of %s changed something: %+v", tc.Table, tc)
		}
	}

	var (
		name, msg string
		spam      bool
		data      []byte
		busy      int64
	)
	if err := pg.QueryRowContext(ctx, `SELECT name, message, spam FROM messages WHERE id = 7`).Scan(&name, &msg, &spam); err != nil {
		t.Fatal(err)
	}
	if name != "Zoë Ø" || msg != "مرحبا" || !spam {
		t.Errorf("message 7 = %q %q spam=%v", name, msg, spam)
	}
	if err := pg.QueryRowContext(ctx, `SELECT data FROM outbox_attachments WHERE outbox_id = 3`).Scan(&data); err != nil {
		t.Fatal(err)
	}
	if string(data) != "BEGIN:VCALENDAR\r\n\x00\xff" {
		t.Errorf("attachment bytes = %q", data)
	}
	if err := pg.QueryRowContext(ctx, `SELECT busy_until FROM bookings WHERE token = 'tok-1'`).Scan(&busy); err != nil {
		t.Fatal(err)
	}
	if busy != 4500000+600000 {
		t.Errorf("busy_until = %d, want the end plus the 10-minute buffer", busy)
	}
	// PostgreSQL numbers new rows after the copied ones.
	var id int64
	if err := pg.QueryRowContext(ctx, `INSERT INTO messages (ref, created_at, name, email, message, lang)
VALUES ('new', 3000, 'n', 'n@example.com', 'new one', 'en') RETURNING id`).Scan(&id); err != nil || id <= 9 {
		t.Errorf("new row id = %d, %v; want after 9", id, err)
	}
	// A destination with rows of its own is not a copy of this database.
	if _, err := store.Copy(ctx, lite, pg, opts); err == nil || !strings.Contains(err.Error(), "messages") {
		t.Errorf("copy onto a database with other rows: %v", err)
	}
	if _, err := store.Copy(ctx, pg, lite, opts); err == nil {
		t.Error("a copy from PostgreSQL to SQLite was accepted")
	}
}
