// Package calendar reads the consultancy's own calendars, published as
// iCalendar feeds (RFC 5545), and answers when the consultancy is busy.
//
// A feed is decoded with emersion/go-ical and its recurrences expanded with
// teambition/rrule-go. What this package adds is the meaning a calendar
// application gives a feed, which is where calendar imports usually go
// wrong:
//
//   - recurrence is wall-clock time in the event's zone: a meeting at 09:00
//     every weekday stays at 09:00 across a daylight-saving change, so rules
//     are expanded on wall-clock times and each occurrence is placed in its
//     zone afterwards;
//   - a zone is a TZID: an IANA name, or else the feed's own VTIMEZONE
//     definition (Outlook's "W. Europe Standard Time"); a time with no zone
//     (floating) and a whole-day date are the consultancy's own;
//   - EXDATE removes occurrences, RDATE adds them, and an event with a
//     RECURRENCE-ID replaces (or, cancelled, removes) the occurrence it
//     names;
//   - an event marked TRANSP:TRANSPARENT ("free") or STATUS:CANCELLED takes
//     no time.
package calendar

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	ical "github.com/emersion/go-ical"
	"github.com/teambition/rrule-go"
)

// Interval is a span of busy time, Start included, End excluded.
type Interval struct {
	Start, End time.Time
}

// ErrNotICalendar is returned for a document that is not an iCalendar
// object (an HTML error page, a JSON answer, an empty body).
var ErrNotICalendar = errors.New("calendar: not an iCalendar feed")

// Calendar is a parsed feed: its events, ready to be expanded into busy
// time over any window. It is safe for concurrent use.
type Calendar struct {
	events []*event
	// overridden maps a recurring event's UID to the instants of the
	// occurrences that an event with a RECURRENCE-ID replaces.
	overridden map[string][]time.Time
	// Skipped counts the events that could not be read (a date that does
	// not parse, a zone that cannot be read); the rest of the feed is used.
	Skipped int
	// Problems says why, for the first events skipped, by UID.
	Problems []Problem
}

// Problem is an event of a feed that could not be read, or a value of it.
type Problem struct {
	UID string
	Err error
}

// maxProblems bounds the problems kept of one feed: enough to find the
// events in the calendar application.
const maxProblems = 20

func (c *Calendar) problem(uid string, err error) {
	if len(c.Problems) < maxProblems {
		c.Problems = append(c.Problems, Problem{UID: uid, Err: err})
	}
}

// event is one VEVENT, in wall-clock form.
type event struct {
	uid  string
	busy bool // neither transparent nor cancelled
	// start is DTSTART as wall-clock time (its location is UTC and means
	// nothing), in zone; allDay when DTSTART is a DATE.
	start  time.Time
	zone   zone
	allDay bool
	// length is the event's wall-clock length (DTEND minus DTSTART, or
	// DURATION); endInstant is DTEND's own instant for a single event whose
	// DTEND has another zone.
	length     time.Duration
	endInstant time.Time
	// set expands a recurring event in wall-clock time; nil for a single
	// one. exDates are whole days excluded from a timed series.
	set     *rrule.Set
	exDates []time.Time
	// rule, rDates and exceptions are the parts of set, kept so that an
	// endless daily or weekly series can be expanded from a start moved
	// near the window (see startNear) rather than from its first day.
	rule       *rrule.ROption
	rDates     []time.Time
	exceptions []time.Time
	// recurrenceID is the instant of the occurrence this event replaces,
	// zero for a master or a single event.
	recurrenceID time.Time
}

// Parse reads an iCalendar document. home is the consultancy's zone: it
// places floating times and whole-day events.
func Parse(data []byte, home *time.Location) (*Calendar, error) {
	if !bytes.Contains(data[:min(len(data), 1024)], []byte("BEGIN:VCALENDAR")) {
		return nil, ErrNotICalendar
	}
	cals, err := decodeAll(data)
	if err != nil {
		return nil, err
	}
	c := &Calendar{overridden: map[string][]time.Time{}}
	for _, cal := range cals {
		zones := newZones(cal, home)
		for _, comp := range cal.Children {
			if comp.Name != ical.CompEvent {
				continue
			}
			ev, err := readEvent(comp, zones)
			if err != nil {
				c.Skipped++
				c.problem(ev.uid, err)
				continue
			}
			if !ev.recurrenceID.IsZero() {
				c.overridden[ev.uid] = append(c.overridden[ev.uid], ev.recurrenceID)
			}
			if ev.busy {
				c.events = append(c.events, ev)
			}
		}
	}
	return c, nil
}

// decodeAll decodes every VCALENDAR of data (a feed holds one; some
// exporters concatenate several). A document cut off before its last
// END:VCALENDAR, as a download that broke off would be, is refused rather
// than read in part.
func decodeAll(data []byte) (cals []*ical.Calendar, err error) {
	tail := bytes.TrimRight(data, "\r\n\t ")
	if !bytes.EqualFold(tail[max(0, len(tail)-len("END:VCALENDAR")):], []byte("END:VCALENDAR")) {
		return nil, fmt.Errorf("%w: it does not end with END:VCALENDAR", ErrNotICalendar)
	}
	defer func() {
		// The decoder is a library's: no input of a stranger's server may
		// take the site down with it.
		if r := recover(); r != nil {
			cals, err = nil, fmt.Errorf("%w: %v", ErrNotICalendar, r)
		}
	}()
	dec := ical.NewDecoder(bytes.NewReader(data))
	for {
		cal, err := dec.Decode()
		if errors.Is(err, io.EOF) && len(cals) > 0 {
			return cals, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrNotICalendar, err)
		}
		cals = append(cals, cal)
	}
}

func readEvent(comp *ical.Component, zones *zones) (*event, error) {
	ev := &event{busy: true}
	if p := comp.Props.Get(ical.PropUID); p != nil {
		ev.uid = p.Value
	}
	if p := comp.Props.Get(ical.PropTransparency); p != nil && strings.EqualFold(strings.TrimSpace(p.Value), "TRANSPARENT") {
		ev.busy = false
	}
	if p := comp.Props.Get(ical.PropStatus); p != nil && strings.EqualFold(strings.TrimSpace(p.Value), "CANCELLED") {
		ev.busy = false
	}
	startProp := comp.Props.Get(ical.PropDateTimeStart)
	if startProp == nil {
		return ev, errors.New("no DTSTART")
	}
	starts, err := zones.values(startProp)
	if err != nil || len(starts) != 1 {
		return ev, fmt.Errorf("DTSTART: %v", err)
	}
	ev.start, ev.zone, ev.allDay = starts[0].wall, starts[0].zone, starts[0].date

	switch {
	case comp.Props.Get(ical.PropDateTimeEnd) != nil:
		ends, err := zones.values(comp.Props.Get(ical.PropDateTimeEnd))
		if err != nil || len(ends) != 1 {
			return ev, fmt.Errorf("DTEND: %v", err)
		}
		end := ends[0]
		if end.zone == ev.zone {
			ev.length = end.wall.Sub(ev.start)
		} else {
			ev.endInstant = end.zone.instant(end.wall)
			ev.length = ev.endInstant.Sub(ev.zone.instant(ev.start))
		}
	case comp.Props.Get(ical.PropDuration) != nil:
		d, err := comp.Props.Get(ical.PropDuration).Duration()
		if err != nil {
			return ev, fmt.Errorf("DURATION: %v", err)
		}
		ev.length = d
	case ev.allDay:
		ev.length = 24 * time.Hour // RFC 5545 3.6.1: a DATE without DTEND lasts the day
	}
	if ev.length < 0 {
		return ev, errors.New("ends before it starts")
	}

	if p := comp.Props.Get(ical.PropRecurrenceID); p != nil {
		ids, err := zones.values(p)
		if err != nil || len(ids) != 1 {
			return ev, fmt.Errorf("RECURRENCE-ID: %v", err)
		}
		ev.recurrenceID = ids[0].zone.instant(ids[0].wall)
		return ev, nil
	}
	if err := ev.readRecurrence(comp, zones); err != nil {
		return ev, err
	}
	return ev, nil
}

// readRecurrence builds the event's recurrence set in wall-clock time.
func (ev *event) readRecurrence(comp *ical.Component, zones *zones) error {
	rule := comp.Props.Get(ical.PropRecurrenceRule)
	rdates := comp.Props.Values(ical.PropRecurrenceDates)
	if rule == nil && len(rdates) == 0 {
		return nil
	}
	set := &rrule.Set{}
	set.DTStart(ev.start)
	if rule != nil {
		opt, err := rrule.StrToROption(rule.Value)
		if err != nil {
			return fmt.Errorf("RRULE: %w", err)
		}
		opt.Dtstart = ev.start
		// The rule runs on wall-clock time, so UNTIL is moved there: an
		// instant (…Z) to the event's clock, a date to its last second.
		switch u := untilValue(rule.Value); {
		case strings.HasSuffix(strings.ToUpper(u), "Z"):
			opt.Until = ev.zone.wall(opt.Until)
		case len(u) == len(dateLayout):
			opt.Until = opt.Until.Add(24*time.Hour - time.Second)
		}
		r, err := rrule.NewRRule(*opt)
		if err != nil {
			return fmt.Errorf("RRULE: %w", err)
		}
		set.RRule(r)
		ev.rule = opt
	} else {
		set.RDate(ev.start) // RDATE alone: DTSTART is the first occurrence
	}
	for _, p := range rdates {
		values, err := zones.values(&p)
		if err != nil {
			return fmt.Errorf("RDATE: %w", err)
		}
		for _, v := range values {
			set.RDate(wallIn(v, ev))
			ev.rDates = append(ev.rDates, wallIn(v, ev))
		}
	}
	for _, p := range comp.Props.Values(ical.PropExceptionDates) {
		values, err := zones.values(&p)
		if err != nil {
			return fmt.Errorf("EXDATE: %w", err)
		}
		for _, v := range values {
			if v.date && !ev.allDay {
				ev.exDates = append(ev.exDates, v.wall)
				continue
			}
			set.ExDate(wallIn(v, ev))
			ev.exceptions = append(ev.exceptions, wallIn(v, ev))
		}
	}
	ev.set = set
	return nil
}

// untilValue returns the UNTIL part of a rule, as written.
func untilValue(rule string) string {
	for part := range strings.SplitSeq(rule, ";") {
		if k, v, ok := strings.Cut(part, "="); ok && strings.EqualFold(k, "UNTIL") {
			return v
		}
	}
	return ""
}

// wallIn returns v as wall-clock time in ev's zone.
func wallIn(v dateValue, ev *event) time.Time {
	if v.zone == ev.zone || v.date {
		return v.wall
	}
	return ev.zone.wall(v.zone.instant(v.wall))
}

// Busy returns the busy time of the calendar that overlaps window, sorted
// and merged.
func (c *Calendar) Busy(window Interval) []Interval {
	var out []Interval
	for _, ev := range c.events {
		out = ev.appendBusy(out, window, c.overridden[ev.uid])
	}
	return Merge(out)
}

// appendBusy adds the occurrences of ev that overlap window to out,
// leaving out those an override replaces.
func (ev *event) appendBusy(out []Interval, window Interval, overridden []time.Time) []Interval {
	if ev.length <= 0 {
		return out
	}
	occurrence := func(wall time.Time) Interval {
		start := ev.zone.instant(wall)
		if !ev.endInstant.IsZero() && ev.set == nil {
			return Interval{start, ev.endInstant}
		}
		return Interval{start, ev.zone.instant(wall.Add(ev.length))}
	}
	if ev.set == nil {
		if iv := occurrence(ev.start); iv.Start.Before(window.End) && iv.End.After(window.Start) {
			out = append(out, iv)
		}
		return out
	}
	// Expand in wall-clock time, over the window widened by the largest
	// zone offset and the event's length.
	from := ev.zone.wall(window.Start).Add(-ev.length - 26*time.Hour)
	to := ev.zone.wall(window.End).Add(26 * time.Hour)
	for _, wall := range ev.between(from, to) {
		if len(ev.exDates) > 0 && slices.ContainsFunc(ev.exDates, func(d time.Time) bool { return sameDay(d, wall) }) {
			continue
		}
		iv := occurrence(wall)
		if !iv.Start.Before(window.End) || !iv.End.After(window.Start) {
			continue
		}
		if slices.ContainsFunc(overridden, func(id time.Time) bool { return id.Equal(iv.Start) || (ev.allDay && sameDay(ev.zone.wall(id), wall)) }) {
			continue
		}
		out = append(out, iv)
	}
	return out
}

// between returns the occurrences of a recurring event from from to to,
// in wall-clock time. The recurrence library walks a rule from its first
// occurrence; a daily or weekly series without a COUNT repeats with its
// period, so it is walked from the last period start before from instead,
// which gives the same occurrences for a fraction of the work (a two-year
// old weekly meeting: one week instead of a hundred).
func (ev *event) between(from, to time.Time) []time.Time {
	if start, ok := ev.startNear(from); ok {
		opt := *ev.rule
		opt.Dtstart = start
		if r, err := rrule.NewRRule(opt); err == nil {
			set := &rrule.Set{}
			set.DTStart(start)
			set.RRule(r)
			for _, d := range ev.rDates {
				set.RDate(d)
			}
			for _, d := range ev.exceptions {
				set.ExDate(d)
			}
			return set.Between(from, to, true)
		}
	}
	return ev.set.Between(from, to, true)
}

// startNear returns the event's start moved forward by whole periods to
// just before from, when its rule allows that without changing the
// series: daily or weekly, without COUNT (which counts from the first).
func (ev *event) startNear(from time.Time) (time.Time, bool) {
	r := ev.rule
	if r == nil || r.Count != 0 || !from.After(ev.start) {
		return time.Time{}, false
	}
	interval := max(r.Interval, 1)
	var period time.Duration
	switch r.Freq {
	case rrule.DAILY:
		period = time.Duration(interval) * 24 * time.Hour
	case rrule.WEEKLY:
		period = time.Duration(interval) * 7 * 24 * time.Hour
	default:
		return time.Time{}, false
	}
	// Wall-clock time has no daylight-saving changes: a day is 24 hours.
	periods := from.Sub(ev.start) / period
	if periods < 2 {
		return time.Time{}, false
	}
	return ev.start.Add((periods - 1) * period), true
}

func sameDay(a, b time.Time) bool {
	ay, am, ad := a.Date()
	by, bm, bd := b.Date()
	return ay == by && am == bm && ad == bd
}

// Merge sorts intervals and joins those that overlap or touch.
func Merge(ivs []Interval) []Interval {
	if len(ivs) == 0 {
		return nil
	}
	slices.SortFunc(ivs, func(a, b Interval) int { return a.Start.Compare(b.Start) })
	out := ivs[:1]
	for _, iv := range ivs[1:] {
		last := &out[len(out)-1]
		if !iv.Start.After(last.End) {
			if iv.End.After(last.End) {
				last.End = iv.End
			}
			continue
		}
		out = append(out, iv)
	}
	return out
}
