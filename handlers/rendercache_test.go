package handlers

import (
	"bytes"
	"context"
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
		engine, err := render.NewEngine(bundle.Server, render.Options{Logger: sitetest.QuietLog()})
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

	again, engine, cache := start(shared.Bundle, true, false)
	if rendered, _ := engine.Counts(); rendered != 0 {
		t.Errorf("a restart with nothing changed rendered %d pages, want none", rendered)
	}
	if hits, _ := cache.Counts(); hits < int64(planned) {
		t.Errorf("a restart read %d pages from the cache, want every one of %d", hits, planned)
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
