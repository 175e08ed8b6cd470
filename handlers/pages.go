package handlers

import (
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/northbeam/site/internal/site"
	"github.com/northbeam/site/render"
)

// registerPages serves every localized page: the prerendered document of a
// canonical path, a 301 to the canonical form, or the localized 404 page.
func registerPages(e *echo.Echo, srv *Server) {
	e.Match([]string{http.MethodGet, http.MethodHead}, "/*", srv.page)
}

// page is one localized page of the site.
type page struct {
	path        string // canonical path, with the language prefix
	lang        site.Language
	component   string // the React page (frontend/pages/<component>.tsx)
	status      int
	title       string
	description string
	alternates  map[string]string // language code -> path of the same page
	data        any
	links       []render.Link // more head links, such as the blog's feed
	// noScript leaves the client app out: for a page answering a form post,
	// whose address is the form's endpoint rather than the page's own path,
	// which the app would route by.
	noScript bool

	// For search engines and social previews.
	noIndex  bool      // keep out of search engines and the sitemap
	modified time.Time // last change, for the sitemap (posts)
	article  bool      // Open Graph type article rather than website
	jsonLD   []any     // structured data (schema.org)
}

// staticRoute is a page whose content depends only on its language.
type staticRoute struct {
	path      string // without the language prefix
	component string
	meta      string // the group of meta.* strings with its title and description, or a whole key group ("schedule.services.discovery")
	noIndex   bool   // a page for one visitor (a cancel link), not for search engines
}

// staticRoutes are the routes with one page in each language, whatever the
// content; the client's page table (frontend/pages/table.ts) must hold each
// path under its component (TestPageTableHoldsEveryRoute).
var staticRoutes = []staticRoute{
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

// staticPages lists the pages of the static routes in one language.
func (s *Site) staticPages(lang site.Language) []page {
	pages := make([]page, 0, len(staticRoutes))
	for _, r := range staticRoutes {
		p := page{
			path:       lang.LocalPath(r.path),
			lang:       lang,
			component:  r.component,
			status:     http.StatusOK,
			alternates: s.sameInEveryLanguage(r.path),
			noIndex:    r.noIndex,
		}
		// The data of pages made from content collections.
		switch r.component {
		case "Home":
			p.data = homeData{Work: s.work.Summaries(lang.Code), Testimonials: s.work.Testimonials(lang.Code)}
		case "CaseStudies":
			p = s.workIndex(p)
		case "Team":
			p = s.teamIndex(p)
		}
		switch {
		case r.component == "BlogList":
			p = s.blogIndex(lang) // the posts, and the feed in the head
		case r.component == "Legal":
			doc := s.legal[lang.Code][r.path[1:]]
			p.title = s.siteTitle(lang.Code, doc.Title)
			p.description = doc.Description
			p.data = doc
		case r.meta == "home":
			p.title = s.Locales.T(lang.Code, "meta.home.title", "name", s.Info.Name)
			p.description = s.Locales.T(lang.Code, "meta.home.description", "name", s.Info.Name)
		case strings.Contains(r.meta, "."):
			// A page with strings of its own, such as a booking step.
			p.title = s.siteTitle(lang.Code, s.Locales.T(lang.Code, r.meta+".title"))
			p.description = s.Locales.T(lang.Code, r.meta+".description", "name", s.Info.Name)
		default:
			p.title = s.siteTitle(lang.Code, s.Locales.T(lang.Code, "meta."+r.meta+".title"))
			p.description = s.Locales.T(lang.Code, "meta."+r.meta+".description", "name", s.Info.Name)
		}
		pages = append(pages, p)
	}
	return pages
}

// homePage is the home page of a language.
func (s *Site) homePage(lang site.Language) page {
	home := lang.LocalPath("/")
	for _, p := range s.staticPages(lang) {
		if p.path == home {
			return p
		}
	}
	panic("handlers: no home page among the static routes")
}

// notFoundPage is the localized not-found page, served with status 404.
func (s *Site) notFoundPage(lang site.Language, path string) page {
	return page{
		path:        path,
		lang:        lang,
		component:   "NotFound",
		status:      http.StatusNotFound,
		title:       s.siteTitle(lang.Code, s.Locales.T(lang.Code, "meta.notFound.title")),
		description: s.Locales.T(lang.Code, "meta.notFound.description"),
	}
}

func (s *Site) siteTitle(lang, pageTitle string) string {
	return s.Locales.T(lang, "meta.siteTitle", "page", pageTitle, "name", s.Info.Name)
}

func (s *Site) sameInEveryLanguage(rest string) map[string]string {
	alt := make(map[string]string, len(s.Info.Languages))
	for _, l := range s.Info.Languages {
		alt[l.Code] = l.LocalPath(rest)
	}
	return alt
}

// redirectCacheControl bounds how long a browser or a shared cache keeps a
// redirect to the canonical form. Without it a 301 is kept as long as a
// cache likes (Chromium: until its cache is cleared), so a redirect that
// was ever wrong could never be taken back; a day spares the round trip to
// whoever follows the same old link again, and a change of the rules
// reaches everyone by the next day.
const redirectCacheControl = "public, max-age=86400"

func (srv *Server) page(c echo.Context) error {
	s := srv.Site()
	req := c.Request()
	p := req.URL.Path
	if isAPIPath(p) {
		return echo.ErrNotFound // the API's JSON 404, not a page
	}
	if canonical, moved := s.canonicalPath(p); moved {
		if target, ok := redirectTarget(canonical, req.URL.RawQuery); ok {
			c.Response().Header().Set("Cache-Control", redirectCacheControl)
			return c.Redirect(http.StatusMovedPermanently, target)
		}
	}
	if r, ok := s.lookup(p); ok {
		r.ServeHTTP(c.Response(), req)
		return nil
	}
	s.notFound[s.languageOf(p).Code].ServeHTTP(c.Response(), req)
	return nil
}
