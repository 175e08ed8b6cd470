package booking

import (
	"context"
	"errors"
	"testing"

	"github.com/northbeam/site/internal/store"
	"github.com/northbeam/site/internal/store/storetest"
)

// TestMaxPerDayIsEachHosts holds a service's maxPerDay to each host's day:
// with a cap of one discovery call a day, each of the three hosts still
// takes one; a host at their cap is no longer offered that day (their
// link offers nothing, the service's link still offers the others'
// times) and a visitor who asks for them is told the day is full; the day
// is full for the service once every host is.
func TestMaxPerDayIsEachHosts(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		now := utc(t, "2027-03-01T05:00:00Z")
		svc := hostsService(t, st, &now, func(c *Config) {
			c.Availability.MaxPerDay = map[string]int{"discovery": 1}
		})
		day := Date{2027, 3, 2}
		offered := func(person string, d Date) map[string]bool {
			t.Helper()
			q := SlotsQuery{Service: "discovery", From: d, Days: 1, TimeZone: "UTC", Location: zone(t, "UTC"), Person: person}
			days, err := svc.Slots(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			out := map[string]bool{}
			for _, s := range days[0].Slots {
				out[s.Start.Format("15:04")] = true
			}
			return out
		}

		withAna := request(t, "discovery", "2027-03-02T09:00:00Z")
		withAna.Person = "ana"
		if b, err := svc.Book(ctx, withAna); err != nil || b.Host != "ana" {
			t.Fatalf("the day's first call, with Ana: host %q, %v", b.Host, err)
		}
		if n := len(offered("ana", day)); n != 0 {
			t.Errorf("Ana's link offers %d times on a day she has her one call", n)
		}
		if !offered("ben", day)["13:00"] || !offered("", day)["13:00"] {
			t.Error("Ben's day is not full, but his link or the service's does not offer his times")
		}
		if !offered("ana", Date{2027, 3, 3})["09:00"] {
			t.Error("Ana's next day is not offered")
		}
		again := request(t, "discovery", "2027-03-02T13:00:00Z")
		again.Person = "ana"
		again.Email = "other@example.com"
		if _, err := svc.Book(ctx, again); !errors.Is(err, ErrDayFull) {
			t.Errorf("a second call with Ana that day: %v, want ErrDayFull", err)
		}
		if free, err := svc.FreeHosts(ctx, "discovery", utc(t, "2027-03-02T10:00:00Z"), ""); err != nil || len(free) != 2 || free[0] != "ben" || free[1] != "cleo" {
			t.Errorf("the hosts still free that day: %v, %v; want ben, cleo", free, err)
		}

		// Without a choice, each of the others takes one call that day.
		for i, want := range []string{"ben", "cleo"} {
			r := request(t, "discovery", "2027-03-02T10:00:00Z")
			r.Email = want + "-visitor@example.com"
			b, err := svc.Book(ctx, r)
			if err != nil || b.Host != want {
				t.Fatalf("visitor %d that day: host %q, %v; want %s", i+2, b.Host, err, want)
			}
		}
		// Everyone at their cap: the day is full.
		last := request(t, "discovery", "2027-03-02T11:00:00Z")
		last.Email = "late@example.com"
		if _, err := svc.Book(ctx, last); !errors.Is(err, ErrDayFull) {
			t.Errorf("a fourth call on a day each host has theirs: %v, want ErrDayFull", err)
		}
		if n := len(offered("", day)); n != 0 {
			t.Errorf("%d times still offered on a day every host is full", n)
		}
	})
}
