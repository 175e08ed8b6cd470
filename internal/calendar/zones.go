package calendar

//go:generate go run ./windowszones

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	ical "github.com/emersion/go-ical"
	"github.com/teambition/rrule-go"
)

// zone places wall-clock times on the time line, and back.
type zone interface {
	// instant returns the instant at which the zone's clocks show w (the
	// fields of w; its location is ignored).
	instant(w time.Time) time.Time
	// wall returns what the zone's clocks show at t, as a time in UTC
	// whose fields are that wall-clock time.
	wall(t time.Time) time.Time
}

// ianaZone is a zone of the IANA database, which Go knows.
type ianaZone struct{ loc *time.Location }

func (z *ianaZone) instant(w time.Time) time.Time {
	return time.Date(w.Year(), w.Month(), w.Day(), w.Hour(), w.Minute(), w.Second(), 0, z.loc)
}

func (z *ianaZone) wall(t time.Time) time.Time {
	t = t.In(z.loc)
	return time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), 0, time.UTC)
}

// zones resolves the TZIDs of one VCALENDAR.
type zones struct {
	home  *ianaZone
	utc   *ianaZone
	defs  map[string]*ical.Component // VTIMEZONE by TZID
	known map[string]knownZone
}

// knownZone is a TZID resolved, or why it could not be.
type knownZone struct {
	zone zone
	err  error
}

func newZones(defs []*ical.Component, home *time.Location) *zones {
	z := &zones{
		home:  &ianaZone{home},
		utc:   &ianaZone{time.UTC},
		defs:  map[string]*ical.Component{},
		known: map[string]knownZone{},
	}
	for _, c := range defs {
		if c.Name == ical.CompTimezone {
			if id := c.Props.Get(ical.PropTimezoneID); id != nil {
				z.defs[id.Value] = c
			}
		}
	}
	return z
}

// byID returns the zone a TZID names: an IANA zone when Go knows the name
// (or its tail, as in "/freeassociation.sourceforge.net/Europe/Berlin"),
// else the IANA zone CLDR gives for a Windows name ("Eastern Standard
// Time", as Outlook and Exchange write them), else the feed's VTIMEZONE of
// that name. A zone none of these reads is an error: guessing the
// consultancy's own zone would put the event at the wrong time.
func (z *zones) byID(tzid string) (zone, error) {
	if found, ok := z.known[tzid]; ok {
		return found.zone, found.err
	}
	var found knownZone
	if loc, err := loadIANA(tzid); err == nil {
		found.zone = &ianaZone{loc}
	} else if name, ok := windowsZones[strings.Trim(strings.TrimSpace(tzid), `"`)]; ok {
		loc, err := time.LoadLocation(name)
		if err != nil {
			found.err = fmt.Errorf("zone %q (%s): %w", tzid, name, err)
		} else {
			found.zone = &ianaZone{loc}
		}
	} else if def, ok := z.defs[tzid]; ok {
		if found.zone, err = readVTimezone(def); err != nil {
			found.zone, found.err = nil, fmt.Errorf("zone %q: %w", tzid, err)
		}
	} else {
		found.err = fmt.Errorf("zone %q is neither known nor defined in the feed", tzid)
	}
	z.known[tzid] = found
	return found.zone, found.err
}

// loadIANA loads tzid as an IANA name, or its last two or three path
// segments ("America/Argentina/Buenos_Aires").
func loadIANA(tzid string) (*time.Location, error) {
	tzid = strings.Trim(strings.TrimSpace(tzid), `"`)
	if tzid == "" || strings.EqualFold(tzid, "Local") {
		return nil, errors.New("no zone name")
	}
	if loc, err := time.LoadLocation(tzid); err == nil {
		return loc, nil
	}
	parts := strings.Split(tzid, "/")
	for n := 3; n >= 2; n-- {
		if len(parts) > n {
			if loc, err := time.LoadLocation(strings.Join(parts[len(parts)-n:], "/")); err == nil {
				return loc, nil
			}
		}
	}
	return nil, fmt.Errorf("unknown zone %q", tzid)
}

// dateValue is one value of a date, date-time or period property.
type dateValue struct {
	wall time.Time // wall-clock fields, location UTC
	zone zone
	date bool // a DATE: a whole day in the consultancy's zone
	// end is a PERIOD's end as wall-clock time in zone; zero otherwise.
	end time.Time
}

const (
	dateLayout     = "20060102"
	dateTimeLayout = "20060102T150405"
)

// values reads the dates, date-times or periods of prop, a comma-separated
// list (EXDATE and RDATE may hold several). A value that does not read is
// left out and its error listed in bad; err is for the whole property (a
// zone that cannot be read).
func (z *zones) values(prop *ical.Prop) (out []dateValue, bad []error, err error) {
	valueType := strings.ToUpper(prop.Params.Get(ical.ParamValue))
	var zn zone
	if tzid := prop.Params.Get(ical.PropTimezoneID); tzid != "" {
		if zn, err = z.byID(tzid); err != nil {
			return nil, nil, err
		}
	}
	for raw := range strings.SplitSeq(prop.Value, ",") {
		raw = strings.TrimSpace(raw)
		start, end, period := strings.Cut(raw, "/")
		v, err := z.value(start, valueType, zn)
		if err == nil && period {
			v.end, err = z.periodEnd(v, end, zn)
		}
		if err != nil {
			bad = append(bad, fmt.Errorf("%s value %q: %w", prop.Name, raw, err))
			continue
		}
		out = append(out, v)
	}
	return out, bad, nil
}

// single reads a property that holds one date or date-time (DTSTART,
// DTEND, RECURRENCE-ID).
func (z *zones) single(prop *ical.Prop) (dateValue, error) {
	values, bad, err := z.values(prop)
	switch {
	case err != nil:
		return dateValue{}, err
	case len(bad) > 0:
		return dateValue{}, bad[0]
	case len(values) != 1 || !values[0].end.IsZero():
		return dateValue{}, fmt.Errorf("%s: not one date or date-time", prop.Name)
	}
	return values[0], nil
}

// value reads one date or date-time, in zn when it is neither a date nor
// in UTC.
func (z *zones) value(raw, valueType string, zn zone) (dateValue, error) {
	switch {
	case valueType == "DATE" || len(raw) == len(dateLayout):
		d, err := time.Parse(dateLayout, raw)
		return dateValue{wall: d, zone: z.home, date: true}, err
	case strings.HasSuffix(raw, "Z") || strings.HasSuffix(raw, "z"):
		t, err := time.Parse(dateTimeLayout, raw[:len(raw)-1])
		return dateValue{wall: t, zone: z.utc}, err
	}
	t, err := time.Parse(dateTimeLayout, raw)
	if zn == nil {
		zn = z.home // floating: the consultancy's own clock
	}
	return dateValue{wall: t, zone: zn}, err
}

// periodEnd reads the end of a PERIOD (RFC 5545 3.3.9), a date-time or a
// duration, as wall-clock time in start's zone.
func (z *zones) periodEnd(start dateValue, raw string, zn zone) (time.Time, error) {
	if strings.HasPrefix(strings.TrimLeft(raw, "+"), "P") {
		d, err := (&ical.Prop{Value: raw}).Duration()
		if err != nil || d <= 0 {
			return time.Time{}, fmt.Errorf("period length %q", raw)
		}
		return start.wall.Add(d), nil
	}
	end, err := z.value(raw, "", zn)
	if err != nil || end.date {
		return time.Time{}, fmt.Errorf("period end %q", raw)
	}
	w := start.zone.wall(end.zone.instant(end.wall))
	if !w.After(start.wall) {
		return time.Time{}, fmt.Errorf("period ends before it starts")
	}
	return w, nil
}

// vtimezone is a zone defined by the feed itself (RFC 5545 3.6.5), as
// Outlook and Exchange publish theirs under Windows names: a list of
// transitions, each the wall-clock time it happens at and the offset from
// UTC after it.
type vtimezone struct {
	transitions []transition // sorted by wall
	initial     time.Duration
}

type transition struct {
	wall   time.Time     // wall-clock time of the onset, in the offset before it
	at     time.Time     // the onset's instant
	offset time.Duration // TZOFFSETTO
}

// vtimezoneYears bounds the transitions worked out from a VTIMEZONE's
// rules: enough for any calendar in use.
var vtimezoneYears = [2]int{1970, 2100}

func readVTimezone(c *ical.Component) (*vtimezone, error) {
	vz := &vtimezone{}
	first := time.Time{}
	for _, o := range c.Children {
		if o.Name != ical.CompTimezoneStandard && o.Name != ical.CompTimezoneDaylight {
			continue
		}
		from, err := utcOffset(o.Props.Get(ical.PropTimezoneOffsetFrom))
		if err != nil {
			return nil, err
		}
		to, err := utcOffset(o.Props.Get(ical.PropTimezoneOffsetTo))
		if err != nil {
			return nil, err
		}
		startProp := o.Props.Get(ical.PropDateTimeStart)
		if startProp == nil {
			return nil, errors.New("VTIMEZONE observance without DTSTART")
		}
		start, err := time.Parse(dateTimeLayout, strings.TrimSuffix(startProp.Value, "Z"))
		if err != nil {
			return nil, err
		}
		if first.IsZero() || start.Before(first) {
			first, vz.initial = start, from
		}
		onsets := []time.Time{start}
		if rule := o.Props.Get(ical.PropRecurrenceRule); rule != nil {
			opt, err := rrule.StrToROption(normaliseRule(rule.Value))
			if err != nil {
				return nil, err
			}
			opt.Dtstart = onsetsFrom(start, opt)
			if !opt.Until.IsZero() {
				opt.Until = opt.Until.Add(from) // UNTIL is UTC; onsets are wall-clock
			}
			r, err := rrule.NewRRule(*opt)
			if err != nil {
				return nil, err
			}
			onsets = r.Between(time.Date(vtimezoneYears[0], 1, 1, 0, 0, 0, 0, time.UTC),
				time.Date(vtimezoneYears[1], 1, 1, 0, 0, 0, 0, time.UTC), true)
		}
		for _, p := range o.Props.Values(ical.PropRecurrenceDates) {
			for raw := range strings.SplitSeq(p.Value, ",") {
				if t, err := time.Parse(dateTimeLayout, strings.TrimSuffix(strings.TrimSpace(raw), "Z")); err == nil {
					onsets = append(onsets, t)
				}
			}
		}
		for _, w := range onsets {
			vz.transitions = append(vz.transitions, transition{wall: w, at: w.Add(-from), offset: to})
		}
	}
	if len(vz.transitions) == 0 {
		return nil, errors.New("VTIMEZONE without observances")
	}
	slices.SortFunc(vz.transitions, func(a, b transition) int { return a.at.Compare(b.at) })
	return vz, nil
}

// onsetsFrom returns the start from which an observance's rule is walked.
// Outlook and Exchange start every observance on 1 January 1601, and the
// recurrence library walks a rule only so many years from its start: a
// rule without COUNT is the same rule from any year on, so it is walked
// from the same day and time in 1968 (a leap year, so 29 February stays).
func onsetsFrom(start time.Time, opt *rrule.ROption) time.Time {
	if opt.Count != 0 || start.Year() >= vtimezoneYears[0] {
		return start
	}
	return time.Date(1968, start.Month(), start.Day(), start.Hour(), start.Minute(), start.Second(), 0, time.UTC)
}

// utcOffset reads a UTC-OFFSET value such as "+0100" or "-0430".
func utcOffset(p *ical.Prop) (time.Duration, error) {
	if p == nil {
		return 0, errors.New("VTIMEZONE observance without offset")
	}
	v := strings.TrimSpace(p.Value)
	if len(v) != 5 && len(v) != 7 {
		return 0, fmt.Errorf("UTC offset %q", v)
	}
	t, err := time.Parse("-0700", v[:5])
	if err != nil {
		return 0, fmt.Errorf("UTC offset %q", v)
	}
	_, off := t.Zone()
	return time.Duration(off) * time.Second, nil
}

// offsetAt returns the offset in force at instant t.
func (vz *vtimezone) offsetAt(t time.Time) time.Duration {
	i, _ := slices.BinarySearchFunc(vz.transitions, t, func(tr transition, t time.Time) int {
		if tr.at.After(t) {
			return 1
		}
		return -1
	})
	if i == 0 {
		return vz.initial
	}
	return vz.transitions[i-1].offset
}

func (vz *vtimezone) instant(w time.Time) time.Time {
	w = time.Date(w.Year(), w.Month(), w.Day(), w.Hour(), w.Minute(), w.Second(), 0, time.UTC)
	// The offset depends on the instant, which depends on the offset: two
	// rounds settle it, as they do for Go's own zones.
	t := w.Add(-vz.offsetAt(w))
	return w.Add(-vz.offsetAt(t))
}

func (vz *vtimezone) wall(t time.Time) time.Time {
	return t.UTC().Add(vz.offsetAt(t))
}
