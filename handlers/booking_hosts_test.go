package handlers

import (
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/northbeam/site/internal/sitetest"
	"github.com/northbeam/site/internal/store"
	"github.com/northbeam/site/internal/store/storetest"
)

// newHostsEnv serves the site built with the hosts of sitetest.HostsFixture
// and a booking service that books with them, on backend.
func newHostsEnv(t *testing.T, backend store.Backend) *bookingEnv {
	t.Helper()
	st := storetest.Open(t, backend)
	env := &bookingEnv{store: st, clock: &atomic.Pointer[time.Time]{}}
	env.setNow(monday7am)
	env.service = sitetest.BookingService(t, st, sitetest.HostsFixture, func() time.Time { return *env.clock.Load() })
	unlimited := RateLimit{Requests: 1 << 20, Window: time.Minute}
	site := sitetest.HostsSite(t, sitetest.HostsFixture)
	env.handler = New(NewServer(site, Services{Log: sitetest.QuietLog(), Store: st, Booking: env.service, BookingRate: unlimited, SlotsRate: unlimited}))
	return env
}

// A visitor books with a named person: the time step offers that person's
// times only, the booking is theirs and says so with their name, role and
// portrait in the visitor's language; a second visitor asking for the same
// person at the same time gets a 409 in their language that offers the
// person's next times and the colleagues free then.
func TestBookingWithAPerson(t *testing.T) {
	forEachBackend(t, func(t *testing.T, backend store.Backend) {
		env := newHostsEnv(t, backend)
		rtl := sitetest.RightToLeft(t).Code
		samira, err := sitetest.HostsSite(t, sitetest.HostsFixture).Team().Person(rtl, sitetest.HostSamira)
		if err != nil {
			t.Fatal(err)
		}

		rec := sitetest.Get(t, env.handler, "/api/slots?service=strategy&tz=Europe/Berlin&person=jonas-becker&lang="+rtl)
		if rec.Code != http.StatusUnprocessableEntity || !strings.Contains(rec.Body.String(), `"person"`) {
			t.Errorf("slots of strategy with Jonas, who does not take it: %d %s", rec.Code, rec.Body)
		}

		req := validBooking(t, "10:00", rtl)
		req["person"] = sitetest.HostSamira
		b := bookSlot(t, env, req)
		if b.Host == nil || b.Host.Slug != sitetest.HostSamira || b.Host.Name != samira.Name || b.Host.Role != samira.Role || b.Host.Photo.Src != samira.Photo.Src {
			t.Fatalf("the booking's host = %+v, want %s as the %s pages name her", b.Host, samira.Name, rtl)
		}
		if offeredWith(t, env, sitetest.HostSamira)[tuesdayAt(t, "10:00")] {
			t.Error("Samira's link still offers the time she is booked at")
		}
		if !offeredStarts(t, env, "discovery")[tuesdayAt(t, "10:00")] {
			t.Error("the service no longer offers a time at which two hosts are free")
		}

		again := validBooking(t, "10:00", rtl)
		again["person"] = sitetest.HostSamira
		again["email"] = "other@example.com"
		rec = sitetest.PostJSON(t, env.handler, "/api/bookings", again)
		if rec.Code != http.StatusConflict {
			t.Fatalf("a second visitor for Samira at her booked time: %d %s", rec.Code, rec.Body)
		}
		conflict := sitetest.DecodeJSON[bookingConflict](t, rec)
		want := sitetest.HostsSite(t, sitetest.HostsFixture).Locales.T(rtl, "booking.hostTaken", "name", samira.Name)
		if conflict.Error.Message != want || !strings.Contains(want, samira.Name) {
			t.Errorf("409 message %q, want %q", conflict.Error.Message, want)
		}
		var others []string
		for _, h := range conflict.Hosts {
			others = append(others, h.Slug)
		}
		if strings.Join(others, ",") != "jonas-becker,lena-hartmann" {
			t.Errorf("409 offers the time with %v, want Jonas and Lena", others)
		}
		if conflict.Slots == nil || len(conflict.Slots.Days) == 0 || len(conflict.Slots.Days[0].Slots) == 0 {
			t.Errorf("409 offers none of Samira's next times: %+v", conflict.Slots)
		}
		if n := sitetest.Count(t, env.store, `SELECT count(*) FROM bookings`); n != 1 {
			t.Errorf("%d bookings, want 1", n)
		}
	})
}

// offeredWith returns the starts on Tuesday in Berlin that person's link
// offers for a discovery call.
func offeredWith(t *testing.T, env *bookingEnv, person string) map[time.Time]bool {
	t.Helper()
	rec := sitetest.Get(t, env.handler, "/api/slots?service=discovery&from=2027-06-08&days=1&tz=Europe/Berlin&person="+person)
	if rec.Code != http.StatusOK {
		t.Fatalf("slots with %s: %d %s", person, rec.Code, rec.Body)
	}
	starts := map[time.Time]bool{}
	for _, d := range sitetest.DecodeJSON[slotsResponse](t, rec).Days {
		for _, s := range d.Slots {
			starts[s.Start] = true
		}
	}
	return starts
}

// A person who takes consultations has a "Book a call" link on their
// page, in every language; the booking pages carry the hosts.
func TestPersonPageBooksACall(t *testing.T) {
	site := sitetest.HostsSite(t, sitetest.HostsFixture)
	h := New(NewServer(site, Services{Log: sitetest.QuietLog()}))
	for _, lang := range sitetest.Languages(t) {
		p, err := site.Team().Person(lang.Code, sitetest.HostJonas)
		if err != nil {
			t.Fatal(err)
		}
		rec := sitetest.Get(t, h, lang.LocalPath("/team/"+sitetest.HostJonas))
		body := rec.Body.String()
		link := `href="` + lang.LocalPath("/schedule/discovery") + `?with=jonas-becker"`
		label := site.Locales.T(lang.Code, "team.book", "name", p.Name)
		if rec.Code != http.StatusOK || !strings.Contains(body, link) || !strings.Contains(body, label) {
			t.Errorf("%s: Jonas's page has no %s link %q", lang.Code, link, label)
		}
		rec = sitetest.Get(t, h, lang.LocalPath("/schedule/discovery"))
		if !strings.Contains(rec.Body.String(), `"slug":"jonas-becker"`) {
			t.Errorf("%s: the booking page's payload does not carry the hosts", lang.Code)
		}
	}
	// Strategy's visitors choose their host: its page says so.
	if rec := sitetest.Get(t, h, "/schedule/strategy"); !strings.Contains(rec.Body.String(), `"choice":["strategy"]`) {
		t.Error("the strategy page's payload does not say its visitors choose their host")
	}
	// Julien takes no consultations: no link.
	rec := sitetest.Get(t, h, "/team/julien-moreau")
	if strings.Contains(rec.Body.String(), "?with=") {
		t.Error("a person who takes no consultations is offered to book")
	}
}
