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
	"time"

	ical "github.com/emersion/go-ical"
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

func (c *Calendar) problem(uid string, err error) {
	if len(c.Problems) < maxProblems {
		c.Problems = append(c.Problems, Problem{UID: uid, Err: err})
	}
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
	c := &Calendar{overrides: map[string][]override{}}
	for _, cal := range cals {
		zones := newZones(cal, home)
		for _, comp := range cal.Children {
			if comp.Name != ical.CompEvent {
				continue
			}
			ev, dropped, err := readEvent(comp, zones)
			if err != nil {
				c.Skipped++
				c.problem(ev.uid, err)
				continue
			}
			c.Dropped += len(dropped)
			for _, err := range dropped {
				c.problem(ev.uid, err)
			}
			if !ev.recurrenceID.IsZero() {
				c.overrides[ev.uid] = append(c.overrides[ev.uid], ev.override())
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
