package handlers

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/northbeam/site/internal/sitebuild"
)

// registerBlog serves each language's Atom feed, and sends the first page
// of a list, which lives at the list's own URL, there. The blog's pages are
// prerendered with the others and served by registerPages.
func registerBlog(e *echo.Echo, srv *Server) {
	methods := []string{http.MethodGet, http.MethodHead}
	for _, l := range srv.Build().Info.Languages {
		e.Match(methods, sitebuild.FeedPath(l), srv.blogFeed)
		e.Match(methods, l.LocalPath("/blog/page/1"), srv.blogFirstPage)
		e.Match(methods, l.LocalPath("/blog/tag/:tag/page/1"), srv.blogFirstPage)
	}
}

func (srv *Server) blogFeed(c echo.Context) error {
	if r, ok := srv.Build().Feed(c.Request().URL.Path); ok {
		r.ServeHTTP(c.Response(), c.Request())
		return nil
	}
	return srv.page(c) // a language without posts: the localized 404
}

// blogFirstPage sends /blog/page/1 to /blog, and a tag's page 1 to the
// tag's page, when it exists.
func (srv *Server) blogFirstPage(c echo.Context) error {
	target := strings.TrimSuffix(c.Request().URL.EscapedPath(), "/page/1")
	if decoded, err := url.PathUnescape(target); err == nil {
		if srv.Build().HasPage(decoded) {
			return c.Redirect(http.StatusMovedPermanently, target)
		}
	}
	return srv.page(c)
}
