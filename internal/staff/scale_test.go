package staff

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/northbeam/site/internal/store"
	"github.com/northbeam/site/internal/store/storetest"
)

// refs returns the refs of messages, in their order.
func refs(ms []Message) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.Ref
	}
	return out
}

// TestSearchFindsWords searches the inbox and the agenda for words of the
// site's languages, an address, a phone number and a name, accents aside,
// on both engines.
func TestSearchFindsWords(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		w, _ := newWorkspace(t, st, monday)
		at := monday.Add(-time.Hour)
		french := addMessage(t, st, at, "Chloé Lefèvre", "chloe@example.fr", "Voici mon résumé du projet, merci.", false)
		german := addMessage(t, st, at.Add(time.Minute), "Jörg Weiß", "joerg@example.de", "Unser Büro ist in der Hauptstraße 12, München.", false)
		typed := addMessage(t, st, at.Add(2*time.Minute), "Hans Keller", "hans@example.de", "Wir sitzen in der Bahnhofstrasse 3.", false)
		arabic := addMessage(t, st, at.Add(3*time.Minute), "سارة العلي", "sara@example.com", "مرحبا، نود تحديث منصتنا", false)
		phone := addMessage(t, st, at.Add(4*time.Minute), "Omar Haddad", "person4242@example.com", "Rufen Sie mich an: +49 30 901820.", false)
		other := addMessage(t, st, at.Add(5*time.Minute), "Person Fortytwo", "person42@example.org", "Presume nothing; consume less.", false)
		booked := addBooking(t, st, monday.Add(48*time.Hour), "Amélie Dubois", "amelie@example.fr", "Refonte de la plateforme")
		exec(t, st, `UPDATE bookings SET phone = '+4930901820' WHERE id = ?`, booked)
		karim := addBooking(t, st, monday.Add(72*time.Hour), "Karim Benali", "karim@example.com", "Audit de sécurité")

		for _, c := range []struct {
			search string
			want   []string
		}{
			{"resume", []string{french}},        // résumé, accents aside
			{"RÉSUMÉ", []string{french}},        // any case
			{"chloe lefevre", []string{french}}, // a name, without its accents
			{"Hauptstraße", []string{german}},   // as written
			{"Bahnhofstrasse", []string{typed}}, // as typed
			{"jörg", []string{german}},          // a name with its accent
			{"مرحبا", []string{arabic}},         // an Arabic word
			{"منصتنا مرحبا", []string{arabic}},  // two, in any order
			{"person4242@", []string{phone}},    // an address as typed so far
			{"person4242@example.com", []string{phone}},
			{"+49 30 901820", []string{phone}},   // a phone number
			{"sume", nil},                        // a word's inside is no word
			{"person42", []string{other, phone}}, // the beginning of a word, newest first
			{"résumé München", nil},              // every word must be found
		} {
			page, err := w.Messages(ctx, MessageQuery{Folder: FolderNew, Search: c.search})
			if err != nil {
				t.Fatalf("%q: %v", c.search, err)
			}
			if got := refs(page.Messages); !slices.Equal(got, c.want) {
				t.Errorf("search %q found %v, want %v", c.search, got, c.want)
			}
		}

		for _, c := range []struct {
			search string
			want   []int64
		}{
			{"amelie", []int64{booked}},
			{"plateforme", []int64{booked}},
			{"securite", []int64{karim}},
			{"+49 30 901820", []int64{booked}},
			{"amelie@example.fr", []int64{booked}},
		} {
			page, err := w.Bookings(ctx, BookingQuery{View: ViewUpcoming, Search: c.search})
			if err != nil {
				t.Fatalf("%q: %v", c.search, err)
			}
			var got []int64
			for _, b := range page.Bookings {
				got = append(got, b.ID)
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("search %q found %v, want %v", c.search, got, c.want)
			}
		}
	})
}

// TestErasureAndRetentionLeaveTheSearch checks that a person erased, or a
// message past retention, is found by no search, and that SQLite's search
// index itself no longer points at them.
func TestErasureAndRetentionLeaveTheSearch(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		w, clk := newWorkspace(t, st, monday)
		addMessage(t, st, monday.Add(-time.Hour), "Élodie Rousseau", "elodie@example.fr", "Un devis pour une refonte, s'il vous plaît.", false)
		id := addBooking(t, st, monday.Add(24*time.Hour), "Élodie Rousseau", "elodie@example.fr", "Refonte")
		addMessage(t, st, monday.AddDate(-2, 0, 0), "Lukas Fischer", "lukas@example.de", "Angebot für eine Plattformmigration.", false)
		keep := addMessage(t, st, monday.Add(-2*time.Hour), "Noor Nasser", "noor@example.com", "Plattformmigration bitte.", false)
		found := func(search string) ([]string, []int64) {
			t.Helper()
			page, err := w.Messages(ctx, MessageQuery{Folder: FolderNew, Search: search})
			if err != nil {
				t.Fatal(err)
			}
			bookings, err := w.Bookings(ctx, BookingQuery{View: ViewUpcoming, Search: search})
			if err != nil {
				t.Fatal(err)
			}
			var ids []int64
			for _, b := range bookings.Bookings {
				ids = append(ids, b.ID)
			}
			return refs(page.Messages), ids
		}
		if ms, bs := found("elodie"); len(ms) != 1 || !slices.Equal(bs, []int64{id}) {
			t.Fatalf("before the erasure: %v, %v", ms, bs)
		}
		if _, err := w.ErasePerson(ctx, "elodie@example.fr", nil, "ada@northbeam.test"); err != nil {
			t.Fatal(err)
		}
		if ms, bs := found("elodie"); len(ms) != 0 || len(bs) != 0 {
			t.Errorf("after the erasure, a search still finds %v, %v", ms, bs)
		}
		clk.Advance(time.Hour)
		if _, err := w.RunRetention(ctx); err != nil {
			t.Fatal(err)
		}
		if ms, _ := found("plattformmigration"); !slices.Equal(ms, []string{keep}) {
			t.Errorf("after the retention run, the search finds %v, want the recent message alone", ms)
		}
		if st.Backend() == store.SQLite {
			// The index's pages themselves: a word that shares no
			// beginning with another is stored whole in them, until the
			// segments holding it and its deletion merge.
			if n := count(t, st, `SELECT count(*) FROM messages_search_data WHERE instr(block, CAST('plattformmigration' AS BLOB)) > 0`); n == 0 {
				t.Error("the check of the index's pages finds no word the index holds")
			}
			if n := count(t, st, `SELECT count(*) FROM messages_search_data WHERE instr(block, CAST('lukas' AS BLOB)) > 0`); n != 0 {
				t.Errorf("%d pages of the messages' search index still hold a deleted word", n)
			}
			for _, word := range []string{"elodie", "rousseau", "lukas", "fischer"} {
				if n := count(t, st, `SELECT count(*) FROM messages_search WHERE messages_search MATCH ?`, word); n != 0 {
					t.Errorf("the messages' search index still holds %q (%d rows)", word, n)
				}
				if n := count(t, st, `SELECT count(*) FROM bookings_search WHERE bookings_search MATCH ?`, word); n != 0 {
					t.Errorf("the bookings' search index still holds %q (%d rows)", word, n)
				}
			}
		}
	})
}

// TestCountsKeepInStep moves messages and bookings through everything that
// changes a folder or a view, and holds the kept counts to the rows.
func TestCountsKeepInStep(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		w, clk := newWorkspace(t, st, monday)
		var refsAll []string
		for i := range 12 {
			refsAll = append(refsAll, addMessage(t, st, monday.Add(-time.Duration(i)*40*24*time.Hour), fmt.Sprintf("Visitor %d", i),
				fmt.Sprintf("visitor%d@example.com", i%5), "Hello there, a project.", i%4 == 0))
		}
		var ids []int64
		for i := range 8 {
			ids = append(ids, addBooking(t, st, monday.Add(time.Duration(i-4)*100*24*time.Hour), "Caller", fmt.Sprintf("caller%d@example.com", i), "Topic"))
		}
		check := func(step string) {
			t.Helper()
			counts, err := w.FolderCounts(ctx)
			if err != nil {
				t.Fatal(err)
			}
			want := map[string]int{
				FolderNew:     count(t, st, `SELECT count(*) FROM messages WHERE spam = false AND handled_at IS NULL`),
				FolderHandled: count(t, st, `SELECT count(*) FROM messages WHERE spam = false AND handled_at IS NOT NULL`),
				FolderSpam:    count(t, st, `SELECT count(*) FROM messages WHERE spam = true`),
				Unread:        count(t, st, `SELECT count(*) FROM messages WHERE spam = false AND handled_at IS NULL AND read_at IS NULL`),
			}
			for k, n := range want {
				if counts[k] != n {
					t.Errorf("%s: %s counts %d, the table holds %d", step, k, counts[k], n)
				}
			}
			// The team's counts, and each host's beside their lists.
			for _, host := range []string{"", "ana", "ben"} {
				views, err := w.BookingCounts(ctx, host)
				if err != nil {
					t.Fatal(err)
				}
				now := store.Millis(w.Now())
				of := ` AND (? = '' OR host = ?)`
				wantViews := map[string]int{
					ViewUpcoming:  count(t, st, `SELECT count(*) FROM bookings WHERE cancelled_at IS NULL AND end_at > ?`+of, now, host, host),
					ViewPast:      count(t, st, `SELECT count(*) FROM bookings WHERE cancelled_at IS NULL AND end_at <= ?`+of, now, host, host),
					ViewCancelled: count(t, st, `SELECT count(*) FROM bookings WHERE cancelled_at IS NOT NULL`+of, host, host),
				}
				for k, n := range wantViews {
					if views[k] != n {
						t.Errorf("%s: %s of host %q counts %d, the table holds %d", step, k, host, views[k], n)
					}
				}
			}
		}
		check("as received")
		must := func(_ Message, err error) {
			t.Helper()
			if err != nil {
				t.Fatal(err)
			}
		}
		must(w.MarkRead(ctx, refsAll[1], true))
		must(w.SetHandled(ctx, refsAll[2], true, "ada@northbeam.test"))
		must(w.SetHandled(ctx, refsAll[3], true, "ada@northbeam.test"))
		must(w.SetHandled(ctx, refsAll[3], false, "ada@northbeam.test"))
		must(w.MarkSpam(ctx, refsAll[5], "ada@northbeam.test"))
		must(w.NotSpam(ctx, refsAll[0], "ada@northbeam.test"))
		must(w.MarkRead(ctx, refsAll[6], true))
		must(w.MarkRead(ctx, refsAll[6], false))
		check("read, filed, moved")
		exec(t, st, `UPDATE bookings SET cancelled_at = ? WHERE id IN (?, ?)`, store.Millis(monday), ids[1], ids[6])
		exec(t, st, `UPDATE bookings SET cancelled_at = NULL WHERE id = ?`, ids[1])
		check("cancelled, reinstated")
		// Hosts given, handed over, and a host's booking cancelled.
		exec(t, st, `UPDATE bookings SET host = 'ana' WHERE id IN (?, ?, ?, ?)`, ids[0], ids[2], ids[5], ids[6])
		exec(t, st, `UPDATE bookings SET host = 'ben' WHERE id IN (?, ?)`, ids[3], ids[7])
		check("hosts given")
		exec(t, st, `UPDATE bookings SET host = 'ben' WHERE id = ?`, ids[5])
		exec(t, st, `UPDATE bookings SET cancelled_at = ? WHERE id = ?`, store.Millis(monday), ids[7])
		exec(t, st, `UPDATE bookings SET host = 'ana', cancelled_at = NULL WHERE id = ?`, ids[7])
		check("handed over, cancelled, reinstated with another host")
		exec(t, st, `DELETE FROM bookings WHERE id = ?`, ids[2])
		check("deleted")
		clk.Advance(200 * 24 * time.Hour) // upcoming ones become past
		check("time passed")
		if _, err := w.ErasePerson(ctx, "visitor2@example.com", nil, "ada@northbeam.test"); err != nil {
			t.Fatal(err)
		}
		check("erased")
		if _, err := w.RunRetention(ctx); err != nil {
			t.Fatal(err)
		}
		check("past retention")
	})
}

// TestPagesLoseNothing pages through every list of the workspace while
// rows are added between pages, ties of time included: each row there at
// the start is seen exactly once, in order.
func TestPagesLoseNothing(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		w, _ := newWorkspace(t, st, monday)
		var want []string
		for i := range 120 {
			// Pairs received in the same millisecond.
			at := monday.Add(-time.Duration(i/2) * time.Minute)
			want = append(want, addMessage(t, st, at, fmt.Sprintf("Visitor %d", i), fmt.Sprintf("v%d@example.com", i), "A project to discuss.", false))
		}
		var wantBookings []int64
		for i := range 120 {
			wantBookings = append(wantBookings, addBooking(t, st, monday.Add(time.Duration(i+10)*time.Hour), "Caller", fmt.Sprintf("c%d@example.com", i), "Topic"))
		}
		added := 0
		addMore := func() {
			added++
			addMessage(t, st, monday.Add(time.Duration(added)*time.Second), "Late", fmt.Sprintf("late%d@example.com", added), "Arrived while paging.", false)
			// A booking sooner than those paged past, and one later.
			addBooking(t, st, monday.Add(time.Duration(added)*45*time.Minute), "Early", "early@example.com", "Topic")
			addBooking(t, st, monday.Add(time.Duration(500+added)*time.Hour), "Later", "later@example.com", "Topic")
		}

		var seen []string
		after := ""
		pages := 0
		for {
			page, err := w.Messages(ctx, MessageQuery{Folder: FolderNew, After: after})
			if err != nil {
				t.Fatal(err)
			}
			if len(page.Messages) > PageSize {
				t.Fatalf("a page of %d messages", len(page.Messages))
			}
			for _, m := range page.Messages {
				seen = append(seen, m.Ref)
			}
			pages++
			if page.Next == "" {
				break
			}
			after = page.Next
			addMore()
		}
		// Newest first; of two received together, the one stored last.
		for i := 0; i < len(want); i += 2 {
			want[i], want[i+1] = want[i+1], want[i]
		}
		if !slices.Equal(seen, want) {
			t.Errorf("paged messages: %d seen, %d stored; lost or repeated rows", len(seen), len(want))
		}
		if pages != 3 {
			t.Errorf("%d pages of messages, want 3", pages)
		}

		var seenBookings []int64
		after = ""
		for {
			page, err := w.Bookings(ctx, BookingQuery{View: ViewUpcoming, After: after})
			if err != nil {
				t.Fatal(err)
			}
			for _, b := range page.Bookings {
				if b.Name == "Caller" {
					seenBookings = append(seenBookings, b.ID)
				}
			}
			if page.Next == "" {
				break
			}
			after = page.Next
			addMore()
		}
		if !slices.Equal(seenBookings, wantBookings) {
			t.Errorf("paged bookings: %v, want %v", seenBookings, wantBookings)
		}

		// The outbox and the audit log, newest first.
		wantMail, err := store.QueryAll(ctx, st, store.Column[string], `SELECT ref FROM outbox ORDER BY id DESC`)
		if err != nil {
			t.Fatal(err)
		}
		var mails []string
		before := ""
		for {
			page, err := w.RecentMail(ctx, before)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range page.Mail {
				mails = append(mails, m.Ref)
			}
			if page.Next == "" {
				break
			}
			before = page.Next
			addMore()
		}
		if !slices.Equal(mails, wantMail) {
			t.Errorf("paged outbox: %d mails seen, %d stored; lost or repeated mails", len(mails), len(wantMail))
		}

		// The mail that could not be sent, newest first, ties of time
		// included: a page's last mail retried (no longer troubled) still
		// marks where the next page starts.
		exec(t, st, `UPDATE outbox SET state = 'failed', attempts = 3`)
		wantTroubled, err := store.QueryAll(ctx, st, store.Column[string], `SELECT ref FROM outbox ORDER BY created_at DESC, id DESC`)
		if err != nil {
			t.Fatal(err)
		}
		if ties := count(t, st, `SELECT count(*) FROM outbox a JOIN outbox b ON a.created_at = b.created_at AND a.id < b.id`); len(wantTroubled) <= 2*PageSize || ties == 0 {
			t.Fatalf("%d troubled mails, %d ties of time: the test needs more than two pages, and ties", len(wantTroubled), ties)
		}
		var troubled []string
		before = ""
		for {
			page, err := w.TroubledMail(ctx, before)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range page.Mail {
				troubled = append(troubled, m.Ref)
			}
			if page.Next == "" {
				break
			}
			before = page.Next
			exec(t, st, `UPDATE outbox SET state = 'pending', attempts = 0 WHERE ref = ?`, before)
			// A message, and its mail, arrived meanwhile.
			added++
			addMessage(t, st, monday.Add(time.Duration(added)*time.Second), "Late", fmt.Sprintf("late%d@example.com", added), "Arrived while paging.", false)
		}
		if !slices.Equal(troubled, wantTroubled) {
			t.Errorf("paged troubled mail: %d seen, %d stored; lost or repeated mails", len(troubled), len(wantTroubled))
		}
		if _, err := w.TroubledMail(ctx, "no-such-mail"); !errors.Is(err, ErrCursor) {
			t.Errorf("an unknown cursor: %v, want ErrCursor", err)
		}
		for i := range 130 {
			if err := record(ctx, st, monday.Add(time.Duration(i)*time.Second), "ada@northbeam.test", ActionExport, fmt.Sprint(i), ""); err != nil {
				t.Fatal(err)
			}
		}
		wantEntries, err := store.QueryAll(ctx, st, store.Column[int64], `SELECT id FROM staff_audit ORDER BY id DESC`)
		if err != nil {
			t.Fatal(err)
		}
		var entries []int64
		var cursor int64
		for {
			page, err := w.Audit(ctx, cursor, PageSize)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range page.Entries {
				entries = append(entries, e.ID)
			}
			if page.Next == 0 {
				break
			}
			cursor = page.Next
			if err := record(ctx, st, monday, "ada@northbeam.test", ActionExport, "late", ""); err != nil {
				t.Fatal(err)
			}
		}
		if !slices.Equal(entries, wantEntries) {
			t.Errorf("paged audit log: %d entries seen, %d stored; lost or repeated entries", len(entries), len(wantEntries))
		}
	})
}

// logRecorder keeps the records of a slog.Logger and calls seen on each.
type logRecorder struct {
	mu      sync.Mutex
	records []slog.Record
	seen    func(slog.Record)
}

func (h *logRecorder) Enabled(context.Context, slog.Level) bool { return true }
func (h *logRecorder) Handle(_ context.Context, r slog.Record) error {
	h.mu.Lock()
	h.records = append(h.records, r)
	h.mu.Unlock()
	h.seen(r)
	return nil
}
func (h *logRecorder) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h *logRecorder) WithGroup(string) slog.Handler      { return h }

// TestRetentionInBatches runs the daily job with batches far smaller than
// what it removes: everything past retention goes, in several
// transactions, the rest stays, the counts follow, and its log line says
// what it removed and how long it took.
func TestRetentionInBatches(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		w, _ := newWorkspace(t, st, monday)
		w.cfg.RetentionBatch = 3
		w.cfg.RetentionBatchTime = time.Hour // every batch as large as allowed
		old := monday.AddDate(-2, 0, 0)
		for i := range 10 {
			addMessage(t, st, old.Add(time.Duration(i)*time.Hour), "Old", fmt.Sprintf("old%d@example.com", i), "An old message.", false)
		}
		for i := range 7 {
			addMessage(t, st, monday.AddDate(0, 0, -40).Add(time.Duration(i)*time.Hour), "Spam", "spam@example.com", "Buy now.", true)
		}
		kept := addMessage(t, st, monday.Add(-time.Hour), "Recent", "recent@example.com", "A recent message.", false)
		for i := range 5 {
			addBooking(t, st, old.Add(time.Duration(i)*24*time.Hour), "Past Caller", fmt.Sprintf("past%d@example.com", i), "Topic")
		}
		transactions := 0
		st.Observe(func(query string, _ []any) {
			if strings.HasPrefix(strings.TrimSpace(query), "DELETE FROM messages WHERE id IN") {
				transactions++
			}
		})
		defer st.Observe(nil)

		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		var line slog.Record
		logs := &logRecorder{seen: func(r slog.Record) {
			if r.Message == "retention job ran" {
				line = r
				cancel()
			}
		}}
		w.cfg.Logger = slog.New(logs)
		w.RunRetentionDaily(ctx) // returns once the line is logged
		st.Observe(nil)

		attrs := map[string]string{}
		line.Attrs(func(a slog.Attr) bool {
			attrs[a.Key] = a.Value.String()
			return true
		})
		if attrs["messages"] != "10" || attrs["spam"] != "7" || attrs["bookings"] != "5" || attrs["mail"] != "20" {
			t.Errorf("the log line says %v; want 10 messages, 7 spam, 5 bookings, 20 mails", attrs)
		}
		if took, err := time.ParseDuration(attrs["took"]); err != nil || took <= 0 {
			t.Errorf("the log line's took = %q, want how long the run took", attrs["took"])
		}
		if transactions != 7 { // 7 spam, then 10 messages, 3 at a time: 3 + 4
			t.Errorf("%d transactions deleted messages, want 7 of at most 3", transactions)
		}
		if n := count(t, st, `SELECT count(*) FROM messages`); n != 1 {
			t.Errorf("%d messages left, want the recent one", n)
		}
		if _, err := w.Message(context.Background(), kept); err != nil {
			t.Errorf("the recent message: %v", err)
		}
		if n := count(t, st, `SELECT count(*) FROM bookings WHERE name <> ''`); n != 0 {
			t.Errorf("%d old bookings still name their visitor", n)
		}
		counts, err := w.FolderCounts(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if counts[FolderNew] != 1 || counts[FolderSpam] != 0 {
			t.Errorf("counts after the run: %v", counts)
		}
	})
}

// TestRetentionBatchesFollowTheirTime: a batch that holds the database
// longer than Config.RetentionBatchTime makes the next one smaller, down
// to a row at a time, and one well within it makes the next larger, up to
// Config.RetentionBatch; whatever the sizes, everything past retention
// goes and nothing else.
func TestRetentionBatchesFollowTheirTime(t *testing.T) {
	for _, c := range []struct {
		size        int
		took        time.Duration
		most, wants int
	}{
		{50, time.Millisecond, 500, 100},      // well within 20 ms: twice as many
		{400, time.Millisecond, 500, 500},     // never more than the most
		{100, 40 * time.Millisecond, 500, 50}, // twice too long: half as many
		{100, time.Second, 500, 25},           // far too long: a quarter at once
		{3, time.Second, 500, 1},              // never fewer than one
		{50, 20 * time.Millisecond, 500, 50},  // on time: as many again
	} {
		if got := nextBatch(c.size, c.took, 20*time.Millisecond, c.most); got != c.wants {
			t.Errorf("after %d rows in %v: %d, want %d", c.size, c.took, got, c.wants)
		}
	}
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		w, _ := newWorkspace(t, st, monday)
		w.cfg.RetentionBatch = 3
		w.cfg.RetentionBatchTime = time.Nanosecond // every batch too long
		for i := range 6 {
			addMessage(t, st, monday.AddDate(-2, 0, i), "Old", fmt.Sprintf("old%d@example.com", i), "An old message.", false)
		}
		kept := addMessage(t, st, monday.Add(-time.Hour), "Recent", "recent@example.com", "A recent message.", false)
		var sizes []int
		st.Observe(func(query string, args []any) {
			if strings.HasPrefix(strings.TrimSpace(query), "DELETE FROM messages WHERE id IN") {
				sizes = append(sizes, len(args)-1) // the ids, and the cutoff
			}
		})
		defer st.Observe(nil)
		r, err := w.RunRetention(context.Background())
		st.Observe(nil)
		if err != nil {
			t.Fatal(err)
		}
		if want := []int{3, 1, 1, 1}; !slices.Equal(sizes, want) {
			t.Errorf("batches of %v messages, want %v", sizes, want)
		}
		if r.Messages != 6 || count(t, st, `SELECT count(*) FROM messages`) != 1 {
			t.Errorf("the run deleted %d messages, %d left; want 6, and the recent one left", r.Messages, count(t, st, `SELECT count(*) FROM messages`))
		}
		if _, err := w.Message(context.Background(), kept); err != nil {
			t.Errorf("the recent message: %v", err)
		}
	})
}

// TestSearchIndexStructure: the pages of an FTS5 index are read from its
// structure record, in SQLite's format of the version the site is built
// with (the merge after an erasure or a retention run is measured by it);
// a record the code does not know is refused, never misread.
func TestSearchIndexStructure(t *testing.T) {
	// Five segments of a page each on the first of two levels, as SQLite
	// 3.53 wrote them for 50 rows.
	record := []byte{0, 0, 0, 0, 2, 5, 0x32, 0, 5, 0x11, 1, 1, 1, 1, 1, 2, 1, 1, 3, 1, 1, 4, 1, 1, 0, 0}
	if pages, err := fts5Pages(record); err != nil || pages != 5 {
		t.Errorf("the record of five one-page segments: %d pages, %v", pages, err)
	}
	if _, err := fts5Pages(record[:12]); err == nil {
		t.Error("a record cut short is read")
	}
	// SQLite's alone: PostgreSQL's search is a GIN index, which VACUUM
	// cleans.
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "site.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for i := range 40 {
		addMessage(t, st, monday.Add(-time.Duration(i)*time.Hour), "Jörg Straße", fmt.Sprintf("j%d@example.de", i), "Voici mon résumé.", false)
	}
	var stored []byte
	if err := st.QueryRowContext(context.Background(), `SELECT block FROM messages_search_data WHERE id = 10`).Scan(&stored); err != nil {
		t.Fatal(err)
	}
	if pages, err := fts5Pages(stored); err != nil || pages < 1 {
		t.Errorf("the messages' search index: %d pages, %v (record % x)", pages, err, stored)
	}
}
