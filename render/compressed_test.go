package render

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
)

// TestCompressedResourceServesEveryEncoding: a page kept compressed alone
// answers a client that accepts no encoding with the same bytes, length
// and ETag as a resource that holds its identity body, HEAD included.
func TestCompressedResourceServesEveryEncoding(t *testing.T) {
	body := []byte(strings.Repeat("<p>مرحبا بالعالم</p>\n", 200))
	whole := NewResource("text/html; charset=utf-8", "no-cache", http.StatusOK, body)
	kept := NewCompressed("text/html; charset=utf-8", "no-cache", http.StatusOK, body)
	if kept.Body != nil {
		t.Fatal("NewCompressed kept the identity body")
	}
	for _, enc := range []string{"", "gzip", "br"} {
		for _, method := range []string{http.MethodGet, http.MethodHead} {
			get := func(r *Resource) *httptest.ResponseRecorder {
				req := httptest.NewRequest(method, "/", nil)
				if enc != "" {
					req.Header.Set("Accept-Encoding", enc)
				}
				rec := httptest.NewRecorder()
				r.ServeHTTP(rec, req)
				return rec
			}
			want, got := get(whole), get(kept)
			for _, h := range []string{"Content-Length", "Content-Encoding", "Etag", "Vary"} {
				if got.Header().Get(h) != want.Header().Get(h) {
					t.Errorf("%s %q: %s %q, want %q", method, enc, h, got.Header().Get(h), want.Header().Get(h))
				}
			}
			if !bytes.Equal(got.Body.Bytes(), want.Body.Bytes()) {
				t.Errorf("%s %q: the body differs", method, enc)
			}
		}
	}
	req := httptest.NewRequest(http.MethodGet, "/", nil)
	rec := httptest.NewRecorder()
	kept.ServeHTTP(rec, req)
	if got := rec.Header().Get("Content-Length"); got != strconv.Itoa(len(body)) {
		t.Errorf("identity Content-Length %s, want %d", got, len(body))
	}
	if !bytes.Equal(kept.Bytes(), body) {
		t.Error("Bytes differs from the body")
	}
	small := NewCompressed("text/html", "no-cache", http.StatusOK, []byte("<p>hi</p>"))
	if !bytes.Equal(small.Bytes(), []byte("<p>hi</p>")) {
		t.Error("a body too small to compress is lost")
	}
}
