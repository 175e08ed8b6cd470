package sitebuild

import (
	"errors"
	"io/fs"
	"maps"
	"slices"

	"github.com/northbeam/site/internal/booking"
	"github.com/northbeam/site/internal/images"
	"github.com/northbeam/site/internal/team"
)

// The people who take consultations (content/availability.json, "hosts")
// are people of the team: the booking pages show the host a visitor books
// with by their name, role and portrait in the page's language, which the
// pages' payload carries, since the team is content the client bundle
// does not hold.

// loadHosts returns the hosts of content/availability.json, each with the
// services they take, and the services whose visitors choose their host,
// checking that each host is a person of the team (in the default
// language). A content directory without the file has none.
func loadHosts(contentFS fs.FS, people *team.Team, defaultLang string) (map[string][]string, []string, error) {
	av, err := booking.LoadAvailability(contentFS, "availability.json")
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	if err := av.CheckHosts(func(slug string) bool {
		_, err := people.Person(defaultLang, slug)
		return err == nil
	}); err != nil {
		return nil, nil, err
	}
	hosts := map[string][]string{}
	for slug := range av.Hosts {
		hosts[slug] = av.ServicesOf(slug)
	}
	var choice []string
	for _, service := range av.ServiceNames() {
		if av.AssignmentOf(service) == booking.AssignChoice {
			choice = append(choice, service)
		}
	}
	return hosts, choice, nil
}

// HostCard is a host as the booking pages show them.
type HostCard struct {
	Slug  string         `json:"slug"`
	Name  string         `json:"name"`
	Role  string         `json:"role"`
	Photo images.Picture `json:"photo"`
	// Services are the consultations they take.
	Services []string `json:"services"`
}

// scheduleData is the payload data of the booking pages: the hosts, in
// the page's language.
type scheduleData struct {
	Hosts []HostCard `json:"hosts"`
	// Choice are the services whose visitors choose their host.
	Choice []string `json:"choice"`
}

// HostCard returns the host slug as lang's pages show them, and false for
// someone without a page in lang or the default language.
func (s *Build) HostCard(lang, slug string) (HostCard, bool) {
	p, err := s.team.Person(lang, slug)
	if err != nil {
		if p, err = s.team.Person(s.Info.Default().Code, slug); err != nil {
			return HostCard{}, false
		}
	}
	return HostCard{Slug: slug, Name: p.Name, Role: p.Role, Photo: p.Photo, Services: s.hosts[slug]}, true
}

// hostedBy returns the consultations slug takes; none for someone who
// takes none.
func (s *Build) hostedBy(slug string) []string { return s.hosts[slug] }

func (s *Build) scheduleData(lang string) scheduleData {
	data := scheduleData{Hosts: []HostCard{}, Choice: s.choice}
	for _, slug := range slices.Sorted(maps.Keys(s.hosts)) {
		if card, ok := s.HostCard(lang, slug); ok {
			data.Hosts = append(data.Hosts, card)
		}
	}
	return data
}
