package calendar

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"

	ical "github.com/emersion/go-ical"
	"github.com/teambition/rrule-go"
)

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
	// periods are the RDATE;VALUE=PERIOD occurrences: each blocks its own
	// span, not the event's length.
	periods []Interval
	// recurrenceID is the instant of the occurrence this event replaces,
	// zero for a master or a single event; thisAndFuture when it replaces
	// that occurrence and every later one (RANGE=THISANDFUTURE).
	recurrenceID  time.Time
	thisAndFuture bool
}

// override is what an event with a RECURRENCE-ID says of its series.
type override struct {
	id     time.Time // the instant of the occurrence replaced
	start  time.Time // the replacement's start instant
	length time.Duration
	busy   bool
	// future: the change applies to every later occurrence too, moved by
	// the same shift and given the same length (RFC 5545 3.2.13).
	future bool
}

func (ev *event) override() override {
	return override{id: ev.recurrenceID, start: ev.zone.instant(ev.start), length: ev.length, busy: ev.busy, future: ev.thisAndFuture}
}

// readEvent reads comp. A value that does not read is dropped and its
// error listed in dropped, where the event can do without it (one date of
// an RDATE or EXDATE list, a rule); err is for an event that cannot be
// placed at all.
func readEvent(comp *ical.Component, zones *zones) (ev *event, dropped []error, err error) {
	ev = &event{busy: true}
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
		return ev, nil, errors.New("no DTSTART")
	}
	start, err := zones.single(startProp)
	if err != nil {
		return ev, nil, err
	}
	ev.start, ev.zone, ev.allDay = start.wall, start.zone, start.date

	switch {
	case comp.Props.Get(ical.PropDateTimeEnd) != nil:
		end, err := zones.single(comp.Props.Get(ical.PropDateTimeEnd))
		if err != nil {
			return ev, nil, err
		}
		if end.zone == ev.zone {
			ev.length = end.wall.Sub(ev.start)
		} else {
			ev.endInstant = end.zone.instant(end.wall)
			ev.length = ev.endInstant.Sub(ev.zone.instant(ev.start))
		}
	case comp.Props.Get(ical.PropDuration) != nil:
		d, err := comp.Props.Get(ical.PropDuration).Duration()
		if err != nil {
			return ev, nil, fmt.Errorf("DURATION: %w", err)
		}
		ev.length = d
	case ev.allDay:
		ev.length = 24 * time.Hour // RFC 5545 3.6.1: a DATE without DTEND lasts the day
	}
	if ev.length < 0 {
		return ev, nil, errors.New("ends before it starts")
	}

	if p := comp.Props.Get(ical.PropRecurrenceID); p != nil {
		id, err := zones.single(p)
		if err != nil {
			return ev, nil, err
		}
		ev.recurrenceID = id.zone.instant(id.wall)
		ev.thisAndFuture = strings.EqualFold(p.Params.Get(ical.ParamRange), "THISANDFUTURE")
		return ev, nil, nil
	}
	return ev, ev.readRecurrence(comp, zones), nil
}

// readRecurrence builds the event's recurrence set in wall-clock time. It
// returns the values it dropped.
func (ev *event) readRecurrence(comp *ical.Component, zones *zones) (dropped []error) {
	rdates := comp.Props.Values(ical.PropRecurrenceDates)
	if rule := comp.Props.Get(ical.PropRecurrenceRule); rule != nil {
		if err := ev.readRule(rule.Value); err != nil {
			dropped = append(dropped, err)
		}
	}
	if ev.rule == nil && len(rdates) == 0 {
		return dropped
	}
	set := &rrule.Set{}
	set.DTStart(ev.start)
	if ev.rule != nil {
		r, _ := rrule.NewRRule(*ev.rule) // readRule made one of it
		set.RRule(r)
	} else {
		set.RDate(ev.start) // RDATE alone: DTSTART is the first occurrence
	}
	for _, p := range rdates {
		values, bad, err := zones.values(&p)
		if err != nil {
			bad = append(bad, fmt.Errorf("RDATE: %w", err))
		}
		dropped = append(dropped, bad...)
		for _, v := range values {
			if !v.end.IsZero() {
				ev.periods = append(ev.periods, Interval{v.zone.instant(v.wall), v.zone.instant(v.end)})
				continue
			}
			set.RDate(wallIn(v, ev))
			ev.rDates = append(ev.rDates, wallIn(v, ev))
		}
	}
	for _, p := range comp.Props.Values(ical.PropExceptionDates) {
		values, bad, err := zones.values(&p)
		if err != nil {
			bad = append(bad, fmt.Errorf("EXDATE: %w", err))
		}
		dropped = append(dropped, bad...)
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
	return dropped
}

// readRule reads an RRULE value into ev.rule, on ev's wall-clock time.
func (ev *event) readRule(value string) error {
	value = normaliseRule(value)
	opt, err := rrule.StrToROption(value)
	if err != nil {
		return fmt.Errorf("RRULE %q: %w", value, err)
	}
	opt.Dtstart = ev.start
	// The rule runs on wall-clock time, so UNTIL is moved there: an
	// instant (…Z) to the event's clock, a date to its last second.
	switch u := untilValue(value); {
	case strings.HasSuffix(strings.ToUpper(u), "Z"):
		opt.Until = ev.zone.wall(opt.Until)
	case len(u) == len(dateLayout):
		opt.Until = opt.Until.Add(24*time.Hour - time.Second)
	}
	if _, err := rrule.NewRRule(*opt); err != nil {
		return fmt.Errorf("RRULE %q: %w", value, err)
	}
	ev.rule = opt
	return nil
}

// normaliseRule takes out of an RRULE value what producers leave in it
// and the recurrence library refuses: spaces after commas (Exchange's CDO
// writes "BYDAY=MO, TU, WE"), whitespace a folded line leaves behind, and
// empty parts (a trailing ";"). A rule holds no whitespace of its own.
func normaliseRule(v string) string {
	v = strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1
		}
		return r
	}, v)
	parts := strings.Split(v, ";")
	return strings.Join(slices.DeleteFunc(parts, func(p string) bool { return p == "" }), ";")
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

// appendBusy adds the occurrences of ev that overlap window to out,
// leaving out those an override replaces and moving those a
// THISANDFUTURE override moves.
func (ev *event) appendBusy(out []Interval, window Interval, overrides []override) []Interval {
	occurrence := func(wall time.Time) Interval {
		start := ev.zone.instant(wall)
		if !ev.endInstant.IsZero() && ev.set == nil {
			return Interval{start, ev.endInstant}
		}
		return Interval{start, ev.zone.instant(wall.Add(ev.length))}
	}
	if ev.set == nil {
		if iv := occurrence(ev.start); ev.length > 0 && iv.Start.Before(window.End) && iv.End.After(window.Start) {
			out = append(out, iv)
		}
		return out
	}
	replaced := func(start time.Time, wall time.Time) bool {
		return slices.ContainsFunc(overrides, func(o override) bool {
			return o.id.Equal(start) || (ev.allDay && sameDay(ev.zone.wall(o.id), wall))
		})
	}
	add := func(iv Interval) {
		if iv.End.After(iv.Start) && iv.Start.Before(window.End) && iv.End.After(window.Start) {
			out = append(out, iv)
		}
	}
	// Expand in wall-clock time, over the window widened by the largest
	// zone offset, the event's length and the largest shift of a
	// THISANDFUTURE override.
	widen := ev.length + 26*time.Hour
	for _, o := range overrides {
		if o.future {
			widen += max(o.start.Sub(o.id), o.id.Sub(o.start))
		}
	}
	from := ev.zone.wall(window.Start).Add(-widen)
	to := ev.zone.wall(window.End).Add(widen)
	for _, wall := range ev.between(from, to) {
		if len(ev.exDates) > 0 && slices.ContainsFunc(ev.exDates, func(d time.Time) bool { return sameDay(d, wall) }) {
			continue
		}
		iv := occurrence(wall)
		if replaced(iv.Start, wall) {
			continue
		}
		if o, ok := latestFuture(overrides, iv.Start); ok {
			if !o.busy {
				continue
			}
			// The shift is the override's, in wall-clock time: a meeting
			// moved from 09:00 to 14:00 stays at 14:00 across a change.
			moved := wall.Add(ev.zone.wall(o.start).Sub(ev.zone.wall(o.id)))
			iv = Interval{ev.zone.instant(moved), ev.zone.instant(moved.Add(o.length))}
		}
		add(iv)
	}
	for _, p := range ev.periods {
		if !replaced(p.Start, ev.zone.wall(p.Start)) && !slices.ContainsFunc(ev.exceptions, func(x time.Time) bool { return ev.zone.instant(x).Equal(p.Start) }) {
			add(p)
		}
	}
	return out
}

// latestFuture returns the last THISANDFUTURE override before the
// occurrence at start, which decides it.
func latestFuture(overrides []override, start time.Time) (override, bool) {
	var found override
	ok := false
	for _, o := range overrides {
		if o.future && o.id.Before(start) && (!ok || o.id.After(found.id)) {
			found, ok = o, true
		}
	}
	return found, ok
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
