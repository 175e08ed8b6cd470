package handlers

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	ics "github.com/arran4/golang-ical"

	"github.com/northbeam/site/internal/booking"
	"github.com/northbeam/site/internal/mail"
	"github.com/northbeam/site/internal/mail/mailtest"
	"github.com/northbeam/site/internal/sitetest"
	"github.com/northbeam/site/internal/store"
	"github.com/northbeam/site/internal/store/storetest"
)

// bookingEnv is a server with a booking service on a fresh database.
type bookingEnv struct {
	handler http.Handler
	store   *store.Store
	service *booking.Service
	clock   *atomic.Pointer[time.Time]
}

// setNow moves the service's clock.
func (env *bookingEnv) setNow(t time.Time) { env.clock.Store(&t) }

// newBookingEnv serves the built site with a booking service over a
// temporary database. now is the service's clock; nil means the real one.
func newBookingEnv(t testing.TB, availability string, now *time.Time) *bookingEnv {
	t.Helper()
	return newBookingEnvOn(t, store.SQLite, availability, now)
}

// newBookingEnvOn is newBookingEnv on the given database back-end.
func newBookingEnvOn(t testing.TB, backend store.Backend, availability string, now *time.Time) *bookingEnv {
	t.Helper()
	return newBookingEnvWith(t, storetest.Open(t, backend), availability, now)
}

// newBookingEnvWith is newBookingEnv on the store st, with the booking
// service's configuration changed by edits.
func newBookingEnvWith(t testing.TB, st *store.Store, availability string, now *time.Time, edits ...func(*booking.Config)) *bookingEnv {
	t.Helper()
	env := &bookingEnv{store: st, clock: &atomic.Pointer[time.Time]{}}
	clock := time.Now
	if now != nil {
		env.setNow(*now)
		clock = func() time.Time { return *env.clock.Load() }
	}
	env.service = sitetest.BookingService(t, st, availability, clock, edits...)
	// The API tests race and repeat requests from one address: the rate
	// limits have tests of their own (security_test.go).
	unlimited := RateLimit{Requests: 1 << 20, Window: time.Minute}
	env.handler = New(NewServer(sitetest.Site(t), Services{Log: sitetest.QuietLog(), Store: st, Booking: env.service, BookingRate: unlimited, SlotsRate: unlimited}))
	return env
}

// monday7am is the clock of the API tests: Monday 7 June 2027, 07:00 in
// Berlin. With 12 hours of notice, Tuesday is fully bookable.
var monday7am = time.Date(2027, 6, 7, 5, 0, 0, 0, time.UTC)

// tuesdayAt returns a time on Tuesday 8 June 2027 in Berlin, in UTC.
func tuesdayAt(t testing.TB, clock string) time.Time {
	t.Helper()
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	c, err := time.ParseInLocation("2006-01-02 15:04", "2027-06-08 "+clock, berlin)
	if err != nil {
		t.Fatal(err)
	}
	return c.UTC()
}

// validBooking is a request the fixture accepts on monday7am.
func validBooking(t testing.TB, clock, lang string) map[string]string {
	return map[string]string{
		"service":  "discovery",
		"start":    tuesdayAt(t, clock).Format(time.RFC3339),
		"name":     "Amira Haddad",
		"email":    "amira@example.com",
		"company":  "Haddad Logistics",
		"topic":    "Moving our dispatch system\nto the cloud.",
		"timeZone": "America/New_York",
		"lang":     lang,
	}
}

func bookSlot(t testing.TB, env *bookingEnv, req map[string]string) createdBooking {
	t.Helper()
	rec := sitetest.PostJSON(t, env.handler, "/api/bookings", req)
	if rec.Code != http.StatusCreated {
		t.Fatalf("booking: %d %s", rec.Code, rec.Body.String())
	}
	return sitetest.DecodeJSON[bookingCreated](t, rec).Booking
}

// slotStarts returns the starts offered on Tuesday in Berlin.
func offeredStarts(t testing.TB, env *bookingEnv, service string) map[time.Time]bool {
	t.Helper()
	rec := sitetest.Get(t, env.handler, "/api/slots?service="+service+"&from=2027-06-08&days=1&tz=Europe/Berlin")
	if rec.Code != http.StatusOK {
		t.Fatalf("slots: %d %s", rec.Code, rec.Body.String())
	}
	body := sitetest.DecodeJSON[slotsResponse](t, rec)
	starts := map[time.Time]bool{}
	for _, d := range body.Days {
		for _, s := range d.Slots {
			starts[s.Start] = true
		}
	}
	return starts
}

func TestBookingAPIScenarios(t *testing.T) { forEachBackend(t, testBookingAPIScenarios) }

func testBookingAPIScenarios(t *testing.T, backend store.Backend) {
	ok := validBooking(t, "10:00", sitetest.Default(t).Code)
	big := validBooking(t, "10:00", sitetest.Default(t).Code)
	big["topic"] = strings.Repeat("x", 20<<10)
	for _, tc := range []struct {
		name, method, target, contentType, body string
		status                                  int
		contains                                string
	}{
		{"slots", "GET", "/api/slots?service=strategy&from=2027-06-08&days=2&tz=Asia/Tokyo", "", "", 200, `"timeZone":"Asia/Tokyo"`},
		{"slots of a day in UTC", "GET", "/api/slots?service=discovery&from=2027-06-08&days=1&tz=UTC", "", "", 200, `"start":"2027-06-08T07:00:00Z","end":"2027-06-08T07:15:00Z"`},
		{"slots without a zone", "GET", "/api/slots?service=discovery", "", "", 422, `"tz":"Please choose a valid time zone."`},
		{"a booking", "POST", "/api/bookings", "application/json", bookingJSON(ok), 201, `"ics":"/api/bookings/`},
		{"a booking with a charset", "POST", "/api/bookings", "application/json; charset=utf-8", bookingJSON(validBooking(t, "11:00", sitetest.Default(t).Code)), 201, `"service":"discovery"`},
		{"the same time again", "POST", "/api/bookings", "application/json", bookingJSON(ok), 409, `"code":"slot_taken"`},
		{"a form post", "POST", "/api/bookings", "application/x-www-form-urlencoded", "service=discovery", 415, `"code":"unsupported_type"`},
		{"too large", "POST", "/api/bookings", "application/json", bookingJSON(big), 413, `"code":"too_large"`},
		{"not JSON", "POST", "/api/bookings", "application/json", `{"service":`, 400, `"code":"bad_request"`},
		{"two objects", "POST", "/api/bookings", "application/json", `{} {}`, 400, `"code":"bad_request"`},
		{"an unknown field", "POST", "/api/bookings", "application/json", `{"fax":"123"}`, 422, `"fax":"This field is not accepted."`},
		{"a wrong type", "POST", "/api/bookings", "application/json", `{"name":42}`, 422, `"name":"Please enter your name`},
		{"an unknown invite", "GET", "/api/bookings/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA.ics", "", "", 404, `"code":"not_found"`},
		{"not an invite", "GET", "/api/bookings/whatever", "", "", 404, `"code":"not_found"`},
		{"an unknown cancel token", "GET", "/api/bookings/cancel?token=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "", "", 404, `"code":"not_found"`},
		{"cancel without a token", "POST", "/api/bookings/cancel", "application/json", `{}`, 404, `"code":"not_found"`},
		{"cancel as a form post", "POST", "/api/bookings/cancel", "text/plain", `token=x`, 415, `"code":"unsupported_type"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := newBookingEnvOn(t, backend, sitetest.BookingFixture, &monday7am)
			if tc.status == 409 {
				bookSlot(t, env, ok)
			}
			rec := sitetest.Do(t, env.handler, tc.method, tc.target, tc.contentType, []byte(tc.body))
			if rec.Code != tc.status || !strings.Contains(rec.Body.String(), tc.contains) {
				t.Errorf("%d %s\nwant %d containing %s", rec.Code, rec.Body.String(), tc.status, tc.contains)
			}
			if ct := rec.Header().Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
				t.Errorf("Content-Type %q", ct)
			}
		})
	}
}

func bookingJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// TestBookingValidationInEveryLanguage checks that every field error and
// the message come back in the visitor's language, from the body's lang or
// else from Accept-Language.
func TestBookingValidationInEveryLanguage(t *testing.T) {
	s := sitetest.Site(t)
	env := newBookingEnv(t, sitetest.BookingFixture, &monday7am)
	for _, lang := range s.Info.Languages {
		t.Run(lang.Code, func(t *testing.T) {
			check := func(t *testing.T, rec *httptest.ResponseRecorder, want booking.FieldErrors) {
				t.Helper()
				if rec.Code != http.StatusUnprocessableEntity {
					t.Fatalf("%d %s", rec.Code, rec.Body.String())
				}
				body := sitetest.DecodeJSON[apiError](t, rec)
				if body.Error.Code != "invalid" || body.Error.Message != s.Locales.T(lang.Code, "validation.invalid") {
					t.Errorf("error %+v", body.Error)
				}
				if len(body.Error.Fields) != len(want) {
					t.Errorf("fields %v, want %v", body.Error.Fields, want)
				}
				for field, key := range want {
					got, wantText := body.Error.Fields[field], s.Locales.T(lang.Code, key)
					if got != wantText {
						t.Errorf("%s = %q, want %q", field, got, wantText)
					}
					if def := sitetest.Default(t).Code; lang.Code != def && got == s.Locales.T(def, key) {
						t.Errorf("%s is the default language's (%s): %q", field, def, got)
					}
				}
			}
			everything := map[string]string{
				"service": "lunch", "start": "tomorrow", "name": " ", "email": "amira@", "timeZone": "Mars/Olympus",
				"company": strings.Repeat("c", 121), "topic": strings.Repeat("t", 1001), "lang": lang.Code,
			}
			check(t, sitetest.PostJSON(t, env.handler, "/api/bookings", everything), booking.FieldErrors{
				"service": booking.KeyService, "start": booking.KeyStart, "name": booking.KeyName, "email": booking.KeyEmail,
				"timeZone": booking.KeyTimeZone, "company": booking.KeyCompany, "topic": booking.KeyTopic,
			})

			offGrid := validBooking(t, "10:05", lang.Code)
			check(t, sitetest.PostJSON(t, env.handler, "/api/bookings", offGrid), booking.FieldErrors{"start": booking.KeySlotUnavailable})

			// No lang in the body: Accept-Language decides, even for an unknown field.
			unknown := sitetest.Do(t, env.handler, "POST", "/api/bookings", "application/json", []byte(`{"fax":"+49 30 1234"}`),
				"Accept-Language", lang.Tag+";q=0.9, es;q=0.8")
			check(t, unknown, booking.FieldErrors{"fax": booking.KeyUnknownField})

			query := sitetest.Do(t, env.handler, "GET", "/api/slots?service=lunch&tz=Nowhere&from=2027-02-30&days=40&lang="+lang.Code, "", nil)
			check(t, query, booking.FieldErrors{
				"service": booking.KeyService, "tz": booking.KeyTimeZone, "from": booking.KeyFrom, "days": booking.KeyDays,
			})
		})
	}
	if n := len(sitetest.Outbox(t, env.store)); n != 0 {
		t.Errorf("invalid requests queued %d mails", n)
	}
}

// TestConcurrentBookingsForOverlappingTimes races 50 requests for four
// times that pairwise overlap once the buffer is counted: exactly one
// booking is made, and every other request gets a 409 with fresh slots.
func TestConcurrentBookingsForOverlappingTimes(t *testing.T) {
	forEachBackend(t, testConcurrentBookingsForOverlappingTimes)
}

func testConcurrentBookingsForOverlappingTimes(t *testing.T, backend store.Backend) {
	env := newBookingEnvOn(t, backend, sitetest.BookingFixture, &monday7am)
	srv := httptest.NewServer(env.handler)
	defer srv.Close()
	variants := []struct{ service, clock string }{
		{"discovery", "10:00"}, {"strategy", "10:00"}, {"discovery", "10:15"}, {"strategy", "10:15"},
	}
	const n = 50
	var wg sync.WaitGroup
	statuses := make([]int, n)
	bodies := make([]string, n)
	startLine := make(chan struct{})
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			v := variants[i%len(variants)]
			req := validBooking(t, v.clock, sitetest.OtherAt(t, 1).Code)
			req["service"] = v.service
			req["email"] = fmt.Sprintf("visitor%d@example.com", i)
			<-startLine
			res, err := http.Post(srv.URL+"/api/bookings", "application/json", strings.NewReader(bookingJSON(req)))
			if err != nil {
				t.Error(err)
				return
			}
			defer res.Body.Close()
			b, _ := io.ReadAll(res.Body)
			statuses[i], bodies[i] = res.StatusCode, string(b)
		}()
	}
	close(startLine)
	wg.Wait()

	created, conflicts := 0, 0
	for i, status := range statuses {
		switch status {
		case http.StatusCreated:
			created++
		case http.StatusConflict:
			conflicts++
			var body bookingConflict
			if err := json.Unmarshal([]byte(bodies[i]), &body); err != nil {
				t.Fatal(err)
			}
			if body.Error.Message != sitetest.Site(t).Locales.T(sitetest.OtherAt(t, 1).Code, "booking.taken") || body.Slots == nil || len(body.Slots.Days) != freshSlotsDays {
				t.Errorf("409 body: %s", bodies[i])
			}
		default:
			t.Errorf("request %d: %d %s", i, status, bodies[i])
		}
	}
	if created != 1 || conflicts != n-1 {
		t.Errorf("%d created and %d conflicts, want 1 and %d", created, conflicts, n-1)
	}
	var standing int
	if err := env.store.QueryRowContext(context.Background(), `SELECT count(*) FROM bookings`).Scan(&standing); err != nil {
		t.Fatal(err)
	}
	if standing != 1 {
		t.Errorf("%d bookings stored", standing)
	}
	if rows := sitetest.Outbox(t, env.store); len(rows) != 2 {
		t.Errorf("%d mails queued, want the 2 of the one booking", len(rows))
	}
}

// TestBookingSlotDisappearsAndCancelFreesIt follows a booking from the open
// slots to its cancellation through the link in the email, twice.
func TestBookingSlotDisappearsAndCancelFreesIt(t *testing.T) {
	forEachBackend(t, testBookingSlotDisappearsAndCancelFreesIt)
}

func testBookingSlotDisappearsAndCancelFreesIt(t *testing.T, backend store.Backend) {
	env := newBookingEnvOn(t, backend, sitetest.BookingFixture, &monday7am)
	at := tuesdayAt(t, "10:00")
	before := offeredStarts(t, env, "discovery")
	for _, c := range []string{"09:45", "10:00", "10:15", "10:30"} {
		if !before[tuesdayAt(t, c)] {
			t.Fatalf("%s not offered before booking", c)
		}
	}
	created := bookSlot(t, env, validBooking(t, "10:00", sitetest.OtherAt(t, 0).Code))
	if !created.Start.Equal(at) || !created.End.Equal(at.Add(15*time.Minute)) || created.TimeZone != "America/New_York" {
		t.Errorf("created %+v", created)
	}
	if !strings.HasPrefix(created.Calendar.Google, "https://calendar.google.com/") || !strings.HasPrefix(created.Calendar.Outlook, "https://outlook.live.com/") {
		t.Errorf("calendar links %+v", created.Calendar)
	}

	// The slot and its neighbours within the 10-minute buffer are gone;
	// further ones stay.
	after := offeredStarts(t, env, "discovery")
	for c, want := range map[string]bool{"09:30": true, "09:45": false, "10:00": false, "10:15": false, "10:30": true} {
		if after[tuesdayAt(t, c)] != want {
			t.Errorf("after booking, %s offered = %v, want %v", c, !want, want)
		}
	}
	if strategy := offeredStarts(t, env, "strategy"); strategy[tuesdayAt(t, "09:30")] || !strategy[tuesdayAt(t, "09:15")] {
		t.Error("a 30-minute slot ending at the booking is offered, or one ending 15 minutes before is not")
	}

	token := sitetest.EmailedCancelToken(t, env.store, sitetest.OtherAt(t, 0).Prefix)
	rec := sitetest.Get(t, env.handler, "/api/bookings/cancel?token="+token)
	view := sitetest.DecodeJSON[cancellationView](t, rec)
	if rec.Code != http.StatusOK || view.Booking.Status != "confirmed" || !view.Booking.Start.Equal(at) || view.Booking.Service != "discovery" {
		t.Fatalf("lookup: %d %+v", rec.Code, view)
	}
	if strings.Contains(rec.Body.String(), "amira") {
		t.Error("the cancel lookup shows the visitor's details")
	}

	for round := range 2 {
		rec = sitetest.PostJSON(t, env.handler, "/api/bookings/cancel", map[string]string{"token": token, "lang": sitetest.OtherAt(t, 0).Code})
		view = sitetest.DecodeJSON[cancellationView](t, rec)
		if rec.Code != http.StatusOK || view.Booking.Status != "cancelled" {
			t.Fatalf("cancel #%d: %d %s", round+1, rec.Code, rec.Body.String())
		}
	}
	if again := offeredStarts(t, env, "discovery"); !again[at] || !again[tuesdayAt(t, "09:45")] {
		t.Error("the cancelled slot is not offered again")
	}
	kinds := map[string]int{}
	for _, r := range sitetest.Outbox(t, env.store) {
		kinds[r[0]]++
	}
	want := map[string]int{booking.KindConfirmation: 1, booking.KindNotify: 1, booking.KindCancelled: 1, booking.KindCancelNotify: 1}
	if fmt.Sprint(kinds) != fmt.Sprint(want) {
		t.Errorf("mails %v, want %v (cancelling twice sends nothing more)", kinds, want)
	}

	// The invite now cancels the event, and the time can be booked again.
	inv := sitetest.Get(t, env.handler, created.ICS)
	if inv.Code != http.StatusOK || !strings.Contains(inv.Body.String(), "STATUS:CANCELLED") || strings.Contains(inv.Body.String(), "METHOD:") {
		t.Errorf("invite after cancel: %d %s", inv.Code, inv.Body.String())
	}
	bookSlot(t, env, validBooking(t, "10:00", sitetest.Default(t).Code))
}

func TestCancellingAStartedBookingIsRefused(t *testing.T) {
	forEachBackend(t, testCancellingAStartedBookingIsRefused)
}

func testCancellingAStartedBookingIsRefused(t *testing.T, backend store.Backend) {
	env := newBookingEnvOn(t, backend, sitetest.BookingFixture, &monday7am)
	bookSlot(t, env, validBooking(t, "10:00", sitetest.OtherAt(t, 2).Code))
	token := sitetest.EmailedCancelToken(t, env.store, sitetest.OtherAt(t, 2).Prefix)
	env.setNow(tuesdayAt(t, "10:05"))
	rec := sitetest.Get(t, env.handler, "/api/bookings/cancel?token="+token)
	if view := sitetest.DecodeJSON[cancellationView](t, rec); view.Booking.Status != "started" {
		t.Errorf("lookup while it runs: %+v", view)
	}
	rec = sitetest.PostJSON(t, env.handler, "/api/bookings/cancel", map[string]string{"token": token, "lang": sitetest.OtherAt(t, 2).Code})
	body := sitetest.DecodeJSON[apiError](t, rec)
	if rec.Code != http.StatusConflict || body.Error.Code != "started" || body.Error.Message != sitetest.Site(t).Locales.T(sitetest.OtherAt(t, 2).Code, "booking.cancel.started") {
		t.Errorf("%d %s", rec.Code, rec.Body.String())
	}
}

// TestBookingInviteParses reads the served invite back with a calendar library.
func TestBookingInviteParses(t *testing.T) {
	env := newBookingEnv(t, sitetest.BookingFixture, &monday7am)
	req := validBooking(t, "14:30", sitetest.OtherAt(t, 1).Code)
	req["service"] = "strategy"
	created := bookSlot(t, env, req)
	rec := sitetest.Get(t, env.handler, created.ICS)
	if rec.Code != http.StatusOK {
		t.Fatalf("%d %s", rec.Code, rec.Body.String())
	}
	// A file to import: no METHOD, in the file or its type (RFC 5545
	// §3.7.2); the mails keep theirs (TestBookingMailsReachSMTP).
	if ct := rec.Header().Get("Content-Type"); ct != "text/calendar; charset=utf-8" {
		t.Errorf("Content-Type %q", ct)
	}
	if cd := rec.Header().Get("Content-Disposition"); !strings.HasPrefix(cd, "attachment;") {
		t.Errorf("Content-Disposition %q", cd)
	}
	if cc := rec.Header().Get("Cache-Control"); cc != "no-store" {
		t.Errorf("Cache-Control %q", cc)
	}
	ev := sitetest.ParseInvite(t, rec.Body.Bytes(), "")
	start, err := ev.GetStartAt()
	if err != nil || !start.Equal(tuesdayAt(t, "14:30")) || start.Location() != time.UTC {
		t.Errorf("DTSTART %v %v, want 12:30 UTC", start, err)
	}
	end, err := ev.GetEndAt()
	if err != nil || !end.Equal(tuesdayAt(t, "15:00")) {
		t.Errorf("DTEND %v %v", end, err)
	}
	if got := ev.GetProperty(ics.ComponentPropertySummary).Value; got != "Strategiegespräch mit Northbeam" {
		t.Errorf("SUMMARY %q", got)
	}
	if desc := ev.GetProperty(ics.ComponentPropertyDescription).Value; !strings.Contains(desc, "30 Minuten") || !strings.Contains(desc, "> Moving our dispatch system\n> to the cloud.") {
		t.Errorf("DESCRIPTION %q", desc)
	}
	if org := ev.GetProperty(ics.ComponentPropertyOrganizer); org == nil || org.Value != "mailto:"+sitetest.Inbox {
		t.Errorf("ORGANIZER %+v", org)
	}
	if a := ev.Attendees(); len(a) != 1 || a[0].Email() != "amira@example.com" ||
		!slices.Equal(a[0].ICalParameters["RSVP"], []string{"FALSE"}) || !slices.Equal(a[0].ICalParameters["PARTSTAT"], []string{"ACCEPTED"}) {
		t.Errorf("ATTENDEE %+v, want one who accepted and is asked for no reply", a)
	}
	if !strings.HasSuffix(ev.Id(), "@example.test") || strings.Contains(ev.Id(), created.Token) {
		t.Errorf("UID %q", ev.Id())
	}
	if again := sitetest.Get(t, env.handler, created.ICS); !bytes.Equal(again.Body.Bytes(), rec.Body.Bytes()) {
		t.Error("the invite changes between downloads")
	}
}

// TestBookingMailsReachSMTP sends the outbox through a real SMTP server:
// the visitor's confirmation in Arabic with the invite attached, the
// consultancy's notification, then both cancellation notices.
func TestBookingMailsReachSMTP(t *testing.T) { forEachBackend(t, testBookingMailsReachSMTP) }

func testBookingMailsReachSMTP(t *testing.T, backend store.Backend) {
	env := newBookingEnvOn(t, backend, sitetest.BookingFixture, &monday7am)
	smtpServer := mailtest.Start(t)
	sender, err := mail.NewSMTPSender(mail.SMTPConfig{URL: smtpServer.URL(), From: "Northbeam <hello@northbeam.test>", Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	worker := mail.NewWorker(env.store, sender, mail.WorkerConfig{Logger: sitetest.QuietLog()})
	ctx := context.Background()

	created := bookSlot(t, env, validBooking(t, "09:00", "ar"))
	if _, err := worker.DrainOnce(ctx); err != nil {
		t.Fatal(err)
	}
	got := smtpServer.WaitFor(2)
	byRecipient := map[string]mailtest.Received{}
	for _, m := range got {
		byRecipient[strings.Join(m.To, ",")] = m
	}
	visitor, notify := byRecipient["amira@example.com"], byRecipient[sitetest.Inbox]
	if !strings.HasPrefix(visitor.Subject, "تأكيد الموعد: مكالمة تعارفية مع Northbeam") {
		t.Errorf("visitor subject %q", visitor.Subject)
	}
	text, err := visitor.Text()
	if err != nil {
		t.Fatal(err)
	}
	// 09:00 in Berlin is 03:00 in New York, and the mail says so in Arabic,
	// the zones named in Arabic, each value isolated in the right-to-left text.
	for _, want := range []string{"مرحبًا،\n", "\u2068الثلاثاء، 8 يونيو 2027، الساعة 3:00\u00a0ص\u2069، \u2068نيويورك (", "الساعة 9:00\u00a0ص\u2069، \u2068برلين (", "https://example.test/ar/schedule/cancel?token="} {
		if !strings.Contains(text, want) {
			t.Errorf("visitor mail lacks %q:\n%s", want, text)
		}
	}
	// The address was not verified: nothing the visitor typed is in the
	// mail, nor in its invite; the consultancy's copy has all of it.
	typed := []string{"Amira", "Haddad", "dispatch"}
	attachments := visitor.Attachments()
	for _, word := range typed {
		if strings.Contains(visitor.Subject+text, word) || len(attachments) == 1 && bytes.Contains(attachments[0].Body, []byte(word)) {
			t.Errorf("the visitor's confirmation repeats %q", word)
		}
	}
	notifyFiles := notify.Attachments()
	if len(notifyFiles) != 1 || !bytes.Contains(notifyFiles[0].Body, []byte(`CN="Amira Haddad"`)) || !bytes.Contains(notifyFiles[0].Body, []byte("dispatch")) {
		t.Errorf("the consultancy's invite lacks the attendee's name or the topic: %+v", notifyFiles)
	}
	if len(attachments) != 1 || attachments[0].Filename != "invite.ics" || attachments[0].ContentType != "text/calendar" || attachments[0].Params["method"] != "REQUEST" {
		t.Fatalf("visitor attachments %+v", attachments)
	}
	ev := sitetest.ParseInvite(t, attachments[0].Body, "REQUEST")
	if start, _ := ev.GetStartAt(); !start.Equal(created.Start) {
		t.Errorf("attached invite starts %v, want %v", start, created.Start)
	}
	// The mailed invite is an iMIP request: its attendee is asked to reply.
	if a := ev.Attendees(); len(a) != 1 || !slices.Equal(a[0].ICalParameters["RSVP"], []string{"TRUE"}) {
		t.Errorf("the mailed invite's ATTENDEE %+v, want one asked to reply", a)
	}
	// The invite, read back by the iCalendar library: the links to choose
	// another time and to cancel, and a reminder before the start.
	description := ev.GetProperty(ics.ComponentPropertyDescription)
	for _, page := range []string{"/ar/schedule/reschedule?token=", "/ar/schedule/cancel?token="} {
		if description == nil || !strings.Contains(description.Value, "https://example.test"+page) {
			t.Errorf("the invite's description has no link to %s: %+v", page, description)
		}
	}
	if alarms := ev.Alarms(); len(alarms) != 1 || alarms[0].GetProperty(ics.ComponentPropertyTrigger) == nil ||
		alarms[0].GetProperty(ics.ComponentPropertyTrigger).Value != "-PT30M" || alarms[0].GetProperty(ics.ComponentPropertyAction).Value != "DISPLAY" {
		t.Errorf("the invite's alarms: %+v", alarms)
	}
	// Sent as calendar programs send an invitation (iMIP, RFC 6047): text,
	// HTML and the calendar object as the alternatives of the body, and the
	// file attached.
	var body []string
	for _, p := range visitor.Parts {
		if p.Within == "multipart/alternative" {
			body = append(body, p.ContentType+";method="+p.Params["method"])
		}
	}
	if strings.Join(body, " ") != "text/plain;method= text/html;method= text/calendar;method=REQUEST" {
		t.Errorf("the confirmation's alternatives: %v", body)
	}
	// The file served to whoever booked is the same event (which the
	// attached one updates), with the attendee's name and the topic.
	served := sitetest.ParseInvite(t, sitetest.Get(t, env.handler, created.ICS).Body.Bytes(), "")
	for _, p := range []ics.ComponentProperty{ics.ComponentPropertyUniqueId, ics.ComponentPropertyDtStart, ics.ComponentPropertyDtEnd,
		ics.ComponentPropertySummary, ics.ComponentPropertySequence, ics.ComponentPropertyOrganizer} {
		if a, b := ev.GetProperty(p), served.GetProperty(p); a == nil || b == nil || a.Value != b.Value {
			t.Errorf("%s: attached %+v, served %+v", p, a, b)
		}
	}
	if replyTo, _ := notify.AddressHeader("Reply-To"); len(replyTo) != 1 || replyTo[0] != "amira@example.com" {
		t.Errorf("notification Reply-To %v", replyTo)
	}
	if notifyText, _ := notify.Text(); !strings.Contains(notifyText, "Tuesday, 8 June 2027 at 9:00\u00a0am, Berlin (Central European Time)") ||
		!strings.Contains(notifyText, "Booked at:    Monday, 7 June 2027 at 7:00\u00a0am, Berlin (Central European Time)") || !strings.Contains(notifyText, "Haddad Logistics") {
		t.Errorf("notification:\n%s", notifyText)
	}

	token := sitetest.EmailedCancelToken(t, env.store, "/ar")
	if rec := sitetest.PostJSON(t, env.handler, "/api/bookings/cancel", map[string]string{"token": token}); rec.Code != http.StatusOK {
		t.Fatalf("cancel: %d %s", rec.Code, rec.Body.String())
	}
	if _, err := worker.DrainOnce(ctx); err != nil {
		t.Fatal(err)
	}
	got = smtpServer.WaitFor(4)
	for _, m := range got[2:] {
		files := m.Attachments()
		if len(files) != 1 || files[0].Params["method"] != "CANCEL" {
			t.Fatalf("cancellation to %v: attachments %+v", m.To, files)
		}
		sitetest.ParseInvite(t, files[0].Body, "CANCEL")
		if strings.Join(m.To, ",") == "amira@example.com" && !strings.HasPrefix(m.Subject, "إلغاء الموعد") {
			t.Errorf("visitor cancellation subject %q", m.Subject)
		}
	}
}

// TestBookingCancelPageInEveryLanguage checks that the page of the link in
// the email exists in every language.
func TestBookingCancelPageInEveryLanguage(t *testing.T) {
	s := sitetest.Site(t)
	h := testHandler(t)
	for _, lang := range s.Info.Languages {
		path := lang.LocalPath("/schedule/cancel") + "?token=" + url.QueryEscape(booking.NewToken())
		rec := sitetest.Get(t, h, path)
		if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), ">"+s.Locales.T(lang.Code, "booking.cancel.title")+"</h1>") {
			t.Errorf("%s: %d", path, rec.Code)
		}
	}
}
