package calendar

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
)

func berlin(t testing.TB) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

// show writes intervals as Berlin wall-clock times, one a line.
func show(ivs []Interval, loc *time.Location) string {
	var b strings.Builder
	for _, iv := range ivs {
		fmt.Fprintf(&b, "%s – %s\n", iv.Start.In(loc).Format("Mon 2 Jan 15:04"), iv.End.In(loc).Format("Mon 2 Jan 15:04"))
	}
	return b.String()
}

// TestFortnight reads a consultant's realistic feed over the fortnight of
// the spring daylight-saving change. It covers what calendar imports get
// wrong (Cal.com issues 3457, 7796, 14641 and 19929): recurring events that
// did not block, occurrences shifted by the change or by a day, "free"
// events that blocked, and zones taken for the consultancy's own.
func TestFortnight(t *testing.T) {
	loc := berlin(t)
	data, err := os.ReadFile("testdata/fortnight.ics")
	if err != nil {
		t.Fatal(err)
	}
	cal, err := Parse(data, loc)
	if err != nil {
		t.Fatal(err)
	}
	if cal.Skipped != 0 {
		t.Errorf("%d events skipped", cal.Skipped)
	}
	window := Interval{time.Date(2027, 3, 22, 0, 0, 0, 0, loc), time.Date(2027, 4, 5, 0, 0, 0, 0, loc)}
	want := `Mon 22 Mar 09:00 – Mon 22 Mar 09:30
Mon 22 Mar 16:00 – Mon 22 Mar 16:30
Tue 23 Mar 09:00 – Tue 23 Mar 09:30
Tue 23 Mar 15:00 – Tue 23 Mar 16:00
Thu 25 Mar 14:00 – Thu 25 Mar 14:30
Fri 26 Mar 09:00 – Fri 26 Mar 09:30
Fri 26 Mar 16:00 – Fri 26 Mar 17:00
Mon 29 Mar 09:00 – Mon 29 Mar 09:30
Mon 29 Mar 16:00 – Mon 29 Mar 16:30
Tue 30 Mar 00:00 – Wed 31 Mar 00:00
Wed 31 Mar 09:00 – Wed 31 Mar 09:30
Wed 31 Mar 14:00 – Wed 31 Mar 15:00
Thu 1 Apr 09:00 – Thu 1 Apr 09:30
Thu 1 Apr 15:00 – Thu 1 Apr 15:30
Fri 2 Apr 09:00 – Fri 2 Apr 09:30
Fri 2 Apr 11:00 – Fri 2 Apr 11:30
Fri 2 Apr 16:00 – Fri 2 Apr 17:00
`
	if got := show(cal.Busy(window), loc); got != want {
		t.Errorf("busy time of the fortnight:\n%s\nwant:\n%s", got, want)
	}
	// A window that cuts an event keeps the part inside.
	narrow := Interval{time.Date(2027, 3, 23, 15, 30, 0, 0, loc), time.Date(2027, 3, 23, 17, 0, 0, 0, loc)}
	if got := show(cal.Busy(narrow), loc); got != "Tue 23 Mar 15:00 – Tue 23 Mar 16:00\n" {
		t.Errorf("busy time around 16:00 on the 23rd: %s", got)
	}
}

// The same recurring meeting written by different applications lands on
// the same instants: an IANA TZID, the feed's own VTIMEZONE under a
// Windows name, and a vendor-prefixed TZID.
func TestZonesAgree(t *testing.T) {
	loc := berlin(t)
	feed := func(tzid, extra string) string {
		return "BEGIN:VCALENDAR\r\nVERSION:2.0\r\n" + extra +
			"BEGIN:VEVENT\r\nUID:x\r\nDTSTART;TZID=" + tzid + ":20261020T090000\r\nDTEND;TZID=" + tzid + ":20261020T100000\r\n" +
			"RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=3\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
	}
	vtz := "BEGIN:VTIMEZONE\r\nTZID:W. Europe Standard Time\r\nBEGIN:STANDARD\r\nDTSTART:16010101T030000\r\nTZOFFSETFROM:+0200\r\nTZOFFSETTO:+0100\r\n" +
		"RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10\r\nEND:STANDARD\r\nBEGIN:DAYLIGHT\r\nDTSTART:16010101T020000\r\nTZOFFSETFROM:+0100\r\nTZOFFSETTO:+0200\r\n" +
		"RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3\r\nEND:DAYLIGHT\r\nEND:VTIMEZONE\r\n"
	window := Interval{time.Date(2026, 10, 1, 0, 0, 0, 0, loc), time.Date(2026, 11, 30, 0, 0, 0, 0, loc)}
	// 20 October (CEST), 27 October (CET, after the change on the 25th), 3 November.
	want := "Tue 20 Oct 09:00 – Tue 20 Oct 10:00\nTue 27 Oct 09:00 – Tue 27 Oct 10:00\nTue 3 Nov 09:00 – Tue 3 Nov 10:00\n"
	for name, data := range map[string]string{
		"IANA":            feed("Europe/Berlin", ""),
		"VTIMEZONE":       feed(`"W. Europe Standard Time"`, vtz),
		"vendor prefix":   feed("/freeassociation.sourceforge.net/Tzfile/Europe/Berlin", ""),
		"floating (home)": strings.ReplaceAll(feed("Europe/Berlin", ""), ";TZID=Europe/Berlin", ""),
	} {
		cal, err := Parse([]byte(data), loc)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got := show(cal.Busy(window), loc); got != want {
			t.Errorf("%s:\n%s\nwant:\n%s", name, got, want)
		}
	}
}

// A whole-day event is the consultancy's day, wherever the server runs: it
// is not shifted to the day before by reading the date as UTC midnight.
func TestWholeDayIsTheConsultancysDay(t *testing.T) {
	tokyo, _ := time.LoadLocation("Asia/Tokyo")
	for _, home := range []*time.Location{berlin(t), tokyo, time.UTC} {
		data := "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:d\r\nDTSTART;VALUE=DATE:20270506\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
		cal, err := Parse([]byte(data), home)
		if err != nil {
			t.Fatal(err)
		}
		busy := cal.Busy(Interval{time.Date(2027, 5, 1, 0, 0, 0, 0, home), time.Date(2027, 5, 10, 0, 0, 0, 0, home)})
		if len(busy) != 1 || !busy[0].Start.Equal(time.Date(2027, 5, 6, 0, 0, 0, 0, home)) || !busy[0].End.Equal(time.Date(2027, 5, 7, 0, 0, 0, 0, home)) {
			t.Errorf("in %s: %s", home, show(busy, home))
		}
	}
}

func TestRefusesWhatIsNotACalendar(t *testing.T) {
	for name, data := range map[string]string{
		"HTML error page": "<!doctype html><title>404</title>",
		"empty":           "",
		"JSON":            `{"error":"unauthorized"}`,
		"cut off":         "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:x\r\nDTSTART:20270101T100000Z\r\n",
		"malformed":       "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nEND:VTODO\r\nEND:VCALENDAR\r\n",
	} {
		if _, err := Parse([]byte(data), time.UTC); err == nil {
			t.Errorf("%s: parsed", name)
		}
	}
	// A bad event is skipped; the rest of the feed counts.
	data := "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:bad\r\nDTSTART:not-a-date\r\nEND:VEVENT\r\n" +
		"BEGIN:VEVENT\r\nUID:good\r\nDTSTART:20270101T100000Z\r\nDTEND:20270101T110000Z\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
	cal, err := Parse([]byte(data), time.UTC)
	if err != nil || cal.Skipped != 1 || len(cal.Busy(Interval{time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2027, 1, 2, 0, 0, 0, 0, time.UTC)})) != 1 {
		t.Errorf("a feed with one bad event: %v, %+v", err, cal)
	}
}

// outlookZone is a VTIMEZONE as Outlook writes it: observances from 1601.
func outlookZone(tzid, std, dst string) string {
	return "BEGIN:VTIMEZONE\r\nTZID:" + tzid + "\r\nBEGIN:STANDARD\r\nDTSTART:16010101T020000\r\nTZOFFSETFROM:" + dst + "\r\nTZOFFSETTO:" + std + "\r\n" +
		"RRULE:FREQ=YEARLY;BYDAY=1SU;BYMONTH=11\r\nEND:STANDARD\r\nBEGIN:DAYLIGHT\r\nDTSTART:16010101T020000\r\nTZOFFSETFROM:" + std + "\r\nTZOFFSETTO:" + dst + "\r\n" +
		"RRULE:FREQ=YEARLY;BYDAY=2SU;BYMONTH=3\r\nEND:DAYLIGHT\r\nEND:VTIMEZONE\r\n"
}

// Outlook's and Exchange's zones place events at their true instants: a
// Windows name through CLDR's table, a zone of the feed's own name through
// its VTIMEZONE, observances from 1601 and all. A zone that cannot be read
// skips its event, by UID, rather than taking the consultancy's zone.
func TestOutlookZones(t *testing.T) {
	event := func(uid, tzid, start, end, rule string) string {
		return "BEGIN:VEVENT\r\nUID:" + uid + "\r\nDTSTART;TZID=\"" + tzid + "\":" + start + "\r\nDTEND;TZID=\"" + tzid + "\":" + end + "\r\n" + rule + "END:VEVENT\r\n"
	}
	data := "BEGIN:VCALENDAR\r\nVERSION:2.0\r\n" +
		outlookZone("Eastern Standard Time", "-0500", "-0400") +
		outlookZone("Pacific (custom)", "-0800", "-0700") +
		event("eastern", "Eastern Standard Time", "20270614T170000", "20270614T180000", "") +
		event("pacific", "Pacific (custom)", "20270301T100000", "20270301T110000", "RRULE:FREQ=WEEKLY;COUNT=3\r\n") +
		event("mountain", "Mountain Standard Time", "20270615T090000", "20270615T093000", "") +
		event("nowhere", "Atlantis Standard Time", "20270615T090000", "20270615T100000", "") +
		"END:VCALENDAR\r\n"
	cal, err := Parse([]byte(data), berlin(t))
	if err != nil {
		t.Fatal(err)
	}
	got := show(cal.Busy(Interval{time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2028, 1, 1, 0, 0, 0, 0, time.UTC)}), time.UTC)
	want := "Mon 1 Mar 18:00 – Mon 1 Mar 19:00\n" + // PST
		"Mon 8 Mar 18:00 – Mon 8 Mar 19:00\n" + // the day after the US change: still PST? no: 14 March is the second Sunday
		"Mon 15 Mar 17:00 – Mon 15 Mar 18:00\n" + // PDT
		"Mon 14 Jun 21:00 – Mon 14 Jun 22:00\n" + // 17:00 EDT
		"Tue 15 Jun 15:00 – Tue 15 Jun 15:30\n" // 09:00 MDT, America/Denver by CLDR
	if got != want {
		t.Errorf("busy time in UTC:\n%s\nwant:\n%s", got, want)
	}
	if cal.Skipped != 1 || len(cal.Problems) != 1 || cal.Problems[0].UID != "nowhere" || !strings.Contains(cal.Problems[0].Err.Error(), "Atlantis") {
		t.Errorf("skipped %d, problems %v", cal.Skipped, cal.Problems)
	}
}

// busyIn parses data in home and returns its busy time over window as
// UTC wall-clock lines.
func busyIn(t *testing.T, data string, home *time.Location, window Interval) (*Calendar, string) {
	t.Helper()
	cal, err := Parse([]byte(data), home)
	if err != nil {
		t.Fatal(err)
	}
	return cal, show(cal.Busy(window), time.UTC)
}

// Real producers' slips cost what they spoil and no more: a rule written
// with spaces and folded (Exchange's CDO) is read, a date that does not
// read (Google's "20131210Z") drops that date and is counted, the rest of
// the event stands.
func TestTolerantOfRealProducers(t *testing.T) {
	data := "BEGIN:VCALENDAR\r\nVERSION:2.0\r\n" +
		"BEGIN:VEVENT\r\nUID:cdo\r\nDTSTART:20270301T080000Z\r\nDTEND:20270301T081500Z\r\n" +
		"RRULE:FREQ=WEEKLY;COUNT=5;BYDAY=MO, TU, WE, TH,\r\n  FR;WKST=SU;\r\nEND:VEVENT\r\n" +
		"BEGIN:VEVENT\r\nUID:google\r\nDTSTART:20270308T150000Z\r\nDTEND:20270308T160000Z\r\n" +
		"RDATE:20270309T150000Z,20131210Z,20270310T150000Z\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
	window := Interval{time.Date(2027, 3, 1, 0, 0, 0, 0, time.UTC), time.Date(2027, 3, 15, 0, 0, 0, 0, time.UTC)}
	cal, got := busyIn(t, data, time.UTC, window)
	want := "Mon 1 Mar 08:00 – Mon 1 Mar 08:15\nTue 2 Mar 08:00 – Tue 2 Mar 08:15\nWed 3 Mar 08:00 – Wed 3 Mar 08:15\n" +
		"Thu 4 Mar 08:00 – Thu 4 Mar 08:15\nFri 5 Mar 08:00 – Fri 5 Mar 08:15\n" +
		"Mon 8 Mar 15:00 – Mon 8 Mar 16:00\nTue 9 Mar 15:00 – Tue 9 Mar 16:00\nWed 10 Mar 15:00 – Wed 10 Mar 16:00\n"
	if got != want {
		t.Errorf("busy:\n%s\nwant:\n%s", got, want)
	}
	if cal.Skipped != 0 || cal.Dropped != 1 || len(cal.Problems) != 1 || cal.Problems[0].UID != "google" || !strings.Contains(cal.Problems[0].Err.Error(), "20131210Z") {
		t.Errorf("skipped %d, dropped %d, problems %v", cal.Skipped, cal.Dropped, cal.Problems)
	}
}

// RECURRENCE-ID;RANGE=THISANDFUTURE moves that occurrence and every later
// one by the override's shift, with its length (RFC 5545 3.2.13); a
// cancelled one ends the series there.
func TestThisAndFuture(t *testing.T) {
	loc := berlin(t)
	series := "BEGIN:VEVENT\r\nUID:s\r\nDTSTART;TZID=Europe/Berlin:20270315T090000\r\nDTEND;TZID=Europe/Berlin:20270315T100000\r\nRRULE:FREQ=WEEKLY;COUNT=5\r\nEND:VEVENT\r\n"
	moved := "BEGIN:VEVENT\r\nUID:s\r\nRECURRENCE-ID;RANGE=THISANDFUTURE;TZID=Europe/Berlin:20270329T090000\r\n" +
		"DTSTART;TZID=Europe/Berlin:20270329T140000\r\nDTEND;TZID=Europe/Berlin:20270329T160000\r\nEND:VEVENT\r\n"
	window := Interval{time.Date(2027, 3, 1, 0, 0, 0, 0, loc), time.Date(2027, 5, 1, 0, 0, 0, 0, loc)}
	cal, err := Parse([]byte("BEGIN:VCALENDAR\r\n"+series+moved+"END:VCALENDAR\r\n"), loc)
	if err != nil {
		t.Fatal(err)
	}
	want := "Mon 15 Mar 09:00 – Mon 15 Mar 10:00\nMon 22 Mar 09:00 – Mon 22 Mar 10:00\n" +
		"Mon 29 Mar 14:00 – Mon 29 Mar 16:00\nMon 5 Apr 14:00 – Mon 5 Apr 16:00\nMon 12 Apr 14:00 – Mon 12 Apr 16:00\n"
	if got := show(cal.Busy(window), loc); got != want {
		t.Errorf("moved from the 29th on:\n%s\nwant:\n%s", got, want)
	}
	cancelled := strings.Replace(moved, "END:VEVENT", "STATUS:CANCELLED\r\nEND:VEVENT", 1)
	cal, err = Parse([]byte("BEGIN:VCALENDAR\r\n"+series+cancelled+"END:VCALENDAR\r\n"), loc)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := show(cal.Busy(window), loc), "Mon 15 Mar 09:00 – Mon 15 Mar 10:00\nMon 22 Mar 09:00 – Mon 22 Mar 10:00\n"; got != want {
		t.Errorf("cancelled from the 29th on:\n%s\nwant:\n%s", got, want)
	}
}

// RDATE;VALUE=PERIOD blocks each period whole, not the event's length
// from its start.
func TestRDatePeriods(t *testing.T) {
	loc := berlin(t)
	data := "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:p\r\nDTSTART;TZID=Europe/Berlin:20270405T090000\r\nDTEND;TZID=Europe/Berlin:20270405T093000\r\n" +
		"RDATE;VALUE=PERIOD;TZID=Europe/Berlin:20270406T090000/20270406T123000,20270407T080000Z/PT2H\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
	window := Interval{time.Date(2027, 4, 1, 0, 0, 0, 0, loc), time.Date(2027, 4, 10, 0, 0, 0, 0, loc)}
	cal, err := Parse([]byte(data), loc)
	if err != nil {
		t.Fatal(err)
	}
	want := "Mon 5 Apr 09:00 – Mon 5 Apr 09:30\nTue 6 Apr 09:00 – Tue 6 Apr 12:30\nWed 7 Apr 10:00 – Wed 7 Apr 12:00\n"
	if got := show(cal.Busy(window), loc); got != want || cal.Dropped != 0 {
		t.Errorf("periods (%d dropped):\n%s\nwant:\n%s", cal.Dropped, got, want)
	}
}
