package booking

import (
	"fmt"
	"maps"
	"os"
	"strings"
	"testing"
	"time"
	_ "time/tzdata" // the tests must not depend on the machine's zone files

	"github.com/northbeam/site/internal/intl"
	"github.com/northbeam/site/internal/site"
)

// shippedSite returns the shipped content/site.json.
func shippedSite(t testing.TB) *site.Info {
	t.Helper()
	info, err := site.Load(os.DirFS("../../content"), site.File)
	if err != nil {
		t.Fatal(err)
	}
	return info
}

// shippedDates writes dates and times as the site does: its languages,
// from the project's CLDR data.
func shippedDates(t testing.TB) *intl.Formatter {
	t.Helper()
	dates, err := intl.Load(os.DirFS("../../node_modules"), shippedSite(t).Languages)
	if err != nil {
		t.Fatal(err)
	}
	return dates
}

// fixtureJSON is the availability the slot and request tests run against:
// the shape of content/availability.json, with one closed date, so that
// editing the shipped file never breaks a test.
const fixtureJSON = `{
  "timeZone": "Europe/Berlin",
  "weeklyHours": {
    "monday": [{"start": "09:00", "end": "12:30"}, {"start": "13:30", "end": "17:30"}],
    "tuesday": [{"start": "09:00", "end": "12:30"}, {"start": "13:30", "end": "17:30"}],
    "wednesday": [{"start": "09:00", "end": "12:30"}, {"start": "13:30", "end": "17:30"}],
    "thursday": [{"start": "09:00", "end": "12:30"}, {"start": "13:30", "end": "17:30"}],
    "friday": [{"start": "09:00", "end": "12:30"}, {"start": "13:30", "end": "17:30"}],
    "saturday": [],
    "sunday": []
  },
  "services": {"discovery": {"minutes": 15}, "strategy": {"minutes": 30}},
  "slotIntervalMinutes": 15,
  "bufferMinutes": 10,
  "minimumNoticeHours": 12,
  "daysAhead": 30,
  "closedDates": [{"date": "2027-03-08", "note": "International Women's Day (Berlin)"}]
}`

func fixture(t *testing.T) Availability {
	t.Helper()
	av, err := ParseAvailability([]byte(fixtureJSON))
	if err != nil {
		t.Fatalf("fixture: %v", err)
	}
	return av
}

// everyDay opens all seven days with the weekday hours and no closed dates,
// so that daylight-saving changes, which happen on Sundays, meet open hours.
func everyDay(av *Availability) {
	for wd := range av.Weekly {
		av.Weekly[wd] = av.Weekly[time.Monday]
	}
	av.Closed = map[Date]string{}
}

// withClosed returns a copy of closed plus d, leaving the fixture's map alone.
func withClosed(closed map[Date]string, d Date) map[Date]string {
	out := maps.Clone(closed)
	out[d] = "test"
	return out
}

func zone(t *testing.T, name string) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation(name)
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

// wall parses "2006-01-02 15:04" in the zone named.
func wall(t *testing.T, zoneName, s string) time.Time {
	t.Helper()
	tm, err := time.ParseInLocation("2006-01-02 15:04", s, zone(t, zoneName))
	if err != nil {
		t.Fatal(err)
	}
	return tm
}

func utc(t *testing.T, s string) time.Time {
	t.Helper()
	tm, err := time.Parse(time.RFC3339, s)
	if err != nil {
		t.Fatal(err)
	}
	return tm
}

func date(t *testing.T, s string) Date {
	t.Helper()
	d, err := ParseDate(s)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// runs describes the slots of a day by their wall-clock starts in loc, with
// runs of starts step apart written first-last: "09:00-12:15 13:30-17:15".
// A day without slots is "none".
func runs(slots []Slot, loc *time.Location, step time.Duration) string {
	if len(slots) == 0 {
		return "none"
	}
	var parts []string
	first := 0
	for i := 1; i <= len(slots); i++ {
		if i < len(slots) {
			prev := slots[i-1].Start.In(loc)
			cur := slots[i].Start.In(loc)
			// Consecutive on the wall clock: a daylight-saving jump shows
			// as a new run even when the instants are step apart.
			if ClockOf(cur)-ClockOf(prev) == Clock(step/time.Minute) && DateOf(cur) == DateOf(prev) {
				continue
			}
		}
		a := slots[first].Start.In(loc).Format("15:04")
		b := slots[i-1].Start.In(loc).Format("15:04")
		if a == b && first == i-1 {
			parts = append(parts, a)
		} else {
			parts = append(parts, a+"-"+b)
		}
		first = i
	}
	return strings.Join(parts, " ")
}

func describeDays(days []Day, loc *time.Location, step time.Duration) []string {
	out := make([]string, len(days))
	for i, d := range days {
		out[i] = fmt.Sprintf("%s: %s", d.Date, runs(d.Slots, loc, step))
	}
	return out
}
