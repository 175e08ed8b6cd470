package render

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	goruntime "runtime"
	"strings"
	"sync"
	"testing"

	"github.com/northbeam/site/internal/testwait"
)

// page is a page of n words drawn from seed: it compresses about as a
// real page does, to a few kilobytes.
func page(seed uint64, n int) []byte {
	words := strings.Fields("Northbeam platform engineering reliable deploys Kubernetes Postgres latency budget Arabic Deutsch français release review incident on-call")
	rng := rand.New(rand.NewPCG(seed, seed))
	var b bytes.Buffer
	fmt.Fprintf(&b, "<!doctype html><title>page %d</title>", seed)
	for range n {
		b.WriteString(words[rng.IntN(len(words))])
		fmt.Fprintf(&b, " %d ", rng.IntN(1000))
	}
	return b.Bytes()
}

// TestHotPageIsServedFromMemory: a page asked for twice is written from
// memory afterwards: its file deleted, it still answers whole, in the
// encoding that was hot, without being made again; an encoding that was
// not hot is read from the file, and made again now that the file is gone.
// HEAD and revalidations read nothing and keep nothing.
func TestHotPageIsServedFromMemory(t *testing.T) {
	c, err := OpenDiskCache(t.TempDir(), []byte("salt"))
	if err != nil {
		t.Fatal(err)
	}
	body := page(1, 2000)
	mem := NewCompressed("text/html; charset=utf-8", "no-cache", http.StatusOK, body)
	k := c.Key([]byte("page"))
	remade := 0
	remake := func() (*Resource, error) {
		remade++
		return NewCompressed("text/html; charset=utf-8", "no-cache", http.StatusOK, body), nil
	}
	r, err := c.Put(k, mem, remake)
	if err != nil {
		t.Fatal(err)
	}
	if rec := serve(r, "Accept-Encoding", "br", "If-None-Match", mem.BrotliETag); rec.Code != http.StatusNotModified {
		t.Fatalf("revalidation: status %d", rec.Code)
	}
	for range 3 {
		req, _ := http.NewRequest(http.MethodHead, "/", nil)
		req.Header.Set("Accept-Encoding", "br")
		r.ServeHTTP(nopWriter{http.Header{}}, req)
	}
	if held, n := c.hot.Held(); n != 0 {
		t.Fatalf("HEAD and 304 kept %d bodies (%d bytes)", n, held)
	}
	for i := range 2 {
		if rec := serve(r, "Accept-Encoding", "br"); rec.Code != http.StatusOK || !bytes.Equal(rec.Body.Bytes(), mem.Brotli) {
			t.Fatalf("request %d: status %d, %d bytes, want the brotli body's %d", i, rec.Code, rec.Body.Len(), len(mem.Brotli))
		}
	}
	if held, n := c.hot.Held(); n != 1 || held != int64(len(mem.Brotli)) {
		t.Fatalf("after two requests, %d bodies (%d bytes) kept, want the brotli body (%d bytes)", n, held, len(mem.Brotli))
	}

	if err := os.Remove(r.disk.filePath()); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		rec := serve(r, "Accept-Encoding", "br")
		if rec.Code != http.StatusOK || !bytes.Equal(rec.Body.Bytes(), mem.Brotli) || rec.Header().Get("Etag") != mem.BrotliETag || rec.Header().Get("Content-Length") != fmt.Sprint(len(mem.Brotli)) {
			t.Fatalf("hot, its file deleted: status %d, %d bytes, ETag %q", rec.Code, rec.Body.Len(), rec.Header().Get("Etag"))
		}
	}
	if remade != 0 {
		t.Fatalf("the hot page was made again %d times: it was read from its file", remade)
	}
	if rec := serve(r, "Accept-Encoding", "gzip"); rec.Code != http.StatusOK || !bytes.Equal(rec.Body.Bytes(), mem.Gzip) || remade != 1 {
		t.Errorf("gzip, not hot, its file deleted: status %d, made again %d times, want once", rec.Code, remade)
	}
}

// nopWriter drops what it is written.
type nopWriter struct{ h http.Header }

func (w nopWriter) Header() http.Header       { return w.h }
func (nopWriter) WriteHeader(int)             {}
func (nopWriter) Write(b []byte) (int, error) { return len(b), nil }

// TestHotBodiesStayWithinTheirBound: many pages asked for, more than the
// bound holds, keep the memory within it while every answer stays whole;
// the page asked for between all the others stays in memory, and pages
// asked for once (a crawler's walk) are never kept.
func TestHotBodiesStayWithinTheirBound(t *testing.T) {
	c, err := OpenDiskCache(t.TempDir(), []byte("salt"))
	if err != nil {
		t.Fatal(err)
	}
	const limit = 96 << 10
	c.hot = NewHotBodies(limit)
	gone := errors.New("not now")
	var pages []*Resource
	var mems []*Resource
	total := 0
	for i := range 120 {
		mem := NewCompressed("text/html; charset=utf-8", "no-cache", http.StatusOK, page(uint64(i), 1500))
		r, err := c.Put(c.Key([]byte(fmt.Sprint(i))), mem, func() (*Resource, error) { return nil, gone })
		if err != nil {
			t.Fatal(err)
		}
		if len(mem.Brotli) > limit/8 {
			t.Fatalf("a page of %d bytes: not kept at all", len(mem.Brotli))
		}
		total += len(mem.Brotli)
		pages, mems = append(pages, r), append(mems, mem)
	}
	if total < 4*limit {
		t.Fatalf("the pages' brotli bodies are %d bytes, not several times the bound %d", total, limit)
	}
	check := func(i int) {
		t.Helper()
		rec := serve(pages[i], "Accept-Encoding", "br")
		if rec.Code != http.StatusOK || !bytes.Equal(rec.Body.Bytes(), mems[i].Brotli) {
			t.Fatalf("page %d: status %d, %d bytes, want %d", i, rec.Code, rec.Body.Len(), len(mems[i].Brotli))
		}
		if held, _ := c.hot.Held(); held > limit {
			t.Fatalf("%d bytes held, over the bound of %d", held, limit)
		}
	}
	for i := range pages { // a crawler: each once
		check(i)
	}
	if held, n := c.hot.Held(); n != 0 {
		t.Fatalf("pages asked for once: %d kept (%d bytes)", n, held)
	}
	for range 4 {
		for i := range pages {
			check(i)
			check(0)
		}
	}
	held, n := c.hot.Held()
	if held < limit/2 || n >= len(pages) {
		t.Errorf("%d bodies kept in %d bytes, for %d pages asked for and a bound of %d", n, held, len(pages), limit)
	}
	for _, r := range pages {
		_ = os.Remove(r.disk.filePath())
	}
	if rec := serve(pages[0], "Accept-Encoding", "br"); rec.Code != http.StatusOK || !bytes.Equal(rec.Body.Bytes(), mems[0].Brotli) {
		t.Errorf("the page asked for most, its file deleted: status %d, not from memory", rec.Code)
	}
	unavailable := 0
	for _, r := range pages {
		if serve(r, "Accept-Encoding", "br").Code == http.StatusServiceUnavailable {
			unavailable++
		}
	}
	if unavailable < len(pages)-n {
		t.Errorf("their files deleted, %d pages answered 503, want the %d not kept", unavailable, len(pages)-n)
	}

	// Requests at once, on a bound that lets go of bodies all the time:
	// every answer whole (go test -race checks the rest).
	c.hot = NewHotBodies(24 << 10)
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for j := range 300 {
				i := (g*31 + j*7) % 20
				if g == 0 {
					i = j % 3
				}
				r, err := c.Put(c.Key([]byte("again"), []byte(fmt.Sprint(i))), mems[i], nil)
				if err != nil {
					t.Error(err)
					return
				}
				for range 3 {
					rec := serve(r, "Accept-Encoding", "br")
					if rec.Code != http.StatusOK || !bytes.Equal(rec.Body.Bytes(), mems[i].Brotli) {
						t.Errorf("page %d at once: status %d", i, rec.Code)
						return
					}
				}
			}
		})
	}
	wg.Wait()
	if held, _ := c.hot.Held(); held > 24<<10 {
		t.Errorf("%d bytes held at once, over the bound", held)
	}
}

// TestPageRenderedAgainIsNeverStale: a hot page whose render changes (an
// edit under -dev, new content) answers the new body in every encoding at
// once, whether its new render has a key of its own or, were it ever to
// happen, was written over the old file; the old resource, as long as
// anything holds it, answers its own body with its own ETag, never a mix.
func TestPageRenderedAgainIsNeverStale(t *testing.T) {
	c, err := OpenDiskCache(t.TempDir(), []byte("salt"))
	if err != nil {
		t.Fatal(err)
	}
	v1 := NewCompressed("text/html; charset=utf-8", "no-cache", http.StatusOK, page(1, 2000))
	v2 := NewCompressed("text/html; charset=utf-8", "no-cache", http.StatusOK, page(2, 2000))
	k := c.Key([]byte("page"), []byte("v1"))
	old, err := c.Put(k, v1, nil)
	if err != nil {
		t.Fatal(err)
	}
	answers := func(r *Resource, want *Resource, when string) {
		t.Helper()
		for range 3 {
			for enc, body := range map[string][]byte{"br": want.Brotli, "gzip": want.Gzip, "": want.Bytes()} {
				rec := serve(r, "Accept-Encoding", enc)
				wantTag := map[string]string{"br": want.BrotliETag, "gzip": want.GzipETag, "": want.ETag}[enc]
				if rec.Code != http.StatusOK || !bytes.Equal(rec.Body.Bytes(), body) || rec.Header().Get("Etag") != wantTag {
					t.Fatalf("%s, %q: status %d, %d bytes, ETag %q; want %d bytes, ETag %q", when, enc, rec.Code, rec.Body.Len(), rec.Header().Get("Etag"), len(body), wantTag)
				}
			}
		}
	}
	answers(old, v1, "the first render")
	if _, n := c.hot.Held(); n != 3 {
		t.Fatalf("the first render asked for three times: %d bodies kept, want its 3 encodings", n)
	}

	renewed, err := c.Put(c.Key([]byte("page"), []byte("v2")), v2, nil)
	if err != nil {
		t.Fatal(err)
	}
	answers(renewed, v2, "rendered again, under its new key")
	over, err := c.Put(k, v2, nil)
	if err != nil {
		t.Fatal(err)
	}
	answers(over, v2, "rendered again over the old file")
	answers(old, v1, "the old resource, its file written over")
}

// TestHotBodiesKeepNoPageAlive: a hot page that nothing serves any longer
// (the build before an edit under -dev, with all its remake holds) is let
// go by the collector while its body still waits for the CLOCK's hand.
func TestHotBodiesKeepNoPageAlive(t *testing.T) {
	c, err := OpenDiskCache(t.TempDir(), []byte("salt"))
	if err != nil {
		t.Fatal(err)
	}
	gone := make(chan struct{})
	func() {
		build := make([]byte, 1<<20) // what a build holds, reached from its remake
		r, err := c.Put(c.Key([]byte("page")), NewCompressed("text/html; charset=utf-8", "no-cache", http.StatusOK, page(1, 2000)),
			func() (*Resource, error) { return nil, fmt.Errorf("not now (%d)", len(build)) })
		if err != nil {
			t.Fatal(err)
		}
		for range 2 {
			serve(r, "Accept-Encoding", "br")
		}
		if _, n := c.hot.Held(); n != 1 {
			t.Fatalf("%d bodies kept, want the page's", n)
		}
		goruntime.AddCleanup(&build[0], func(gone chan struct{}) { close(gone) }, gone)
	}()
	testwait.Until(t, "the page nothing serves to be let go", func() bool {
		goruntime.GC()
		select {
		case <-gone:
			return true
		default:
			return false
		}
	})
	if _, n := c.hot.Held(); n != 1 {
		t.Errorf("%d bodies kept, want the page's until the hand lets it go", n)
	}
}
