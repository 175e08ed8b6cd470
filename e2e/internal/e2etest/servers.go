package e2etest

import (
	"net/http"
	"regexp"
	"testing"
	"time"

	"github.com/northbeam/site/handlers"
	"github.com/northbeam/site/internal/booking"
	"github.com/northbeam/site/internal/sitebuild"
	"github.com/northbeam/site/internal/sitetest"
	"github.com/northbeam/site/internal/store"
	"github.com/northbeam/site/internal/store/storetest"
)

// testHandler returns the whole HTTP surface over the built site.
func testHandler(t testing.TB) http.Handler {
	return handlers.New(handlers.NewServer(sitetest.Site(t), handlers.Services{Log: sitetest.QuietLog()}))
}

// bookingEnv is a server with a booking service on a fresh database, on
// the real clock.
type bookingEnv struct {
	Handler http.Handler
	Store   *store.Store
	Service *booking.Service
}

// NewBookingEnv serves the built site with a booking service open as
// availability says. A browser test books more often than a visitor does:
// the rate limits have tests of their own (handlers).
func NewBookingEnv(t testing.TB, availability string) *bookingEnv {
	t.Helper()
	return NewBookingEnvOn(t, sitetest.Site(t), availability)
}

// NewBookingEnvOn is NewBookingEnv serving the site s (one built with the
// same availability, when it names hosts: sitetest.HostsSite).
func NewBookingEnvOn(t testing.TB, s *sitebuild.Build, availability string) *bookingEnv {
	t.Helper()
	st := storetest.Open(t, store.SQLite)
	svc := sitetest.BookingService(t, st, availability, time.Now)
	unlimited := handlers.RateLimit{Requests: 1 << 20, Window: time.Minute}
	h := handlers.New(handlers.NewServer(s, handlers.Services{
		Log: sitetest.QuietLog(), Store: st, Booking: svc, BookingRate: unlimited, SlotsRate: unlimited,
	}))
	return &bookingEnv{Handler: h, Store: st, Service: svc}
}

// contactEnv is a server with a contact service on a fresh database.
type contactEnv struct {
	h  http.Handler
	St *store.Store
}

// newContactEnv serves the built site with a contact service that takes a
// form filled in after minFillTime, on a clock that stands still.
func newContactEnv(t testing.TB, minFillTime time.Duration) *contactEnv {
	t.Helper()
	st := storetest.Open(t, store.SQLite)
	svc := sitetest.ContactService(t, st, minFillTime, nil)
	clock := sitetest.NewClock(time.Now())
	h := handlers.New(handlers.NewServer(sitetest.Site(t), handlers.Services{
		Log: sitetest.QuietLog(), Store: st, Contact: svc, Now: clock.Now,
	}))
	return &contactEnv{h: h, St: st}
}

// BookingCreated is the answer to a booking made, as far as the tests read
// it.
type BookingCreated struct {
	Booking struct {
		Token   string `json:"token"`
		Meeting *struct {
			URL string `json:"url"`
		} `json:"meeting"`
	} `json:"booking"`
}

// titleTag finds a page's title in its HTML.
var titleTag = regexp.MustCompile(`<title>([^<]*)</title>`)
