package team

import (
	"os"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/northbeam/site/internal/images"
	"github.com/northbeam/site/internal/site"
)

// shippedPictures checks pictures against the shipped content/img/.
func shippedPictures(t *testing.T) func(images.Ref) (images.Picture, error) {
	t.Helper()
	lib, err := images.Load(os.DirFS("../../content"), "img", nil)
	if err != nil {
		t.Fatal(err)
	}
	return lib.Picture
}

// TestShippedTeam: the same people in every language of content/site.json,
// each with a role, expertise, a biography and a portrait described in
// the language.
func TestShippedTeam(t *testing.T) {
	info, err := site.Load(os.DirFS("../../content"), site.File)
	if err != nil {
		t.Fatal(err)
	}
	tm, err := Load(os.DirFS("../../content"), "team", shippedPictures(t))
	if err != nil {
		t.Fatal(err)
	}
	def := info.DefaultLanguage
	var slugs []string
	for _, p := range tm.People(def) {
		slugs = append(slugs, p.Slug)
	}
	if len(slugs) < 4 {
		t.Fatalf("%d people", len(slugs))
	}
	for _, lang := range info.Languages.Codes() {
		for _, slug := range slugs {
			p, err := tm.Person(lang, slug)
			if err != nil {
				t.Errorf("%s: no %s", lang, slug)
				continue
			}
			if p.Role == "" || len(p.Expertise) == 0 || !strings.Contains(p.HTML, "<p>") {
				t.Errorf("%s: %+v", p.File, p)
			}
			ref, _ := tm.Person(def, slug)
			if p.Photo.WebP == "" || p.Photo.Src != ref.Photo.Src || !strings.Contains(p.Photo.Alt, p.Name) {
				t.Errorf("%s: photo %+v (in %s %+v)", p.File, p.Photo, def, ref.Photo)
			}
			if lang != def && p.Photo.Alt == ref.Photo.Alt {
				t.Errorf("%s: the portrait's alt text in %s is the one in %s: %q", p.File, lang, def, p.Photo.Alt)
			}
		}
	}
}

// TestLoadNamesTheFile: a missing field and an unknown key name the file.
func TestLoadNamesTheFile(t *testing.T) {
	fsys := fstest.MapFS{
		"team/en/a.md": {Data: []byte("---\nname: A\nrole: R\ndescription: D\nexpertize: [Go]\n---\n\nBio.\n")},
	}
	_, err := Load(fsys, "team", shippedPictures(t))
	for _, want := range []string{"team/en/a.md:5: field expertize not found"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v lacks %q", err, want)
		}
	}
}

// TestAPhotoWithoutAltOrFileIsRefused names the file and the photo's line.
func TestAPhotoWithoutAltOrFileIsRefused(t *testing.T) {
	fsys := fstest.MapFS{
		"team/en/a.md": {Data: []byte("---\nname: A\nrole: R\ndescription: D\nexpertise: [Go]\nphoto: {src: /img/team/lena-hartmann.png, width: 800, height: 800}\n---\n\nBio.\n")},
		"team/en/b.md": {Data: []byte("---\nname: B\nrole: R\ndescription: D\nexpertise: [Go]\nphoto: {src: /img/team/nobody.png, alt: B, width: 800, height: 800}\n---\n\nBio.\n")},
		"team/en/c.md": {Data: []byte("---\nname: C\nrole: R\ndescription: D\nexpertise: [Go]\n---\n\nBio.\n")},
	}
	_, err := Load(fsys, "team", shippedPictures(t))
	for _, want := range []string{"team/en/a.md:6: photo: alt: required", `team/en/b.md:6: photo: no such image "/img/team/nobody.png"`, "team/en/c.md:1: photo: required"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v lacks %q", err, want)
		}
	}
}
