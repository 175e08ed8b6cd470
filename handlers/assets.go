package handlers

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/northbeam/site/internal/assets"
)

// registerAssets serves the hashed client files, precompressed and cached
// as immutable.
func registerAssets(e *echo.Echo, srv *Server) {
	e.Match([]string{http.MethodGet, http.MethodHead}, assets.URLPrefix+"*", srv.asset)
}

func (srv *Server) asset(c echo.Context) error {
	r, ok := srv.Build().Asset(c.Param("*"))
	if !ok {
		return echo.NewHTTPError(http.StatusNotFound)
	}
	r.ServeHTTP(c.Response(), c.Request())
	return nil
}
