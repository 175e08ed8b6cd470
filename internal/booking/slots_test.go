package booking

import (
	"slices"
	"strings"
	"testing"
	"time"
)

func TestSlots(t *testing.T) {
	type busyWall struct{ start, end string } // Europe/Berlin wall clock

	tests := []struct {
		name    string
		tweak   func(*Availability)
		service string
		now     string // Europe/Berlin wall clock
		from    string
		days    int
		zone    string // the visitor's
		busy    []busyWall
		want    []string // one line per day, see runs
	}{
		// Working hours and both services' lengths.
		{
			name: "discovery on a working day", service: "discovery",
			now: "2027-02-26 12:00", from: "2027-03-01", days: 1, zone: "Europe/Berlin",
			want: []string{"2027-03-01: 09:00-12:15 13:30-17:15"},
		},
		{
			name: "strategy ends within each range", service: "strategy",
			now: "2027-02-26 12:00", from: "2027-03-01", days: 1, zone: "Europe/Berlin",
			want: []string{"2027-03-01: 09:00-12:00 13:30-17:00"},
		},
		{
			name: "weekend has no hours", service: "discovery",
			now: "2027-02-26 12:00", from: "2027-03-05", days: 3, zone: "Europe/Berlin",
			want: []string{
				"2027-03-05: 09:00-12:15 13:30-17:15",
				"2027-03-06: none",
				"2027-03-07: none",
			},
		},
		{
			name: "grid counts from each range's start", service: "discovery",
			tweak: func(av *Availability) {
				av.Weekly[time.Monday] = []ClockRange{{Start: 9*60 + 10, End: 10 * 60}}
				av.SlotInterval = 20 * time.Minute
			},
			now: "2027-02-26 12:00", from: "2027-03-01", days: 1, zone: "Europe/Berlin",
			// 09:10 and 09:30; 09:50 would end after 10:00.
			want: []string{"2027-03-01: 09:10-09:30"},
		},

		// Closed dates, notice, past and horizon.
		{
			name: "closed date", service: "discovery",
			now: "2027-02-26 12:00", from: "2027-03-08", days: 2, zone: "Europe/Berlin",
			want: []string{
				"2027-03-08: none",
				"2027-03-09: 09:00-12:15 13:30-17:15",
			},
		},
		{
			name: "closed date is the consultancy's day, not the visitor's", service: "discovery",
			now: "2027-02-26 12:00", from: "2027-03-08", days: 2, zone: "Pacific/Auckland",
			// Berlin's Monday 8 March is closed. Auckland's 8 March holds
			// Berlin's Sunday afternoon and Monday morning; its 9 March
			// Berlin's Monday afternoon and Tuesday morning.
			want: []string{
				"2027-03-08: none",
				"2027-03-09: 21:00-23:45",
			},
		},
		{
			name: "twelve hours notice empties the rest of the day", service: "discovery",
			now: "2027-03-01 08:00", from: "2027-03-01", days: 2, zone: "Europe/Berlin",
			want: []string{
				"2027-03-01: none",
				"2027-03-02: 09:00-12:15 13:30-17:15",
			},
		},
		{
			name: "notice ends between grid points", service: "discovery",
			now: "2027-03-01 21:10", from: "2027-03-02", days: 1, zone: "Europe/Berlin",
			want: []string{"2027-03-02: 09:15-12:15 13:30-17:15"},
		},
		{
			name: "no notice: past slots are gone, the current grid point stays", service: "discovery",
			tweak: func(av *Availability) { av.MinimumNotice = 0 },
			now:   "2027-03-01 10:15", from: "2027-02-28", days: 2, zone: "Europe/Berlin",
			want: []string{
				"2027-02-28: none",
				"2027-03-01: 10:15-12:15 13:30-17:15",
			},
		},
		{
			name: "no notice: a slot that has started is gone", service: "strategy",
			tweak: func(av *Availability) { av.MinimumNotice = 0 },
			now:   "2027-03-01 10:16", from: "2027-03-01", days: 1, zone: "Europe/Berlin",
			want: []string{"2027-03-01: 10:30-12:00 13:30-17:00"},
		},
		{
			name: "a week in the past", service: "discovery",
			now: "2027-03-01 08:00", from: "2027-02-22", days: 5, zone: "Europe/Berlin",
			want: []string{
				"2027-02-22: none", "2027-02-23: none", "2027-02-24: none",
				"2027-02-25: none", "2027-02-26: none",
			},
		},
		{
			name: "horizon: today plus 30 days", service: "discovery",
			now: "2027-03-01 08:00", from: "2027-03-30", days: 3, zone: "Europe/Berlin",
			want: []string{
				"2027-03-30: 09:00-12:15 13:30-17:15",
				"2027-03-31: 09:00-12:15 13:30-17:15",
				"2027-04-01: none",
			},
		},
		{
			name: "horizon is counted in the consultancy's days", service: "discovery",
			now: "2027-03-01 08:00", from: "2027-03-31", days: 2, zone: "Pacific/Auckland",
			// Auckland's 31 March holds Berlin's 30 March afternoon and
			// 31 March morning; its 1 April Berlin's 31 March afternoon
			// (the last day) and 1 April morning (out).
			want: []string{
				"2027-03-31: 00:30-04:15 20:00-23:15",
				"2027-04-01: 00:30-04:15",
			},
		},

		// Buffer around existing bookings.
		{
			name: "buffer around a booking, discovery", service: "discovery",
			now: "2027-02-26 12:00", from: "2027-03-02", days: 1, zone: "Europe/Berlin",
			busy: []busyWall{{"2027-03-02 10:00", "2027-03-02 10:30"}},
			want: []string{"2027-03-02: 09:00-09:30 10:45-12:15 13:30-17:15"},
		},
		{
			name: "buffer around a booking, strategy", service: "strategy",
			now: "2027-02-26 12:00", from: "2027-03-02", days: 1, zone: "Europe/Berlin",
			busy: []busyWall{{"2027-03-02 10:00", "2027-03-02 10:30"}},
			want: []string{"2027-03-02: 09:00-09:15 10:45-12:00 13:30-17:00"},
		},
		{
			name: "no buffer: back-to-back is allowed", service: "discovery",
			tweak: func(av *Availability) { av.Buffer = 0 },
			now:   "2027-02-26 12:00", from: "2027-03-02", days: 1, zone: "Europe/Berlin",
			busy: []busyWall{{"2027-03-02 10:00", "2027-03-02 10:30"}},
			want: []string{"2027-03-02: 09:00-09:45 10:30-12:15 13:30-17:15"},
		},
		{
			name: "busy time over lunch, several bookings", service: "discovery",
			now: "2027-02-26 12:00", from: "2027-03-02", days: 2, zone: "Europe/Berlin",
			busy: []busyWall{
				{"2027-03-02 12:20", "2027-03-02 13:40"},
				{"2027-03-03 09:00", "2027-03-03 09:15"},
				{"2027-03-03 17:00", "2027-03-03 17:30"},
			},
			want: []string{
				"2027-03-02: 09:00-11:45 14:00-17:15",
				"2027-03-03: 09:30-12:15 13:30-16:30",
			},
		},

		// Daylight saving in the consultancy's zone, seen from UTC.
		{
			name: "Berlin springs forward: same wall clock, an hour earlier in UTC", service: "discovery",
			tweak: everyDay,
			now:   "2027-03-20 12:00", from: "2027-03-27", days: 2, zone: "UTC",
			want: []string{
				"2027-03-27: 08:00-11:15 12:30-16:15",
				"2027-03-28: 07:00-10:15 11:30-15:15",
			},
		},
		{
			name: "Berlin falls back: same wall clock, an hour later in UTC", service: "discovery",
			tweak: everyDay,
			now:   "2027-10-20 12:00", from: "2027-10-30", days: 2, zone: "UTC",
			want: []string{
				"2027-10-30: 07:00-10:15 11:30-15:15",
				"2027-10-31: 08:00-11:15 12:30-16:15",
			},
		},
		{
			name: "night hours across Berlin's spring gap: 02:00-02:59 does not exist", service: "discovery",
			tweak: func(av *Availability) {
				everyDay(av)
				av.Weekly[time.Sunday] = []ClockRange{{Start: 1 * 60, End: 4 * 60}}
			},
			now: "2027-03-20 12:00", from: "2027-03-28", days: 1, zone: "Europe/Berlin",
			want: []string{"2027-03-28: 01:00-01:45 03:00-03:45"},
		},
		{
			name: "night hours across Berlin's spring gap, seen from UTC: two real hours", service: "discovery",
			tweak: func(av *Availability) {
				everyDay(av)
				av.Weekly[time.Sunday] = []ClockRange{{Start: 1 * 60, End: 4 * 60}}
			},
			now: "2027-03-20 12:00", from: "2027-03-28", days: 1, zone: "UTC",
			want: []string{"2027-03-28: 00:00-01:45"},
		},
		{
			name: "night hours across Berlin's repeated hour: each wall-clock start once", service: "discovery",
			tweak: func(av *Availability) {
				everyDay(av)
				av.Weekly[time.Sunday] = []ClockRange{{Start: 1 * 60, End: 4 * 60}}
			},
			now: "2027-10-20 12:00", from: "2027-10-31", days: 1, zone: "Europe/Berlin",
			want: []string{"2027-10-31: 01:00-03:45"},
		},

		// A visitor in Los Angeles: the US changes two weeks before
		// Europe in spring and one week after it in autumn.
		{
			name: "Los Angeles, both on standard time: Berlin 09:00 is LA midnight, the new day", service: "discovery",
			now: "2027-02-26 12:00", from: "2027-03-09", days: 1, zone: "America/Los_Angeles",
			want: []string{"2027-03-09: 00:00-03:15 04:30-08:15"},
		},
		{
			name: "Los Angeles on daylight time, Berlin not yet: eight hours apart", service: "discovery",
			now: "2027-03-10 12:00", from: "2027-03-16", days: 1, zone: "America/Los_Angeles",
			want: []string{"2027-03-16: 01:00-04:15 05:30-09:15"},
		},
		{
			name: "Los Angeles and Berlin both on daylight time", service: "discovery",
			now: "2027-03-10 12:00", from: "2027-03-30", days: 1, zone: "America/Los_Angeles",
			want: []string{"2027-03-30: 00:00-03:15 04:30-08:15"},
		},
		{
			name: "Los Angeles still on daylight time, Berlin back on standard", service: "discovery",
			now: "2027-10-25 12:00", from: "2027-11-02", days: 1, zone: "America/Los_Angeles",
			want: []string{"2027-11-02: 01:00-04:15 05:30-09:15"},
		},
		{
			name: "Los Angeles and Berlin both back on standard time", service: "discovery",
			now: "2027-10-25 12:00", from: "2027-11-09", days: 1, zone: "America/Los_Angeles",
			want: []string{"2027-11-09: 00:00-03:15 04:30-08:15"},
		},
		{
			name: "Los Angeles' own change day holds no Berlin hours", service: "discovery",
			now: "2027-03-10 12:00", from: "2027-03-14", days: 2, zone: "America/Los_Angeles",
			want: []string{
				"2027-03-14: none",
				"2027-03-15: 01:00-04:15 05:30-09:15",
			},
		},

		// A visitor in Auckland: one visitor day spans two of Berlin's,
		// and New Zealand's daylight saving runs opposite to Europe's.
		{
			name: "Auckland: a visitor day holds Berlin's afternoon and the next morning", service: "discovery",
			now: "2027-02-26 12:00", from: "2027-03-02", days: 1, zone: "Pacific/Auckland",
			want: []string{"2027-03-02: 00:00-00:15 01:30-05:15 21:00-23:45"},
		},
		{
			name: "Auckland: strategy across two Berlin days", service: "strategy",
			now: "2027-02-26 12:00", from: "2027-03-02", days: 1, zone: "Pacific/Auckland",
			want: []string{"2027-03-02: 00:00 01:30-05:00 21:00-23:45"},
		},
		{
			name: "Auckland after Berlin sprang forward, before Auckland falls back: eleven hours", service: "discovery",
			now: "2027-03-25 12:00", from: "2027-04-02", days: 1, zone: "Pacific/Auckland",
			want: []string{"2027-04-02: 00:30-04:15 20:00-23:15"},
		},
		{
			name: "Auckland falls back: its 25-hour Sunday repeats 02:00-02:59", service: "discovery",
			tweak: everyDay,
			now:   "2027-03-25 12:00", from: "2027-04-04", days: 2, zone: "Pacific/Auckland",
			want: []string{
				"2027-04-04: 00:30-02:45 02:00-03:15 19:00-22:15 23:30-23:45",
				"2027-04-05: 00:00-03:15 19:00-22:15 23:30-23:45",
			},
		},
		{
			name: "Auckland springs forward: its 23-hour Sunday skips 02:00-02:59", service: "discovery",
			tweak: everyDay,
			now:   "2027-09-20 12:00", from: "2027-09-26", days: 1, zone: "Pacific/Auckland",
			want: []string{"2027-09-26: 00:00-01:45 03:00-04:15 20:00-23:15"},
		},
	}

	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			av := fixture(t)
			if tt.tweak != nil {
				tt.tweak(&av)
			}
			now := wall(t, "Europe/Berlin", tt.now)
			visitor := zone(t, tt.zone)
			var busy []Interval
			for _, b := range tt.busy {
				busy = append(busy, Interval{
					Start: wall(t, "Europe/Berlin", b.start).UTC(),
					End:   wall(t, "Europe/Berlin", b.end).UTC(),
				})
			}

			days := Slots(av, tt.service, now, date(t, tt.from), tt.days, visitor, busy)

			got := describeDays(days, visitor, av.SlotInterval)
			if !slices.Equal(got, tt.want) {
				t.Errorf("slots in %s:\n got  %s\n want %s", tt.zone,
					strings.Join(got, "\n      "), strings.Join(tt.want, "\n      "))
			}
			checkInvariants(t, av, tt.service, now, visitor, busy, days)
			for _, d := range days {
				for _, s := range d.Slots {
					if _, ok := Offered(av, tt.service, s.Start, now, busy); !ok {
						t.Errorf("%s: slot %v listed but not Offered", d.Date, s)
					}
				}
			}
		})
	}
}

// checkInvariants holds for every answer of Slots, whatever the case.
func checkInvariants(t *testing.T, av Availability, service string, now time.Time, visitor *time.Location, busy []Interval, days []Day) {
	t.Helper()
	length := av.Services[service]
	var prev time.Time
	for _, d := range days {
		if d.Slots == nil {
			t.Errorf("%s: Slots is nil, want an empty slice", d.Date)
		}
		for _, s := range d.Slots {
			switch {
			case s.Start.Location() != time.UTC || s.End.Location() != time.UTC:
				t.Errorf("%s: slot %v not in UTC", d.Date, s)
			case s.End.Sub(s.Start) != length:
				t.Errorf("%s: slot %v lasts %v, want %v", d.Date, s, s.End.Sub(s.Start), length)
			case DateOf(s.Start.In(visitor)) != d.Date:
				t.Errorf("%s: slot %v is on %s in the visitor's zone", d.Date, s, DateOf(s.Start.In(visitor)))
			case s.Start.Before(now.Add(av.MinimumNotice)):
				t.Errorf("%s: slot %v inside the notice window", d.Date, s)
			case !s.Start.After(prev):
				t.Errorf("%s: slot %v not after the previous one %v", d.Date, s, prev)
			case Conflicts(av, s.Interval(), busy):
				t.Errorf("%s: slot %v collides with a booking", d.Date, s)
			}
			prev = s.Start
		}
	}
}

func TestSlotsRejectsWhatTheCallerShouldHaveValidated(t *testing.T) {
	av := fixture(t)
	now := wall(t, "Europe/Berlin", "2027-02-26 12:00")
	from := date(t, "2027-03-01")
	berlin := zone(t, "Europe/Berlin")
	if got := Slots(av, "lunch", now, from, 1, berlin, nil); got != nil {
		t.Errorf("unknown service: got %v, want nil", got)
	}
	if got := Slots(av, "discovery", now, from, 0, berlin, nil); got != nil {
		t.Errorf("zero days: got %v, want nil", got)
	}
	if got := Slots(av, "discovery", now, from, 1, nil, nil); got != nil {
		t.Errorf("nil zone: got %v, want nil", got)
	}
}

func TestSlotsFullHorizon(t *testing.T) {
	// A month-long query from Auckland across Berlin's spring change: each
	// of Berlin's working days between the notice and the horizon appears
	// once and whole, split over two of the visitor's days.
	av := fixture(t)
	now := wall(t, "Europe/Berlin", "2027-03-01 12:00")
	auckland := zone(t, "Pacific/Auckland")
	days := Slots(av, "discovery", now, date(t, "2027-03-02"), 31, auckland, nil)
	if len(days) != 31 {
		t.Fatalf("got %d days, want 31", len(days))
	}
	checkInvariants(t, av, "discovery", now, auckland, nil, days)

	perBerlinDay := map[Date]int{}
	for _, d := range days {
		for _, s := range d.Slots {
			perBerlinDay[DateOf(s.Start.In(av.Location))]++
		}
	}
	// 1 March is inside the notice, 8 March closed, 1 April beyond the
	// horizon (today plus 30 days).
	for d := date(t, "2027-03-01"); !d.After(date(t, "2027-04-01")); d = d.AddDays(1) {
		want := 30
		switch {
		case d.Weekday() == time.Saturday || d.Weekday() == time.Sunday:
			want = 0
		case d == date(t, "2027-03-01"), d == date(t, "2027-03-08"), d == date(t, "2027-04-01"):
			want = 0
		}
		if got := perBerlinDay[d]; got != want {
			t.Errorf("Berlin %s (%s): %d slots, want %d", d, d.Weekday(), got, want)
		}
	}
}

func TestInterval(t *testing.T) {
	at := func(hm string) time.Time { return wall(t, "UTC", "2027-03-01 "+hm) }
	a := Interval{Start: at("10:00"), End: at("10:30")}
	tests := []struct {
		name string
		b    Interval
		want bool
	}{
		{"same", a, true},
		{"inside", Interval{at("10:10"), at("10:20")}, true},
		{"around", Interval{at("09:00"), at("11:00")}, true},
		{"overlaps the start", Interval{at("09:45"), at("10:01")}, true},
		{"overlaps the end", Interval{at("10:29"), at("10:45")}, true},
		{"ends as it starts", Interval{at("09:30"), at("10:00")}, false},
		{"starts as it ends", Interval{at("10:30"), at("11:00")}, false},
		{"before", Interval{at("08:00"), at("09:00")}, false},
	}
	for _, tt := range tests {
		if got := a.Overlaps(tt.b); got != tt.want {
			t.Errorf("%s: Overlaps = %v, want %v", tt.name, got, tt.want)
		}
		if got := tt.b.Overlaps(a); got != tt.want {
			t.Errorf("%s (reversed): Overlaps = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestConflictsAppliesTheBuffer(t *testing.T) {
	av := fixture(t) // 10 minutes of buffer
	at := func(hm string) time.Time { return wall(t, "UTC", "2027-03-01 "+hm) }
	busy := []Interval{{Start: at("10:00"), End: at("10:30")}}
	tests := []struct {
		start, end string
		want       bool
	}{
		{"09:35", "09:50", false},
		{"09:36", "09:51", true},
		{"10:40", "10:55", false},
		{"10:39", "10:54", true},
		{"10:00", "10:30", true},
	}
	for _, tt := range tests {
		if got := Conflicts(av, Interval{at(tt.start), at(tt.end)}, busy); got != tt.want {
			t.Errorf("%s-%s: Conflicts = %v, want %v", tt.start, tt.end, got, tt.want)
		}
	}
	if Conflicts(av, Interval{at("10:00"), at("10:30")}, nil) {
		t.Error("Conflicts with no bookings = true")
	}
}

func TestWindow(t *testing.T) {
	auckland := zone(t, "Pacific/Auckland")
	// Auckland's 4 April 2027 lasts 25 hours (daylight saving ends).
	w := Window(date(t, "2027-04-04"), 1, auckland)
	if got := w.End.Sub(w.Start); got != 25*time.Hour {
		t.Errorf("Window over Auckland's fall-back day lasts %v, want 25h", got)
	}
	if want := utc(t, "2027-04-03T11:00:00Z"); !w.Start.Equal(want) {
		t.Errorf("Window start = %v, want %v", w.Start.UTC(), want)
	}
}

// TestSlotsSameInEveryZone checks, through a whole year and every
// daylight-saving change of zones with odd offsets, that the visitor's zone
// only regroups the slots: month after month, the slots listed to a visitor
// are exactly those listed in the consultancy's own zone over the same span
// of time.
func TestSlotsSameInEveryZone(t *testing.T) {
	av := fixture(t)
	av.MinimumNotice = 0
	av.DaysAhead = 366
	av.Closed = withClosed(av.Closed, date(t, "2027-12-24"))
	now := wall(t, "Europe/Berlin", "2027-01-01 00:00")
	zones := []string{
		"Europe/Berlin", "UTC", "America/Los_Angeles", "Pacific/Auckland",
		"Asia/Kolkata", "Asia/Kathmandu", "Pacific/Chatham", "America/St_Johns",
		"Australia/Lord_Howe", "Pacific/Kiritimati", "Pacific/Pago_Pago",
	}
	for _, name := range zones {
		visitor := zone(t, name)
		for month := 1; month <= 12; month++ {
			from := Date{2027, time.Month(month), 2}
			const days = 31
			for _, service := range []string{"discovery", "strategy"} {
				got := Slots(av, service, now, from, days, visitor, nil)
				checkInvariants(t, av, service, now, visitor, nil, got)

				span := Window(from, days, visitor)
				var want []time.Time
				for _, d := range Slots(av, service, now, from.AddDays(-2), days+4, av.Location, nil) {
					for _, s := range d.Slots {
						if !s.Start.Before(span.Start) && s.Start.Before(span.End) {
							want = append(want, s.Start)
						}
					}
				}
				var gotStarts []time.Time
				for _, d := range got {
					for _, s := range d.Slots {
						gotStarts = append(gotStarts, s.Start)
					}
				}
				if !slices.EqualFunc(gotStarts, want, time.Time.Equal) {
					t.Errorf("%s, %s from %s: %d slots, want the consultancy's %d", name, service, from, len(gotStarts), len(want))
				}
			}
		}
	}
}
