package handlers

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/northbeam/site/internal/assets"
	"github.com/northbeam/site/internal/sitebuild"
	"github.com/northbeam/site/internal/sitetest"
	"github.com/northbeam/site/render"
)

// TestRendersSurviveARestart: a start with nothing changed serves the
// renders of the start before from the renders' cache, byte for byte,
// without rendering; a changed post renders that post's page alone, as a
// fresh render would; a new server bundle renders its pages again.
func TestRendersSurviveARestart(t *testing.T) {
	shared := sitetest.Site(t)
	contentDir := filepath.Join(t.TempDir(), "content")
	if err := os.CopyFS(contentDir, sitetest.Content()); err != nil {
		t.Fatal(err)
	}
	cacheDir := t.TempDir()
	// start builds the site as a start of the server does: a new engine and
	// the cache folder opened anew, every page asked for.
	// (every page asked for, unless lazy).
	start := func(bundle *assets.Bundle, withCache, lazy bool) (*sitebuild.Build, *render.Engine, *render.DiskCache) {
		t.Helper()
		engine, err := render.NewEngine(bundle.Server, render.Options{Logger: sitetest.QuietLog(), Strings: bundle.Strings})
		if err != nil {
			t.Fatal(err)
		}
		var cache *render.DiskCache
		if withCache {
			if cache, err = render.OpenDiskCache(cacheDir, []byte("this program")); err != nil {
				t.Fatal(err)
			}
		}
		s, err := sitebuild.New(context.Background(), os.DirFS(contentDir), bundle, engine,
			sitebuild.Options{BaseURL: sitetest.BaseURL, Lazy: true, Renders: cache})
		if err != nil {
			t.Fatal(err)
		}
		if !lazy {
			if err := s.Prerender(context.Background(), 0); err != nil {
				t.Fatal(err)
			}
		}
		return s, engine, cache
	}
	page := func(s *sitebuild.Build, path string) []byte {
		t.Helper()
		r, ok, err := s.Page(context.Background(), path)
		if !ok || err != nil {
			t.Fatalf("%s: ok %v, %v", path, ok, err)
		}
		return r.Bytes()
	}

	first, engine, _ := start(shared.Bundle, true, false)
	_, planned := first.Rendered()
	if rendered, _ := engine.Counts(); rendered < int64(planned) {
		t.Fatalf("the first start rendered %d pages of %d", rendered, planned)
	}
	// A client navigation asks for each page's payload (made on its first
	// request, not by the prerender).
	for _, p := range first.Pages() {
		if _, ok := first.Payload(p.Path); !ok {
			t.Fatalf("%s: no payload", p.Path)
		}
	}

	again, engine, cache := start(shared.Bundle, true, false)
	if rendered, _ := engine.Counts(); rendered != 0 {
		t.Errorf("a restart with nothing changed rendered %d pages, want none", rendered)
	}
	if hits, _ := cache.Counts(); hits < int64(planned) {
		t.Errorf("a restart read %d pages from the cache, want every one of %d", hits, planned)
	}
	// Its pages and payloads need no post's HTML (the feeds, made behind,
	// do: they are not from the cache): their keys hold the digest of the
	// Markdown.
	served, _, _ := start(shared.Bundle, true, true)
	for _, p := range served.Pages() {
		page(served, p.Path)
		if _, ok := served.Payload(p.Path); !ok {
			t.Fatalf("%s: no payload", p.Path)
		}
	}
	if n := served.Blog().TextRenders(); n != 0 {
		t.Errorf("a restart with nothing changed rendered %d posts' Markdown for its pages, want none", n)
	}
	for _, p := range first.Pages() {
		if !bytes.Equal(page(first, p.Path), page(again, p.Path)) {
			t.Errorf("%s after a restart differs from its render", p.Path)
		}
	}

	// One post changes: its page alone renders again, with the change.
	post := first.Blog().Posts(first.Info.DefaultLanguage)[0]
	postPath := ""
	for _, p := range first.Pages() {
		if strings.HasSuffix(p.Path, "/blog/"+post.Slug) && p.Lang.Code == post.Lang {
			postPath = p.Path
		}
	}
	file := filepath.Join(contentDir, "blog", post.Lang, post.Slug+".md")
	text, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	const added = "A sentence added since the last start."
	if err := os.WriteFile(file, append(text, "\n"+added+"\n"...), 0o600); err != nil {
		t.Fatal(err)
	}
	edited, engine, cache := start(shared.Bundle, true, false)
	if rendered, _ := engine.Counts(); rendered != 1 {
		t.Errorf("after one post changed, %d pages rendered, want 1 (%s)", rendered, postPath)
	}
	fresh, _, _ := start(shared.Bundle, false, true)
	if got := page(edited, postPath); !bytes.Contains(got, []byte(added)) || !bytes.Equal(got, page(fresh, postPath)) {
		t.Errorf("%s after its change is not what a fresh render makes of it", postPath)
	}
	if removed, err := cache.Prune(); err != nil || removed == 0 {
		t.Errorf("pruning after the change removed %d renders (%v), want the post's old one", removed, err)
	}

	// A new server bundle renders again a page whose every other input is
	// the same.
	changed := *shared.Bundle
	changed.Server = append(bytes.Clone(shared.Bundle.Server), "\n;"...)
	newBundle, engine, _ := start(&changed, true, true)
	page(newBundle, postPath)
	if rendered, _ := engine.Counts(); rendered != 1 {
		t.Errorf("with a new server bundle, %s was read from the cache, not rendered", postPath)
	}
}

// TestPagesAreServedFromTheRendersFiles: after a prerender, the pages and
// payloads hold none of their bytes in memory; they are served over HTTP
// from the renders' files, each encoding and a revalidation as a site
// without the cache serves them; and a page whose file was deleted is
// rendered again and served whole, never an error.
func TestPagesAreServedFromTheRendersFiles(t *testing.T) {
	shared := sitetest.Site(t)
	cacheDir := t.TempDir()
	// build is the site as a start makes it, with the cache or without.
	build := func(cache *render.DiskCache) (*sitebuild.Build, *render.Engine) {
		t.Helper()
		engine, err := render.NewEngine(shared.Bundle.Server, render.Options{Logger: sitetest.QuietLog(), Strings: shared.Bundle.Strings})
		if err != nil {
			t.Fatal(err)
		}
		s, err := sitebuild.New(context.Background(), sitetest.Content(), shared.Bundle, engine,
			sitebuild.Options{BaseURL: sitetest.BaseURL, Lazy: true, Renders: cache})
		if err != nil {
			t.Fatal(err)
		}
		return s, engine
	}
	cache, err := render.OpenDiskCache(cacheDir, []byte("this program"))
	if err != nil {
		t.Fatal(err)
	}
	s, engine := build(cache)
	if err := s.Prerender(context.Background(), 0); err != nil {
		t.Fatal(err)
	}
	inMemory, _ := build(nil)
	for _, p := range s.Pages() {
		r, _, err := s.Page(context.Background(), p.Path)
		if err != nil {
			t.Fatal(err)
		}
		payload, _ := s.Payload(p.Path)
		if r.Body != nil || r.Gzip != nil || r.Brotli != nil || payload.Body != nil || payload.Gzip != nil || payload.Brotli != nil {
			t.Fatalf("%s holds its bytes in memory after the prerender", p.Path)
		}
	}

	cached := httptest.NewServer(New(NewServer(s, Services{Log: sitetest.QuietLog()})))
	defer cached.Close()
	plain := httptest.NewServer(New(NewServer(inMemory, Services{Log: sitetest.QuietLog()})))
	defer plain.Close()
	client := &http.Client{Transport: &http.Transport{DisableCompression: true}}
	get := func(base, path, enc, etag string) (int, http.Header, []byte) {
		t.Helper()
		req, err := http.NewRequest(http.MethodGet, base+path, nil)
		if err != nil {
			t.Fatal(err)
		}
		if enc != "" {
			req.Header.Set("Accept-Encoding", enc)
		}
		if etag != "" {
			req.Header.Set("If-None-Match", etag)
		}
		res, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = res.Body.Close() }()
		body, err := io.ReadAll(res.Body)
		if err != nil {
			t.Fatal(err)
		}
		return res.StatusCode, res.Header, body
	}
	lang := shared.Info.DefaultLanguage
	post := shared.Blog().Posts(lang)[0]
	paths := []string{"/", "/" + lang + "/blog/" + post.Slug, "/api/page?path=/" + lang + "/blog/" + post.Slug}
	check := func(when string) {
		t.Helper()
		for _, path := range paths {
			for _, enc := range []string{"br", "gzip", ""} {
				wantCode, wantHeader, want := get(plain.URL, path, enc, "")
				code, header, got := get(cached.URL, path, enc, "")
				if code != wantCode || code != http.StatusOK || !bytes.Equal(got, want) {
					t.Errorf("%s, %s %q: status %d and %d bytes, want %d and %d bytes", when, path, enc, code, len(got), wantCode, len(want))
				}
				for _, h := range []string{"Content-Length", "Content-Encoding", "Etag", "Vary", "Content-Type"} {
					if header.Get(h) != wantHeader.Get(h) {
						t.Errorf("%s, %s %q: %s %q, want %q", when, path, enc, h, header.Get(h), wantHeader.Get(h))
					}
				}
				if code, _, _ := get(cached.URL, path, enc, header.Get("Etag")); code != http.StatusNotModified {
					t.Errorf("%s, %s %q revalidated: status %d, want 304", when, path, enc, code)
				}
			}
		}
	}
	check("from the renders' files")
	rendered, _ := engine.Counts()
	if err := os.RemoveAll(cacheDir); err != nil {
		t.Fatal(err)
	}
	check("their files deleted")
	if again, _ := engine.Counts(); again <= rendered {
		t.Error("the pages whose files were deleted were not rendered again")
	}
}

// TestHotPageFollowsAnEdit: a page asked for often enough to be written
// from memory (render.HotBodies) answers its edit at once when the site is
// built again with the same renders' cache, as the -dev loop builds it:
// the new body and its own ETag, never the body kept before.
func TestHotPageFollowsAnEdit(t *testing.T) {
	shared := sitetest.Site(t)
	contentDir := filepath.Join(t.TempDir(), "content")
	if err := os.CopyFS(contentDir, sitetest.Content()); err != nil {
		t.Fatal(err)
	}
	cache, err := render.OpenDiskCache(t.TempDir(), []byte("this program"))
	if err != nil {
		t.Fatal(err)
	}
	engine, err := render.NewEngine(shared.Bundle.Server, render.Options{Logger: sitetest.QuietLog()})
	if err != nil {
		t.Fatal(err)
	}
	build := func() (*sitebuild.Build, http.Handler) {
		t.Helper()
		s, err := sitebuild.New(context.Background(), os.DirFS(contentDir), shared.Bundle, engine,
			sitebuild.Options{BaseURL: sitetest.BaseURL, Lazy: true, Renders: cache})
		if err != nil {
			t.Fatal(err)
		}
		return s, New(NewServer(s, Services{Log: sitetest.QuietLog()}))
	}
	s, before := build()
	post := s.Blog().Posts(s.Info.DefaultLanguage)[0]
	path := ""
	for _, p := range s.Pages() {
		if strings.HasSuffix(p.Path, "/blog/"+post.Slug) && p.Lang.Code == post.Lang {
			path = p.Path
		}
	}
	get := func(h http.Handler) (etag string, html []byte) {
		t.Helper()
		rec := sitetest.Get(t, h, path, "Accept-Encoding", "gzip")
		if rec.Code != http.StatusOK || rec.Header().Get("Content-Encoding") != "gzip" {
			t.Fatalf("%s: status %d, encoding %q", path, rec.Code, rec.Header().Get("Content-Encoding"))
		}
		zr, err := gzip.NewReader(rec.Body)
		if err != nil {
			t.Fatal(err)
		}
		html, err = io.ReadAll(zr)
		if err != nil {
			t.Fatal(err)
		}
		return rec.Header().Get("ETag"), html
	}

	var etag string
	for range 3 {
		etag, _ = get(before)
	}
	if _, n := cache.Hot().Held(); n == 0 {
		t.Fatalf("%s asked for three times is not kept in memory", path)
	}

	file := filepath.Join(contentDir, "blog", post.Lang, post.Slug+".md")
	text, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	const added = "A sentence added while the page was hot."
	if err := os.WriteFile(file, append(text, "\n"+added+"\n"...), 0o600); err != nil {
		t.Fatal(err)
	}
	_, after := build()
	for i := range 3 { // read from its file, then kept, then from memory
		newTag, html := get(after)
		if !bytes.Contains(html, []byte(added)) || newTag == etag {
			t.Fatalf("request %d after the edit: the page kept before (ETag %q, was %q)", i, newTag, etag)
		}
	}
}
