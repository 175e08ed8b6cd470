package render

import (
	"bytes"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCachedPageIsServedFromItsFile: a page put in the renders' cache, and
// one read back from it by a later start, holds none of its bodies in the
// heap, and answers every encoding, HEAD and a revalidation exactly as the
// page held in memory does; when its file is gone, it is made again and
// served whole, never an error.
func TestCachedPageIsServedFromItsFile(t *testing.T) {
	body := []byte(strings.Repeat("<p>Guten Tag, مرحبا</p>\n", 300))
	whole := NewResource("text/html; charset=utf-8", "no-cache", http.StatusOK, body)
	c, err := OpenDiskCache(t.TempDir(), []byte("salt"))
	if err != nil {
		t.Fatal(err)
	}
	// Every body read from its file: a hot page is written from memory
	// (TestHotPageIsServedFromMemory).
	c.hot = nil
	k := c.Key([]byte("page"))
	remade := 0
	var remake func() (*Resource, error)
	remake = func() (*Resource, error) {
		remade++
		return c.Put(k, NewCompressed("text/html; charset=utf-8", "no-cache", http.StatusOK, body), remake)
	}
	put, err := c.Put(k, NewCompressed("text/html; charset=utf-8", "no-cache", http.StatusOK, body), remake)
	if err != nil {
		t.Fatal(err)
	}
	got, ok := c.Get(k, remake)
	if !ok {
		t.Fatal("the page put is not in the cache")
	}
	small, err := c.Put(c.Key([]byte("small")), NewCompressed("text/plain", "", http.StatusOK, []byte("hi")), nil)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(small.Bytes(), []byte("hi")) || serve(small).Body.String() != "hi" {
		t.Error("a body too small to compress is not served from its file")
	}
	same := func(name string, r *Resource) {
		t.Helper()
		if r.Body != nil || r.Gzip != nil || r.Brotli != nil {
			t.Fatalf("%s holds its bodies in memory", name)
		}
		for _, enc := range []string{"", "gzip", "br", "gzip;q=0, identity"} {
			for _, method := range []string{http.MethodGet, http.MethodHead} {
				for _, inm := range []string{"", whole.ETag, whole.GzipETag, whole.BrotliETag} {
					get := func(r *Resource) *httptest.ResponseRecorder {
						req := httptest.NewRequest(method, "/", nil)
						if enc != "" {
							req.Header.Set("Accept-Encoding", enc)
						}
						if inm != "" {
							req.Header.Set("If-None-Match", inm)
						}
						rec := httptest.NewRecorder()
						r.ServeHTTP(rec, req)
						return rec
					}
					want, got := get(whole), get(r)
					if got.Code != want.Code {
						t.Errorf("%s %s %q %s: status %d, want %d", name, method, enc, inm, got.Code, want.Code)
					}
					for _, h := range []string{"Content-Length", "Content-Encoding", "Etag", "Vary", "Content-Type", "Cache-Control"} {
						if got.Header().Get(h) != want.Header().Get(h) {
							t.Errorf("%s %s %q %s: %s %q, want %q", name, method, enc, inm, h, got.Header().Get(h), want.Header().Get(h))
						}
					}
					if !bytes.Equal(got.Body.Bytes(), want.Body.Bytes()) {
						t.Errorf("%s %s %q %s: the body differs", name, method, enc, inm)
					}
				}
			}
		}
		if !bytes.Equal(r.Bytes(), body) {
			t.Errorf("%s: Bytes differs from the body", name)
		}
	}
	same("the page put", put)
	same("the page read back", got)
	if remade != 0 {
		t.Fatalf("made again %d times while its file was there", remade)
	}

	if err := os.RemoveAll(c.dir); err != nil {
		t.Fatal(err)
	}
	for _, enc := range []string{"br", ""} {
		rec := serve(got, "Accept-Encoding", enc)
		if rec.Code != http.StatusOK || rec.Header().Get("Etag") == "" {
			t.Fatalf("its file gone, %q: status %d, ETag %q", enc, rec.Code, rec.Header().Get("Etag"))
		}
	}
	same("the page made again", got.disk.again.Load())
	if remade != 1 {
		t.Errorf("its file gone, the page was made %d times, want once", remade)
	}
	if rec := serve(put); rec.Code != http.StatusOK || !bytes.Equal(rec.Body.Bytes(), body) {
		t.Errorf("its file gone and made again by another: status %d", rec.Code)
	}

	lost, err := c.Put(c.Key([]byte("lost")), NewCompressed("text/html", "no-cache", http.StatusOK, body), nil)
	if err != nil {
		t.Fatal(err)
	}
	_ = os.Remove(lost.disk.filePath())
	if rec := serve(lost); rec.Code != http.StatusServiceUnavailable || rec.Header().Get("Retry-After") == "" {
		t.Errorf("a page that cannot be made again: status %d, Retry-After %q", rec.Code, rec.Header().Get("Retry-After"))
	}
}

// TestUnwritableCacheKeepsThePageInMemory: a cache folder that cannot be
// written still serves the page, held in memory.
func TestUnwritableCacheKeepsThePageInMemory(t *testing.T) {
	dir := t.TempDir()
	c, err := OpenDiskCache(dir, []byte("salt"))
	if err != nil {
		t.Fatal(err)
	}
	// Its folder for the page is a file: not even root writes there.
	k := c.Key([]byte("page"))
	if err := os.WriteFile(filepath.Dir(c.path(k)), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	var logged bytes.Buffer
	c.Log = slog.New(slog.NewTextHandler(&logged, nil))
	body := []byte(strings.Repeat("<p>Bonjour</p>\n", 100))
	r, err := c.Put(k, NewCompressed("text/html", "no-cache", http.StatusOK, body), nil)
	if err == nil {
		t.Fatal("a page written where its folder is a file")
	}
	_, _ = c.Put(k, NewCompressed("text/html", "no-cache", http.StatusOK, body), nil)
	if n := strings.Count(logged.String(), "cannot be written"); n != 1 {
		t.Errorf("the log says %d times that the cache cannot be written, want once:\n%s", n, logged.String())
	}
	if rec := serve(r, "Accept-Encoding", "gzip"); rec.Code != http.StatusOK || rec.Header().Get("Content-Encoding") != "gzip" {
		t.Errorf("status %d, encoding %q", rec.Code, rec.Header().Get("Content-Encoding"))
	}
	if !bytes.Equal(r.Bytes(), body) {
		t.Error("the page kept in memory differs")
	}
}
