package handlers

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/northbeam/site/internal/booking"
	"github.com/northbeam/site/internal/calendar"
	"github.com/northbeam/site/internal/sitetest"
	"github.com/northbeam/site/internal/store"
	"github.com/northbeam/site/internal/store/storetest"
)

// quarterHours lists the slot starts from first to last, every 15 minutes,
// leaving out those listed in except.
func quarterHours(first, last string, except ...string) []string {
	start, _ := time.Parse("15:04", first)
	end, _ := time.Parse("15:04", last)
	var out []string
	for t := start; !t.After(end); t = t.Add(15 * time.Minute) {
		if s := t.Format("15:04"); !slices.Contains(except, s) {
			out = append(out, s)
		}
	}
	return out
}

// TestSlotsFollowTheConsultancysCalendar serves a consultant's realistic
// feed over HTTP on loopback (a weekday stand-up with one day excluded and
// one moved to the afternoon, a whole-day off-site, a transparent and a
// cancelled event, a call in New York's time, a weekly review across the
// spring change in an Outlook zone, a UTC webinar, a floating event and
// extra dates) and asks /api/slots for that fortnight: every slot the feed
// takes (plus the 10-minute buffer) is gone, and only those.
func TestSlotsFollowTheConsultancysCalendar(t *testing.T) {
	forEachBackend(t, func(t *testing.T, backend store.Backend) {
		berlin, _ := time.LoadLocation("Europe/Berlin")
		now := time.Date(2027, 3, 19, 12, 0, 0, 0, berlin)
		env := newFeedEnv(t, backend, filepath.Join("internal", "calendar", "testdata", "fortnight.ics"), "/private/secret-key/basic.ics", &now)
		h, src, feed, fetches := env.handler, env.source, env.feed, &env.fetches
		got := env.slots(t, "/api/slots?service=discovery&from=2027-03-22&days=14&tz=Europe/Berlin")
		morning, afternoon := quarterHours("09:00", "12:15"), quarterHours("13:30", "17:15")
		day := func(m, a []string) []string { return append(slices.Clone(m), a...) }
		standup := quarterHours("09:45", "12:15")
		want := map[string][]string{
			"2027-03-22": day(standup, quarterHours("13:30", "17:15", "15:45", "16:00", "16:15", "16:30")),
			"2027-03-23": day(standup, quarterHours("13:30", "17:15", "14:45", "15:00", "15:15", "15:30", "15:45", "16:00")),
			"2027-03-24": day(morning, afternoon), // the stand-up's excluded day
			"2027-03-25": day(morning, quarterHours("13:30", "17:15", "13:45", "14:00", "14:15", "14:30")),
			"2027-03-26": day(standup, quarterHours("13:30", "17:15", "15:45", "16:00", "16:15", "16:30", "16:45", "17:00")),
			"2027-03-29": day(standup, quarterHours("13:30", "17:15", "15:45", "16:00", "16:15", "16:30")),
			"2027-03-31": day(standup, quarterHours("13:30", "17:15", "13:45", "14:00", "14:15", "14:30", "14:45", "15:00")),
			"2027-04-01": day(standup, quarterHours("13:30", "17:15", "14:45", "15:00", "15:15", "15:30")),
			"2027-04-02": day(quarterHours("09:45", "12:15", "10:45", "11:00", "11:15", "11:30"), quarterHours("13:30", "17:15", "15:45", "16:00", "16:15", "16:30", "16:45", "17:00")),
		}
		for _, date := range slices.Sorted(func(yield func(string) bool) {
			for k := range want {
				if !yield(k) {
					return
				}
			}
			for k := range got {
				if _, ok := want[k]; !ok && !yield(k) {
					return
				}
			}
		}) {
			if g, w := strings.Join(got[date], " "), strings.Join(want[date], " "); g != w {
				t.Errorf("%s:\n got %s\nwant %s", date, g, w)
			}
		}

		// Booking a time the calendar takes is refused with fresh slots.
		taken := sitetest.Do(t, h, "POST", "/api/bookings", "application/json", []byte(bookingJSON(map[string]string{
			"service": "discovery", "start": "2027-03-23T14:15:00Z", "name": "Ada", "email": "ada@example.com", "timeZone": "Europe/Berlin",
		})))
		if taken.Code != 409 || !strings.Contains(taken.Body.String(), `"slot_taken"`) {
			t.Errorf("booking 15:15 Berlin during the New York call: %d %s", taken.Code, taken.Body)
		}
		// /readyz says how the feed is, naming its host only.
		ready := sitetest.Do(t, h, "GET", "/readyz", "", nil).Body.String()
		if !strings.Contains(ready, "calendar feed 1 (127.0.0.1): up to date") || strings.Contains(ready, "secret-key") {
			t.Errorf("/readyz:\n%s", ready)
		}
		feed.Close()
		src.Refresh(context.Background())
		ready = sitetest.Do(t, h, "GET", "/readyz", "", nil).Body.String()
		if !strings.HasPrefix(ready, "ready\n") || !strings.Contains(ready, "stale since") || strings.Contains(ready, "secret-key") {
			t.Errorf("/readyz with the feed down:\n%s", ready)
		}
		if fetches.Load() != 1 {
			t.Errorf("%d fetches", fetches.Load())
		}
	})
}

// TestSlotsHonourAnExchangeFeed serves a real Exchange 2010 export
// (internal/calendar/testdata/real, see its SOURCES.md): its zones are
// Windows names with observances from 1601. The meeting at 09:00 W. Europe
// time is not offered, and the one at 08:30 Pacific time takes 17:30
// Berlin time (the last slot of that day, with the buffer), not 08:30.
// /readyz counts the one event Exchange wrote malformed.
func TestSlotsHonourAnExchangeFeed(t *testing.T) {
	berlin, _ := time.LoadLocation("Europe/Berlin")
	now := time.Date(2020, 9, 7, 12, 0, 0, 0, berlin)
	env := newFeedEnv(t, store.SQLite, filepath.Join("internal", "calendar", "testdata", "real", "node-ical_ms_timezones.ics"), "/owa/calendar/secret/calendar.ics", &now)
	got := env.slots(t, "/api/slots?service=discovery&from=2020-09-08&days=8&tz=Europe/Berlin")
	for date, want := range map[string][]string{
		"2020-09-09": append(quarterHours("09:00", "12:15"), quarterHours("13:30", "17:15")...),
		"2020-09-10": append(quarterHours("09:45", "12:15"), quarterHours("13:30", "17:15")...),
		"2020-09-15": append(quarterHours("09:00", "12:15"), quarterHours("13:30", "17:00")...),
	} {
		if g, w := strings.Join(got[date], " "), strings.Join(want, " "); g != w {
			t.Errorf("%s:\n got %s\nwant %s", date, g, w)
		}
	}
	if ready := sitetest.Do(t, env.handler, "GET", "/readyz", "", nil).Body.String(); !strings.Contains(ready, "up to date") || !strings.Contains(ready, "1 events skipped, 0 values dropped") {
		t.Errorf("/readyz:\n%s", ready)
	}
}

// feedEnv is the site with the booking service and a calendar feed served
// over HTTP on loopback, fetched once.
type feedEnv struct {
	handler http.Handler
	source  *calendar.Source
	feed    *httptest.Server
	fetches atomic.Int32
	berlin  *time.Location
}

// newFeedEnv serves the file at path (from the repository's root) as the
// feed at urlPath, with the clock at *now.
func newFeedEnv(t *testing.T, backend store.Backend, path, urlPath string, now *time.Time) *feedEnv {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(sitetest.Root(), path))
	if err != nil {
		t.Fatal(err)
	}
	env := &feedEnv{}
	env.berlin, _ = time.LoadLocation("Europe/Berlin")
	env.feed = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		env.fetches.Add(1)
		w.Header().Set("Content-Type", "text/calendar")
		_, _ = w.Write(data)
	}))
	t.Cleanup(env.feed.Close)
	st := storetest.Open(t, backend)
	env.source, err = calendar.NewSource(calendar.Config{
		URLs: []string{env.feed.URL + urlPath}, Home: env.berlin, Store: st,
		Logger: sitetest.QuietLog(), Now: func() time.Time { return *now },
	})
	if err != nil {
		t.Fatal(err)
	}
	env.source.Refresh(context.Background())
	benv := newBookingEnvWith(t, st, sitetest.BookingFixture, now, func(c *booking.Config) { c.Calendar = env.source })
	unlimited := RateLimit{Requests: 1 << 20, Window: time.Minute}
	env.handler = New(NewServer(sitetest.Site(t), Services{Log: sitetest.QuietLog(), Store: st, Booking: benv.service, Calendar: env.source, BookingRate: unlimited, SlotsRate: unlimited}))
	return env
}

// slots asks target for slots and returns their Berlin starts by date.
func (env *feedEnv) slots(t *testing.T, target string) map[string][]string {
	t.Helper()
	rec := sitetest.Do(t, env.handler, "GET", target, "", nil)
	if rec.Code != 200 {
		t.Fatalf("slots: %d %s", rec.Code, rec.Body)
	}
	var body slotsResponse
	if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
		t.Fatal(err)
	}
	got := map[string][]string{}
	for _, d := range body.Days {
		for _, s := range d.Slots {
			got[d.Date.String()] = append(got[d.Date.String()], s.Start.In(env.berlin).Format("15:04"))
		}
	}
	return got
}

// TestRescheduleAPI: POST /api/bookings/reschedule with the token mailed
// to the visitor, on both back-ends.
func TestRescheduleAPI(t *testing.T) { forEachBackend(t, testRescheduleAPI) }

func testRescheduleAPI(t *testing.T, backend store.Backend) {
	env := newBookingEnvOn(t, backend, sitetest.BookingFixture, &monday7am)
	s := sitetest.Site(t)
	a := bookSlot(t, env, validBooking(t, "10:00", sitetest.OtherAt(t, 1).Code))
	b := bookSlot(t, env, validBooking(t, "14:00", sitetest.OtherAt(t, 1).Code))
	cancelOf := func(token string) string {
		found, err := env.service.Find(context.Background(), token)
		if err != nil {
			t.Fatal(err)
		}
		return found.CancelToken
	}
	move := func(token, start, lang string) *httptest.ResponseRecorder {
		return sitetest.Do(t, env.handler, "POST", "/api/bookings/reschedule", "application/json",
			[]byte(fmt.Sprintf(`{"token":%q,"start":%q,"lang":%q}`, token, start, lang)))
	}
	wednesday := func(clock string) string { return tuesdayAt(t, clock).AddDate(0, 0, 1).Format(time.RFC3339) }

	rec := move(cancelOf(a.Token), wednesday("11:00"), sitetest.OtherAt(t, 1).Code)
	if rec.Code != 200 || !strings.Contains(rec.Body.String(), `"start":"`+tuesdayAt(t, "11:00").AddDate(0, 0, 1).UTC().Format("2006-01-02T15:04:05Z")) {
		t.Fatalf("a move: %d %s", rec.Code, rec.Body)
	}
	for _, tc := range []struct {
		name, token, start, lang string
		status                   int
		code, message            string
	}{
		{"onto the other booking", cancelOf(b.Token), wednesday("11:00"), sitetest.OtherAt(t, 0).Code, 409, "slot_taken", s.Locales.T(sitetest.OtherAt(t, 0).Code, "booking.taken")},
		{"off the grid", cancelOf(b.Token), wednesday("11:05"), sitetest.Default(t).Code, 409, "slot_taken", ""},
		{"not a time", cancelOf(b.Token), "soon", sitetest.OtherAt(t, 2).Code, 422, "invalid", s.Locales.T(sitetest.OtherAt(t, 2).Code, "validation.invalid")},
		{"the public token", b.Token, wednesday("15:00"), sitetest.Default(t).Code, 404, "not_found", ""},
		{"an unknown token", booking.NewToken(), wednesday("15:00"), sitetest.Default(t).Code, 404, "not_found", ""},
	} {
		rec := move(tc.token, tc.start, tc.lang)
		if e := decodeAPIError(t, rec); rec.Code != tc.status || e.Code != tc.code || (tc.message != "" && e.Message != tc.message) {
			t.Errorf("%s: %d %s", tc.name, rec.Code, rec.Body)
		}
	}
	// A cancelled booking does not move.
	sitetest.Do(t, env.handler, "POST", "/api/bookings/cancel", "application/json", []byte(fmt.Sprintf(`{"token":%q}`, cancelOf(b.Token))))
	if rec := move(cancelOf(b.Token), wednesday("15:00"), sitetest.OtherAt(t, 1).Code); rec.Code != 409 || decodeAPIError(t, rec).Message != s.Locales.T(sitetest.OtherAt(t, 1).Code, "booking.reschedule.cancelled") {
		t.Errorf("a cancelled booking: %d %s", rec.Code, rec.Body)
	}
	// The cancel page's view says whether the booking may still move.
	view := sitetest.Do(t, env.handler, "GET", "/api/bookings/cancel?token="+cancelOf(a.Token), "", nil)
	if !strings.Contains(view.Body.String(), `"movable":true`) {
		t.Errorf("the cancel page's view: %s", view.Body)
	}
}
