package handlers

import (
	"net/http"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/northbeam/site/internal/site"
	"github.com/northbeam/site/internal/sitebuild"
)

// Starting is the HTTP surface of a server that listens before its site is
// built (docs/ARCHITECTURE.md, Starting): /healthz answers, /readyz fails
// ("loading the content"), and any other request waits for the build, up
// to a bound, and is then answered by the whole surface (New), as every
// request after. One that waits longer gets 503 with Retry-After and the
// localized "try again" line, never an error page.
type Starting struct {
	srv     *Server
	wait    time.Duration
	info    *site.Info
	locales *site.Locales
	handler atomic.Pointer[Handler]
	built   chan struct{}
	waiting atomic.Int32 // requests waiting for the build
}

// StartingWait is how long a request waits for the site's build before it
// is answered 503: below the HTTP server's write timeout (HTTPServer) and
// the proxies' usual 60 s.
const StartingWait = 20 * time.Second

// NewStarting returns the surface of srv, whose build is not there yet;
// info and locales (content/site.json and the strings, read before the
// content) say the 503 in the visitor's language.
func NewStarting(srv *Server, info *site.Info, locales *site.Locales, wait time.Duration) *Starting {
	return &Starting{srv: srv, info: info, locales: locales, wait: wait, built: make(chan struct{})}
}

// Serve serves b from now on, through the whole surface: the requests
// waiting are answered. Called once.
func (s *Starting) Serve(b *sitebuild.Build) {
	s.srv.Swap(b)
	s.handler.Store(New(s.srv))
	close(s.built)
}

func (s *Starting) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if h := s.handler.Load(); h != nil {
		h.ServeHTTP(w, r)
		return
	}
	switch r.URL.Path {
	case "/healthz":
		w.Header().Set("Content-Type", "text/plain; charset=UTF-8")
		_, _ = w.Write([]byte("ok\n"))
		return
	case "/readyz":
		w.Header().Set("Content-Type", "text/plain; charset=UTF-8")
		w.Header().Set("Cache-Control", "no-store")
		w.WriteHeader(http.StatusServiceUnavailable)
		_, _ = w.Write([]byte("not ready: loading the content\n"))
		return
	}
	s.waiting.Add(1)
	defer s.waiting.Add(-1)
	t := time.NewTimer(s.wait)
	defer t.Stop()
	select {
	case <-s.built:
		s.handler.Load().ServeHTTP(w, r)
		return
	case <-r.Context().Done():
		return
	case <-t.C:
	}
	h := w.Header()
	for _, f := range securityHeaders {
		h[f.key] = f.value
	}
	h["Content-Security-Policy"] = cspBaseField
	h.Set("Content-Type", "text/plain; charset=UTF-8")
	h.Set("Cache-Control", "no-store")
	h.Set("Retry-After", strconv.Itoa(5))
	w.WriteHeader(http.StatusServiceUnavailable)
	lang := languageOf(s.info, r.URL.Path).Code
	if isAPIPath(r.URL.Path) || isStaffPath(r.URL.Path) {
		lang = requestLanguage(s.info, "", r)
	}
	_, _ = w.Write([]byte(s.locales.T(lang, "errors.unavailable") + "\n"))
}
