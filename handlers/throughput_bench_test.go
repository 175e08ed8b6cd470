package handlers

import (
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"runtime"
	"testing"
	"time"

	"github.com/northbeam/site/internal/accesslog"
	"github.com/northbeam/site/internal/sitetest"
)

// discardWriter is a ResponseWriter that keeps its header map from one
// request to the next and drops the body: what net/http's own writer costs
// is left out, as the site and the bare handler the bench compares it with
// pay it alike.
type discardWriter struct {
	header http.Header
	status int
	n      int
}

func (w *discardWriter) Header() http.Header { return w.header }
func (w *discardWriter) WriteHeader(status int) {
	if w.status == 0 {
		w.status = status
	}
}

func (w *discardWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	w.n += len(b)
	return len(b), nil
}

// cachedRequest returns the whole stack as production runs it (every
// middleware, the access log written in batches, here to io.Discard) and
// a function serving one request for a cached page to it, as a browser
// with gzip asks for it.
func cachedRequest(t testing.TB, method, path string, header ...string) (serve func() *discardWriter, stop func()) {
	logs := accesslog.New(io.Discard, time.Second)
	h := New(NewServer(sitetest.Site(t), Services{Log: sitetest.QuietLog(), AccessLog: logs}))
	req := httptest.NewRequest(method, path, nil)
	req.Header.Set("Accept-Encoding", "gzip, deflate, br")
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	w := &discardWriter{header: http.Header{}}
	return func() *discardWriter {
		clear(w.header)
		w.status, w.n = 0, 0
		req.Body = http.NoBody // limitBodies wraps it
		h.ServeHTTP(w, req)
		return w
	}, func() { _ = logs.Close() }
}

// BenchmarkCachedPage serves a prerendered page through the whole stack.
func BenchmarkCachedPage(b *testing.B) {
	serve, stop := cachedRequest(b, http.MethodGet, "/de/blog")
	defer stop()
	b.ReportAllocs()
	for b.Loop() {
		serve()
	}
	if w := serve(); w.status != http.StatusOK || w.n == 0 {
		b.Fatalf("status %d, %d bytes", w.status, w.n)
	}
}

// TestCachedRequestsDoNotAllocate: a cached page, an asset, a 304 and a
// HEAD cost the whole stack no allocation per request (docs/ARCHITECTURE.md, Budgets):
// over 4096 requests, no more than the blocks of request ids (two
// allocations per 256 requests) and a few of the runtime's own.
func TestCachedRequestsDoNotAllocate(t *testing.T) {
	s := sitetest.Site(t)
	var asset string
	for name := range s.Bundle.Client {
		asset = "/assets/" + name
		break
	}
	page := sitetest.Get(t, testHandler(t), "/de/blog", "Accept-Encoding", "br")
	cases := []struct {
		name, method, path string
		header             []string
		status             int
	}{
		{"page", http.MethodGet, "/de/blog", nil, http.StatusOK},
		{"home", http.MethodGet, "/", nil, http.StatusOK},
		{"arabic page", http.MethodGet, "/ar/privacy", nil, http.StatusOK},
		{"asset", http.MethodGet, asset, nil, http.StatusOK},
		{"304", http.MethodGet, "/de/blog", []string{"If-None-Match", page.Header().Get("ETag")}, http.StatusNotModified},
		{"HEAD", http.MethodHead, "/de/blog", nil, http.StatusOK},
		{"404", http.MethodGet, "/de/nope", nil, http.StatusNotFound},
	}
	for _, tc := range cases {
		serve, stop := cachedRequest(t, tc.method, tc.path, tc.header...)
		for range 1000 { // the batch buffers grow to their size
			serve()
		}
		if w := serve(); w.status != tc.status || w.header.Get("Content-Security-Policy") == "" || w.header.Get("X-Request-Id") == "" {
			t.Fatalf("%s: status %d, %v", tc.name, w.status, w.header)
		}
		// The count is the process's: a goroutine the runtime or the
		// access log wakes meanwhile adds a few allocations of its own, now
		// and then. The fewest of three counts is the requests'; an
		// allocation per request would show in every one.
		const requests = 4096
		fewest := uint64(math.MaxUint64)
		for range 3 {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			for range requests {
				serve()
			}
			runtime.ReadMemStats(&after)
			fewest = min(fewest, after.Mallocs-before.Mallocs)
		}
		if fewest > 2*requests/idBlockSize+8 {
			t.Errorf("%s: %d allocations for %d requests", tc.name, fewest, requests)
		}
		stop()
	}
}
