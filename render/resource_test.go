package render

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/andybalholm/brotli"
)

func serve(r *Resource, header ...string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(http.MethodGet, "/", nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	r.ServeHTTP(rec, req)
	return rec
}

func TestResourceEncodingsAndETag(t *testing.T) {
	body := []byte(strings.Repeat("<p>Bonjour tout le monde</p>\n", 100))
	r := NewResource("text/html; charset=utf-8", "no-cache", http.StatusOK, body)

	br := serve(r, "Accept-Encoding", "gzip, deflate, br")
	if br.Header().Get("Content-Encoding") != "br" {
		t.Fatalf("encoding %q", br.Header().Get("Content-Encoding"))
	}
	if got, _ := io.ReadAll(brotli.NewReader(br.Body)); !bytes.Equal(got, body) {
		t.Error("brotli body differs")
	}
	gz := serve(r, "Accept-Encoding", "br;q=0, gzip")
	zr, err := gzip.NewReader(gz.Body)
	if err != nil || gz.Header().Get("Content-Encoding") != "gzip" {
		t.Fatalf("gzip: %v %q", err, gz.Header().Get("Content-Encoding"))
	}
	if got, _ := io.ReadAll(zr); !bytes.Equal(got, body) {
		t.Error("gzip body differs")
	}
	if plain := serve(r); !bytes.Equal(plain.Body.Bytes(), body) || plain.Header().Get("Vary") != "Accept-Encoding" {
		t.Error("identity body or Vary header wrong")
	}
	for _, inm := range []string{r.ETag, `"x", ` + r.ETag, "W/" + r.ETag, "*"} {
		if rec := serve(r, "If-None-Match", inm); rec.Code != http.StatusNotModified {
			t.Errorf("If-None-Match %s: %d", inm, rec.Code)
		}
	}
	if rec := serve(r, "If-None-Match", `"other"`); rec.Code != http.StatusOK {
		t.Errorf("other ETag: %d", rec.Code)
	}
	if NewResource("text/html", "", 200, []byte("x")).ETag == NewResource("text/html", "", 200, []byte("y")).ETag {
		t.Error("different bodies share an ETag")
	}
}

func TestNotFoundResourceIsNeverNotModified(t *testing.T) {
	r := NewResource("text/html", "no-cache", http.StatusNotFound, []byte("gone"))
	if rec := serve(r, "If-None-Match", r.ETag); rec.Code != http.StatusNotFound {
		t.Errorf("status %d", rec.Code)
	}
}
