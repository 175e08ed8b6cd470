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

	"github.com/northbeam/site/internal/sitebuild"
	"github.com/northbeam/site/internal/sitetest"
)

// TestEditsGiveTheSiteAFreshStartGives: after a post, a case study or a
// person is edited, added, renamed or deleted, the build that takes the
// unchanged files from the builds before (-dev) parses only the files
// that changed, and serves exactly what a fresh start serves: the same
// pages, payloads, sitemap and feeds.
func TestEditsGiveTheSiteAFreshStartGives(t *testing.T) {
	shared := sitetest.Site(t)
	dir := filepath.Join(t.TempDir(), "content")
	if err := os.CopyFS(dir, sitetest.Content()); err != nil {
		t.Fatal(err)
	}
	parsed := sitebuild.NewParsed()
	build := func(parsed *sitebuild.Parsed) *sitebuild.Build {
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
	studies, people := first.Work().Studies(lang), first.Team().People(lang)
	if len(studies) < 2 || len(people) < 2 {
		t.Fatalf("%d case studies and %d people in %s: the test needs 2 of each", len(studies), len(people), lang)
	}
	// copyAs writes a copy of the file at rel beside it, named slug, with
	// old replaced by new.
	copyAs := func(rel, slug, old, new string) {
		t.Helper()
		data, err := os.ReadFile(file(rel))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(data, []byte(old)) {
			t.Fatalf("%s holds no %q", rel, old)
		}
		data = bytes.Replace(data, []byte(old), []byte(new), 1)
		if err := os.WriteFile(file(path.Join(path.Dir(rel), slug+".md")), data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	rename := func(rel, slug string) {
		t.Helper()
		if err := os.Rename(file(rel), file(path.Join(path.Dir(rel), slug+".md"))); err != nil {
			t.Fatal(err)
		}
	}
	remove := func(rel string) {
		t.Helper()
		if err := os.Remove(file(rel)); err != nil {
			t.Fatal(err)
		}
	}
	study, person := studies[0], people[0]
	newStudy := path.Join(path.Dir(study.File), "a-new-study.md")
	// The person renamed and deleted is the one the test adds: the people
	// content/availability.json names as hosts must keep their pages (a
	// start refuses a host without one, and so would a fresh start).
	newPerson := path.Join(path.Dir(person.File), "a-new-person.md")
	renamedPerson := path.Join(path.Dir(person.File), "a-renamed-person.md")

	type parses struct{ posts, studies, people int }
	steps := []struct {
		name   string
		change func()
		parses parses // files parsed again
	}{
		{"a post edited", func() { edit(edited.File, "\n\n", "\n\nA sentence added to the post.\n\n") }, parses{posts: 1}},
		{"a post's title edited", func() { edit(edited.File, "title: ", "title: Edited, ") }, parses{posts: 1}},
		{"a post added", func() {
			copyAs(edited.File, "a-new-post", "translationKey: "+edited.TranslationKey, "translationKey: a-new-post")
		}, parses{posts: 1}},
		{"a post renamed", func() { rename(renamed.File, "renamed-"+renamed.Slug) }, parses{posts: 1}},
		{"a post deleted", func() { remove(deleted.File) }, parses{}},
		{"a case study edited", func() { edit(study.File, "\n\n", "\n\nA sentence added to the study.\n\n") }, parses{studies: 1}},
		{"a case study's title edited", func() { edit(study.File, "title: ", "title: Edited, ") }, parses{studies: 1}},
		{"a case study added", func() {
			copyAs(study.File, "a-new-study", "translationKey: "+study.TranslationKey, "translationKey: a-new-study")
		}, parses{studies: 1}},
		{"a case study renamed", func() { rename(studies[1].File, "renamed-"+studies[1].Slug) }, parses{studies: 1}},
		{"a case study deleted", func() { remove(newStudy) }, parses{}},
		{"a person edited", func() { edit(person.File, "\n\n", "\n\nA sentence added to the person.\n\n") }, parses{people: 1}},
		{"a person's role edited", func() { edit(person.File, "role: ", "role: Edited, ") }, parses{people: 1}},
		{"a person added", func() { copyAs(person.File, "a-new-person", "name: "+person.Name, "name: A New Person") }, parses{people: 1}},
		{"a person renamed", func() { rename(newPerson, "a-renamed-person") }, parses{people: 1}},
		{"a person deleted", func() { remove(renamedPerson) }, parses{}},
	}
	for _, step := range steps {
		step.change()
		posts, studies, people := parsed.Parses()
		again, fresh := build(parsed), build(nil)
		p2, s2, pe2 := parsed.Parses()
		if got := (parses{p2 - posts, s2 - studies, pe2 - people}); got != step.parses {
			t.Errorf("%s: parsed again %+v, want %+v", step.name, got, step.parses)
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

// TestCollectionsLoadedBesideTheBundlesMakeTheSameSite: a start loads the
// posts, case studies, team, pictures and dates while the bundles build
// (sitebuild.LoadCollections); the site built with them is the site New
// builds alone.
func TestCollectionsLoadedBesideTheBundlesMakeTheSameSite(t *testing.T) {
	shared := sitetest.Site(t)
	opts := sitebuild.Options{BaseURL: sitetest.BaseURL, Lazy: true, Parsed: sitebuild.NewParsed()}
	collections, err := sitebuild.LoadCollections(sitetest.Content(), shared.Bundle.CLDR, opts)
	if err != nil {
		t.Fatal(err)
	}
	withOpts := opts
	withOpts.Collections = collections
	beside, err := sitebuild.New(context.Background(), sitetest.Content(), shared.Bundle, shared.Engine, withOpts)
	if err != nil {
		t.Fatal(err)
	}
	opts.Parsed = sitebuild.NewParsed()
	alone, err := sitebuild.New(context.Background(), sitetest.Content(), shared.Bundle, shared.Engine, opts)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(beside.Blog().Posts(beside.Info.DefaultLanguage)); n == 0 {
		t.Fatal("no posts loaded beside the bundles")
	}
	sameSite(t, "collections loaded beside the bundles", beside, alone)
}
