package handlers

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/northbeam/site/internal/site"
)

// registerPages serves every localized page: the prerendered document of a
// canonical path, a 301 to the canonical form, or the localized 404 page.
func registerPages(e *echo.Echo, srv *Server) {
	e.Match([]string{http.MethodGet, http.MethodHead}, "/*", srv.page)
}

// redirectCacheControl bounds how long a browser or a shared cache keeps a
// redirect to the canonical form. Without it a 301 is kept as long as a
// cache likes (Chromium: until its cache is cleared), so a redirect that
// was ever wrong could never be taken back; a day spares the round trip to
// whoever follows the same old link again, and a change of the rules
// reaches everyone by the next day.
const redirectCacheControl = "public, max-age=86400"

func (srv *Server) page(c echo.Context) error {
	b := srv.Build()
	req := c.Request()
	p := req.URL.Path
	if isAPIPath(p) {
		return echo.ErrNotFound // the API's JSON 404, not a page
	}
	if canonical, moved := canonicalPath(b.Info, p); moved {
		if target, ok := redirectTarget(canonical, req.URL.RawQuery); ok {
			c.Response().Header().Set("Cache-Control", redirectCacheControl)
			return c.Redirect(http.StatusMovedPermanently, target)
		}
	}
	r, ok, err := b.Page(req.Context(), p)
	if err != nil && srv.Dev != nil {
		// -dev: the error over the last good page, if there was one.
		srv.log.Error("render failed", "path", logPath(p), "problem", RenderProblem(p, err).String())
		if good, ok := srv.Dev.renderFailed(p, err); ok {
			good.ServeHTTP(c.Response(), req)
			return nil
		}
	}
	if err != nil {
		return err
	}
	if srv.Dev != nil && ok {
		srv.Dev.served(p, r)
	}
	if !ok {
		if r, err = b.NotFound(req.Context(), languageOf(b.Info, p).Code); err != nil {
			return err
		}
	}
	r.ServeHTTP(c.Response(), req)
	srv.firstPageOnce.Do(func() { close(srv.firstPage) })
	return nil
}

// languageOf returns the language a path's prefix selects, as
// site.SplitPath does, without making the rest of the path.
func languageOf(info *site.Info, p string) site.Language {
	for _, l := range info.Languages {
		if l.Prefix != "" && strings.HasPrefix(p, l.Prefix) && (len(p) == len(l.Prefix) || p[len(l.Prefix)] == '/') {
			return l
		}
	}
	return info.Default()
}

// canonicalPath returns the one form of a path the site serves: single
// slashes, no trailing slash (but "/"), no /en prefix for the default
// language. ok is false when p is already canonical. p and the result are
// decoded paths; a redirect escapes the result (see redirectTarget).
func canonicalPath(info *site.Info, p string) (string, bool) {
	c := collapseSlashes(p)
	if len(c) > 1 {
		c = strings.TrimRight(c, "/")
		if c == "" {
			c = "/"
		}
	}
	def := info.Default()
	if c == "/"+def.Code || strings.HasPrefix(c, "/"+def.Code+"/") {
		c = strings.TrimPrefix(c, "/"+def.Code)
		if c == "" {
			c = "/"
		}
	}
	return c, c != p
}

// collapseSlashes turns every run of slashes in p into one. A path that
// starts with two would be read back from a Location header as a host
// ("//evil.com" is another site); no path of the site holds an empty
// segment.
func collapseSlashes(p string) string {
	if !strings.Contains(p, "//") {
		return p
	}
	var b strings.Builder
	b.Grow(len(p))
	for i := 0; i < len(p); i++ {
		if p[i] == '/' && i > 0 && p[i-1] == '/' {
			continue
		}
		b.WriteByte(p[i])
	}
	return b.String()
}

// redirectTarget returns the Location of a redirect to the canonical path c
// with the request's query, and false when c cannot be one. The path is
// escaped, so that what it holds stays in it: a backslash (which browsers
// read as a slash, "/\evil.com" as another host), a tab or a line break
// (which they drop), "?" or "#" (which would start a query or a fragment)
// and "%" are sent as %5C, %09, %0A, %3F, %23 and %25. The target is always
// a path on this site: one slash, then anything but a slash.
func redirectTarget(c, rawQuery string) (string, bool) {
	target := (&url.URL{Path: c}).EscapedPath()
	if !strings.HasPrefix(target, "/") || strings.HasPrefix(target, "//") {
		return "", false
	}
	if rawQuery != "" {
		target += "?" + rawQuery
	}
	return target, true
}
