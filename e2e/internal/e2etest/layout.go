package e2etest

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/northbeam/site/handlers"
	"github.com/northbeam/site/internal/sitetest"
)

// LayoutShiftProbe records every layout shift of the document, with the
// elements that moved.
const LayoutShiftProbe = `(() => {
  const shifts = (window.__shifts = []);
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      const moved = (e.sources || []).map((s) => (s.node && s.node.outerHTML ? s.node.outerHTML.slice(0, 80) : "?"));
      shifts.push(Math.round(e.startTime) + " ms: " + e.value.toFixed(4) + " " + moved.join(" | "));
    }
  }).observe({ type: "layout-shift", buffered: true });
})();`

// SlowHeaderServer serves the site with the cookie banner on, sending each
// page in two parts: up to the middle of the header's phone menu, then,
// after a pause, the rest. That is how a page reaches a phone on a slow
// network, and the browser may paint what it has in between.
func SlowHeaderServer(t *testing.T) string {
	t.Helper()
	bookings := NewBookingEnv(t, BrowserFixture) // the time step loads real slots
	site := handlers.New(handlers.NewServer(sitetest.ConsentSite(t, ""), handlers.Services{Log: sitetest.QuietLog(), Store: bookings.Store, Booking: bookings.Service}))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		plain := r.Clone(r.Context())
		plain.Header.Del("Accept-Encoding")
		rec := httptest.NewRecorder()
		site.ServeHTTP(rec, plain)
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.WriteHeader(rec.Code)
		body := rec.Body.Bytes()
		cut := bytes.Index(body, []byte("<summary>"))
		if !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/html") || cut < 0 {
			_, _ = w.Write(body)
			return
		}
		cut += len("<summary>")
		_, _ = w.Write(body[:cut])
		w.(http.Flusher).Flush()
		time.Sleep(400 * time.Millisecond)
		_, _ = w.Write(body[cut:])
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}
