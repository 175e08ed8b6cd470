package handlers

import (
	"bytes"
	"context"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/northbeam/site/internal/blog"
	"github.com/northbeam/site/internal/sitebuild"
	"github.com/northbeam/site/internal/sitetest"
)

// TestEditsGiveTheSiteAFreshStartGives: after a post is edited, added,
// renamed or deleted, and a case study or a person edited, the build that
// takes the unchanged posts from the builds before (-dev) parses only the
// files that changed, and serves exactly what a fresh start serves: the
// same pages, payloads, sitemap and feeds.
func TestEditsGiveTheSiteAFreshStartGives(t *testing.T) {
	shared := sitetest.Site(t)
	dir := filepath.Join(t.TempDir(), "content")
	if err := os.CopyFS(dir, sitetest.Content()); err != nil {
		t.Fatal(err)
	}
	parsed := blog.NewParsed()
	build := func(parsed *blog.Parsed) *sitebuild.Build {
		t.Helper()
		s, err := sitebuild.New(context.Background(), os.DirFS(dir), shared.Bundle, shared.Engine,
			sitebuild.Options{BaseURL: sitetest.BaseURL, Lazy: true, Parsed: parsed})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	first := build(parsed)
	lang := first.Info.DefaultLanguage
	posts := first.Blog().Posts(lang)
	if len(posts) < 3 {
		t.Fatalf("%d posts in %s: the test needs 3", len(posts), lang)
	}
	file := func(rel string) string { return filepath.Join(dir, filepath.FromSlash(rel)) }
	edit := func(rel, old, new string) {
		t.Helper()
		data, err := os.ReadFile(file(rel))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(data, []byte(old)) {
			t.Fatalf("%s holds no %q", rel, old)
		}
		if err := os.WriteFile(file(rel), bytes.Replace(data, []byte(old), []byte(new), 1), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	edited, renamed, deleted := posts[0], posts[1], posts[2]
	study := first.Work().Studies(lang)[0]
	person := first.Team().People(lang)[0]

	steps := []struct {
		name   string
		change func()
		parses int // posts parsed again
	}{
		{"a post edited", func() { edit(edited.File, "\n\n", "\n\nA sentence added to the post.\n\n") }, 1},
		{"a post's title edited", func() { edit(edited.File, "title: ", "title: Edited, ") }, 1},
		{"a post added", func() {
			data, err := os.ReadFile(file(edited.File))
			if err != nil {
				t.Fatal(err)
			}
			data = bytes.Replace(data, []byte("translationKey: "+edited.TranslationKey), []byte("translationKey: a-new-post"), 1)
			if err := os.WriteFile(file(path.Join(path.Dir(edited.File), "a-new-post.md")), data, 0o600); err != nil {
				t.Fatal(err)
			}
		}, 1},
		{"a post renamed", func() {
			if err := os.Rename(file(renamed.File), file(path.Join(path.Dir(renamed.File), "renamed-"+renamed.Slug+".md"))); err != nil {
				t.Fatal(err)
			}
		}, 1},
		{"a post deleted", func() {
			if err := os.Remove(file(deleted.File)); err != nil {
				t.Fatal(err)
			}
		}, 0},
		{"a case study edited", func() { edit(study.File, "\n\n", "\n\nA sentence added to the study.\n\n") }, 0},
		{"a person edited", func() { edit(person.File, "\n\n", "\n\nA sentence added to the person.\n\n") }, 0},
	}
	for _, step := range steps {
		step.change()
		before := parsed.Parses()
		again, fresh := build(parsed), build(nil)
		if got := parsed.Parses() - before; got != step.parses {
			t.Errorf("%s: %d posts parsed again, want %d", step.name, got, step.parses)
		}
		sameSite(t, step.name, again, fresh)
	}
}

// sameSite fails unless a and b serve the same pages with the same
// payloads, and the same sitemap and feeds.
func sameSite(t *testing.T, name string, a, b *sitebuild.Build) {
	t.Helper()
	paths := func(s *sitebuild.Build) []string {
		var out []string
		for _, p := range s.Pages() {
			out = append(out, p.Path)
		}
		slices.Sort(out)
		return out
	}
	pa, pb := paths(a), paths(b)
	if !slices.Equal(pa, pb) {
		t.Errorf("%s: %d pages, a fresh start has %d", name, len(pa), len(pb))
		return
	}
	for _, p := range pa {
		ra, _ := a.Payload(p)
		rb, _ := b.Payload(p)
		if ra == nil || rb == nil || !bytes.Equal(ra.Bytes(), rb.Bytes()) {
			t.Errorf("%s: the payload of %s differs from a fresh start's", name, p)
		}
	}
	files := []string{"/sitemap.xml"}
	for _, l := range a.Info.Languages {
		files = append(files, sitebuild.FeedPath(l))
	}
	for _, f := range files {
		get := func(s *sitebuild.Build) []byte {
			if r, ok := s.File(f); ok {
				return r.Bytes()
			}
			if r, ok := s.Feed(f); ok {
				return r.Bytes()
			}
			return nil
		}
		if fa, fb := get(a), get(b); fa == nil || !bytes.Equal(fa, fb) {
			t.Errorf("%s: %s differs from a fresh start's", name, strings.TrimPrefix(f, "/"))
		}
	}
}
