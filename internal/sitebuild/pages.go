package sitebuild

import (
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/northbeam/site/internal/blog"
	"github.com/northbeam/site/internal/site"
	"github.com/northbeam/site/render"
)

// page is one localized page of the site.
type page struct {
	path        string // canonical path, with the language prefix
	lang        site.Language
	component   string // the React page (frontend/pages/<component>.tsx)
	status      int
	title       string
	description string
	alternates  map[string]string // language code -> path of the same page
	data        any               // or a lazyData, which makes it
	links       []render.Link     // more head links, such as the blog's feed
	// noScript leaves the client app out: for a page answering a form post,
	// whose address is the form's endpoint rather than the page's own path,
	// which the app would route by.
	noScript bool

	// For search engines and social previews.
	noIndex  bool      // keep out of search engines and the sitemap
	modified time.Time // last change, for the sitemap (posts)
	article  bool      // Open Graph type article rather than website
	jsonLD   []any     // structured data (schema.org)
	// share is the path of the page's own share image (sharePath), or ""
	// for the site's; shareAlt its text.
	share, shareAlt string

	// text is the post a post's page shows, whose HTML the prerender lets
	// go once the page is rendered (not in -dev).
	text *blog.Body
}

// lazyData makes a page's data when its payload is written, rather than
// keep it with the plan for the life of the build: a post's article and a
// list's entries are made again from the library, in a page made again
// (its file in the renders' cache gone) as in the first (docs/ARCHITECTURE.md,
// Rendering).
type lazyData func() any

// StaticRoute is a page whose content depends only on its language.
type StaticRoute struct {
	Path      string // without the language prefix
	Component string // the React page (frontend/pages/<Component>.tsx)
	Meta      string // the group of meta.* strings with its title and description, or a whole key group ("schedule.services.discovery")
	NoIndex   bool   // a page for one visitor (a cancel link), not for search engines
}

// staticRoutes are the routes with one page in each language, whatever the
// content; the client's page table (frontend/pages/table.ts) must hold each
// path under its component (TestPageTableHoldsEveryRoute).
var staticRoutes = []StaticRoute{
	{"/", "Home", "home", false},
	{"/services", "Home", "services", false},
	{"/services/custom-software", "Home", "customSoftware", false},
	{"/services/platform-engineering", "Home", "platformEngineering", false},
	{"/services/strategic-consulting", "Home", "strategicConsulting", false},
	{"/blog", "BlogList", "blog", false},
	{"/work", "CaseStudies", "work", false},
	{"/team", "Team", "team", false},
	{"/schedule", "Schedule", "schedule", false},
	{"/schedule/discovery", "Schedule", "schedule.services.discovery", false},
	{"/schedule/strategy", "Schedule", "schedule.services.strategy", false},
	{"/schedule/cancel", "CancelBooking", "booking.cancel", true},
	{"/schedule/reschedule", "RescheduleBooking", "booking.reschedule", true},
	{"/privacy", "Legal", "", false},
	{"/cookies", "Legal", "", false},
	{"/imprint", "Legal", "", false},
}

// StaticRoutes returns the static routes, in the order the site lists them.
func StaticRoutes() []StaticRoute { return slices.Clone(staticRoutes) }

// staticPages lists the pages of the static routes in one language.
func (s *Build) staticPages(lang site.Language) []page {
	pages := make([]page, 0, len(staticRoutes))
	for _, r := range staticRoutes {
		p := page{
			path:       lang.LocalPath(r.Path),
			lang:       lang,
			component:  r.Component,
			status:     http.StatusOK,
			alternates: s.sameInEveryLanguage(r.Path),
			noIndex:    r.NoIndex,
		}
		// The data of pages made from content collections.
		switch r.Component {
		case "Home":
			p.data = homeData{Work: s.work.Summaries(lang.Code), Testimonials: s.work.Testimonials(lang.Code)}
		case "CaseStudies":
			p = s.workIndex(p)
		case "Team":
			p = s.teamIndex(p)
		case "Schedule":
			p.data = s.scheduleData(lang.Code)
		}
		switch {
		case r.Component == "BlogList":
			p = s.blogIndex(lang) // the posts, and the feed in the head
		case r.Component == "Legal":
			doc := s.legal[lang.Code][r.Path[1:]]
			p.title = s.siteTitle(lang.Code, doc.Title)
			p.description = doc.Description
			p.data = doc
		case r.Meta == "home":
			p.title = s.Locales.T(lang.Code, "meta.home.title", "name", s.Info.Name)
			p.description = s.Locales.T(lang.Code, "meta.home.description", "name", s.Info.Name)
		case strings.Contains(r.Meta, "."):
			// A page with strings of its own, such as a booking step.
			p.title = s.siteTitle(lang.Code, s.Locales.T(lang.Code, r.Meta+".title"))
			p.description = s.Locales.T(lang.Code, r.Meta+".description", "name", s.Info.Name)
		default:
			p.title = s.siteTitle(lang.Code, s.Locales.T(lang.Code, "meta."+r.Meta+".title"))
			p.description = s.Locales.T(lang.Code, "meta."+r.Meta+".description", "name", s.Info.Name)
		}
		pages = append(pages, p)
	}
	return pages
}

// homePage is the home page of a language.
func (s *Build) homePage(lang site.Language) page {
	home := lang.LocalPath("/")
	for _, p := range s.staticPages(lang) {
		if p.path == home {
			return p
		}
	}
	panic("sitebuild: no home page among the static routes")
}

// notFoundPage is the localized not-found page, served with status 404.
func (s *Build) notFoundPage(lang site.Language, path string) page {
	return page{
		path:        path,
		lang:        lang,
		component:   "NotFound",
		status:      http.StatusNotFound,
		title:       s.siteTitle(lang.Code, s.Locales.T(lang.Code, "meta.notFound.title")),
		description: s.Locales.T(lang.Code, "meta.notFound.description"),
	}
}

func (s *Build) siteTitle(lang, pageTitle string) string {
	return s.Locales.T(lang, "meta.siteTitle", "page", pageTitle, "name", s.Info.Name)
}

func (s *Build) sameInEveryLanguage(rest string) map[string]string {
	alt := make(map[string]string, len(s.Info.Languages))
	for _, l := range s.Info.Languages {
		alt[l.Code] = l.LocalPath(rest)
	}
	return alt
}
