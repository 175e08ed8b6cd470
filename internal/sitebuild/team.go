package sitebuild

import (
	"io/fs"
	"net/http"

	"github.com/northbeam/site/internal/blog"
	"github.com/northbeam/site/internal/site"
	"github.com/northbeam/site/internal/team"
)

// The team lives at /team (everyone, a static route) and /team/<slug> (a
// person and the posts they wrote), in every language; a post's author
// links to their page. Both are prerendered with the other pages.

func personPath(lang site.Language, slug string) string {
	return lang.LocalPath("/team/" + slug)
}

// loadTeam loads the people, and checks that every post's author is one
// of them.
func loadTeam(content fs.FS, opts Options, posts *blog.Library, images *contentImages) (*team.Team, error) {
	people, err := team.LoadAgain(content, "team", images.lib.Picture, opts.Parsed.people(), images.markdownOption(), shellIDs)
	if err != nil {
		return nil, err
	}
	if err := people.CheckAuthors(posts); err != nil {
		return nil, err
	}
	return people, nil
}

// teamData is the payload data of the team page.
type teamData struct {
	People []*team.Person `json:"people"`
}

// personData is the payload data of a person's page.
type personData struct {
	*team.Person
	Posts []blog.Summary `json:"posts"` // what they wrote, in the page's language
	// Hosts are the consultations booked with them (hosts.go); none when
	// they take none.
	Hosts []string `json:"hosts,omitempty"`
}

// teamIndex fills in the team page of lang (/team), a static route.
func (s *Build) teamIndex(p page) page {
	p.data = teamData{People: s.team.People(p.lang.Code)}
	return p
}

// personPage is the page of lang's person with slug, or team.ErrNotFound.
func (s *Build) personPage(lang site.Language, slug string) (page, error) {
	person, err := s.team.Person(lang.Code, slug)
	if err != nil {
		return page{}, err
	}
	alternates := map[string]string{}
	for _, l := range s.Info.Languages {
		if _, err := s.team.Person(l.Code, slug); err == nil {
			alternates[l.Code] = personPath(l, slug)
		}
	}
	// What they wrote is found when the payload is written (lazyData): a
	// -dev rebuild does not go through every post for every person.
	data := lazyData(func() any {
		posts := []blog.Summary{}
		for _, post := range s.blog.Posts(lang.Code) {
			if post.Author == person.Name {
				posts = append(posts, post.Summary())
			}
		}
		return personData{Person: person, Posts: posts, Hosts: s.hostedBy(slug)}
	})
	path := personPath(lang, slug)
	return page{
		share:       s.sharePath(lang, person.Role, person.Name),
		shareAlt:    person.Name,
		path:        path,
		lang:        lang,
		component:   "Person",
		status:      http.StatusOK,
		title:       s.siteTitle(lang.Code, person.Name),
		description: person.Description,
		alternates:  alternates,
		data:        data,
		jsonLD:      []any{s.personLD(lang, person)},
	}, nil
}

// personURL is the absolute address of the page of a post's author in
// lang, or "" when they have none.
func (s *Build) personURL(lang site.Language, name string) string {
	if p, ok := s.team.ByName(lang.Code, name); ok {
		return s.opts.BaseURL + personPath(lang, p.Slug)
	}
	return ""
}

// planTeam plans lang's people's pages.
func (s *Build) planTeam(lang site.Language) error {
	for _, person := range s.team.People(lang.Code) {
		p, err := s.personPage(lang, person.Slug)
		if err != nil {
			return err
		}
		s.addPage(p)
	}
	return nil
}

// personLD describes a person's page: a ProfilePage about a Person who
// works for the consultancy.
func (s *Build) personLD(lang site.Language, p *team.Person) any {
	u := s.opts.BaseURL + personPath(lang, p.Slug)
	return map[string]any{
		"@context":   "https://schema.org",
		"@type":      "ProfilePage",
		"url":        u,
		"inLanguage": lang.Tag,
		"mainEntity": map[string]any{
			"@type":       "Person",
			"@id":         u + "#person",
			"name":        p.Name,
			"jobTitle":    p.Role,
			"description": p.Description,
			"knowsAbout":  p.Expertise,
			"image":       s.opts.BaseURL + p.Photo.Src,
			"url":         u,
			"worksFor":    map[string]string{"@type": "Organization", "name": s.Info.Name, "url": s.opts.BaseURL + lang.LocalPath("/")},
		},
	}
}
