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
	"errors"
	"slices"
	"time"
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
	// overrides maps a recurring event's UID to what its events with a
	// RECURRENCE-ID say of the occurrences.
	overrides map[string][]override
	Report
}

// Report says what of a feed could not be read.
type Report struct {
	// Skipped counts the events that could not be read (a date that does
	// not parse, a zone that cannot be read); the rest of the feed is used.
	Skipped int
	// Dropped counts the values left out of events that were read: one
	// date of an RDATE or EXDATE list, a rule that is not one.
	Dropped int
	// Problems says why, for the first events skipped or values dropped,
	// by UID.
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

func (r *Report) problem(uid string, err error) {
	if len(r.Problems) < maxProblems {
		r.Problems = append(r.Problems, Problem{UID: uid, Err: err})
	}
}

// add counts what reading ev cost, and says whether ev is used.
func (r *Report) add(ev *event, dropped []error, err error) bool {
	if err != nil {
		r.Skipped++
		r.problem(ev.uid, err)
		return false
	}
	r.Dropped += len(dropped)
	for _, err := range dropped {
		r.problem(ev.uid, err)
	}
	return true
}

// Parse reads an iCalendar document. home is the consultancy's zone: it
// places floating times and whole-day events.
func Parse(data []byte, home *time.Location) (*Calendar, error) {
	doc, err := split(data)
	if err != nil {
		return nil, err
	}
	c := &Calendar{overrides: map[string][]override{}}
	doc.eachEvent(data, home, func(ev *event, dropped []error, err error) {
		if c.add(ev, dropped, err) {
			c.keep(ev)
		}
	})
	return c, nil
}

// keep adds ev to the calendar.
func (c *Calendar) keep(ev *event) {
	if !ev.recurrenceID.IsZero() {
		c.overrides[ev.uid] = append(c.overrides[ev.uid], ev.override())
	}
	if ev.busy {
		c.events = append(c.events, ev)
	}
}

// Busy is a feed's busy time over a span, worked out as it was read.
type Busy struct {
	Span      Interval
	Intervals []Interval // sorted and merged
	Report
}

// Expand reads an iCalendar document and returns its busy time over span,
// keeping of the feed no more than that: an event becomes its intervals
// as soon as it is read, and only a series that RECURRENCE-IDs change and
// those overrides wait for the end of the document (an override may come
// after its series). home is as for [Parse].
func Expand(data []byte, home *time.Location, span Interval) (*Busy, error) {
	doc, err := split(data)
	if err != nil {
		return nil, err
	}
	b := &Busy{Span: span}
	series := &Calendar{overrides: map[string][]override{}}
	doc.eachEvent(data, home, func(ev *event, dropped []error, err error) {
		if !b.add(ev, dropped, err) {
			return
		}
		if ev.recurrenceID.IsZero() && !doc.overridden[ev.uid] {
			if ev.busy {
				b.Intervals = ev.appendBusy(b.Intervals, span, nil)
			}
			return
		}
		series.keep(ev)
	})
	b.Intervals = Merge(append(b.Intervals, series.Busy(span)...))
	return b, nil
}

// Within returns the part of b's intervals that overlaps window.
func (b *Busy) Within(window Interval) []Interval {
	i, _ := slices.BinarySearchFunc(b.Intervals, window.Start, func(iv Interval, t time.Time) int {
		if iv.End.After(t) {
			return 1
		}
		return -1
	})
	var out []Interval
	for ; i < len(b.Intervals) && b.Intervals[i].Start.Before(window.End); i++ {
		out = append(out, b.Intervals[i])
	}
	return out
}

// Busy returns the busy time of the calendar that overlaps window, sorted
// and merged.
func (c *Calendar) Busy(window Interval) []Interval {
	var out []Interval
	for _, ev := range c.events {
		out = ev.appendBusy(out, window, c.overrides[ev.uid])
	}
	return Merge(out)
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
