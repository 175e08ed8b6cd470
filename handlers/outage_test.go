package handlers

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/northbeam/site/internal/store"
	"github.com/northbeam/site/internal/store/storetest"
)

// TestDatabaseGoesAwayAndComesBack cuts the way to a running PostgreSQL
// under a serving site: pages keep coming from memory, the API answers 503
// with Retry-After and a localized message (never a 500), /readyz says so,
// nothing is half-written, and everything works again once the database is
// back, without a restart.
func TestDatabaseGoesAwayAndComesBack(t *testing.T) {
	ctx := context.Background()
	proxy, proxied := storetest.NewProxy(t, storetest.PostgresURL(t))
	st, err := store.OpenPostgres(ctx, proxied, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	env := newBookingEnvWith(t, st, bookingFixture, &monday7am)
	s := testSite(t)
	unlimited := RateLimit{Requests: 1 << 20, Window: time.Minute}
	h := New(NewServer(s, Services{
		Log: quietLog(), Store: st, Booking: env.service, Contact: newContactService(t, st, contactOptions{}),
		ContactRate: unlimited, BookingRate: unlimited, SlotsRate: unlimited,
	}))
	contactPost := func(lang string) *http.Response {
		rec := bookingDo(t, h, "POST", "/api/contact", "application/json", []byte(humanForm(lang).json()))
		return rec.Result()
	}
	get := func(path string) *http.Response { return bookingDo(t, h, "GET", path, "", nil).Result() }
	messages := func() int {
		var n int
		if err := st.QueryRowContext(ctx, `SELECT count(*) FROM messages`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}

	if res := contactPost("en"); res.StatusCode != 201 {
		t.Fatalf("before the outage: %d", res.StatusCode)
	}
	if res := get("/readyz"); res.StatusCode != 200 {
		t.Fatalf("/readyz before the outage: %d", res.StatusCode)
	}

	proxy.Cut()
	for _, lang := range []string{"de", "ar"} {
		res := contactPost(lang)
		rec := bookingDo(t, h, "POST", "/api/contact", "application/json", []byte(humanForm(lang).json()))
		if res.StatusCode != 503 || res.Header.Get("Retry-After") == "" {
			t.Errorf("a contact post during the outage: %d, Retry-After %q", res.StatusCode, res.Header.Get("Retry-After"))
		}
		if e := decodeAPIError(t, rec); e.Code != "unavailable" || e.Message != s.Locales.T(lang, "errors.unavailable") {
			t.Errorf("the error in %s: %+v", lang, e)
		}
	}
	form := bookingDo(t, h, "POST", "/api/contact", "application/x-www-form-urlencoded", []byte(humanForm("fr").form()))
	if form.Code != 503 || !strings.HasPrefix(pageStatus(form.Body.String()), s.Locales.T("fr", "contact.error")) {
		t.Errorf("a form post during the outage: %d, status line %q", form.Code, pageStatus(form.Body.String()))
	}
	for path, want := range map[string]int{
		"/api/slots?service=discovery&from=2027-06-08&days=2&tz=UTC": 503,
		"/api/bookings/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA.ics":         503,
		"/readyz":      503,
		"/fr/blog":     200, // pages come from memory
		"/de/schedule": 200,
	} {
		if res := get(path); res.StatusCode != want {
			t.Errorf("GET %s during the outage: %d, want %d", path, res.StatusCode, want)
		}
	}
	booking := bookingDo(t, h, "POST", "/api/bookings", "application/json", []byte(bookingJSON(validBooking(t, "10:00", "en"))))
	if booking.Code != 503 || booking.Header().Get("Retry-After") == "" {
		t.Errorf("a booking during the outage: %d %s", booking.Code, booking.Body)
	}

	proxy.Restore()
	if res := get("/readyz"); res.StatusCode != 200 {
		t.Errorf("/readyz after the outage: %d", res.StatusCode)
	}
	if res := contactPost("en"); res.StatusCode != 201 {
		t.Errorf("a contact post after the outage: %d", res.StatusCode)
	}
	if rec := bookingDo(t, h, "POST", "/api/bookings", "application/json", []byte(bookingJSON(validBooking(t, "10:00", "en")))); rec.Code != 201 {
		t.Errorf("a booking after the outage: %d %s", rec.Code, rec.Body)
	}
	if n := messages(); n != 2 {
		t.Errorf("%d messages stored, want the 2 acknowledged ones", n)
	}
}
