package handlers

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/northbeam/site/internal/sitebuild"
	"github.com/northbeam/site/render"
)

// registerSEO serves what crawlers and browsers ask for beside the pages:
// the sitemap, robots.txt, the web app manifest, the icons and the share
// images, and the content's own images, all made by the site's build.
func registerSEO(e *echo.Echo, srv *Server) {
	methods := []string{http.MethodGet, http.MethodHead}
	for _, name := range srv.Build().FilePaths() {
		if strings.HasPrefix(name, sitebuild.SitemapPartPrefix) {
			continue // below: a later build (-dev) may have other parts
		}
		e.Match(methods, name, func(c echo.Context) error {
			r, ok := srv.Build().File(name)
			if !ok {
				return echo.NewHTTPError(http.StatusNotFound)
			}
			r.ServeHTTP(c.Response(), c.Request())
			return nil
		})
	}
	// The parts of a sitemap too large for one file, which /sitemap.xml
	// then indexes.
	e.Match(methods, sitebuild.SitemapPartPrefix+":part", func(c echo.Context) error {
		r, ok := srv.Build().File(c.Request().URL.Path)
		if !ok {
			return echo.NewHTTPError(http.StatusNotFound)
		}
		r.ServeHTTP(c.Response(), c.Request())
		return nil
	})
	e.Match(methods, "/og/:file", func(c echo.Context) error {
		r, err := srv.Build().ShareImage("/og/" + c.Param("file"))
		return serveDrawn(c, r, err)
	})
	e.Match(methods, "/img/*", func(c echo.Context) error {
		r, err := srv.Build().ContentImage(c.Request().URL.Path)
		return serveDrawn(c, r, err)
	})
}

// serveDrawn answers with an image made on its first request: 404 when
// the path holds none.
func serveDrawn(c echo.Context, r *render.Resource, err error) error {
	if err != nil {
		return fmt.Errorf("image %s: %w", c.Request().URL.Path, err)
	}
	if r == nil {
		return echo.NewHTTPError(http.StatusNotFound)
	}
	r.ServeHTTP(c.Response(), c.Request())
	return nil
}
