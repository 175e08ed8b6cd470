package handlers

import (
	"encoding/json"
	"net/http"

	"github.com/labstack/echo/v4"
)

// registerPageAPI serves the payload of a page for client-side navigation:
// the same JSON the server serialized into the page's HTML.
func registerPageAPI(e *echo.Echo, srv *Server) {
	e.GET("/api/page", srv.pagePayload)
}

func (srv *Server) pagePayload(c echo.Context) error {
	s := srv.Site()
	p, _ := s.canonicalPath(c.QueryParam("path"))
	if r, ok := s.payloads[p]; ok {
		r.ServeHTTP(c.Response(), c.Request())
		return nil
	}
	lang := s.languageOf(p)
	c.Response().Header().Set("Cache-Control", "no-cache")
	body, err := json.Marshal(s.payload(s.notFoundPage(lang, p)))
	if err != nil {
		return err
	}
	return c.JSONBlob(http.StatusNotFound, body)
}
