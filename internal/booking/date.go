package booking

import (
	"cmp"
	"fmt"
	"time"
)

// DateLayout is the text form of a [Date], as in "2027-03-28".
const DateLayout = "2006-01-02"

// Date is a civil calendar day (year, month, day) with no time of day and no
// time zone. It is what a visitor picks in a date picker and what a
// consultancy lists as a closed day; it becomes an instant only through
// [Date.In] with a named location.
//
// The zero Date is not a valid day; see [Date.IsZero]. Dates are comparable
// with == and usable as map keys.
type Date struct {
	Year  int
	Month time.Month
	Day   int
}

// ParseDate parses a date in the form "2006-01-02". It rejects dates that do
// not exist, such as "2027-02-30".
func ParseDate(s string) (Date, error) {
	t, err := time.Parse(DateLayout, s)
	if err != nil {
		return Date{}, fmt.Errorf("parse date %q: want YYYY-MM-DD: %w", s, err)
	}
	return DateOf(t), nil
}

// DateOf returns the calendar day of t in t's own location. To ask "which day
// is it in Auckland", pass t.In(auckland).
func DateOf(t time.Time) Date {
	y, m, d := t.Date()
	return Date{Year: y, Month: m, Day: d}
}

// IsZero reports whether d is the zero Date.
func (d Date) IsZero() bool { return d == Date{} }

// String returns d in the form "2006-01-02".
func (d Date) String() string {
	return fmt.Sprintf("%04d-%02d-%02d", d.Year, d.Month, d.Day)
}

// MarshalText implements encoding.TextMarshaler; JSON carries a Date as
// "2006-01-02".
func (d Date) MarshalText() ([]byte, error) {
	return []byte(d.String()), nil
}

// UnmarshalText implements encoding.TextUnmarshaler.
func (d *Date) UnmarshalText(b []byte) error {
	parsed, err := ParseDate(string(b))
	if err != nil {
		return err
	}
	*d = parsed
	return nil
}

// In returns the first instant of d in loc: midnight, or the first wall-clock
// time that exists when a daylight-saving change skips midnight.
func (d Date) In(loc *time.Location) time.Time {
	return time.Date(d.Year, d.Month, d.Day, 0, 0, 0, 0, loc)
}

// At returns the instant of the wall-clock time c on d in loc. A Clock of
// 24:00 is the first instant of the next day. When c does not exist on d in
// loc (a daylight-saving gap) the result is normalized by time.Date; use
// [Date.HasClock] to detect that.
func (d Date) At(c Clock, loc *time.Location) time.Time {
	return time.Date(d.Year, d.Month, d.Day, 0, int(c), 0, 0, loc)
}

// HasClock reports whether the wall-clock time c happens on d in loc, that is
// whether it is not skipped by a daylight-saving change.
func (d Date) HasClock(c Clock, loc *time.Location) bool {
	t := d.At(c, loc)
	return DateOf(t) == d && ClockOf(t) == c
}

// AddDays returns the day n days after d (before it when n is negative),
// counting calendar days, not 24-hour periods.
func (d Date) AddDays(n int) Date {
	return DateOf(time.Date(d.Year, d.Month, d.Day+n, 0, 0, 0, 0, time.UTC))
}

// DaysUntil returns the number of calendar days from d to e, negative when e
// is before d.
func (d Date) DaysUntil(e Date) int {
	const day = 24 * 60 * 60
	a := time.Date(d.Year, d.Month, d.Day, 0, 0, 0, 0, time.UTC).Unix()
	b := time.Date(e.Year, e.Month, e.Day, 0, 0, 0, 0, time.UTC).Unix()
	return int((b - a) / day)
}

// Compare returns -1, 0 or +1 as d is before, equal to or after e.
func (d Date) Compare(e Date) int {
	if c := cmp.Compare(d.Year, e.Year); c != 0 {
		return c
	}
	if c := cmp.Compare(d.Month, e.Month); c != 0 {
		return c
	}
	return cmp.Compare(d.Day, e.Day)
}

// Before reports whether d is before e.
func (d Date) Before(e Date) bool { return d.Compare(e) < 0 }

// After reports whether d is after e.
func (d Date) After(e Date) bool { return d.Compare(e) > 0 }

// Weekday returns the day of the week of d.
func (d Date) Weekday() time.Weekday {
	return time.Date(d.Year, d.Month, d.Day, 0, 0, 0, 0, time.UTC).Weekday()
}

// Clock is a wall-clock time of day as minutes since midnight, from 0 (00:00)
// to 1440 (24:00, allowed only as the end of a range).
type Clock int

// ParseClock parses "15:04" (24-hour, two-digit hour and minute); "24:00" is
// accepted as the end of the day.
func ParseClock(s string) (Clock, error) {
	if s == "24:00" {
		return 24 * 60, nil
	}
	t, err := time.Parse("15:04", s)
	if err != nil || len(s) != len("15:04") {
		return 0, fmt.Errorf("parse time of day %q: want HH:MM between 00:00 and 24:00", s)
	}
	return Clock(t.Hour()*60 + t.Minute()), nil
}

// ClockOf returns the wall-clock time of t in t's location, to the minute.
func ClockOf(t time.Time) Clock {
	return Clock(t.Hour()*60 + t.Minute())
}

// String returns c in the form "15:04".
func (c Clock) String() string {
	return fmt.Sprintf("%02d:%02d", int(c)/60, int(c)%60)
}
