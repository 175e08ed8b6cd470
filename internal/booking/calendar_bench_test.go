package booking

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/northbeam/site/internal/calendar"
)

// bigFeed writes a feed of n events, about 5 MB for 20,000: two thirds
// recurring (daily, weekly on some days, monthly; with exceptions), in
// three zones, with descriptions as long as real ones.
func bigFeed(n int) []byte {
	var b strings.Builder
	b.WriteString("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//bench//EN\r\n")
	zones := []string{"Europe/Berlin", "America/New_York", "Asia/Tokyo"}
	rules := []string{"FREQ=WEEKLY;BYDAY=MO,WE,FR", "FREQ=DAILY;COUNT=200", "FREQ=MONTHLY;BYDAY=2TU", "FREQ=WEEKLY;INTERVAL=2;BYDAY=TH"}
	filler := strings.Repeat("Agenda, notes and the dial-in details of a meeting. ", 3)
	for i := range n {
		start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(i%700) * 24 * time.Hour).Add(time.Duration(8+i%9) * time.Hour)
		zone := zones[i%len(zones)]
		fmt.Fprintf(&b, "BEGIN:VEVENT\r\nUID:event-%d@bench\r\nSUMMARY:Meeting number %d\r\nDESCRIPTION:%s\r\n", i, i, filler)
		fmt.Fprintf(&b, "DTSTART;TZID=%s:%s\r\nDTEND;TZID=%s:%s\r\n", zone, start.Format("20060102T150405"), zone, start.Add(45*time.Minute).Format("20060102T150405"))
		if i%3 != 0 {
			fmt.Fprintf(&b, "RRULE:%s\r\n", rules[i%len(rules)])
			if i%5 == 0 {
				fmt.Fprintf(&b, "EXDATE;TZID=%s:%s\r\n", zone, start.Add(14*24*time.Hour).Format("20060102T150405"))
			}
		}
		if i%17 == 0 {
			b.WriteString("TRANSP:TRANSPARENT\r\n")
		}
		b.WriteString("DTSTAMP:20260101T000000Z\r\nEND:VEVENT\r\n")
	}
	b.WriteString("END:VCALENDAR\r\n")
	return []byte(b.String())
}

// BenchmarkCalendarFeed parses a 5 MB feed of 20,000 events and works out
// a month of slots of a service with its busy time: what a feed refresh
// and a month's slot queries cost.
func BenchmarkCalendarFeed(b *testing.B) {
	data := bigFeed(20000)
	av, err := ParseAvailability([]byte(fixtureJSON))
	if err != nil {
		b.Fatal(err)
	}
	now := time.Date(2027, 3, 1, 5, 0, 0, 0, time.UTC)
	month := Window(Date{2027, 3, 1}, 31, av.Location)
	b.ReportMetric(float64(len(data))/(1<<20), "feed-MB")

	b.Run("parse", func(b *testing.B) {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		var cal *calendar.Calendar
		for b.Loop() {
			cal, err = calendar.Parse(data, av.Location)
			if err != nil {
				b.Fatal(err)
			}
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/(1<<20), "retained-MB")
		runtime.KeepAlive(cal)
	})
	cal, err := calendar.Parse(data, av.Location)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("busy of a month", func(b *testing.B) {
		for b.Loop() {
			cal.Busy(calendar.Interval{Start: month.Start, End: month.End})
		}
	})
	busy := cal.Busy(calendar.Interval{Start: month.Start, End: month.End})
	b.Run("slots of a month", func(b *testing.B) {
		var ivs []Interval
		for _, iv := range busy {
			ivs = append(ivs, Interval{Start: iv.Start, End: iv.End})
		}
		for b.Loop() {
			Slots(av, "discovery", now, Date{2027, 3, 1}, 31, time.UTC, ivs)
		}
		b.ReportMetric(float64(len(busy)), "busy-intervals")
	})
}
