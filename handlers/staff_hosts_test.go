package handlers

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/northbeam/site/internal/booking"
	"github.com/northbeam/site/internal/calendar"
	"github.com/northbeam/site/internal/icaljs"
	"github.com/northbeam/site/internal/mail"
	"github.com/northbeam/site/internal/mail/mailtest"
	"github.com/northbeam/site/internal/sitetest"
	"github.com/northbeam/site/internal/staff"
	"github.com/northbeam/site/internal/store"
	"github.com/northbeam/site/internal/store/storetest"
)

// newStaffHostsEnv is the site with hosts (sitetest.HostsFixture), its
// booking service, and a workspace that acts on its bookings.
func newStaffHostsEnv(t *testing.T, backend store.Backend) (*bookingEnv, *staffEnv) {
	t.Helper()
	benv := newHostsEnv(t, backend)
	cancellation, err := booking.NewStaffCancellation(benv.service, sitetest.Content())
	if err != nil {
		t.Fatal(err)
	}
	ws := staffWithBookings(t, benv.store, benv.service.Now, cancellation)
	clock := sitetest.NewClock(monday7am)
	env := &staffEnv{st: benv.store, ws: ws, clock: clock,
		h: New(NewServer(sitetest.HostsSite(t, sitetest.HostsFixture), Services{Log: sitetest.QuietLog(), Store: benv.store, Booking: benv.service, Staff: ws, Now: clock.Now}))}
	return benv, env
}

// bookWith books discovery at clock on Tuesday with host, for email, and
// returns the booking's row id.
func bookWith(t *testing.T, benv *bookingEnv, host, clock, email, lang string) int64 {
	t.Helper()
	req := validBooking(t, clock, lang)
	req["person"], req["email"] = host, email
	b := bookSlot(t, benv, req)
	return int64(sitetest.Count(t, benv.store, `SELECT id FROM bookings WHERE token = ?`, b.Token))
}

type staffHostView struct {
	Slug, Name string
	Services   []string
}

type staffHostsView struct {
	Hosts []staffHostView `json:"hosts"`
	Mine  string          `json:"mine"`
}

// The workspace names each booking's host and filters its lists by host,
// "my bookings" being the signed-in member's (linked to a host by
// address); a member who is no host has none, and an unknown host is a
// 400.
func TestStaffBookingsByHost(t *testing.T) {
	forEachBackend(t, func(t *testing.T, backend store.Backend) {
		benv, env := newStaffHostsEnv(t, backend)
		lang := sitetest.OtherAt(t, 0).Code
		bookWith(t, benv, sitetest.HostSamira, "10:00", "amira@example.com", lang)
		bookWith(t, benv, sitetest.HostJonas, "10:00", "bo@example.com", lang)
		bookWith(t, benv, sitetest.HostSamira, "14:00", "cy@example.com", lang)
		samira := env.signIn(t, "samira@northbeam.test")

		hosts := staffJSON[staffHostsView](t, env.do(t, "GET", "/staff/api/hosts", "", samira))
		if hosts.Mine != sitetest.HostSamira || len(hosts.Hosts) != 3 {
			t.Fatalf("hosts as Samira: %+v", hosts)
		}
		person, err := sitetest.HostsSite(t, sitetest.HostsFixture).Team().Person("en", sitetest.HostJonas)
		if err != nil {
			t.Fatal(err)
		}
		if i := slices.IndexFunc(hosts.Hosts, func(h staffHostView) bool { return h.Slug == sitetest.HostJonas }); i < 0 ||
			hosts.Hosts[i].Name != person.Name || !slices.Equal(hosts.Hosts[i].Services, []string{"discovery"}) {
			t.Errorf("Jonas is %+v, want %q, who takes discovery calls only", hosts.Hosts, person.Name)
		}

		hostsOf := func(target, cookie string) []string {
			t.Helper()
			rec := env.do(t, "GET", target, "", cookie)
			if rec.Code != http.StatusOK {
				t.Fatalf("%s: %d %s", target, rec.Code, rec.Body)
			}
			var out []string
			for _, d := range staffJSON[staffBookingsPage](t, rec).Days {
				for _, b := range d.Bookings {
					out = append(out, b.Host+" "+b.Email)
				}
			}
			return out
		}
		if got := hostsOf("/staff/api/bookings?host=mine", samira); !slices.Equal(got, []string{"samira-haddad amira@example.com", "samira-haddad cy@example.com"}) {
			t.Errorf("Samira's own bookings: %v", got)
		}
		if got := hostsOf("/staff/api/bookings?host=jonas-becker", samira); !slices.Equal(got, []string{"jonas-becker bo@example.com"}) {
			t.Errorf("Jonas's bookings: %v", got)
		}
		if got := hostsOf("/staff/api/bookings", samira); len(got) != 3 {
			t.Errorf("everyone's bookings: %v", got)
		}
		// Keyset pages go on within one host's list.
		rec := env.do(t, "GET", "/staff/api/bookings?view=upcoming&host=mine&after=0.0", "", samira)
		if rec.Code != http.StatusOK {
			t.Errorf("a page after a cursor: %d", rec.Code)
		}
		// The bookings' file names each host in a column of its own.
		if rec := env.do(t, "GET", "/staff/export/bookings.csv", "", samira); rec.Code != http.StatusOK ||
			!strings.Contains(rec.Body.String(), person.Name) || !strings.Contains(rec.Body.String(), ","+env.ws.HostName("en", sitetest.HostSamira)+"\r\n") {
			t.Errorf("the bookings' CSV: %d\n%s", rec.Code, rec.Body)
		}
		if rec := env.do(t, "GET", "/staff/api/bookings?host=nobody", "", samira); rec.Code != http.StatusBadRequest {
			t.Errorf("an unknown host: %d", rec.Code)
		}
		ops := env.signIn(t, "ops@northbeam.test")
		if got := hostsOf("/staff/api/bookings?host=mine", ops); len(got) != 0 {
			t.Errorf("the bookings of a member who is no host: %v", got)
		}
		if h := staffJSON[staffHostsView](t, env.do(t, "GET", "/staff/api/hosts", "", ops)); h.Mine != "" {
			t.Errorf("a member who is no host is %q", h.Mine)
		}
	})
}

// The agenda's tabs count what its lists hold: with a host filter on,
// that host's consultations alone ("my bookings" of a member who is no
// host: none); without, the whole team's.
func TestStaffBookingCountsFollowTheHostFilter(t *testing.T) {
	forEachBackend(t, func(t *testing.T, backend store.Backend) {
		benv, env := newStaffHostsEnv(t, backend)
		lang := sitetest.OtherAt(t, 0).Code
		bookWith(t, benv, sitetest.HostSamira, "10:00", "amira@example.com", lang)
		bookWith(t, benv, sitetest.HostJonas, "10:00", "bo@example.com", lang)
		bookWith(t, benv, sitetest.HostSamira, "14:00", "cy@example.com", lang)
		execSQL(t, env.st, `UPDATE bookings SET cancelled_at = created_at WHERE email = 'cy@example.com'`)
		samira := env.signIn(t, "samira@northbeam.test")
		ops := env.signIn(t, "ops@northbeam.test")
		for _, c := range []struct {
			target, cookie            string
			upcoming, past, cancelled int
		}{
			{"/staff/api/bookings", samira, 2, 0, 1},
			{"/staff/api/bookings?host=mine", samira, 1, 0, 1},
			{"/staff/api/bookings?view=cancelled&host=mine", samira, 1, 0, 1},
			{"/staff/api/bookings?view=past&host=" + sitetest.HostJonas, samira, 1, 0, 0},
			{"/staff/api/bookings?host=" + sitetest.HostJonas + "&q=bo", samira, 1, 0, 0},
			{"/staff/api/bookings?host=mine", ops, 0, 0, 0},
		} {
			rec := env.do(t, "GET", c.target, "", c.cookie)
			if rec.Code != http.StatusOK {
				t.Fatalf("%s: %d %s", c.target, rec.Code, rec.Body)
			}
			got := staffJSON[staffBookings](t, rec).Counts
			want := map[string]int{"upcoming": c.upcoming, "past": c.past, "cancelled": c.cancelled}
			if !maps.Equal(got, want) {
				t.Errorf("%s: the tabs count %v, want %v", c.target, got, want)
			}
		}
	})
}

type staffBookingsPage struct {
	Days []struct {
		Bookings []staffBooking `json:"bookings"`
	} `json:"days"`
}

// A member hands a booking to another host, who must be free then: two
// members handing two bookings at the same time to the same host at once
// give that host one of them, the other is refused with a 409 in the
// member's words. The visitor's "moved" mail names the new host with the
// updated invite (the new host its attendee), the team's notice goes to
// the consultancy, the new host and the previous one, over real SMTP; the
// audit log records who handed what to whom.
func TestStaffHandOver(t *testing.T) {
	forEachBackend(t, func(t *testing.T, backend store.Backend) {
		ctx := context.Background()
		benv, env := newStaffHostsEnv(t, backend)
		rtl := sitetest.RightToLeft(t).Code
		fromSamira := bookWith(t, benv, sitetest.HostSamira, "10:00", "amira@example.com", rtl)
		fromLena := bookWith(t, benv, sitetest.HostLena, "10:00", "bo@example.com", rtl)
		samira := env.signIn(t, "samira@northbeam.test")
		lena := env.signIn(t, "lena@northbeam.test")

		target := func(id int64) string { return "/staff/api/bookings/" + strconv.FormatInt(id, 10) + "/hand-over" }
		if rec := env.do(t, "POST", target(fromSamira), `{"host":"nobody"}`, samira); rec.Code != http.StatusUnprocessableEntity || decodeAPIError(t, rec).Fields["host"] == "" {
			t.Errorf("to no host: %d %s", rec.Code, rec.Body)
		}
		if rec := env.do(t, "POST", target(fromSamira), `{"host":"samira-haddad"}`, samira); rec.Code != http.StatusConflict {
			t.Errorf("to its own host: %d %s", rec.Code, rec.Body)
		}
		if rec := env.do(t, "POST", target(fromSamira), `{"host":"lena-hartmann"}`, samira); rec.Code != http.StatusConflict || decodeAPIError(t, rec).Code != "host_busy" {
			t.Errorf("to Lena, booked then: %d %s", rec.Code, rec.Body)
		}

		smtpServer := mailtest.Start(t)
		sender, err := mail.NewSMTPSender(mail.SMTPConfig{URL: smtpServer.URL(), From: "Northbeam <hello@northbeam.test>", Timeout: 5 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		worker := mail.NewWorker(benv.store, sender, mail.WorkerConfig{Logger: sitetest.QuietLog()})
		if _, err := worker.DrainOnce(ctx); err != nil {
			t.Fatal(err)
		}
		before := len(smtpServer.Received())

		// Both to Jonas, at once.
		var wg sync.WaitGroup
		codes := make([]int, 2)
		for i, h := range []struct {
			id     int64
			cookie string
		}{{fromSamira, samira}, {fromLena, lena}} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				codes[i] = env.do(t, "POST", target(h.id), `{"host":"jonas-becker"}`, h.cookie).Code
			}()
		}
		wg.Wait()
		slices.Sort(codes)
		if codes[0] != http.StatusOK || codes[1] != http.StatusConflict {
			t.Fatalf("two hand-overs to Jonas at once: %v, want one 200 and one 409", codes)
		}
		var won int64
		var visitor, previous string
		if n := sitetest.Count(t, benv.store, `SELECT count(*) FROM bookings WHERE id = ? AND host = 'jonas-becker'`, fromSamira); n == 1 {
			won, visitor, previous = fromSamira, "amira@example.com", "samira@northbeam.test"
		} else {
			won, visitor, previous = fromLena, "bo@example.com", "lena@northbeam.test"
		}
		if n := sitetest.Count(t, benv.store, `SELECT count(*) FROM bookings WHERE host = 'jonas-becker'`); n != 1 {
			t.Fatalf("Jonas has %d bookings at 10:00", n)
		}

		if _, err := worker.DrainOnce(ctx); err != nil {
			t.Fatal(err)
		}
		got := smtpServer.WaitFor(before + 4)[before:]
		if len(got) != 4 {
			t.Fatalf("%d mails, want the visitor's and three notices", len(got))
		}
		to := map[string]mailtest.Received{}
		for _, m := range got {
			to[strings.Join(m.To, ",")] = m
		}
		jonas, err := sitetest.HostsSite(t, sitetest.HostsFixture).Team().Person(rtl, sitetest.HostJonas)
		if err != nil {
			t.Fatal(err)
		}
		v, ok := to[visitor]
		text, _ := v.Text()
		if !ok || !strings.Contains(v.Subject, jonas.Name) || !strings.Contains(text, jonas.Name) {
			t.Errorf("the visitor's mail does not name %s: %q\n%s", jonas.Name, v.Subject, text)
		}
		for _, addr := range []string{sitetest.Inbox, "jonas@northbeam.test", previous} {
			m, ok := to[addr]
			notice, _ := m.Text()
			if !ok || !strings.HasPrefix(m.Subject, "Booking handed over") || !strings.Contains(notice, "Previous host:") {
				t.Errorf("the team's notice to %s: %v %q\n%s", addr, ok, m.Subject, notice)
			}
		}
		files := v.Attachments()
		if len(files) != 1 {
			t.Fatalf("the visitor's mail has %d attachments", len(files))
		}
		ev := sitetest.ParseInvite(t, files[0].Body, "REQUEST")
		var attendees []string
		for _, a := range ev.Attendees() {
			attendees = append(attendees, a.Email())
		}
		if !slices.Contains(attendees, "jonas@northbeam.test") || slices.Contains(attendees, previous) {
			t.Errorf("the updated invite's attendees: %v", attendees)
		}
		if seq := ev.GetProperty("SEQUENCE"); seq == nil || seq.Value != "1" {
			t.Errorf("the updated invite's SEQUENCE: %+v", seq)
		}
		if n := sitetest.Count(t, benv.store, `SELECT count(*) FROM staff_audit WHERE action = 'hand-over' AND subject = ? AND detail LIKE '% → jonas-becker'`,
			strconv.FormatInt(won, 10)); n != 1 {
			t.Errorf("%d audit entries for the hand-over", n)
		}
	})
}

// A member's own calendar feeds: added, listed masked (never the address
// whole, nor in the audit log), refused with a localized message when not
// a feed's address, removed.
func TestStaffOwnFeeds(t *testing.T) {
	forEachBackend(t, func(t *testing.T, backend store.Backend) {
		_, env := newStaffHostsEnv(t, backend)
		samira := env.signIn(t, "samira@northbeam.test")
		const secret = "https://calendar.example.test/private-5e3c7a9b/basic.ics"
		rec := env.do(t, "POST", "/staff/api/me/feeds", `{"url":"`+secret+`"}`, samira)
		if rec.Code != http.StatusCreated || strings.Contains(rec.Body.String(), "5e3c7a9b") || !strings.Contains(rec.Body.String(), "calendar.example.test") {
			t.Fatalf("adding a feed: %d %s", rec.Code, rec.Body)
		}
		rec = env.do(t, "GET", "/staff/api/me/feeds", "", samira)
		if rec.Code != http.StatusOK || strings.Contains(rec.Body.String(), "5e3c7a9b") || !strings.Contains(rec.Body.String(), `"host":"samira-haddad"`) {
			t.Errorf("the feeds: %d %s", rec.Code, rec.Body)
		}
		if n := sitetest.Count(t, env.st, `SELECT count(*) FROM staff_audit WHERE detail LIKE '%5e3c7a9b%' OR subject LIKE '%5e3c7a9b%'`); n != 0 {
			t.Errorf("the audit log holds the feed's address %d times", n)
		}
		rec = env.do(t, "POST", "/staff/api/me/feeds", `{"url":"ftp://calendar.example.test/x.ics"}`, samira)
		if e := decodeAPIError(t, rec); rec.Code != http.StatusUnprocessableEntity || e.Fields["url"] == "" || e.Message == "" {
			t.Errorf("not a feed: %d %s", rec.Code, rec.Body)
		}
		feeds := staffJSON[struct {
			Feeds []struct{ ID int64 } `json:"feeds"`
		}](t, env.do(t, "GET", "/staff/api/me/feeds", "", samira)).Feeds
		if len(feeds) != 1 {
			t.Fatalf("%d feeds", len(feeds))
		}
		jonas := env.signIn(t, "jonas@northbeam.test")
		path := "/staff/api/me/feeds/" + strconv.FormatInt(feeds[0].ID, 10)
		if rec := env.do(t, "DELETE", path, "", jonas); rec.Code != http.StatusNotFound {
			t.Errorf("another member removes Samira's feed: %d", rec.Code)
		}
		if rec := env.do(t, "DELETE", path, "", samira); rec.Code != http.StatusNoContent {
			t.Errorf("removing: %d %s", rec.Code, rec.Body)
		}
		if rec := env.do(t, "DELETE", path, "", samira); rec.Code != http.StatusNotFound {
			t.Errorf("removing again: %d", rec.Code)
		}
	})
}

// A member's private calendar feed lists exactly the consultations they
// host, standing, in a calendar ical.js reads; it follows the bookings as
// they change (a hand-over takes one away), and its address stops working
// when renewed or revoked.
func TestStaffPrivateFeed(t *testing.T) {
	forEachBackend(t, func(t *testing.T, backend store.Backend) {
		benv, env := newStaffHostsEnv(t, backend)
		lang := sitetest.OtherAt(t, 0).Code
		mine := []int64{
			bookWith(t, benv, sitetest.HostSamira, "10:00", "amira@example.com", lang),
			bookWith(t, benv, sitetest.HostSamira, "14:00", "cy@example.com", lang),
		}
		bookWith(t, benv, sitetest.HostJonas, "10:00", "bo@example.com", lang)
		cancelled := bookWith(t, benv, sitetest.HostSamira, "16:00", "dee@example.com", lang)
		samira := env.signIn(t, "samira@northbeam.test")
		if rec := env.do(t, "POST", "/staff/api/bookings/"+strconv.FormatInt(cancelled, 10)+"/cancel", `{"reason":"Sorry."}`, samira); rec.Code != http.StatusOK {
			t.Fatalf("cancel: %d %s", rec.Code, rec.Body)
		}

		rec := env.do(t, "POST", "/staff/api/me/calendar", "{}", samira)
		if rec.Code != http.StatusCreated {
			t.Fatalf("making the feed: %d %s", rec.Code, rec.Body)
		}
		address := staffJSON[map[string]string](t, rec)["url"]
		u, err := url.Parse(address)
		if err != nil || !strings.HasPrefix(address, sitetest.BaseURL+"/staff/calendar.ics?token=") {
			t.Fatalf("the feed's address %q", address)
		}
		feed := func(target string) (int, string) {
			rec := env.do(t, "GET", target, "")
			return rec.Code, rec.Body.String()
		}
		uidsOf := func(ids []int64) []string {
			var uids []string
			for _, id := range ids {
				b, err := booking.FindByID(context.Background(), benv.store, id)
				if err != nil {
					t.Fatal(err)
				}
				uids = append(uids, booking.UID(b, "example.test")) // sitetest.BaseURL's host
			}
			slices.Sort(uids)
			return uids
		}
		check := func(want []int64) {
			t.Helper()
			code, body := feed(u.RequestURI())
			if code != http.StatusOK {
				t.Fatalf("the feed: %d %s", code, body)
			}
			jcal, err := icaljs.JCal(body)
			if err != nil {
				t.Fatalf("ical.js cannot read the feed: %v\n%s", err, body)
			}
			var uids []string
			for _, c := range jcal[2].([]any) {
				comp := c.([]any)
				if comp[0] != "vevent" {
					continue
				}
				for _, p := range comp[1].([]any) {
					if prop := p.([]any); prop[0] == "uid" {
						uids = append(uids, prop[3].(string))
					}
				}
			}
			slices.Sort(uids)
			if w := uidsOf(want); !slices.Equal(uids, w) {
				t.Errorf("the feed lists %v, want %v", uids, w)
			}
		}
		check(mine)
		// The secret never reaches a log line: the request log names the
		// path alone.
		var logged bytes.Buffer
		logging := New(NewServer(sitetest.HostsSite(t, sitetest.HostsFixture), Services{Log: slog.New(slog.NewTextHandler(&logged, nil)),
			Store: benv.store, Booking: benv.service, Staff: env.ws, Now: env.clock.Now}))
		logging.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, u.RequestURI(), nil))
		if token := u.Query().Get("token"); !strings.Contains(logged.String(), "/staff/calendar.ics") || strings.Contains(logged.String(), token) {
			t.Errorf("the log of a feed's request:\n%s", logged.String())
		}
		if rec := env.do(t, "HEAD", u.RequestURI(), ""); rec.Code != http.StatusOK || !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/calendar") {
			t.Errorf("HEAD of the feed: %d %q", rec.Code, rec.Header().Get("Content-Type"))
		}

		// Handed to Lena, the 14:00 consultation leaves Samira's feed.
		if rec := env.do(t, "POST", "/staff/api/bookings/"+strconv.FormatInt(mine[1], 10)+"/hand-over", `{"host":"lena-hartmann"}`, samira); rec.Code != http.StatusOK {
			t.Fatalf("hand-over: %d %s", rec.Code, rec.Body)
		}
		check(mine[:1])

		rec = env.do(t, "POST", "/staff/api/me/calendar", "{}", samira)
		renewed, _ := url.Parse(staffJSON[map[string]string](t, rec)["url"])
		if code, _ := feed(u.RequestURI()); code != http.StatusNotFound {
			t.Errorf("the old address after renewing: %d", code)
		}
		u = renewed
		check(mine[:1])
		if rec := env.do(t, "DELETE", "/staff/api/me/calendar", "", samira); rec.Code != http.StatusNoContent {
			t.Fatalf("revoking: %d", rec.Code)
		}
		for _, target := range []string{u.RequestURI(), "/staff/calendar.ics", "/staff/calendar.ics?token=nonsense"} {
			if code, _ := feed(target); code != http.StatusNotFound {
				t.Errorf("%s after revoking: %d", target, code)
			}
		}
		if n := sitetest.Count(t, env.st, `SELECT count(*) FROM staff_feed_tokens`); n != 0 {
			t.Errorf("%d feed secrets kept after revoking", n)
		}
	})
}

// A calendar a member adds in the workspace is their busy time as a host
// at once, with no refresh of the calendars in between: the answer says it
// was read, their link no longer offers its busy hours, a colleague's
// still does; removed, the hours are offered again at once. A calendar
// that cannot be read is added all the same, and the answer says so,
// without its address.
func TestStaffOwnFeedTakesTheirTimeAtOnce(t *testing.T) {
	forEachBackend(t, func(t *testing.T, backend store.Backend) {
		ctx := context.Background()
		feed := "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:busy\r\nDTSTART;TZID=Europe/Berlin:20270608T090000\r\n" +
			"DTEND;TZID=Europe/Berlin:20270608T120000\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
		cal := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if strings.Contains(r.URL.Path, "gone") {
				http.NotFound(w, r)
				return
			}
			w.Header().Set("Content-Type", "text/calendar")
			_, _ = io.WriteString(w, feed)
		}))
		defer cal.Close()
		st := storetest.Open(t, backend)
		berlin, _ := time.LoadLocation("Europe/Berlin")
		source, err := calendar.NewSource(calendar.Config{Home: berlin, Store: st, Members: true, Now: func() time.Time { return monday7am }})
		if err != nil {
			t.Fatal(err)
		}
		benv := &bookingEnv{store: st, clock: &atomic.Pointer[time.Time]{}}
		benv.setNow(monday7am)
		benv.service = sitetest.BookingService(t, st, sitetest.HostsFixture, func() time.Time { return *benv.clock.Load() },
			func(c *booking.Config) { c.Calendar = source })
		cancellation, err := booking.NewStaffCancellation(benv.service, sitetest.Content())
		if err != nil {
			t.Fatal(err)
		}
		ws := sitetest.StaffWorkspace(t, st, sitetest.BaseURL, benv.service.Now, func(cfg *staff.Config) {
			cfg.Bookings, cfg.Contact, cfg.Calendars = cancellation, nil, source
		})
		clock := sitetest.NewClock(monday7am)
		env := &staffEnv{st: st, ws: ws, clock: clock,
			h: New(NewServer(sitetest.HostsSite(t, sitetest.HostsFixture), Services{Log: sitetest.QuietLog(), Store: st, Booking: benv.service, Staff: ws, Now: clock.Now}))}
		benv.handler = env.h
		samira := env.signIn(t, "samira@northbeam.test")
		ten := tuesdayAt(t, "10:00")
		if !offeredWith(t, benv, sitetest.HostSamira)[ten] {
			t.Fatal("Samira is not offered at 10:00 before her calendar is added")
		}

		rec := env.do(t, "POST", "/staff/api/me/feeds", `{"url":"`+cal.URL+`/private/s3cr3t/basic.ics"}`, samira)
		if rec.Code != http.StatusCreated || !staffJSON[struct{ Read bool }](t, rec).Read {
			t.Fatalf("adding the calendar: %d %s; want it read", rec.Code, rec.Body)
		}
		if offeredWith(t, benv, sitetest.HostSamira)[ten] {
			t.Error("Samira's link still offers 10:00, which her calendar holds")
		}
		if !offeredWith(t, benv, sitetest.HostJonas)[ten] {
			t.Error("Samira's calendar takes Jonas's time too")
		}

		id := staffJSON[struct{ Feed struct{ ID int64 } }](t, rec).Feed.ID
		if rec := env.do(t, "DELETE", "/staff/api/me/feeds/"+strconv.FormatInt(id, 10), "", samira); rec.Code != http.StatusNoContent {
			t.Fatalf("removing: %d", rec.Code)
		}
		if !offeredWith(t, benv, sitetest.HostSamira)[ten] {
			t.Error("Samira is still busy at 10:00 once her calendar is removed")
		}

		rec = env.do(t, "POST", "/staff/api/me/feeds", `{"url":"`+cal.URL+`/private/gone-7f3a/basic.ics"}`, samira)
		if rec.Code != http.StatusCreated || staffJSON[struct{ Read bool }](t, rec).Read || strings.Contains(rec.Body.String(), "gone-7f3a") {
			t.Errorf("adding a calendar that cannot be read: %d %s; want it added, not read, its address not shown", rec.Code, rec.Body)
		}
		if !offeredWith(t, benv, sitetest.HostSamira)[ten] {
			t.Error("a calendar that could not be read takes Samira's time")
		}
		source.Refresh(ctx)
	})
}
