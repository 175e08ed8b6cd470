package handlers

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/northbeam/site/internal/sitebuild"
	"github.com/northbeam/site/internal/sitetest"
)

// TestARestartTakesThePostsFromTheContentIndex: a start writes the posts
// it parsed to the content's index; a restart with nothing changed parses
// no post and serves what a fresh start serves; a post edited while the
// server was stopped is parsed again, alone, and its page shows the edit;
// an index that is corrupt, cut short or another program's costs a parse
// of every post, never the start (docs/ARCHITECTURE.md, Starting).
func TestARestartTakesThePostsFromTheContentIndex(t *testing.T) {
	shared := sitetest.Site(t)
	dir := filepath.Join(t.TempDir(), "content")
	if err := os.CopyFS(dir, sitetest.Content()); err != nil {
		t.Fatal(err)
	}
	index := filepath.Join(t.TempDir(), "data", "content-index")
	build := func(parsed *sitebuild.Parsed) *sitebuild.Build {
		t.Helper()
		s, err := sitebuild.New(context.Background(), os.DirFS(dir), shared.Bundle, shared.Engine,
			sitebuild.Options{BaseURL: sitetest.BaseURL, Lazy: true, Parsed: parsed})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	// start is a start of the program named version: its index read, the
	// site built, the index written. It returns the posts it parsed.
	start := func(version string, wantUnreadable bool) (*sitebuild.Build, int) {
		t.Helper()
		parsed, err := sitebuild.OpenParsed(index, version)
		if (err != nil) != wantUnreadable {
			t.Fatalf("reading the index: %v, want an error: %v", err, wantUnreadable)
		}
		s := build(parsed)
		if err := parsed.SaveIndex(); err != nil {
			t.Fatal(err)
		}
		posts, _, _ := parsed.Parses()
		return s, posts
	}
	first, all := start("v1", false)
	lang := first.Info.DefaultLanguage
	if all == 0 || all < len(first.Blog().Posts(lang)) {
		t.Fatalf("the first start parsed %d posts, want every one", all)
	}
	restart, parsed := start("v1", false)
	if parsed != 0 {
		t.Errorf("a restart with nothing changed parsed %d posts, want none", parsed)
	}
	sameSite(t, "a restart", restart, build(nil))

	// A post edited while the server was stopped.
	post := first.Blog().Posts(lang)[0]
	file := filepath.Join(dir, filepath.FromSlash(post.File))
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	const edit = "Edited while the server was stopped, "
	if err := os.WriteFile(file, bytes.Replace(data, []byte("title: "), []byte("title: "+edit), 1), 0o600); err != nil {
		t.Fatal(err)
	}
	edited, parsed := start("v1", false)
	if parsed != 1 {
		t.Errorf("a start after a post was edited parsed %d posts, want 1", parsed)
	}
	sameSite(t, "a post edited while stopped", edited, build(nil))
	path := "/blog/" + post.Slug
	if l, ok := edited.Info.Language(lang); ok {
		path = l.LocalPath(path)
	}
	if r, ok := edited.Payload(path); !ok || !strings.Contains(string(r.Bytes()), edit) {
		t.Errorf("the payload of %s does not show the edit", path)
	}

	// Indexes that cannot be used: every post is parsed again, the site is
	// the same, and the index is written anew.
	for _, c := range []struct {
		name       string
		damage     func([]byte) []byte
		version    string
		unreadable bool
	}{
		{"cut short", func(b []byte) []byte { return b[:len(b)/2] }, "v1", true},
		{"overwritten", func(b []byte) []byte { return bytes.Repeat([]byte{0xff, 'x', '\n'}, 100) }, "v1", true},
		{"empty", func([]byte) []byte { return nil }, "v1", true},
		{"garbage after its header", func(b []byte) []byte {
			header, _, _ := bytes.Cut(b, []byte("\n"))
			return append(header, []byte("\n{\"posts\": [{\"file\": 3}]}")...)
		}, "v1", true},
		{"another program's", func(b []byte) []byte { return b }, "v2", false},
	} {
		data, err := os.ReadFile(index)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(index, c.damage(data), 0o600); err != nil {
			t.Fatal(err)
		}
		s, parsed := start(c.version, c.unreadable)
		if parsed != all {
			t.Errorf("an index %s: %d posts parsed, want %d", c.name, parsed, all)
		}
		sameSite(t, "an index "+c.name, s, build(nil))
		if _, parsed := start(c.version, false); parsed != 0 {
			t.Errorf("after an index %s, the next start parsed %d posts, want none", c.name, parsed)
		}
	}
}
