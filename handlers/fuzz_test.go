package handlers

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/northbeam/site/internal/sitetest"
)

// fuzzPaths are the seeds of the path fuzzers: every kind of route, the
// prefixes and their near misses, and what attackers try.
var fuzzPaths = []string{
	"/", "/fr", "/fr/", "/en", "/en/", "/en/services", "/ar/services/", "/de/blog/", "/fr/blog/page/2",
	"/blog/tags/go", "/schedule/cancel", "/assets/x.js", "/api/page", "/api/slots", "/api/bookings/x.ics",
	"/api/bookings/cancel", "/healthz", "/readyz", "/sitemap.xml", "/robots.txt", "/fr/feed.xml",
	"//", "///fr", "/fr//blog", "/frx", "/EN/", "/../etc/passwd", "/%2e%2e/", "/fr/%00", "/\x00", "/é", "/ar/مدونة",
	"/" + strings.Repeat("a/", 300),
}

// FuzzCanonicalPath: no panic; the canonical form is canonical, and starts
// with a slash when the path does.
func FuzzCanonicalPath(f *testing.F) {
	for _, p := range fuzzPaths {
		f.Add(p)
	}
	s := sitetest.Site(f)
	f.Fuzz(func(t *testing.T, p string) {
		c, moved := canonicalPath(s.Info, p)
		if moved == (c == p) {
			t.Fatalf("canonicalPath(%q) = %q, moved %v", p, c, moved)
		}
		if again, movedAgain := canonicalPath(s.Info, c); movedAgain {
			t.Fatalf("canonicalPath(%q) = %q, which moves again to %q", p, c, again)
		}
		if strings.HasPrefix(p, "/") && !strings.HasPrefix(c, "/") {
			t.Fatalf("canonicalPath(%q) = %q", p, c)
		}
	})
}

// FuzzPageHandler sends GET and HEAD requests for arbitrary paths and
// queries through the whole server (with a booking service, so that the
// API routes are live): never a 5xx, and the security headers always.
func FuzzPageHandler(f *testing.F) {
	for _, p := range fuzzPaths {
		f.Add(p, "")
	}
	f.Add("/api/slots", "service=discovery&tz=Europe/Paris&days=3")
	f.Add("/api/page", "path=/ar/blog")
	f.Add("/api/page", "path=%00")
	f.Add("/api/bookings/cancel", "token=x")
	f.Add("/fr/blog", "page=-1&tag=%ff")
	env := newBookingEnv(f, sitetest.BookingFixture, &monday7am)
	f.Fuzz(func(t *testing.T, p, query string) {
		for _, method := range []string{http.MethodGet, http.MethodHead} {
			req := httptest.NewRequest(method, "/", nil)
			req.URL = &url.URL{Path: p, RawQuery: query}
			req.RequestURI = req.URL.RequestURI()
			rec := httptest.NewRecorder()
			env.handler.ServeHTTP(rec, req)
			if rec.Code >= 500 {
				t.Fatalf("%s %q ?%q: %d %s", method, p, query, rec.Code, rec.Body)
			}
			if rec.Header().Get("Content-Security-Policy") == "" {
				t.Fatalf("%s %q: no CSP", method, p)
			}
		}
	})
}
