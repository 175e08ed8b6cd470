package handlers

import (
	"github.com/labstack/echo/v4"
)

// registerPageAPI serves the payload of a page for client-side navigation:
// the same JSON the server serialized into the page's HTML.
func registerPageAPI(e *echo.Echo, srv *Server) {
	e.GET("/api/page", srv.pagePayload)
}

// pagePayload answers the payload of the page at ?path=, or with 404 the
// payload of the not-found page in the path's language: the one page
// rendered at start, which names no path (the browser knows which it asked
// for), so nothing of the query is echoed back.
func (srv *Server) pagePayload(c echo.Context) error {
	b := srv.Build()
	p, _ := canonicalPath(b.Info, c.QueryParam("path"))
	if r, ok := b.Payload(p); ok {
		r.ServeHTTP(c.Response(), c.Request())
		return nil
	}
	b.NotFoundPayload(languageOf(b.Info, p).Code).ServeHTTP(c.Response(), c.Request())
	return nil
}
