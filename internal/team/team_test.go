package team

import (
	"os"
	"strings"
	"testing"
	"testing/fstest"
)

// TestShippedTeam: the same people in the four languages, each with a
// role, expertise and a biography.
func TestShippedTeam(t *testing.T) {
	tm, err := Load(os.DirFS("../../content"), "team")
	if err != nil {
		t.Fatal(err)
	}
	var slugs []string
	for _, p := range tm.People("en") {
		slugs = append(slugs, p.Slug)
	}
	if len(slugs) < 4 {
		t.Fatalf("%d people", len(slugs))
	}
	for _, lang := range []string{"fr", "de", "ar"} {
		for _, slug := range slugs {
			p, err := tm.Person(lang, slug)
			if err != nil {
				t.Errorf("%s: no %s", lang, slug)
				continue
			}
			if p.Role == "" || len(p.Expertise) == 0 || !strings.Contains(p.HTML, "<p>") {
				t.Errorf("%s: %+v", p.File, p)
			}
		}
	}
}

// TestLoadNamesTheFile: a missing field and an unknown key name the file.
func TestLoadNamesTheFile(t *testing.T) {
	fsys := fstest.MapFS{
		"team/en/a.md": {Data: []byte("---\nname: A\nrole: R\ndescription: D\nexpertize: [Go]\n---\n\nBio.\n")},
	}
	_, err := Load(fsys, "team")
	for _, want := range []string{"team/en/a.md:5: field expertize not found"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v lacks %q", err, want)
		}
	}
}
