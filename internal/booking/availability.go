package booking

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/northbeam/site/internal/jsonpos"
)

// ErrInvalidAvailability is wrapped by every error [LoadAvailability] and
// [ParseAvailability] return for a file that reads but declares something
// impossible.
var ErrInvalidAvailability = errors.New("invalid availability")

// Availability is the consultancy's bookable time, as declared in
// content/availability.json. Build it with [LoadAvailability] or
// [ParseAvailability], which validate it; treat it as read-only afterwards
// (it holds maps and slices that copies share).
type Availability struct {
	// Location is the consultancy's time zone. Working hours and closed
	// dates are read in it.
	Location *time.Location
	// Weekly holds the working hours of each weekday, indexed by
	// time.Weekday, sorted by start and not overlapping. An empty day is
	// closed.
	Weekly [7][]ClockRange
	// Services maps each bookable service to its length.
	Services map[string]time.Duration
	// Meetings says how each service's meetings happen; a service without
	// an entry says nothing (the mails promise no link).
	Meetings map[string]Meeting
	// MaxPerDay caps the standing bookings of a service on one of the
	// consultancy's days: each host's, for a service with hosts (a
	// person's day fills on its own), the service's all together for one
	// without; a service without an entry has no cap.
	MaxPerDay map[string]int
	// SlotInterval is the step between slot starts within a range; the grid
	// starts at the range's start.
	SlotInterval time.Duration
	// Buffer is the free time kept before and after every existing booking.
	Buffer time.Duration
	// MinimumNotice is how long before its start a slot stops being offered.
	MinimumNotice time.Duration
	// DaysAhead is how many calendar days after today, in the consultancy's
	// zone, can still be booked: 30 means today through today+30.
	DaysAhead int
	// Closed maps each closed day, in the consultancy's zone, to the note
	// the file gives it (for editors, such as "Christmas Day"; it is not
	// shown to visitors).
	Closed map[Date]string
	// Hosts are the people who take consultations, by slug; empty when
	// every service is booked with the consultancy as one calendar.
	Hosts map[string]Host
	// ServiceHosts lists the hosts of each service that has any, in the
	// file's order; Assignment says how each of those services assigns
	// them (AssignRoundRobin or AssignChoice).
	ServiceHosts map[string][]string
	Assignment   map[string]string
}

// ClockRange is a span of wall-clock time within one day, Start included,
// End excluded.
type ClockRange struct {
	Start Clock
	End   Clock
}

// String returns r in the form "09:00-12:30".
func (r ClockRange) String() string { return r.Start.String() + "-" + r.End.String() }

// ServiceLength returns the length of service and whether the service exists.
func (av Availability) ServiceLength(service string) (time.Duration, bool) {
	d, ok := av.Services[service]
	return d, ok
}

// ServiceNames returns the declared services in sorted order.
func (av Availability) ServiceNames() []string {
	return slices.Sorted(maps.Keys(av.Services))
}

// availabilityFile is the JSON form of content/availability.json. Times are
// kept as strings here so that validation can name the offending value.
type availabilityFile struct {
	TimeZone            string                      `json:"timeZone"`
	WeeklyHours         map[string][]clockRangeFile `json:"weeklyHours"`
	Services            map[string]serviceFile      `json:"services"`
	SlotIntervalMinutes int                         `json:"slotIntervalMinutes"`
	BufferMinutes       int                         `json:"bufferMinutes"`
	MinimumNoticeHours  int                         `json:"minimumNoticeHours"`
	DaysAhead           int                         `json:"daysAhead"`
	ClosedDates         []closedDateFile            `json:"closedDates"`
	Hosts               map[string]hostFile         `json:"hosts"`
}

type clockRangeFile struct {
	Start string `json:"start"`
	End   string `json:"end"`
}

type serviceFile struct {
	Minutes   int          `json:"minutes"`
	Meeting   *meetingFile `json:"meeting"`
	MaxPerDay int          `json:"maxPerDay"`
	// Hosts are the slugs of the people who take the service (keys of
	// "hosts"); Assignment is how a booking gets one of them.
	Hosts      []string `json:"hosts"`
	Assignment string   `json:"assignment"`
}

// meetingFile is how a service's meetings happen: {"type": "phone"} (the
// consultancy calls the visitor, who gives a number), {"type": "video",
// "url": "https://..."} (one fixed room), or {"type": "video", "roomBase":
// "https://meet.jit.si/"} (a room made for each booking: the base followed
// by a random name).
type meetingFile struct {
	Type     string `json:"type"`
	URL      string `json:"url"`
	RoomBase string `json:"roomBase"`
}

// Meeting kinds. A booking's own meeting is a phone call or a video call;
// a service of MeetingEither lets the visitor choose (its video rooms as a
// video service's: url or roomBase).
const (
	MeetingPhone  = "phone"
	MeetingVideo  = "video"
	MeetingEither = "phone-or-video"
)

// Meeting is how the meetings of a service happen.
type Meeting struct {
	// Kind is MeetingPhone, MeetingVideo or MeetingEither.
	Kind string
	// URL is the video room of every meeting, when fixed.
	URL string
	// RoomBase makes a room per booking: RoomBase followed by a random
	// name. Exactly one of URL and RoomBase is set for a video meeting.
	RoomBase string
}

// MeetingOf returns how the meetings of service happen, and false when the
// availability says nothing about it.
func (av Availability) MeetingOf(service string) (Meeting, bool) {
	m, ok := av.Meetings[service]
	return m, ok
}

func (m meetingFile) validate(key string) (Meeting, error) {
	switch m.Type {
	case MeetingPhone:
		if m.URL != "" || m.RoomBase != "" {
			return Meeting{}, fmt.Errorf("%s: a phone meeting has no url or roomBase", key)
		}
		return Meeting{Kind: MeetingPhone}, nil
	case MeetingVideo, MeetingEither:
		if (m.URL == "") == (m.RoomBase == "") {
			return Meeting{}, fmt.Errorf("%s: a video meeting has either a url (one room) or a roomBase (a room per booking)", key)
		}
		for _, u := range []string{m.URL, m.RoomBase} {
			if u == "" {
				continue
			}
			parsed, err := url.Parse(u)
			if err != nil || parsed.Scheme != "https" || parsed.Host == "" || parsed.RawQuery != "" || parsed.Fragment != "" {
				return Meeting{}, fmt.Errorf("%s: %q: want an https URL without query or fragment", key, u)
			}
		}
		return Meeting{Kind: m.Type, URL: m.URL, RoomBase: m.RoomBase}, nil
	}
	return Meeting{}, fmt.Errorf("%s.type: %q: want phone, video or phone-or-video", key, m.Type)
}

type closedDateFile struct {
	Date string `json:"date"`
	Note string `json:"note"`
}

// parseWeekday returns the weekday named in lower-case English.
func parseWeekday(name string) (time.Weekday, bool) {
	for wd := time.Sunday; wd <= time.Saturday; wd++ {
		if strings.ToLower(wd.String()) == name {
			return wd, true
		}
	}
	return 0, false
}

// validServiceName reports whether name is a lower-case slug of 1 to 32
// letters, digits and hyphens, starting with a letter; it appears in URLs.
func validServiceName(name string) bool {
	if name == "" || len(name) > 32 || name[0] < 'a' || name[0] > 'z' {
		return false
	}
	for _, r := range name {
		if (r < 'a' || r > 'z') && (r < '0' || r > '9') && r != '-' {
			return false
		}
	}
	return true
}

// LoadAvailability reads and validates the availability file name in fsys
// (for example "availability.json" in the content directory). Unknown keys
// are errors, so a misspelt setting never silently falls back to zero.
func LoadAvailability(fsys fs.FS, name string) (Availability, error) {
	data, err := fs.ReadFile(fsys, name)
	if err != nil {
		return Availability{}, fmt.Errorf("load availability: %w", err)
	}
	av, err := ParseAvailability(data)
	if placed := jsonpos.Wrap(name, data, err); placed != err {
		return Availability{}, fmt.Errorf("load availability: %w", placed)
	}
	if err != nil {
		return Availability{}, fmt.Errorf("load availability %s: %w", name, err)
	}
	return av, nil
}

// ParseAvailability decodes and validates the JSON form of the availability
// file. All problems found are reported together, each naming its key.
func ParseAvailability(data []byte) (Availability, error) {
	var f availabilityFile
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return Availability{}, fmt.Errorf("decode: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return Availability{}, errors.New("decode: unexpected data after the top-level object")
	}
	return f.validate()
}

func (f availabilityFile) validate() (Availability, error) {
	var av Availability
	var errs []error
	fail := func(format string, args ...any) {
		errs = append(errs, fmt.Errorf(format, args...))
	}

	switch f.TimeZone {
	case "":
		fail("timeZone: required (an IANA zone such as Europe/Berlin)")
	case "Local":
		fail("timeZone: %q is the server's zone, not the consultancy's; name an IANA zone", f.TimeZone)
	default:
		loc, err := time.LoadLocation(f.TimeZone)
		if err != nil {
			fail("timeZone: %w", err)
		}
		av.Location = loc
	}

	if len(f.WeeklyHours) == 0 {
		fail("weeklyHours: required (ranges per weekday, such as \"monday\": [{\"start\": \"09:00\", \"end\": \"17:00\"}])")
	}
	for _, day := range slices.Sorted(maps.Keys(f.WeeklyHours)) {
		wd, ok := parseWeekday(day)
		if !ok {
			fail("weeklyHours: unknown weekday %q (want monday, tuesday, wednesday, thursday, friday, saturday or sunday)", day)
			continue
		}
		ranges, rangeErrs := parseRanges("weeklyHours."+day, f.WeeklyHours[day])
		errs = append(errs, rangeErrs...)
		av.Weekly[wd] = ranges
	}

	if len(f.Services) == 0 {
		fail("services: required (such as \"discovery\": {\"minutes\": 15})")
	}
	av.Services = make(map[string]time.Duration, len(f.Services))
	av.Meetings = map[string]Meeting{}
	av.MaxPerDay = map[string]int{}
	for _, name := range slices.Sorted(maps.Keys(f.Services)) {
		s := f.Services[name]
		if !validServiceName(name) {
			fail("services: name %q: want lower-case letters, digits and hyphens", name)
			continue
		}
		if s.Minutes <= 0 || s.Minutes > 24*60 {
			fail("services.%s.minutes: %d: want between 1 and 1440", name, s.Minutes)
			continue
		}
		av.Services[name] = time.Duration(s.Minutes) * time.Minute
		if s.Meeting != nil {
			m, err := s.Meeting.validate("services." + name + ".meeting")
			if err != nil {
				fail("%w", err)
			}
			av.Meetings[name] = m
		}
		switch {
		case s.MaxPerDay < 0:
			fail("services.%s.maxPerDay: %d: want a positive number, or leave it out for no cap", name, s.MaxPerDay)
		case s.MaxPerDay > 0:
			av.MaxPerDay[name] = s.MaxPerDay
		}
	}

	if f.SlotIntervalMinutes <= 0 || f.SlotIntervalMinutes > 24*60 {
		fail("slotIntervalMinutes: %d: want between 1 and 1440", f.SlotIntervalMinutes)
	}
	av.SlotInterval = time.Duration(f.SlotIntervalMinutes) * time.Minute
	if f.BufferMinutes < 0 || f.BufferMinutes > 24*60 {
		fail("bufferMinutes: %d: want between 0 and 1440", f.BufferMinutes)
	}
	av.Buffer = time.Duration(f.BufferMinutes) * time.Minute
	if f.MinimumNoticeHours < 0 || f.MinimumNoticeHours > 24*366 {
		fail("minimumNoticeHours: %d: want between 0 and 8784", f.MinimumNoticeHours)
	}
	av.MinimumNotice = time.Duration(f.MinimumNoticeHours) * time.Hour
	if f.DaysAhead < 1 || f.DaysAhead > 366 {
		fail("daysAhead: %d: want between 1 and 366", f.DaysAhead)
	}
	av.DaysAhead = f.DaysAhead

	av.Closed = make(map[Date]string, len(f.ClosedDates))
	for i, c := range f.ClosedDates {
		d, err := ParseDate(c.Date)
		if err != nil {
			fail("closedDates[%d]: %w", i, err)
			continue
		}
		if _, dup := av.Closed[d]; dup {
			fail("closedDates[%d]: %s is listed twice", i, d)
			continue
		}
		av.Closed[d] = strings.TrimSpace(c.Note)
	}

	f.validateHosts(&av, fail)

	if err := errors.Join(errs...); err != nil {
		return Availability{}, fmt.Errorf("%w: %w", ErrInvalidAvailability, err)
	}
	return av, nil
}

// parseRanges parses one weekday's ranges, sorts them and rejects empty,
// reversed and overlapping ones. Ranges that touch (12:00 end, 12:00 start)
// are allowed; they behave as two ranges, so a slot never spans the seam.
func parseRanges(key string, in []clockRangeFile) ([]ClockRange, []error) {
	var errs []error
	out := make([]ClockRange, 0, len(in))
	for i, r := range in {
		start, err := ParseClock(r.Start)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s[%d].start: %w", key, i, err))
			continue
		}
		if start == 24*60 {
			errs = append(errs, fmt.Errorf("%s[%d].start: 24:00 can only end a range", key, i))
			continue
		}
		end, err := ParseClock(r.End)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s[%d].end: %w", key, i, err))
			continue
		}
		if end <= start {
			errs = append(errs, fmt.Errorf("%s[%d]: end %s is not after start %s", key, i, end, start))
			continue
		}
		out = append(out, ClockRange{Start: start, End: end})
	}
	slices.SortFunc(out, func(a, b ClockRange) int { return int(a.Start - b.Start) })
	for i := 1; i < len(out); i++ {
		if out[i].Start < out[i-1].End {
			errs = append(errs, fmt.Errorf("%s: %s overlaps %s", key, out[i-1], out[i]))
		}
	}
	return out, errs
}
