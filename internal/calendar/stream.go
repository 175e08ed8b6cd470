package calendar

import (
	"bytes"
	"errors"
	"fmt"
	"time"

	ical "github.com/emersion/go-ical"
)

// A feed is read one event at a time. The iCalendar library decodes a
// whole VCALENDAR into one tree, which for a feed of 100,000 events is
// hundreds of megabytes and, worse, fails whole on one malformed line
// (Exchange writes DTSTART;TZID="W. Europe Standard Time:20200609T090000"
// now and then). So the document is cut at its component boundaries
// first, by lines, and each VTIMEZONE and VEVENT is handed to the
// library alone: what one event spoils skips that event, and no more
// than one event's tree is alive at a time.

// chunk is a span of the document: one component, BEGIN to END lines.
type chunk struct{ from, to int }

// vcalendar is one VCALENDAR of a document: where its zones and events are.
type vcalendar struct {
	zones, events []chunk
}

// document is a feed cut at its component boundaries.
type document struct {
	cals []vcalendar
	// overridden holds the UIDs of the events that an event with a
	// RECURRENCE-ID changes: only those need be kept whole until the end.
	overridden map[string]bool
}

// split finds the VCALENDARs of data and their VTIMEZONE and VEVENT
// components, by their BEGIN and END lines (a folded line continues with
// a space or a tab, so a BEGIN or END line is never a continuation), and
// the UIDs that RECURRENCE-IDs change. A document whose BEGIN and END
// lines do not pair, or that holds no VCALENDAR, is not a feed.
func split(data []byte) (*document, error) {
	if !bytes.Contains(data[:min(len(data), 1024)], []byte("BEGIN:VCALENDAR")) {
		return nil, ErrNotICalendar
	}
	tail := bytes.TrimRight(data, "\r\n\t ")
	if !bytes.EqualFold(tail[max(0, len(tail)-len("END:VCALENDAR")):], []byte("END:VCALENDAR")) {
		return nil, fmt.Errorf("%w: it does not end with END:VCALENDAR", ErrNotICalendar)
	}
	var (
		cals  []vcalendar
		stack [][]byte
		start int // where the current depth-2 component began
		// The UID of the VEVENT being read, unfolded, and whether it has
		// a RECURRENCE-ID.
		uid           []byte
		inUID, recurs bool
	)
	doc := &document{overridden: map[string]bool{}}
	for pos := 0; pos < len(data); {
		end := bytes.IndexByte(data[pos:], '\n')
		if end < 0 {
			end = len(data)
		} else {
			end += pos + 1
		}
		line := bytes.TrimRight(data[pos:end], "\r\n")
		lineStart := pos
		pos = end
		name, begin := componentLine(line)
		if name == nil {
			if len(stack) == 0 && len(bytes.TrimSpace(line)) > 0 {
				return nil, fmt.Errorf("%w: a line outside VCALENDAR", ErrNotICalendar)
			}
			if len(stack) == 2 && bytes.EqualFold(stack[1], []byte("VEVENT")) {
				switch {
				case len(line) > 0 && (line[0] == ' ' || line[0] == '\t'):
					if inUID {
						uid = append(uid, line[1:]...)
					}
				case propertyIs(line, "UID"):
					_, value, _ := bytes.Cut(line, []byte(":"))
					uid, inUID = append(uid[:0], value...), true
				default:
					inUID = false
					recurs = recurs || propertyIs(line, "RECURRENCE-ID")
				}
			}
			continue
		}
		inUID = false
		if begin {
			if len(stack) == 0 {
				if !bytes.EqualFold(name, []byte("VCALENDAR")) {
					return nil, fmt.Errorf("%w: %s outside VCALENDAR", ErrNotICalendar, name)
				}
				cals = append(cals, vcalendar{})
			}
			if len(stack) == 1 {
				start = lineStart
			}
			stack = append(stack, name)
			continue
		}
		if len(stack) == 0 || !bytes.EqualFold(stack[len(stack)-1], name) {
			return nil, fmt.Errorf("%w: END:%s does not close what was begun", ErrNotICalendar, name)
		}
		stack = stack[:len(stack)-1]
		if len(stack) == 1 {
			cal := &cals[len(cals)-1]
			switch {
			case bytes.EqualFold(name, []byte("VEVENT")):
				cal.events = append(cal.events, chunk{start, pos})
				if recurs {
					doc.overridden[string(uid)] = true
				}
				uid, recurs = uid[:0], false
			case bytes.EqualFold(name, []byte("VTIMEZONE")):
				cal.zones = append(cal.zones, chunk{start, pos})
			}
		}
	}
	if len(stack) != 0 || len(cals) == 0 {
		return nil, fmt.Errorf("%w: components left open", ErrNotICalendar)
	}
	doc.cals = cals
	return doc, nil
}

// propertyIs says whether line is the property name ("UID:…", "UID;…").
func propertyIs(line []byte, name string) bool {
	return len(line) > len(name) && bytes.EqualFold(line[:len(name)], []byte(name)) && (line[len(name)] == ':' || line[len(name)] == ';')
}

// componentLine reads a BEGIN:X or END:X line: X, and whether it begins.
func componentLine(line []byte) (name []byte, begin bool) {
	if len(line) == 0 || line[0] == ' ' || line[0] == '\t' {
		return nil, false
	}
	switch {
	case len(line) > 6 && bytes.EqualFold(line[:6], []byte("BEGIN:")):
		return bytes.TrimSpace(line[6:]), true
	case len(line) > 4 && bytes.EqualFold(line[:4], []byte("END:")):
		return bytes.TrimSpace(line[4:]), false
	}
	return nil, false
}

// decodeComponent decodes one component of data alone.
func decodeComponent(data []byte, c chunk) (comp *ical.Component, err error) {
	defer func() {
		// The decoder is a library's: no input of a stranger's server may
		// take the site down with it.
		if r := recover(); r != nil {
			comp, err = nil, fmt.Errorf("malformed: %v", r)
		}
	}()
	var doc bytes.Buffer
	doc.Grow(c.to - c.from + 40)
	doc.WriteString("BEGIN:VCALENDAR\r\n")
	doc.Write(data[c.from:c.to])
	if data[c.to-1] != '\n' {
		doc.WriteString("\r\n")
	}
	doc.WriteString("END:VCALENDAR\r\n")
	cal, err := ical.NewDecoder(&doc).Decode()
	if err != nil {
		return nil, err
	}
	if len(cal.Children) != 1 {
		return nil, errors.New("malformed")
	}
	return cal.Children[0], nil
}

// uidOf finds the UID line of a component that did not decode, to name it.
func uidOf(data []byte, c chunk) string {
	for line := range bytes.SplitSeq(data[c.from:c.to], []byte("\n")) {
		if len(line) > 4 && bytes.EqualFold(line[:4], []byte("UID:")) {
			return string(bytes.TrimSpace(line[4:]))
		}
	}
	return ""
}

// eachEvent reads the events of doc, cut from data, one at a time and
// hands each to fn, with the values it dropped, or the error that skips it.
func (doc *document) eachEvent(data []byte, home *time.Location, fn func(ev *event, dropped []error, err error)) {
	for _, cal := range doc.cals {
		var defs []*ical.Component
		for _, c := range cal.zones {
			// A zone that does not decode is missed by the events that
			// name it, which say so.
			if comp, err := decodeComponent(data, c); err == nil {
				defs = append(defs, comp)
			}
		}
		zones := newZones(defs, home)
		for _, c := range cal.events {
			comp, err := decodeComponent(data, c)
			if err != nil {
				fn(&event{uid: uidOf(data, c)}, nil, err)
				continue
			}
			fn(readEvent(comp, zones))
		}
	}
}
