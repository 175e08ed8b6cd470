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
// elements that moved and where each stood before and after (x, y, width
// and height in CSS pixels).
const LayoutShiftProbe = `(() => {
  const shifts = (window.__shifts = []);
  const rect = (r) => (r ? [r.x, r.y, r.width, r.height].map(Math.round).join(",") : "-");
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      const moved = (e.sources || []).map(
        (s) => (s.node && s.node.outerHTML ? s.node.outerHTML.slice(0, 80) : "?") + " from " + rect(s.previousRect) + " to " + rect(s.currentRect),
      );
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
	return slowServer(t, site, func(body []byte) int {
		cut := bytes.Index(body, []byte("<summary>"))
		if cut < 0 {
			return -1
		}
		return cut + len("<summary>")
	})
}

// SlowListServer serves the site sending each page in two parts, cut in
// its main content before the last item of the first list there (the last
// card of a grid, the last tag of a row), then, after a pause, the rest: a
// browser that painted the page in between would lay out a grid of fewer
// cards, or a shorter row, than the page has.
func SlowListServer(t *testing.T) string {
	t.Helper()
	site := handlers.New(handlers.NewServer(sitetest.Site(t), handlers.Services{Log: sitetest.QuietLog()}))
	return slowServer(t, site, func(body []byte) int {
		main := bytes.Index(body, []byte("<main"))
		if main < 0 {
			return -1
		}
		first := bytes.Index(body[main:], []byte("<li"))
		if first < 0 {
			return -1
		}
		first += main
		end := len(body)
		for _, close := range []string{"</ul>", "</ol>"} {
			if i := bytes.Index(body[first:], []byte(close)); i >= 0 {
				end = min(end, first+i)
			}
		}
		last := bytes.LastIndex(body[first:end], []byte("<li"))
		if last <= 0 {
			return -1 // a list of one item
		}
		return first + last
	})
}

// slowServer serves site, sending each HTML page up to cut(body) (none
// when it is negative), then, after a pause, the rest.
func slowServer(t *testing.T, site http.Handler, cut func(body []byte) int) string {
	t.Helper()
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
		at := -1
		if strings.HasPrefix(rec.Header().Get("Content-Type"), "text/html") {
			at = cut(body)
		}
		if at < 0 {
			_, _ = w.Write(body)
			return
		}
		_, _ = w.Write(body[:at])
		w.(http.Flusher).Flush()
		// The network's pause, not a wait for a condition: the browser
		// has what it has been sent for this long.
		time.Sleep(400 * time.Millisecond)
		_, _ = w.Write(body[at:])
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}
