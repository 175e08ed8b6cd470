package booking

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/northbeam/site/internal/calendar"
	"github.com/northbeam/site/internal/store"
	"github.com/northbeam/site/internal/store/storetest"
)

// hostsJSON is fixtureJSON with three hosts: Ana and Ben keep the
// consultancy's hours, Cleo works mornings only and is away on 3 March
// 2027. Discovery is shared round-robin among the three; strategy is
// Ana's and Ben's, at the visitor's choice, by phone or video.
var hostsJSON = strings.Replace(strings.Replace(fixtureJSON,
	`"services": {"discovery": {"minutes": 15}, "strategy": {"minutes": 30}},`,
	`"services": {
    "discovery": {"minutes": 15, "hosts": ["ana", "ben", "cleo"], "assignment": "round-robin"},
    "strategy": {"minutes": 30, "hosts": ["ana", "ben"], "assignment": "choice",
                 "meeting": {"type": "phone-or-video", "roomBase": "https://meet.example.com/nb-"}}
  },
  "hosts": {
    "ana": {"staff": "ana@example.com"},
    "ben": {"staff": "ben@example.com"},
    "cleo": {"staff": "Cleo@Example.com",
             "weeklyHours": {"monday": [{"start": "09:00", "end": "12:00"}], "tuesday": [{"start": "09:00", "end": "12:00"}],
                             "wednesday": [{"start": "09:00", "end": "12:00"}], "thursday": [{"start": "09:00", "end": "12:00"}],
                             "friday": [{"start": "09:00", "end": "12:00"}]},
             "closedDates": [{"date": "2027-03-03", "note": "away"}]}
  },`, 1), "", "", 1)

func hostsFixture(t *testing.T) Availability {
	t.Helper()
	av, err := ParseAvailability([]byte(hostsJSON))
	if err != nil {
		t.Fatalf("hosts fixture: %v", err)
	}
	return av
}

func hostsService(t *testing.T, st *store.Store, now *time.Time, edit func(*Config)) *Service {
	t.Helper()
	return testServiceWith(t, st, now, func(c *Config) {
		c.Availability = hostsFixture(t)
		c.People = func(lang, slug string) (HostProfile, bool) {
			return HostProfile{Name: strings.ToUpper(slug[:1]) + slug[1:] + " (" + lang + ")", Role: "Engineer"}, true
		}
		if edit != nil {
			edit(c)
		}
	})
}

func TestHostsInTheAvailabilityFile(t *testing.T) {
	av := hostsFixture(t)
	if got := av.HostsOf("discovery"); strings.Join(got, ",") != "ana,ben,cleo" || av.AssignmentOf("discovery") != AssignRoundRobin {
		t.Errorf("discovery: hosts %v, assignment %q", got, av.AssignmentOf("discovery"))
	}
	if h, ok := av.HostOfStaff("cleo@example.com"); !ok || h.Slug != "cleo" {
		t.Errorf("HostOfStaff(cleo@example.com) = %v, %v", h.Slug, ok)
	}
	if got := av.ServicesOf("cleo"); strings.Join(got, ",") != "discovery" {
		t.Errorf("ServicesOf(cleo) = %v", got)
	}
	if av.ForHost("ana").Weekly[time.Monday][1].End != av.Weekly[time.Monday][1].End {
		t.Error("a host without hours of their own does not keep the consultancy's")
	}
	if _, closed := av.ForHost("cleo").Closed[Date{2027, 3, 3}]; !closed {
		t.Error("Cleo's closed day is not closed for her")
	}
	if _, closed := av.Closed[Date{2027, 3, 3}]; closed {
		t.Error("Cleo's closed day closes the consultancy")
	}

	for _, tc := range []struct{ from, to, want string }{
		{`"hosts": ["ana", "ben", "cleo"]`, `"hosts": ["ana", "dora"]`, `services.discovery.hosts[1]: "dora" is not under "hosts"`},
		{`"assignment": "round-robin"`, `"assignment": "random"`, `services.discovery.assignment: "random"`},
		{`"staff": "ana@example.com"`, `"staff": "ana"`, `hosts.ana.staff: "ana"`},
		{`"staff": "ben@example.com"`, `"staff": "ANA@example.com"`, `already ana's address`},
		{`"type": "phone-or-video", "roomBase": "https://meet.example.com/nb-"`, `"type": "phone-or-video"`, `either a url`},
	} {
		src := strings.Replace(hostsJSON, tc.from, tc.to, 1)
		if src == hostsJSON {
			t.Fatalf("%s is not in the fixture", tc.from)
		}
		_, err := ParseAvailability([]byte(src))
		if err == nil || !errors.Is(err, ErrInvalidAvailability) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one naming %s", tc.to, err, tc.want)
		}
	}
	if err := av.CheckHosts(func(slug string) bool { return slug != "ben" }); err == nil || !strings.Contains(err.Error(), "ben") {
		t.Errorf("CheckHosts with no page for ben: %v", err)
	}
}

// Round-robin shares the bookings fairly: 30 bookings, each at a time
// when every host is free, go ten to each host, and none is booked
// twice in a row while another waits longer.
func TestRoundRobinSharesBookings(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		now := utc(t, "2027-03-01T05:00:00Z") // Monday; Cleo works 09:00-12:00 Berlin
		svc := hostsService(t, st, &now, nil)
		count := map[string]int{}
		day := Date{2027, 3, 2}
		booked := 0
		for booked < 30 {
			// 09:00 to 11:45 Berlin (08:00 to 10:45 UTC), every 30 minutes:
			// clear of one another's buffer, within everyone's hours.
			for clock := 8 * 60; clock <= 10*60+30 && booked < 30; clock += 30 {
				start := day.In(time.UTC).Add(time.Duration(clock) * time.Minute)
				if _, closed := hostsFixture(t).ForHost("cleo").Closed[day]; closed || day.Weekday() == time.Saturday || day.Weekday() == time.Sunday {
					break
				}
				b, err := svc.Book(ctx, request(t, "discovery", start.Format(time.RFC3339)))
				if err != nil {
					t.Fatalf("booking %d at %s: %v", booked+1, start, err)
				}
				count[b.Host]++
				booked++
			}
			day = day.AddDays(1)
		}
		lo, hi := 30, 0
		for _, h := range []string{"ana", "ben", "cleo"} {
			lo, hi = min(lo, count[h]), max(hi, count[h])
		}
		if hi-lo > 1 {
			t.Errorf("30 bookings shared as %v, want within one of each other", count)
		}
	})
}

// When the host next in turn is busy, the booking goes to the next free
// one; when every host is busy, the time is taken.
func TestAssignmentSkipsBusyHosts(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		now := utc(t, "2027-03-01T05:00:00Z")
		svc := hostsService(t, st, &now, nil)
		at := "2027-03-02T09:00:00Z" // 10:00 Berlin
		var hosts []string
		for range 3 {
			b, err := svc.Book(ctx, request(t, "discovery", at))
			if err != nil {
				t.Fatal(err)
			}
			hosts = append(hosts, b.Host)
		}
		if strings.Join(hosts, ",") != "ana,ben,cleo" {
			t.Errorf("three visitors at one time got %v, want each host once", hosts)
		}
		if _, err := svc.Book(ctx, request(t, "discovery", at)); !errors.Is(err, ErrSlotTaken) {
			t.Errorf("a fourth visitor at that time: %v, want ErrSlotTaken", err)
		}
		// The time step no longer shows 10:00 Berlin (09:00 UTC).
		if offeredOn(t, svc, "discovery", Date{2027, 3, 2})["09:00"] {
			t.Error("a time at which every host is booked is still offered")
		}
		// At 14:00 Berlin, Cleo does not work: two visitors, then none.
		for i, want := range []string{"ana", "ben", ""} {
			b, err := svc.Book(ctx, request(t, "discovery", "2027-03-02T13:00:00Z"))
			if want == "" {
				if !errors.Is(err, ErrSlotTaken) {
					t.Errorf("visitor %d at 14:00: %v, want ErrSlotTaken", i+1, err)
				}
				continue
			}
			if err != nil || b.Host != want {
				t.Errorf("visitor %d at 14:00: host %q (%v), want %s", i+1, b.Host, err, want)
			}
		}
	})
}

// A person's link offers that person's times only, and a booking made
// with a person goes to that person.
func TestPersonOffersOnlyTheirTimes(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		now := utc(t, "2027-03-01T05:00:00Z")
		svc := hostsService(t, st, &now, nil)
		day := Date{2027, 3, 2}
		slots := func(person string) map[string]bool {
			q := SlotsQuery{Service: "discovery", From: day, Days: 2, TimeZone: "Europe/Berlin", Location: zone(t, "Europe/Berlin"), Person: person}
			days, err := svc.Slots(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			out := map[string]bool{}
			for _, d := range days {
				for _, s := range d.Slots {
					out[s.Start.In(q.Location).Format("01-02 15:04")] = true
				}
			}
			return out
		}
		all, cleo := slots(""), slots("cleo")
		for when, want := range map[string]bool{"03-02 09:00": true, "03-02 11:45": true, "03-02 12:00": false, "03-02 14:00": false, "03-03 09:00": false} {
			if cleo[when] != want {
				t.Errorf("Cleo's link offers %s: %v, want %v", when, cleo[when], want)
			}
			if !all[when] && when != "03-03 09:00" {
				t.Errorf("the service's link does not offer %s", when)
			}
		}
		if !all["03-03 09:00"] {
			t.Error("Ana and Ben are free on Cleo's day off, but the service offers nothing")
		}
		// Book Cleo at 09:00: her link no longer offers it, the service's does.
		r := request(t, "discovery", "2027-03-02T08:00:00Z")
		r.Person = "cleo"
		b, err := svc.Book(ctx, r)
		if err != nil || b.Host != "cleo" {
			t.Fatalf("booking with Cleo: host %q, %v", b.Host, err)
		}
		if slots("cleo")["03-02 09:00"] || !slots("")["03-02 09:00"] {
			t.Error("Cleo's booking should take her 09:00 only")
		}
		// Her time taken, a visitor who asks for her is refused.
		if _, err := svc.Book(ctx, r); !errors.Is(err, ErrSlotTaken) {
			t.Errorf("a second booking with Cleo at her booked time: %v", err)
		}
		if free, err := svc.FreeHosts(ctx, "discovery", b.Start, "cleo"); err != nil || strings.Join(free, ",") != "ana,ben" {
			t.Errorf("FreeHosts besides Cleo = %v, %v", free, err)
		}
		// A person who does not host the service is a field error.
		r.Person = "cleo"
		r.Service = "strategy"
		if _, err := svc.Book(ctx, r); !hasField(err, "person") {
			t.Errorf("Cleo for strategy: %v, want a person field error", err)
		}
		if _, errs := ParseSlotsQuery(map[string][]string{"service": {"strategy"}, "tz": {"UTC"}, "person": {"cleo"}}, hostsFixture(t), now); errs["person"] != KeyPerson {
			t.Errorf("slots of strategy with Cleo: %v", errs)
		}
	})
}

func hasField(err error, field string) bool {
	var fe FieldErrors
	return errors.As(err, &fe) && fe[field] != ""
}

// Phone or video: where the service allows both, the visitor chooses; a
// video call gets a room of its own.
func TestVisitorChoosesPhoneOrVideo(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		now := utc(t, "2027-03-01T05:00:00Z")
		svc := hostsService(t, st, &now, nil)
		r := request(t, "strategy", "2027-03-02T09:00:00Z")
		if _, err := svc.Book(ctx, r); !hasField(err, "meeting") {
			t.Errorf("no choice made: %v, want a meeting field error", err)
		}
		r.Meeting = MeetingVideo
		v, err := svc.Book(ctx, r)
		if err != nil || !strings.HasPrefix(v.MeetingURL, "https://meet.example.com/nb-") || v.Phone != "" {
			t.Fatalf("video: %+v, %v", v, err)
		}
		r.Meeting, r.Phone = MeetingPhone, "+49 30 901820"
		p, err := svc.Book(ctx, r)
		if err != nil || p.MeetingURL != "" || p.Phone != "+4930901820" {
			t.Fatalf("phone: %+v, %v", p, err)
		}
		if v.Host == p.Host {
			t.Errorf("two visitors at one time both got %s", v.Host)
		}
	})
}

// A host's own calendar feed takes that host's time only: the others are
// still offered then, and a booking then goes to another host.
func TestHostFeedTakesOnlyThatHostsTime(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		now := utc(t, "2027-03-01T05:00:00Z")
		feed := "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:busy\r\nDTSTART;TZID=Europe/Berlin:20270302T090000\r\n" +
			"DTEND;TZID=Europe/Berlin:20270302T120000\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "text/calendar")
			_, _ = fmt.Fprint(w, feed)
		}))
		defer srv.Close()
		var staffID int64
		if err := st.QueryRowContext(ctx, `INSERT INTO staff (email, handle, lang, created_at) VALUES ('cleo@example.com', 'h-cleo', 'en', 0) RETURNING id`).Scan(&staffID); err != nil {
			t.Fatal(err)
		}
		added, err := calendar.AddMemberFeed(ctx, st, staffID, srv.URL+"/private/secret-token/basic.ics", now)
		if err != nil || added.Host != "127.0.0.1" {
			t.Fatalf("AddMemberFeed: %+v, %v", added, err)
		}
		source, err := calendar.NewSource(calendar.Config{Home: zone(t, "Europe/Berlin"), Store: st, Members: true, Now: func() time.Time { return now }})
		if err != nil {
			t.Fatal(err)
		}
		source.Refresh(ctx)
		svc := hostsService(t, st, &now, func(c *Config) { c.Calendar = source })

		cleoSlots := func() map[string]bool {
			q := SlotsQuery{Service: "discovery", From: Date{2027, 3, 2}, Days: 1, TimeZone: "UTC", Location: time.UTC, Person: "cleo"}
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
		if len(cleoSlots()) != 0 {
			t.Errorf("Cleo's feed fills her morning, yet her link offers %v", cleoSlots())
		}
		if !offeredOn(t, svc, "discovery", Date{2027, 3, 2})["09:00"] {
			t.Error("Cleo's feed takes Ana's and Ben's time too")
		}
		for range 2 {
			if b, err := svc.Book(ctx, request(t, "discovery", "2027-03-02T09:00:00Z")); err != nil || b.Host == "cleo" {
				t.Errorf("booking over Cleo's busy time: host %q, %v", b.Host, err)
			}
		}
		if _, err := svc.Book(ctx, request(t, "discovery", "2027-03-02T09:00:00Z")); !errors.Is(err, ErrSlotTaken) {
			t.Errorf("Ana and Ben booked, Cleo busy: %v, want ErrSlotTaken", err)
		}
		// The feed's address is a secret: what the workspace lists is its host.
		feeds, err := calendar.MemberFeeds(ctx, st, staffID)
		if err != nil || len(feeds) != 1 || strings.Contains(fmt.Sprintf("%+v", feeds), "secret-token") {
			t.Errorf("MemberFeeds = %+v, %v", feeds, err)
		}
		for _, status := range source.Status() {
			if strings.Contains(fmt.Sprintf("%+v", status), "secret-token") {
				t.Errorf("a feed's status shows its address: %+v", status)
			}
		}
		// Removed, the feed frees Cleo's morning at the next refresh.
		if ok, err := calendar.RemoveMemberFeed(ctx, st, staffID, added.ID); !ok || err != nil {
			t.Fatalf("RemoveMemberFeed: %v, %v", ok, err)
		}
		source.Refresh(ctx)
		if !cleoSlots()["08:00"] {
			t.Error("Cleo's removed feed still takes her time")
		}
	})
}

// Two visitors on two instances (two store handles on one database) ask
// for the one free host's time at once: one booking is made, the other
// visitor is told the time is taken.
func TestRacingVisitorsOneFreeHost(t *testing.T) {
	for _, backend := range storetest.Backends {
		t.Run(string(backend), func(t *testing.T) {
			ctx := context.Background()
			var a, b *store.Store
			var err error
			switch backend {
			case store.SQLite:
				path := filepath.Join(t.TempDir(), "site.db")
				if a, err = store.Open(ctx, path); err == nil {
					b, err = store.Open(ctx, path)
				}
			case store.Postgres:
				url := storetest.PostgresURL(t)
				if a, err = store.OpenPostgres(ctx, url, 10*time.Second); err == nil {
					b, err = store.OpenPostgres(ctx, url, 10*time.Second)
				}
			}
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { a.Close(); b.Close() })
			now := utc(t, "2027-03-01T05:00:00Z")
			// 14:00 Berlin: Cleo does not work; Ana is booked; Ben alone is free.
			one := hostsService(t, a, &now, nil)
			two := hostsService(t, b, &now, nil)
			at := "2027-03-02T13:00:00Z"
			r := request(t, "discovery", at)
			r.Person = "ana"
			if _, err := one.Book(ctx, r); err != nil {
				t.Fatal(err)
			}
			for round, day := range []int{2, 3, 4, 5, 9} { // working days, not the closed 8th
				at := fmt.Sprintf("2027-03-%02dT13:00:00Z", day)
				if round > 0 {
					// Ana is taken at that time too.
					r := request(t, "discovery", at)
					r.Person = "ana"
					if _, err := two.Book(ctx, r); err != nil {
						t.Fatal(err)
					}
				}
				var wg sync.WaitGroup
				errs := make([]error, 2)
				hosts := make([]string, 2)
				for i, svc := range []*Service{one, two} {
					wg.Go(func() {
						got, err := svc.Book(ctx, request(t, "discovery", at))
						errs[i], hosts[i] = err, got.Host
					})
				}
				wg.Wait()
				ok, taken := 0, 0
				for i, err := range errs {
					switch {
					case err == nil:
						ok++
						if hosts[i] != "ben" {
							t.Errorf("round %d: booked with %q, want ben", round, hosts[i])
						}
					case errors.Is(err, ErrSlotTaken):
						taken++
					default:
						t.Errorf("round %d: %v", round, err)
					}
				}
				if ok != 1 || taken != 1 {
					t.Errorf("round %d: %d booked and %d refused, want 1 and 1", round, ok, taken)
				}
			}
			if n := countRows(t, a, `SELECT count(*) FROM bookings WHERE host = 'ben'`); n != 5 {
				t.Errorf("%d bookings with Ben, want 5", n)
			}
		})
	}
}

// The mails and the invite name the host; the host is an attendee of the
// invite and gets the team's notice at their own address.
func TestMailsNameTheHost(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		now := utc(t, "2027-03-01T05:00:00Z")
		svc := hostsService(t, st, &now, nil)
		r := request(t, "discovery", "2027-03-02T09:00:00Z")
		r.Person = "ben"
		b, err := svc.Book(ctx, r)
		if err != nil {
			t.Fatal(err)
		}
		rows, err := store.QueryAll(ctx, st, func(row store.Scanner) ([2]string, error) {
			var to, kind string
			return [2]string{to, kind}, row.Scan(&to, &kind)
		}, `SELECT to_addr, kind FROM outbox ORDER BY id`)
		if err != nil {
			t.Fatal(err)
		}
		got := fmt.Sprint(rows)
		if got != "[[jane@example.com booking.confirmation] [team@example.com booking.notify] [ben@example.com booking.notify]]" {
			t.Errorf("mails: %s", got)
		}
		ics := string(svc.ICSFile(b))
		if !strings.Contains(strings.ReplaceAll(ics, "\r\n ", ""), `ATTENDEE;CN="Ben (fr)";ROLE=REQ-PARTICIPANT;PARTSTAT=ACCEPTED;RSVP=FALSE:mailto:ben@example.com`) {
			t.Errorf("the invite does not have Ben as an attendee:\n%s", ics)
		}
	})
}
