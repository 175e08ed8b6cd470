package staff

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/northbeam/site/internal/booking"
	"github.com/northbeam/site/internal/store"
	"github.com/northbeam/site/internal/store/storetest"
)

// smallTables hold a row per member, session, link or job, never a row per
// visitor: reading them whole costs nothing as the inbox grows.
var smallTables = []string{"staff", "staff_passkeys", "staff_tokens", "staff_sessions", "staff_ceremonies", "jobs", "workspace_counts", "health_probe",
	"staff_calendar_feeds", "staff_feed_tokens"}

// TestWorkspacePlans runs what the workspace does, from the inbox to the
// retention job, hears every statement it sends to the database, and
// fails for each whose plan reads a visitors' table whole
// (docs/ARCHITECTURE.md, Data): SQLite's EXPLAIN QUERY PLAN "SCAN <table>"
// without an index, PostgreSQL's "Seq Scan". On PostgreSQL the plans are
// made with enable_seqscan off: the seeded tables are small, and for a
// small table PostgreSQL rightly reads it whole; what this test guards is
// that an index can serve every query, and with sequential scans off a
// "Seq Scan" is still chosen exactly when none can (at 100,000 messages,
// `go run ./bench staff` has PostgreSQL choose the same indexes by itself).
// A list must also come in its index's order: a sort of the whole table
// (SQLite's "USE TEMP B-TREE FOR ORDER BY", PostgreSQL's "Sort" over a
// scan) fails too, but after a word search, which sorts only its matches.
func TestWorkspacePlans(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		w, clk := newWorkspace(t, st, monday)
		// Batches smaller than the tables, as they are at scale: a batch
		// of 500 out of these few hundred rows is better read whole.
		w.cfg.RetentionBatch = 20
		for i := range 300 {
			at := monday.Add(-time.Duration(i) * 61 * time.Hour)
			ref := addMessage(t, st, at, fmt.Sprintf("Jörg Straße %d", i), fmt.Sprintf("person%d@example.com", i),
				"Voici mon résumé, appelez le +49 30 901820.", i%10 == 0)
			if i%3 == 0 && i%10 != 0 {
				exec(t, st, `UPDATE messages SET handled_at = ? WHERE ref = ?`, store.Millis(at), ref)
			}
			if err := record(ctx, st, at, "ada@northbeam.test", ActionMessageHandled, ref, ""); err != nil {
				t.Fatal(err)
			}
		}
		for i := range 200 {
			id := addBooking(t, st, monday.Add(time.Duration(i-100)*100*time.Hour), fmt.Sprintf("Amélie %d", i), fmt.Sprintf("person%d@example.com", i), "Migration")
			if i%7 == 0 {
				exec(t, st, `UPDATE bookings SET cancelled_at = ? WHERE id = ?`, store.Millis(monday), id)
			}
			// Three hosts share the bookings, and some have none.
			exec(t, st, `UPDATE bookings SET host = ? WHERE id = ?`, []string{"", "samira-haddad", "jonas-becker", "lena-hartmann"}[i%4], id)
		}
		member, session := signIn(t, w, st, "ada@northbeam.test")
		exec(t, st, `ANALYZE`)

		var mu sync.Mutex
		heard := map[string][]any{}
		st.Observe(func(query string, args []any) {
			mu.Lock()
			defer mu.Unlock()
			heard[query] = args
		})
		defer st.Observe(nil)
		must := func(err error) {
			t.Helper()
			if err != nil {
				t.Fatal(err)
			}
		}
		_, err := w.Authenticate(ctx, session)
		must(err)
		_, err = w.FolderCounts(ctx)
		must(err)
		var someRef string
		for _, folder := range []string{FolderNew, FolderHandled, FolderSpam} {
			for _, search := range []string{"", "person42@", "resume", "+49 30 901820"} {
				page, err := w.Messages(ctx, MessageQuery{Folder: folder, Search: search, Limit: 5})
				must(err)
				if page.Next != "" {
					_, err = w.Messages(ctx, MessageQuery{Folder: folder, Search: search, After: page.Next, Limit: 5})
					must(err)
				}
				if len(page.Messages) > 0 {
					someRef = page.Messages[0].Ref
				}
			}
		}
		_, err = w.Message(ctx, someRef)
		must(err)
		_, err = w.MarkRead(ctx, someRef, true)
		must(err)
		_, err = w.SetHandled(ctx, someRef, true, member.Email)
		must(err)
		_, err = w.MarkSpam(ctx, someRef, member.Email)
		must(err)
		_, err = w.NotSpam(ctx, someRef, member.Email)
		must(err)
		_, err = w.AddNote(ctx, NoteOnMessage, someRef, "Rappeler lundi", member.Email)
		must(err)
		_, err = w.Notes(ctx, NoteOnMessage, someRef)
		must(err)
		_, err = w.BookingCounts(ctx, "")
		must(err)
		_, err = w.BookingCounts(ctx, "jonas-becker")
		must(err)
		for _, view := range []string{ViewUpcoming, ViewPast, ViewCancelled} {
			for _, search := range []string{"", "Amélie", "+49 30 901820"} {
				page, err := w.Bookings(ctx, BookingQuery{View: view, Search: search, Limit: 5})
				must(err)
				if page.Next != "" {
					_, err = w.Bookings(ctx, BookingQuery{View: view, Search: search, After: page.Next, Limit: 5})
					must(err)
				}
			}
		}
		// One host's lists ("my bookings"), a host's private feed.
		for _, view := range []string{ViewUpcoming, ViewPast, ViewCancelled} {
			for _, search := range []string{"", "Amélie"} {
				page, err := w.Bookings(ctx, BookingQuery{View: view, Search: search, Host: "jonas-becker", Limit: 5})
				must(err)
				if page.Next != "" {
					_, err = w.Bookings(ctx, BookingQuery{View: view, Search: search, Host: "jonas-becker", After: page.Next, Limit: 5})
					must(err)
				}
			}
		}
		_, err = booking.HostBookings(ctx, st, "jonas-becker", monday.Add(-FeedPast), FeedLimit)
		must(err)
		_, err = w.PrivateFeedOf(ctx, member)
		must(err)
		feedURL, err := w.RenewPrivateFeed(ctx, member)
		must(err)
		_, _, err = w.FeedBookings(ctx, feedURL[strings.Index(feedURL, "token=")+len("token="):])
		must(err)
		must(w.RevokePrivateFeed(ctx, member))
		feed, _, err := w.AddOwnFeed(ctx, member, "https://calendar.example.test/secret/basic.ics")
		must(err)
		_, err = w.OwnFeeds(ctx, member)
		must(err)
		must(w.RemoveOwnFeed(ctx, member, feed.ID))
		_, _, _, err = w.Week(ctx, "")
		must(err)
		mails, err := w.RecentMail(ctx, "")
		must(err)
		_, err = w.TroubledMail(ctx, "")
		must(err)
		_, err = w.TroubledMail(ctx, mails.Mail[len(mails.Mail)/2].Ref) // any mail marks a place
		must(err)
		_, err = w.RecentMail(ctx, mails.Next)
		must(err)
		_, err = w.ReadMail(ctx, mails.Mail[0].Ref)
		must(err)
		audit, err := w.Audit(ctx, 0, PageSize)
		must(err)
		_, err = w.Audit(ctx, audit.Entries[0].ID, PageSize)
		must(err)
		year, err := w.ParseRange("", "")
		must(err)
		_, err = w.ExportMessages(ctx, &strings.Builder{}, year, w.language(""))
		must(err)
		_, err = w.ExportBookings(ctx, &strings.Builder{}, year, w.language(""))
		must(err)
		_, err = w.FindPerson(ctx, "person7@example.com", member.Email)
		must(err)
		_, err = w.ExportPerson(ctx, "person7@example.com", nil, member.Email)
		must(err)
		_, err = w.ErasePerson(ctx, "person7@example.com", nil, member.Email)
		must(err)
		clk.Advance(time.Hour)
		report, err := w.RunRetention(ctx)
		must(err)
		if report.Messages == 0 || report.Spam == 0 || report.Bookings == 0 {
			t.Fatalf("the retention run found nothing to do (%s): the plans of its statements are not all tried", report)
		}
		st.Observe(nil)

		var queries []string
		for q := range heard {
			verb := strings.ToUpper(strings.Fields(q)[0])
			if verb == "SELECT" || verb == "UPDATE" || verb == "DELETE" || verb == "WITH" {
				queries = append(queries, q)
			}
		}
		slices.Sort(queries)
		if len(queries) < 30 {
			t.Fatalf("only %d statements heard: the observer misses some", len(queries))
		}
		for _, q := range queries {
			plan := explain(t, st, q, heard[q])
			if problem := planProblem(st.Backend(), q, plan); problem != "" {
				t.Errorf("%s\n%s\nplan:\n%s", problem, strings.TrimSpace(q), plan)
			}
		}
	})
}

// explain returns the plan of query with args on st's engine.
func explain(t *testing.T, st *store.Store, query string, args []any) string {
	t.Helper()
	ctx := context.Background()
	var lines []string
	err := st.InTx(ctx, func(tx *store.Tx) error {
		lines = nil
		prefix := "EXPLAIN QUERY PLAN "
		if st.Backend() == store.Postgres {
			prefix = "EXPLAIN "
			// A Seq Scan or a Sort that still shows has no index to
			// serve it (see TestWorkspacePlans).
			if _, err := tx.ExecContext(ctx, `SET LOCAL enable_seqscan = off; SET LOCAL enable_sort = off`); err != nil {
				return err
			}
		}
		rows, err := tx.QueryContext(ctx, prefix+query, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		cols, _ := rows.Columns()
		for rows.Next() {
			dst := make([]any, len(cols))
			var detail string
			for i := range dst {
				dst[i] = new(any)
			}
			dst[len(dst)-1] = &detail
			if err := rows.Scan(dst...); err != nil {
				return err
			}
			lines = append(lines, detail)
		}
		return rows.Err()
	})
	if err != nil {
		t.Fatalf("explain %s: %v", query, err)
	}
	return strings.Join(lines, "\n")
}

var (
	sqliteScan  = regexp.MustCompile(`(?m)^\s*SCAN (\w+)\s*$`)
	sqliteSort  = regexp.MustCompile(`(?m)USE TEMP B-TREE FOR (?:RIGHT PART OF )?ORDER BY`)
	postgresSeq = regexp.MustCompile(`Seq Scan on (\w+)`)
	postgresAll = regexp.MustCompile(`(?m)^\s*(?:->\s*)?Sort\s+\(cost`)
	// aliases finds "FROM staff_sessions x" and "JOIN staff s".
	aliases = regexp.MustCompile(`(?:FROM|JOIN)\s+(\w+)\s+(?:AS\s+)?(\w+)`)
	// byKeyWithLimit is a list in the order of the primary key, which
	// SQLite reads as "SCAN <table>" and stops at the limit.
	byKeyWithLimit = regexp.MustCompile(`ORDER BY id(?: DESC)? LIMIT \?\s*$`)
	// ranged is a page (LIMIT) or a range of times (the exports, the
	// week): what must come from an index in its order. A sort of the
	// rows of one key (a person's, a note's subject) sorts only those.
	ranged = regexp.MustCompile(`LIMIT \?|_at >= \?`)
)

// planProblem says what is wrong with plan, or "".
func planProblem(b store.Backend, query, plan string) string {
	scan, sort := sqliteScan, sqliteSort
	if b == store.Postgres {
		scan, sort = postgresSeq, postgresAll
	}
	tables := map[string]string{}
	for _, m := range aliases.FindAllStringSubmatch(query, -1) {
		tables[m[2]] = m[1]
	}
	for _, m := range scan.FindAllStringSubmatch(plan, -1) {
		table := m[1]
		if t, ok := tables[table]; ok {
			table = t
		}
		if slices.Contains(smallTables, table) || (b == store.SQLite && byKeyWithLimit.MatchString(strings.TrimSpace(query))) {
			continue
		}
		return "reads " + table + " whole"
	}
	searching := strings.Contains(query, "_search") || strings.Contains(query, "to_tsquery")
	if sort.MatchString(plan) && !searching && ranged.MatchString(query) {
		return "sorts what it reads instead of reading an index in order"
	}
	return ""
}
