package staff

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/northbeam/site/internal/contact"
	"github.com/northbeam/site/internal/mail"
	"github.com/northbeam/site/internal/mailaddr"
	"github.com/northbeam/site/internal/store"
	"github.com/northbeam/site/internal/store/storetest"
)

// addMessage stores a contact message received at at, with its mails as
// the contact form queues them (none for spam).
func addMessage(t testing.TB, st *store.Store, at time.Time, name, email, text string, spam bool) string {
	t.Helper()
	r := contact.Record{Ref: uuid.NewString(), CreatedAt: at, Name: name, Email: email, Message: text, Lang: "fr", Spam: spam}
	if spam {
		r.SpamReason = contact.SpamHoneypot
	}
	var mails []mail.Message
	if !spam {
		mails = []mail.Message{
			{Kind: contact.KindNotify, To: "team@northbeam.test", ReplyTo: email, Subject: "New message from " + name, Text: name + " <" + email + ">\n" + text},
			{Kind: contact.KindAck, To: email, Subject: "Thanks", Text: "We got it."},
		}
	}
	if _, err := contact.Save(context.Background(), st, r, mails); err != nil {
		t.Fatal(err)
	}
	// Mail is queued now, in the outbox's own clock; date it as the message.
	exec(t, st, `UPDATE outbox SET created_at = ? WHERE created_at > ?`, store.Millis(at), store.Millis(at))
	return r.Ref
}

// addBooking stores a booking from start, 30 minutes long.
func addBooking(t testing.TB, st *store.Store, start time.Time, name, email, topic string) int64 {
	t.Helper()
	var id int64
	err := st.QueryRowContext(context.Background(), `
INSERT INTO bookings (token, cancel_token, service, start_at, end_at, busy_until, name, email, company, topic, time_zone, lang, created_at, email_key, phone)
VALUES (?, ?, 'strategy', ?, ?, ?, ?, ?, 'Acme', ?, 'Asia/Dubai', 'ar', ?, ?, '+971501234567') RETURNING id`,
		uuid.NewString(), uuid.NewString(), store.Millis(start), store.Millis(start.Add(30*time.Minute)), store.Millis(start.Add(40*time.Minute)),
		name, email, topic, store.Millis(start.Add(-48*time.Hour)), mailaddr.Key(email)).Scan(&id)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func TestInbox(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		w, _ := newWorkspace(t, st, monday)
		old := addMessage(t, st, monday.Add(-2*time.Hour), "Zoë Ørsted", "zoe@example.com", "Nous voulons migrer vers Kubernetes.", false)
		arabic := addMessage(t, st, monday.Add(-time.Hour), "سارة", "sara@example.com", "نريد تطوير منصة جديدة", false)
		spam := addMessage(t, st, monday.Add(-30*time.Minute), "Bot", "bot@example.com", "Buy 100% now_", true)

		page, err := w.Messages(ctx, MessageQuery{Folder: FolderNew})
		if err != nil {
			t.Fatal(err)
		}
		if len(page.Messages) != 2 || page.Messages[0].Ref != arabic || page.Messages[1].Ref != old {
			t.Errorf("new messages, newest first: %+v", page.Messages)
		}
		for _, q := range []struct{ search, want string }{
			{"zoë", old}, {"ZOE@", old}, {"kubernetes", old}, {"منصة", arabic}, {"سارة example", arabic},
			{"100%", ""}, {"now_", ""}, {"nobody", ""},
		} {
			page, err := w.Messages(ctx, MessageQuery{Folder: FolderNew, Search: q.search})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, m := range page.Messages {
				got = append(got, m.Ref)
			}
			if strings.Join(got, ",") != q.want {
				t.Errorf("search %q found %v, want %q", q.search, got, q.want)
			}
		}
		if page, _ := w.Messages(ctx, MessageQuery{Folder: FolderSpam, Search: "100%"}); len(page.Messages) != 1 {
			t.Errorf("the spam folder's search: %+v", page.Messages)
		}
		first, _ := w.Messages(ctx, MessageQuery{Folder: FolderNew, Limit: 1})
		second, _ := w.Messages(ctx, MessageQuery{Folder: FolderNew, Limit: 1, After: first.Next})
		if len(first.Messages) != 1 || first.Next == "" || len(second.Messages) != 1 || second.Messages[0].Ref != old || second.Next != "" {
			t.Errorf("pages: %+v then %+v", first, second)
		}

		m, err := w.SetHandled(ctx, old, true, "ada@northbeam.test")
		if err != nil || m.Folder() != FolderHandled {
			t.Errorf("handled: %+v %v", m, err)
		}
		counts, _ := w.FolderCounts(ctx)
		if counts[FolderNew] != 1 || counts[FolderHandled] != 1 || counts[FolderSpam] != 1 {
			t.Errorf("counts %v", counts)
		}
		before := count(t, st, `SELECT count(*) FROM outbox WHERE kind = ?`, contact.KindNotify)
		m, err = w.NotSpam(ctx, spam, "ada@northbeam.test")
		if err != nil || m.Folder() != FolderNew {
			t.Errorf("not spam: %+v %v", m, err)
		}
		if n := count(t, st, `SELECT count(*) FROM outbox WHERE kind = ? AND reply_to = 'bot@example.com'`, contact.KindNotify); n != 1 || before != 2 {
			t.Errorf("the notification spam never sent: %d queued (before: %d)", n, before)
		}
		if n := count(t, st, `SELECT count(*) FROM outbox WHERE kind = ? AND to_addr = 'bot@example.com'`, contact.KindAck); n != 1 {
			t.Errorf("the rescued message's visitor got %d acknowledgements, want 1", n)
		}
		if _, err := w.Message(ctx, "nope"); err != ErrNotFound {
			t.Errorf("unknown ref: %v", err)
		}
	})
}

// The CSV opened back with a CSV parser: a byte order mark, the columns in
// the member's language, formulas neutralised, accents and Arabic intact.
func TestExports(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		w, _ := newWorkspace(t, st, monday)
		addMessage(t, st, time.Date(2027, 5, 31, 22, 30, 0, 0, time.UTC), "=HYPERLINK(\"http://evil.test\",\"Zoë\")", "zoe@example.com", "+1 (555) 0100\r\nsecond line", false)
		addMessage(t, st, time.Date(2027, 6, 1, 10, 0, 0, 0, time.UTC), "سارة الحسيني", "sara@example.com", "-2+3, «guillemets» \"quotes\"", false)
		addMessage(t, st, time.Date(2027, 6, 30, 21, 59, 0, 0, time.UTC), "@Team", "team@example.com", "Last minute of June in Berlin", false)
		addMessage(t, st, time.Date(2027, 5, 30, 10, 0, 0, 0, time.UTC), "Before", "b@example.com", "not in range", false)
		addBooking(t, st, time.Date(2027, 6, 3, 8, 0, 0, 0, time.UTC), "Jürgen Weiß", "j@example.com", "\tTabbed topic")

		r, err := w.ParseRange("2027-06-01", "2027-06-30")
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		n, err := w.ExportMessages(ctx, &buf, r, "fr")
		if err != nil || n != 3 {
			t.Fatalf("exported %d messages: %v", n, err)
		}
		raw := buf.Bytes()
		if !bytes.HasPrefix(raw, []byte("\xEF\xBB\xBF")) {
			t.Error("no byte order mark")
		}
		if !bytes.Contains(raw, []byte("\r\n")) {
			t.Error("rows do not end in CRLF (RFC 4180)")
		}
		rows, err := csv.NewReader(bytes.NewReader(raw[3:])).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		if len(rows) != 4 || rows[0][2] != "Nom" || rows[0][1] != "Reçu (Europe/Berlin)" {
			t.Fatalf("rows %q", rows)
		}
		// 31 May 22:30 UTC is 1 June in Berlin: in range.
		if rows[1][1] != "2027-06-01 00:30" || rows[1][2] != `'=HYPERLINK("http://evil.test","Zoë")` || rows[1][8] != "'+1 (555) 0100\nsecond line" {
			t.Errorf("first row %q", rows[1])
		}
		if rows[2][2] != "سارة الحسيني" || rows[2][8] != `'-2+3, «guillemets» "quotes"` {
			t.Errorf("second row %q", rows[2])
		}
		if rows[3][2] != "'@Team" {
			t.Errorf("third row %q", rows[3])
		}
		for _, row := range rows {
			for _, cell := range row {
				if cell != "" && strings.ContainsRune("=+-@\t\r", rune(cell[0])) {
					t.Errorf("a cell a spreadsheet reads as a formula: %q", cell)
				}
			}
		}

		buf.Reset()
		if n, err := w.ExportBookings(ctx, &buf, r, "ar"); err != nil || n != 1 {
			t.Fatalf("exported %d bookings: %v", n, err)
		}
		rows, err = csv.NewReader(bytes.NewReader(buf.Bytes()[3:])).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		if len(rows) != 2 || rows[0][5] != "الاسم" || rows[1][5] != "Jürgen Weiß" || rows[1][9] != "'\tTabbed topic" || rows[1][1] != "جلسة استراتيجية" || rows[1][2] != "2027-06-03 10:00" {
			t.Errorf("bookings %q", rows)
		}

		for _, bad := range [][2]string{{"2027-06-30", "2027-06-01"}, {"yesterday", ""}, {"", "2027-13-01"}, {"1990-01-01", "2027-01-01"}} {
			if _, err := w.ParseRange(bad[0], bad[1]); err != ErrRange {
				t.Errorf("range %v: %v", bad, err)
			}
		}
		def, err := w.ParseRange("", "")
		if err != nil || def.Name() != "2026-06-08_2028-06-07" {
			t.Errorf("the default range, a year behind and a year ahead: %s, %v", def.Name(), err)
		}
		if to, err := w.ParseRange("", "2027-06-07"); err != nil || to.Name() != "2026-06-08_2027-06-07" {
			t.Errorf("a range ending on a given day: %s, %v", to.Name(), err)
		}
	})
}

// The retention job run with a clock moved forward: nothing older than the
// setting is left, once per day whichever instance runs it.
func TestRetention(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		start := time.Date(2026, 1, 10, 9, 0, 0, 0, time.UTC)
		w, clk := newWorkspace(t, st, start)
		oldMsg := addMessage(t, st, start, "Old Olga", "olga@example.com", "An old enquiry", false)
		oldSpam := addMessage(t, st, start, "Spammer", "spam@example.com", "spam", true)
		oldBooking := addBooking(t, st, start.Add(48*time.Hour), "Old Otto", "otto@example.com", "Old topic")
		cancelled := addBooking(t, st, start.AddDate(0, 14, 0), "Cancel Carla", "carla@example.com", "Far ahead")
		exec(t, st, `UPDATE bookings SET cancelled_at = ? WHERE id = ?`, store.Millis(start), cancelled)
		// 13 months later, newer things arrive.
		clk.Advance(13 * 30 * 24 * time.Hour)
		now := clk.Now()
		newMsg := addMessage(t, st, now.Add(-time.Hour), "New Nina", "nina@example.com", "A new enquiry", false)
		newSpam := addMessage(t, st, now.Add(-24*time.Hour), "Fresh spam", "fresh@example.com", "spam", true)
		youngSpam := addMessage(t, st, now.Add(-31*24*time.Hour), "Month-old spam", "old-spam@example.com", "spam", true)
		newBooking := addBooking(t, st, now.Add(-24*time.Hour), "New Nils", "nils@example.com", "New topic")

		report, err := w.RunRetention(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if !report.Ran || report.Messages != 1 || report.Spam != 2 || report.Bookings != 2 || report.Mail != 2 {
			t.Errorf("report %+v", report)
		}
		for _, gone := range []string{oldMsg, oldSpam, youngSpam} {
			if _, err := w.Message(ctx, gone); err != ErrNotFound {
				t.Errorf("message %s outlived the retention: %v", gone, err)
			}
		}
		for _, kept := range []string{newMsg, newSpam} {
			if _, err := w.Message(ctx, kept); err != nil {
				t.Errorf("message %s was deleted: %v", kept, err)
			}
		}
		for id, want := range map[int64]string{oldBooking: "", cancelled: "", newBooking: "New Nils"} {
			b, err := w.Booking(ctx, id)
			if err != nil || b.Name != want || (want == "" && (b.Email != "" || b.Topic != "" || b.Company != "")) {
				t.Errorf("booking %d: %+v %v", id, b, err)
			}
		}
		if b, _ := w.Booking(ctx, oldBooking); b.Start.IsZero() {
			t.Error("an anonymised booking lost its time")
		}
		cutoff := store.Millis(now.AddDate(0, -12, 0))
		if n := count(t, st, `SELECT count(*) FROM outbox WHERE created_at < ? AND (to_addr <> '' OR reply_to <> '' OR subject <> '' OR text_body <> '')`, cutoff); n != 0 {
			t.Errorf("%d old mails keep their addresses or text", n)
		}
		if n := count(t, st, `SELECT count(*) FROM outbox_attachments a JOIN outbox o ON o.id = a.outbox_id WHERE o.created_at < ?`, cutoff); n != 0 {
			t.Errorf("%d old attachments left", n)
		}
		if n := count(t, st, `SELECT count(*) FROM outbox WHERE reply_to = 'nina@example.com'`); n != 1 {
			t.Error("a new mail was cleared")
		}
		for _, who := range []string{"olga@", "otto@", "carla@", "Olga", "Otto"} {
			p := "%" + who + "%"
			if n := count(t, st, `SELECT count(*) FROM outbox WHERE to_addr LIKE ? OR reply_to LIKE ? OR text_body LIKE ? OR subject LIKE ?`, p, p, p, p) +
				count(t, st, `SELECT count(*) FROM bookings WHERE name LIKE ? OR email LIKE ?`, p, p) +
				count(t, st, `SELECT count(*) FROM messages WHERE name LIKE ? OR email LIKE ?`, p, p); n != 0 {
				t.Errorf("%q is still stored %d times", who, n)
			}
		}

		// Today's run is done: a second call, or another instance, skips it.
		if again, err := w.RunRetention(ctx); err != nil || again.Ran {
			t.Errorf("a second run the same day: %+v %v", again, err)
		}
		clk.Advance(24 * time.Hour)
		results := make(chan RetentionReport, 4)
		for range 4 {
			go func() {
				r, err := w.RunRetention(ctx)
				if err != nil {
					t.Error(err)
				}
				results <- r
			}()
		}
		ran := 0
		for range 4 {
			if (<-results).Ran {
				ran++
			}
		}
		if ran != 1 {
			t.Errorf("the next day, %d of 4 concurrent runs ran, want 1", ran)
		}
		var result string
		if err := st.QueryRowContext(ctx, `SELECT last_result FROM jobs WHERE name = 'retention'`).Scan(&result); err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(result, "messages:") {
			t.Errorf("the job's last result: %q", result)
		}
	})
}

// Several instances share one PostgreSQL database: each runs the job's
// loop, and each day's run happens once.
func TestRetentionOnceAcrossInstances(t *testing.T) {
	url := storetest.PostgresURL(t)
	ctx := context.Background()
	var instances []*Workspace
	var clocks []*clock
	for range 3 {
		st, err := store.OpenPostgres(ctx, url, 10*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		w, c := newWorkspace(t, st, monday)
		instances, clocks = append(instances, w), append(clocks, c)
	}
	for day := range 3 {
		ran := make(chan bool, len(instances))
		for i, w := range instances {
			clocks[i].Advance(24 * time.Hour)
			go func() {
				r, err := w.RunRetention(ctx)
				if err != nil {
					t.Error(err)
				}
				ran <- r.Ran
			}()
		}
		n := 0
		for range instances {
			if <-ran {
				n++
			}
		}
		if n != 1 {
			t.Errorf("day %d: %d instances ran the job, want 1", day, n)
		}
	}
}

// After an erasure the database no longer holds the address anywhere: not
// in a table, and on SQLite not in the file, its free pages or its
// write-ahead log either; the other people's data stays.
func TestErasure(t *testing.T) {
	for _, backend := range storetest.Backends {
		t.Run(string(backend), func(t *testing.T) {
			ctx := context.Background()
			st, dbPath := openWithFile(t, backend)
			w, _ := newWorkspace(t, st, monday)
			const address = "erase.me@example.com"
			long := strings.Repeat("Long text that spills into overflow pages. ", 200)
			addMessage(t, st, monday.Add(-time.Hour), "Erika Mustermann", address, "Please call me back, "+address+". "+long, false)
			addMessage(t, st, monday.Add(-2*time.Hour), "Erika Mustermann", "Erase.Me@Example.com", "Second message", true)
			keep := addMessage(t, st, monday.Add(-3*time.Hour), "Kept Karl", "karl@example.com", "Karl's own message", false)
			id := addBooking(t, st, monday.Add(72*time.Hour), "Erika Mustermann", address, "Topic with "+address)
			exec(t, st, `INSERT INTO outbox_attachments (outbox_id, filename, content_type, data)
SELECT id, 'invite.ics', 'text/calendar', ? FROM outbox WHERE to_addr = ?`, []byte("ATTENDEE:mailto:"+address), address)
			exec(t, st, `UPDATE outbox SET last_error = ? WHERE to_addr = ?`, "550 <"+address+">: mailbox unavailable", address)
			if err := w.Record(ctx, "ada@northbeam.test", ActionInvite, address, ""); err != nil {
				t.Fatal(err)
			}

			if _, err := w.AddNote(ctx, NoteOnBooking, strconv.FormatInt(id, 10), "Erika prefers mornings", "ada@northbeam.test"); err != nil {
				t.Fatal(err)
			}
			if _, err := w.AddNote(ctx, NoteOnMessage, keep, "Karl's own note", "ada@northbeam.test"); err != nil {
				t.Fatal(err)
			}

			p, err := w.FindPerson(ctx, address, "ada@northbeam.test")
			if err != nil {
				t.Fatal(err)
			}
			if len(p.Notes) != 1 || p.Notes[0].Text != "Erika prefers mornings" || p.Notes[0].About != NoteOnBooking {
				t.Errorf("the notes on the person's data: %+v", p.Notes)
			}
			if len(p.Messages) != 2 || len(p.Bookings) != 1 || len(p.Mail) != 2 || len(p.Mail[0].Attachments)+len(p.Mail[1].Attachments) != 1 {
				t.Errorf("found %d messages, %d bookings, %d mails: %+v", len(p.Messages), len(p.Bookings), len(p.Mail), p.Mail)
			}
			// The download holds every personal field the booking stores.
			download, err := json.Marshal(p)
			if err != nil {
				t.Fatal(err)
			}
			for _, field := range []string{"Erika Mustermann", address, "Acme", "Topic with", "+971501234567", "prefers mornings"} {
				if !strings.Contains(string(download), field) {
					t.Errorf("the download leaves out %q", field)
				}
			}
			erased, err := w.ErasePerson(ctx, address, []string{address, "Erase.Me@Example.com"}, "ada@northbeam.test")
			if err != nil {
				t.Fatal(err)
			}
			if erased != (Erased{Messages: 2, Bookings: 1, Mail: 2}) {
				t.Errorf("erased %+v", erased)
			}
			if p, _ := w.FindPerson(ctx, address, "ada@northbeam.test"); !p.Empty() {
				t.Errorf("still found: %+v", p)
			}
			b, err := w.Booking(ctx, id)
			if err != nil || b.Name != "" || b.Email != "" || b.Topic != "" || b.Cancelled.IsZero() == false || b.Start.IsZero() {
				t.Errorf("the booking keeps its time, nothing else: %+v %v", b, err)
			}
			if _, err := w.Message(ctx, keep); err != nil {
				t.Errorf("another person's message was erased: %v", err)
			}
			if n := count(t, st, `SELECT count(*) FROM outbox WHERE reply_to = 'karl@example.com'`); n != 1 {
				t.Errorf("another person's mail was erased")
			}

			if notes, err := w.Notes(ctx, NoteOnMessage, keep); err != nil || len(notes) != 1 {
				t.Errorf("another person's note: %+v %v", notes, err)
			}
			assertForgotten(t, st, dbPath, strings.ToLower(address), "Erika", "Mustermann", "+971501234567", "prefers mornings")
		})
	}
}

// openWithFile returns a fresh store on backend and, on SQLite, the path
// of its file.
func openWithFile(t *testing.T, backend store.Backend) (*store.Store, string) {
	t.Helper()
	if backend != store.SQLite {
		return storetest.Open(t, backend), ""
	}
	dbPath := filepath.Join(t.TempDir(), "site.db")
	st, err := store.Open(context.Background(), dbPath)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st, dbPath
}

// assertForgotten fails when the database still holds any of needles, in
// any case: on SQLite in the bytes of its files (the database, its
// write-ahead log and shared memory), while the site runs and once it has
// stopped (st is closed); on PostgreSQL in any row of any table.
func assertForgotten(t *testing.T, st *store.Store, dbPath string, needles ...string) {
	t.Helper()
	ctx := context.Background()
	if st.Backend() == store.SQLite {
		for _, when := range []string{"running", "stopped"} {
			if when == "stopped" {
				st.Close()
			}
			for _, file := range []string{dbPath, dbPath + "-wal", dbPath + "-shm"} {
				data, err := os.ReadFile(file)
				if os.IsNotExist(err) {
					continue
				}
				if err != nil {
					t.Fatal(err)
				}
				for _, n := range needles {
					if c := bytes.Count(bytes.ToLower(data), []byte(strings.ToLower(n))); c > 0 {
						t.Errorf("%s, site %s: still holds %q %d times", filepath.Base(file), when, n, c)
					}
				}
			}
		}
		return
	}
	tables, err := store.QueryAll(ctx, st, store.Column[string], `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()`)
	if err != nil {
		t.Fatal(err)
	}
	if len(tables) < 10 {
		t.Fatalf("only %d tables: %v", len(tables), tables)
	}
	for _, table := range tables {
		for _, n := range needles {
			// Every column as text; a bytea column's bytes too.
			q := `SELECT count(*) FROM ` + table + ` t WHERE lower(row_to_json(t)::text) LIKE ?`
			if table == "outbox_attachments" {
				q = `SELECT count(*) FROM outbox_attachments WHERE lower(convert_from(data, 'UTF8') || filename) LIKE ?`
			}
			if c := count(t, st, q, "%"+strings.ToLower(n)+"%"); c != 0 {
				t.Errorf("table %s still holds %q in %d rows", table, n, c)
			}
		}
	}
}

// The retention job forgets the team's notes with what they were about: a
// note on a message it deletes, and on a booking it empties, goes, and
// its text leaves the audit log; a note on a newer message stays.
func TestRetentionForgetsNotes(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		start := time.Date(2026, 1, 10, 9, 0, 0, 0, time.UTC)
		w, clk := newWorkspace(t, st, start)
		oldMsg := addMessage(t, st, start, "Old Olga", "olga@example.com", "An old enquiry", false)
		oldBooking := addBooking(t, st, start.Add(48*time.Hour), "Old Otto", "otto@example.com", "Old topic")
		for subject, ref := range map[string]string{NoteOnMessage: oldMsg, NoteOnBooking: fmt.Sprint(oldBooking)} {
			if _, err := w.AddNote(ctx, subject, ref, "Olga's mobile: +49 170 1234567", "ada@northbeam.test"); err != nil {
				t.Fatal(err)
			}
		}
		clk.Advance(13 * 30 * 24 * time.Hour)
		newMsg := addMessage(t, st, clk.Now().Add(-time.Hour), "New Nina", "nina@example.com", "A new enquiry", false)
		if _, err := w.AddNote(ctx, NoteOnMessage, newMsg, "Nina: call back on Monday", "ada@northbeam.test"); err != nil {
			t.Fatal(err)
		}
		if _, err := w.RunRetention(ctx); err != nil {
			t.Fatal(err)
		}
		if n := count(t, st, `SELECT count(*) FROM staff_notes WHERE body LIKE '%Olga%'`) + count(t, st, `SELECT count(*) FROM staff_audit WHERE detail LIKE '%Olga%'`); n != 0 {
			t.Errorf("%d notes on what the retention removed are left", n)
		}
		if notes, err := w.Notes(ctx, NoteOnMessage, newMsg); err != nil || len(notes) != 1 {
			t.Errorf("the newer message's notes: %+v %v", notes, err)
		}
	})
}
