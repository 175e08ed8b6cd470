package render

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
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

// TestEachEncodingHasItsOwnETag: the identity, gzip and brotli bodies are
// three representations, so a tag of one never confirms another (RFC 9110,
// section 8.8.3), and Vary still names Accept-Encoding.
func TestEachEncodingHasItsOwnETag(t *testing.T) {
	r := NewResource("text/html; charset=utf-8", "no-cache", http.StatusOK, []byte(strings.Repeat("<p>Hallo Welt</p>\n", 100)))
	encodings := map[string]string{"identity": "", "gzip": "gzip", "br": "br"}
	tags := map[string]string{}
	for name, accept := range encodings {
		rec := serve(r, "Accept-Encoding", accept)
		tags[name] = rec.Header().Get("ETag")
		if tags[name] == "" || rec.Header().Get("Vary") != "Accept-Encoding" {
			t.Errorf("%s: ETag %q, Vary %q", name, tags[name], rec.Header().Get("Vary"))
		}
	}
	if tags["identity"] == tags["gzip"] || tags["identity"] == tags["br"] || tags["gzip"] == tags["br"] {
		t.Fatalf("encodings share an ETag: %v", tags)
	}
	for name, accept := range encodings {
		for tagOf, tag := range tags {
			rec := serve(r, "Accept-Encoding", accept, "If-None-Match", tag)
			want := http.StatusOK
			if tagOf == name {
				want = http.StatusNotModified
			}
			if rec.Code != want {
				t.Errorf("%s request with the %s ETag: %d, want %d", name, tagOf, rec.Code, want)
			}
			if rec.Code == http.StatusOK && rec.Header().Get("ETag") != tags[name] {
				t.Errorf("%s request with the %s ETag answers the tag %q", name, tagOf, rec.Header().Get("ETag"))
			}
		}
	}
}

// TestAnswerHasNoETag: the answer to a form post is compressed like a page
// but has nothing to revalidate.
func TestAnswerHasNoETag(t *testing.T) {
	r := NewAnswer("text/html; charset=utf-8", http.StatusTooManyRequests, []byte(strings.Repeat("<p>Trop</p>\n", 100)))
	rec := serve(r, "Accept-Encoding", "br", "If-None-Match", "*")
	if rec.Code != http.StatusTooManyRequests || rec.Header().Get("ETag") != "" || rec.Header().Get("Cache-Control") != "no-store" ||
		rec.Header().Get("Content-Encoding") != "br" {
		t.Errorf("answer: %d, ETag %q, Cache-Control %q, encoding %q", rec.Code, rec.Header().Get("ETag"),
			rec.Header().Get("Cache-Control"), rec.Header().Get("Content-Encoding"))
	}
}

// TestReusedCompressorsKeepEachBodyItsOwn: the compressors are kept
// between resources (gzipBytes, brotliBytes); each body, compressed after
// others of other sizes and beside them on other goroutines, still decodes
// to itself, in the bytes a new compressor writes.
func TestReusedCompressorsKeepEachBodyItsOwn(t *testing.T) {
	var bodies [][]byte
	for i, n := range []int{600, 70_000, 3_000, 300_000, 40_000, 600, 70_000} {
		var b strings.Builder
		for b.Len() < n {
			fmt.Fprintf(&b, "<p class=%q>page %d, line %d: Grüße, مرحبا</p>\n", strconv.Itoa(b.Len()%7), i, b.Len())
		}
		bodies = append(bodies, []byte(b.String()))
	}
	fresh := func(body []byte) (gz, br []byte) {
		var g, r bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&g, gzip.BestCompression)
		_, _ = zw.Write(body)
		_ = zw.Close()
		window := 16
		for window < 24 && 1<<window < len(body) {
			window++
		}
		bw := brotli.NewWriterOptions(&r, brotli.WriterOptions{Quality: 6, LGWin: window})
		_, _ = bw.Write(body)
		_ = bw.Close()
		return g.Bytes(), r.Bytes()
	}
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for _, body := range bodies {
				r := NewResource("text/html; charset=utf-8", "no-cache", http.StatusOK, body)
				zr, err := gzip.NewReader(bytes.NewReader(r.Gzip))
				if err != nil {
					t.Error(err)
					return
				}
				if got, _ := io.ReadAll(zr); !bytes.Equal(got, body) {
					t.Errorf("a body of %d bytes: its gzip decodes to %d other bytes", len(body), len(got))
				}
				if got, _ := io.ReadAll(brotli.NewReader(bytes.NewReader(r.Brotli))); !bytes.Equal(got, body) {
					t.Errorf("a body of %d bytes: its brotli decodes to %d other bytes", len(body), len(got))
				}
				if gz, br := fresh(body); !bytes.Equal(r.Gzip, gz) || !bytes.Equal(r.Brotli, br) {
					t.Errorf("a body of %d bytes: compressed otherwise than by a new compressor", len(body))
				}
			}
		})
	}
	wg.Wait()
}
