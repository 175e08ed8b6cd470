package booking

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/northbeam/site/internal/mailaddr"
)

// Assignments: how a booking of a service with hosts gets its host.
const (
	// AssignRoundRobin gives the booking to the free host who was booked
	// least recently, so that calls are shared fairly over the weeks.
	AssignRoundRobin = "round-robin"
	// AssignChoice lets the visitor choose the host; a booking that names
	// none is given as round-robin gives it.
	AssignChoice = "choice"
)

// Host is a person of content/team who takes consultations. Their bookable
// time is their weekly hours (the consultancy's unless their own are
// given) on the days neither they nor the consultancy are closed, less
// their bookings, their own calendar feeds and the consultancy's.
type Host struct {
	// Slug names the person: content/team/<lang>/<slug>.md.
	Slug string
	// Staff is the address of the staff member who is this person: their
	// own calendar feeds are the host's, and the host is told of their
	// bookings there.
	Staff string
	// Weekly holds the host's working hours, as Availability.Weekly.
	Weekly [7][]ClockRange
	// Closed is the host's own closed days (beside the consultancy's), with
	// the note the file gives each.
	Closed map[Date]string
}

// hostFile is a host's entry under "hosts" in content/availability.json.
type hostFile struct {
	Staff       string                      `json:"staff"`
	WeeklyHours map[string][]clockRangeFile `json:"weeklyHours"`
	ClosedDates []closedDateFile            `json:"closedDates"`
}

// HasHosts reports whether service is booked with a person: it names its
// hosts. A service without hosts is booked with the consultancy as one
// calendar, as before hosts existed.
func (av Availability) HasHosts(service string) bool { return len(av.ServiceHosts[service]) > 0 }

// HostsOf returns the slugs of service's hosts, in the order the file
// lists them (round-robin's order among hosts never booked).
func (av Availability) HostsOf(service string) []string { return av.ServiceHosts[service] }

// AssignmentOf returns how service's bookings get their host: AssignRoundRobin
// or AssignChoice; "" for a service without hosts.
func (av Availability) AssignmentOf(service string) string { return av.Assignment[service] }

// Host returns the host slug, and whether there is one.
func (av Availability) Host(slug string) (Host, bool) {
	h, ok := av.Hosts[slug]
	return h, ok
}

// Hosting reports whether slug hosts service.
func (av Availability) Hosting(service, slug string) bool {
	return slug != "" && slices.Contains(av.ServiceHosts[service], slug)
}

// ServicesOf returns the services slug hosts, sorted.
func (av Availability) ServicesOf(slug string) []string {
	var out []string
	for _, service := range av.ServiceNames() {
		if av.Hosting(service, slug) {
			out = append(out, service)
		}
	}
	return out
}

// HostOfStaff returns the host who is the staff member with address, and
// whether there is one (addresses compare in their canonical form).
func (av Availability) HostOfStaff(address string) (Host, bool) {
	key := mailaddr.Key(address)
	for _, slug := range slices.Sorted(maps.Keys(av.Hosts)) {
		if h := av.Hosts[slug]; mailaddr.Key(h.Staff) == key {
			return h, true
		}
	}
	return Host{}, false
}

// ForHost returns av with the host's weekly hours and with their closed
// days added to the consultancy's, so that [Slots] and [Offered] give
// that host's times. An unknown slug gives av unchanged.
func (av Availability) ForHost(slug string) Availability {
	h, ok := av.Hosts[slug]
	if !ok {
		return av
	}
	av.Weekly = h.Weekly
	if len(h.Closed) > 0 {
		closed := maps.Clone(av.Closed)
		if closed == nil {
			closed = map[Date]string{}
		}
		maps.Copy(closed, h.Closed)
		av.Closed = closed
	}
	return av
}

// CheckHosts reports every host that is no person of the team: isPerson
// says whether content/team has a page for the slug.
func (av Availability) CheckHosts(isPerson func(slug string) bool) error {
	var missing []string
	for _, slug := range slices.Sorted(maps.Keys(av.Hosts)) {
		if !isPerson(slug) {
			missing = append(missing, slug)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("%w: hosts: %s: no page under content/team/", ErrInvalidAvailability, strings.Join(missing, ", "))
	}
	return nil
}

// validateHosts reads the hosts of the file and the hosts and assignment
// of each service into av, reporting each problem through fail.
func (f availabilityFile) validateHosts(av *Availability, fail func(format string, args ...any)) {
	av.Hosts = make(map[string]Host, len(f.Hosts))
	for _, slug := range slices.Sorted(maps.Keys(f.Hosts)) {
		hf := f.Hosts[slug]
		key := "hosts." + slug
		if !validServiceName(slug) {
			fail("%s: want a person's slug (the name of their file under content/team/<lang>/)", key)
			continue
		}
		h := Host{Slug: slug, Staff: strings.TrimSpace(hf.Staff), Weekly: av.Weekly}
		if !ValidEmail(h.Staff) {
			fail("%s.staff: %q: want the address of the staff member who is this person", key, hf.Staff)
		}
		if hf.WeeklyHours != nil {
			h.Weekly = [7][]ClockRange{}
			for _, day := range slices.Sorted(maps.Keys(hf.WeeklyHours)) {
				wd, ok := parseWeekday(day)
				if !ok {
					fail("%s.weeklyHours: unknown weekday %q", key, day)
					continue
				}
				ranges, errs := parseRanges(key+".weeklyHours."+day, hf.WeeklyHours[day])
				for _, err := range errs {
					fail("%w", err)
				}
				h.Weekly[wd] = ranges
			}
		}
		h.Closed = make(map[Date]string, len(hf.ClosedDates))
		for i, c := range hf.ClosedDates {
			d, err := ParseDate(c.Date)
			if err != nil {
				fail("%s.closedDates[%d]: %w", key, i, err)
				continue
			}
			if _, dup := h.Closed[d]; dup {
				fail("%s.closedDates[%d]: %s is listed twice", key, i, d)
				continue
			}
			h.Closed[d] = strings.TrimSpace(c.Note)
		}
		av.Hosts[slug] = h
	}
	staffOf := map[string]string{}
	for _, slug := range slices.Sorted(maps.Keys(av.Hosts)) {
		k := mailaddr.Key(av.Hosts[slug].Staff)
		if other, dup := staffOf[k]; dup && k != "" {
			fail("hosts.%s.staff: %s is already %s's address", slug, av.Hosts[slug].Staff, other)
		}
		staffOf[k] = slug
	}

	av.ServiceHosts = map[string][]string{}
	av.Assignment = map[string]string{}
	for _, name := range slices.Sorted(maps.Keys(f.Services)) {
		s := f.Services[name]
		key := "services." + name
		if len(s.Hosts) == 0 {
			if s.Assignment != "" {
				fail("%s.assignment: a service without hosts has no assignment", key)
			}
			continue
		}
		for i, slug := range s.Hosts {
			if _, ok := f.Hosts[slug]; !ok {
				fail("%s.hosts[%d]: %q is not under \"hosts\"", key, i, slug)
			}
			if slices.Index(s.Hosts, slug) != i {
				fail("%s.hosts[%d]: %q is listed twice", key, i, slug)
			}
		}
		switch s.Assignment {
		case AssignRoundRobin, AssignChoice:
		default:
			fail("%s.assignment: %q: want %q or %q", key, s.Assignment, AssignRoundRobin, AssignChoice)
		}
		av.ServiceHosts[name] = slices.Clone(s.Hosts)
		av.Assignment[name] = s.Assignment
	}
}

// offeredByHosts is Offered for a service with hosts: the slot of service
// at start that the hours of person (when named) or of any of the
// service's hosts offer. A service without hosts is Offered.
func offeredByHosts(av Availability, service, person string, start, now time.Time) (Slot, bool) {
	hosts := av.HostsOf(service)
	if person != "" {
		hosts = []string{person}
	}
	if len(hosts) == 0 {
		return Offered(av, service, start, now, nil)
	}
	for _, h := range hosts {
		if slot, ok := Offered(av.ForHost(h), service, start, now, nil); ok {
			return slot, true
		}
	}
	return Slot{}, false
}

// mergeDays adds the slots of more to days (both of the same dates), each
// start once, in order.
func mergeDays(days, more []Day) []Day {
	if days == nil {
		return more
	}
	for i := range days {
		if i >= len(more) || len(more[i].Slots) == 0 {
			continue
		}
		all := append(days[i].Slots, more[i].Slots...)
		slices.SortFunc(all, func(a, b Slot) int { return a.Start.Compare(b.Start) })
		days[i].Slots = slices.CompactFunc(all, func(a, b Slot) bool { return a.Start.Equal(b.Start) })
	}
	return days
}
