package handlers

import (
	"fmt"
	"net/http"
	"strings"
	"time"

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
		details := srv.feedDetails()
		if reason := srv.notReady(c.Request().Context()); reason != "" {
			return c.String(http.StatusServiceUnavailable, "not ready: "+reason+"\n"+details)
		}
		return c.String(http.StatusOK, "ready\n"+details)
	})
}

// feedDetails is a line per calendar feed: up to date, or stale since when
// and why. A stale feed does not make the site unready (the last good copy
// is in use), but whoever watches /readyz should know. A feed is named by
// its position and host only: its URL is a secret.
func (srv *Server) feedDetails() string {
	var b strings.Builder
	for _, f := range srv.Calendar.Status() {
		var skipped string
		if f.Skipped > 0 || f.Dropped > 0 {
			skipped = fmt.Sprintf("; %d events skipped, %d values dropped (see the log)", f.Skipped, f.Dropped)
		}
		switch {
		case f.FailingSince.IsZero() && f.Loaded:
			fmt.Fprintf(&b, "calendar %s: up to date, fetched %s%s\n", f.Name, f.LoadedAt.UTC().Format(time.RFC3339), skipped)
		case f.FailingSince.IsZero():
			fmt.Fprintf(&b, "calendar %s: not fetched yet\n", f.Name)
		case f.Loaded:
			fmt.Fprintf(&b, "calendar %s: stale since %s (%s); using the copy fetched %s%s\n", f.Name,
				f.FailingSince.UTC().Format(time.RFC3339), f.LastError, f.LoadedAt.UTC().Format(time.RFC3339), skipped)
		default:
			fmt.Fprintf(&b, "calendar %s: failing since %s (%s); no copy yet, the weekly hours alone decide\n", f.Name,
				f.FailingSince.UTC().Format(time.RFC3339), f.LastError)
		}
	}
	return b.String()
}
