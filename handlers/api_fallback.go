package handlers

import (
	"net/http"
	"strings"
	"sync"

	"github.com/labstack/echo/v4"
)

// registerAPIFallback answers what no route of the JSON API holds, as
// JSON: 405 with Allow for a path the API serves with other methods, 404
// for a path it does not serve. Without it, the pages' catch-all route
// took GET and HEAD under /api (a 404 where 405 is due) and made every
// other method on an unknown path a 405.
func registerAPIFallback(e *echo.Echo) {
	f := &apiFallback{e: e}
	e.Any("/api", f.answer)
	e.Any("/api/*", f.answer)
}

// apiFallback knows the API's routes once they are all registered.
type apiFallback struct {
	e      *echo.Echo
	once   sync.Once
	routes map[string]bool // method + " " + route path
}

// probedMethods are the methods an Allow header may name.
var probedMethods = []string{http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete}

func (f *apiFallback) answer(c echo.Context) error {
	f.once.Do(func() {
		f.routes = map[string]bool{}
		for _, r := range f.e.Routes() {
			if r.Path != "/api" && r.Path != "/api/*" {
				f.routes[r.Method+" "+r.Path] = true
			}
		}
	})
	req := c.Request()
	var allow []string
	for _, m := range probedMethods {
		probe := f.e.NewContext(nil, nil)
		f.e.Router().Find(m, req.URL.Path, probe)
		if f.routes[m+" "+probe.Path()] {
			allow = append(allow, m)
		}
	}
	if len(allow) == 0 {
		return echo.ErrNotFound
	}
	if req.Method == http.MethodHead && allow[0] == http.MethodGet {
		// HEAD of what GET serves: the GET route, whose body the server
		// leaves out.
		f.e.Router().Find(http.MethodGet, req.URL.Path, c)
		return c.Handler()(c)
	}
	c.Response().Header().Set(echo.HeaderAllow, strings.Join(allow, ", "))
	return echo.ErrMethodNotAllowed
}
