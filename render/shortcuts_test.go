package render_test

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/evanw/esbuild/pkg/api"
	"github.com/northbeam/site/internal/assets"
	"github.com/northbeam/site/internal/sitebuild"
	"github.com/northbeam/site/internal/sitetest"
	"github.com/northbeam/site/render"
)

// TestServerShortcutsWriteTheLibrariesHTML: the server bundle renders
// faster than the libraries would (docs/ARCHITECTURE.md, Rendering): its
// own Link, NavLink and useTranslation, and renderToString's output joined
// once. The client hydrates what the server wrote with the libraries
// themselves, so the shortcuts must write the same bytes. This renders a
// page of every page type in every language with the site's engine and
// with a server bundle built without the shortcuts, and compares them.
func TestServerShortcutsWriteTheLibrariesHTML(t *testing.T) {
	s := sitetest.Site(t)
	root := sitetest.Root()
	cfg, err := assets.LoadConfig(filepath.Join(root, "esbuild.config.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	for _, shortcut := range []string{"react-router-dom", "react-i18next"} {
		if _, ok := cfg.Server.Alias[shortcut]; !ok {
			t.Fatalf("the server bundle no longer replaces %s: update this test", shortcut)
		}
		delete(cfg.Server.Alias, shortcut)
	}
	cfg.Server.JoinRenderOutput = false
	opts, err := cfg.ServerOptions(root)
	if err != nil {
		t.Fatal(err)
	}
	opts.Outfile = "dist/server.js"
	res := api.Build(opts)
	if len(res.Errors) > 0 {
		t.Fatalf("the server bundle without shortcuts: %s", res.Errors[0].Text)
	}
	var bundle []byte
	for _, f := range res.OutputFiles {
		if strings.HasSuffix(f.Path, ".js") {
			bundle = f.Contents
		}
	}
	plain, err := render.NewEngine(bundle, render.Options{Runtimes: 1, Logger: sitetest.QuietLog(), Strings: s.Bundle.Strings})
	if err != nil {
		t.Fatal(err)
	}

	pages := s.Pages()
	slices.SortFunc(pages, func(a, b sitebuild.Prerendered) int { return strings.Compare(a.Path, b.Path) })
	seen := map[string]bool{}
	for _, p := range pages {
		kind := p.Component + "/" + p.Lang.Code
		if seen[kind] {
			continue
		}
		seen[kind] = true
		payload, ok := s.Payload(p.Path)
		if !ok {
			t.Fatalf("no payload at %s", p.Path)
		}
		fast, err := s.Engine.Render(context.Background(), payload.Bytes())
		if err != nil {
			t.Fatalf("%s: %v", p.Path, err)
		}
		want, err := plain.Render(context.Background(), payload.Bytes())
		if err != nil {
			t.Fatalf("%s without shortcuts: %v", p.Path, err)
		}
		if fast != want {
			i := 0
			for i < len(fast) && i < len(want) && fast[i] == want[i] {
				i++
			}
			t.Errorf("%s: the server bundle writes\n  ...%s\nwhere the libraries write\n  ...%s", p.Path, excerpt(fast, i), excerpt(want, i))
		}
	}
	if len(seen) < 40 {
		t.Errorf("compared %d page types and languages; the site has more", len(seen))
	}
}

func excerpt(s string, at int) string {
	return s[max(0, at-80):min(len(s), at+80)]
}
