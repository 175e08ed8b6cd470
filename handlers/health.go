package handlers

import (
	"net/http"

	"github.com/labstack/echo/v4"
)

// registerHealth serves /healthz (the process is up) and /readyz (the site
// is built and its dependencies answer).
func registerHealth(e *echo.Echo, srv *Server) {
	e.GET("/healthz", func(c echo.Context) error {
		return c.String(http.StatusOK, "ok\n")
	})
	e.GET("/readyz", func(c echo.Context) error {
		if err := srv.ready(c.Request().Context()); err != nil {
			return c.String(http.StatusServiceUnavailable, "not ready\n")
		}
		return c.String(http.StatusOK, "ready\n")
	})
}
