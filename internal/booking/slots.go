package booking

import (
	"slices"
	"time"
)

// Interval is a half-open span of time [Start, End). The persistence layer
// passes existing bookings to [Slots] as Intervals (a booking's
// [Booking.Interval]), without the buffer: the buffer is applied here, from
// the Availability in force.
type Interval struct {
	Start time.Time
	End   time.Time
}

// Overlaps reports whether i and o share any instant. Intervals that only
// touch (one ends when the other starts) do not overlap.
func (i Interval) Overlaps(o Interval) bool {
	return i.Start.Before(o.End) && o.Start.Before(i.End)
}

// Extend returns i widened by d on both sides.
func (i Interval) Extend(d time.Duration) Interval {
	return Interval{Start: i.Start.Add(-d), End: i.End.Add(d)}
}

// Slot is one bookable time, in UTC. Its JSON form is the one of
// GET /api/slots: {"start": RFC 3339, "end": RFC 3339}.
type Slot struct {
	Start time.Time `json:"start"`
	End   time.Time `json:"end"`
}

// Interval returns the span of s.
func (s Slot) Interval() Interval { return Interval(s) }

// Day is one calendar day in the visitor's zone with its open slots, in
// ascending order. Slots is never nil, so a day without slots encodes as [].
type Day struct {
	Date  Date   `json:"date"`
	Slots []Slot `json:"slots"`
}

// Window returns the span of time covered by days calendar days from from,
// in loc: from the first instant of from to the first instant of the day
// after the last. The persistence layer can fetch the bookings that matter to
// [Slots] as those overlapping Window(...).Extend(av.Buffer).
func Window(from Date, days int, loc *time.Location) Interval {
	return Interval{Start: from.In(loc), End: from.AddDays(days).In(loc)}
}

// Conflicts reports whether a meeting over iv would collide with any of
// busy once each busy interval is widened by av.Buffer. The store calls it,
// inside the transaction that inserts a booking, with the bookings already
// there.
func Conflicts(av Availability, iv Interval, busy []Interval) bool {
	for _, b := range busy {
		if iv.Overlaps(b.Extend(av.Buffer)) {
			return true
		}
	}
	return false
}

// busyIndex is busy time widened by a buffer, sorted and merged, so that
// whether a slot meets any of it is a binary search (a month of slots
// against the busy time of several calendars).
type busyIndex []Interval

func newBusyIndex(busy []Interval, buffer time.Duration) busyIndex {
	ivs := make([]Interval, 0, len(busy))
	for _, b := range busy {
		ivs = append(ivs, b.Extend(buffer))
	}
	slices.SortFunc(ivs, func(a, b Interval) int { return a.Start.Compare(b.Start) })
	merged := ivs[:0]
	for _, iv := range ivs {
		if n := len(merged); n > 0 && !iv.Start.After(merged[n-1].End) {
			if iv.End.After(merged[n-1].End) {
				merged[n-1].End = iv.End
			}
			continue
		}
		merged = append(merged, iv)
	}
	return merged
}

// conflicts reports whether iv overlaps any of x (as Conflicts does the
// intervals x was made from, widened by the buffer).
func (x busyIndex) conflicts(iv Interval) bool {
	i, _ := slices.BinarySearchFunc(x, iv.Start, func(b Interval, t time.Time) int {
		if b.End.After(t) {
			return 1
		}
		return -1
	})
	return i < len(x) && x[i].Start.Before(iv.End)
}

// Slots returns the open slots of service on days calendar days starting at
// fromDate, where days are read in visitorLoc: one [Day] per date, in order,
// each with the slots that start on that date in the visitor's zone. A
// visitor's day may therefore hold slots of two of the consultancy's days.
//
// A slot starts on the grid of av.SlotInterval counted from the start of a
// working-hours range, in the consultancy's zone, and ends within the range.
// It is left out when it starts before now plus av.MinimumNotice (so never in
// the past), when it starts after the last bookable day (av.DaysAhead), when
// its consultancy day is closed, when its wall-clock start does not exist
// (skipped by a daylight-saving change), or when it overlaps any of busy
// widened by av.Buffer on both sides.
//
// Slots returns nil when service is unknown, days is not positive or
// visitorLoc is nil; callers validate those first (see [ParseSlotsQuery]).
func Slots(av Availability, service string, now time.Time, fromDate Date, days int, visitorLoc *time.Location, busy []Interval) []Day {
	length, ok := av.ServiceLength(service)
	if !ok || days <= 0 || visitorLoc == nil || av.Location == nil || av.SlotInterval <= 0 {
		return nil
	}
	out := make([]Day, days)
	for i := range out {
		out[i] = Day{Date: fromDate.AddDays(i), Slots: []Slot{}}
	}

	consultancy := av.Location
	earliest := now.Add(av.MinimumNotice)
	today := DateOf(now.In(consultancy))
	lastDay := today.AddDays(av.DaysAhead)

	// The consultancy's days that can hold a slot starting within the
	// visitor's days; one day of margin on each side makes zone offsets and
	// daylight-saving changes irrelevant here, the exact filter is per slot.
	// Days before today or after the horizon hold nothing.
	window := Window(fromDate, days, visitorLoc)
	first := DateOf(window.Start.In(consultancy)).AddDays(-1)
	if first.Before(today) {
		first = today
	}
	last := DateOf(window.End.In(consultancy)).AddDays(1)
	if last.After(lastDay) {
		last = lastDay
	}

	step := Clock(av.SlotInterval / time.Minute)
	if step <= 0 {
		return out
	}
	taken := newBusyIndex(busy, av.Buffer)
	for day := first; !day.After(last); day = day.AddDays(1) {
		if _, closed := av.Closed[day]; closed {
			continue
		}
		for _, r := range av.Weekly[day.Weekday()] {
			rangeEnd := day.At(r.End, consultancy)
			for c := r.Start; c < r.End; c += step {
				if !day.HasClock(c, consultancy) {
					continue
				}
				start := day.At(c, consultancy)
				end := start.Add(length)
				if end.After(rangeEnd) {
					continue
				}
				if start.Before(earliest) {
					continue
				}
				slot := Slot{Start: start.UTC(), End: end.UTC()}
				if taken.conflicts(slot.Interval()) {
					continue
				}
				i := fromDate.DaysUntil(DateOf(start.In(visitorLoc)))
				if i < 0 || i >= days {
					continue
				}
				out[i].Slots = append(out[i].Slots, slot)
			}
		}
	}
	for i := range out {
		// Ranges are walked in order, but an ambiguous wall-clock hour
		// (a daylight-saving fall-back) can map out of order; keep the
		// promise of ascending, distinct slots.
		slices.SortFunc(out[i].Slots, func(a, b Slot) int { return a.Start.Compare(b.Start) })
		out[i].Slots = slices.CompactFunc(out[i].Slots, func(a, b Slot) bool { return a.Start.Equal(b.Start) })
	}
	return out
}

// Offered returns the slot of service that starts at start and whether it is
// currently offered: on the grid, within working hours, not closed, outside
// the notice window, within the horizon and clear of busy plus the buffer.
// Pass nil busy to check only the schedule (the booking validation does, and
// leaves collisions with other bookings to the store's transaction).
func Offered(av Availability, service string, start, now time.Time, busy []Interval) (Slot, bool) {
	if av.Location == nil {
		return Slot{}, false
	}
	day := DateOf(start.In(av.Location))
	for _, d := range Slots(av, service, now, day, 1, av.Location, busy) {
		for _, s := range d.Slots {
			if s.Start.Equal(start) {
				return s, true
			}
		}
	}
	return Slot{}, false
}
