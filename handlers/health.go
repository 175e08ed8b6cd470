package handlers

import (
	"net/http"

	"github.com/labstack/echo/v4"
)

// registerHealth serves /healthz (the process is up) and /readyz (the site
// is built, its dependencies answer and it is not stopping). A refusal
// names its reason in a few fixed words, never an error's text, which
// could name a host or a user.
func registerHealth(e *echo.Echo, srv *Server) {
	e.GET("/healthz", func(c echo.Context) error {
		return c.String(http.StatusOK, "ok\n")
	})
	e.GET("/readyz", func(c echo.Context) error {
		c.Response().Header().Set("Cache-Control", "no-store")
		if reason := srv.notReady(c.Request().Context()); reason != "" {
			return c.String(http.StatusServiceUnavailable, "not ready: "+reason+"\n")
		}
		return c.String(http.StatusOK, "ready\n")
	})
}
