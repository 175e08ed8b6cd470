package work

import (
	"bytes"
	"image"
	"image/png"
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

// TestShippedStudies: the shipped case studies load, every one is in
// every language of content/site.json, and each carries the facts a
// prospective client looks for.
func TestShippedStudies(t *testing.T) {
	info, err := site.Load(os.DirFS("../../content"), site.File)
	if err != nil {
		t.Fatal(err)
	}
	lib, err := Load(os.DirFS("../../content"), "work", shippedPictures(t))
	if err != nil {
		t.Fatal(err)
	}
	keys := map[string]int{}
	alts := map[string]map[string]string{} // translationKey -> language -> the cover's alt text
	for _, lang := range info.Languages.Codes() {
		studies := lib.Studies(lang)
		if len(studies) < 3 {
			t.Errorf("%s: %d case studies, want at least 3", lang, len(studies))
		}
		for _, st := range studies {
			keys[st.TranslationKey]++
			if len(st.Results) < 2 || len(st.Stack) == 0 || !strings.Contains(st.HTML, "<h2") {
				t.Errorf("%s: results %v, stack %v, sections? %v", st.File, st.Results, st.Stack, strings.Contains(st.HTML, "<h2"))
			}
			if got, want := len(lib.Translations(st)), len(info.Languages)-1; got != want {
				t.Errorf("%s: %d translations, want %d", st.File, got, want)
			}
			if c := st.Cover; c.WebP == "" || c.Width != 1600 || c.Height != 900 || st.Summary().Cover != c {
				t.Errorf("%s: cover %+v", st.File, c)
			}
			if alts[st.TranslationKey] == nil {
				alts[st.TranslationKey] = map[string]string{}
			}
			alts[st.TranslationKey][lang] = st.Cover.Alt
		}
	}
	// Each language's alt text is its own: none is another's copy.
	for k, byLang := range alts {
		seen := map[string]string{}
		for _, lang := range info.Languages.Codes() {
			if other, ok := seen[byLang[lang]]; ok {
				t.Errorf("%s: the cover's alt text in %s is the one in %s: %q", k, lang, other, byLang[lang])
			}
			seen[byLang[lang]] = lang
		}
	}
	for k, n := range keys {
		if n != len(info.Languages) {
			t.Errorf("translationKey %s in %d languages, want %d", k, n, len(info.Languages))
		}
	}
}

// TestLoadNamesTheFileAndLine: a mistake names the file and line, and an
// unknown key is refused.
func TestLoadNamesTheFileAndLine(t *testing.T) {
	fsys := fstest.MapFS{
		"work/en/a.md": {Data: []byte("---\ntitle: A\ndescription: D\nclients: typo\n---\n\nText.\n")},
		"work/en/b.md": {Data: []byte("---\ntitle: B\n---\n\nText.\n")},
	}
	_, err := Load(fsys, "work", shippedPictures(t))
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{"work/en/a.md:4: field clients not found", "work/en/b.md:1: client: required"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
}

// TestACoverWithoutAltSizeOrFileIsRefused: the cover is required, and a
// cover without alternative text, without size or whose file does not
// exist is refused, naming the file and the line of the cover.
func TestACoverWithoutAltSizeOrFileIsRefused(t *testing.T) {
	var buf bytes.Buffer
	if err := png.Encode(&buf, image.NewNRGBA(image.Rect(0, 0, 160, 90))); err != nil {
		t.Fatal(err)
	}
	const front = "---\ntitle: T\ndescription: D\nclient: C\nsector: S\nsize: Z\nduration: 2 months\npublished: 2026-01-02\nstack: [Go]\nresults: [{value: \"1\", label: L}]\nquote: {text: Q, name: N, role: R, company: C}\ntranslationKey: %s\n"
	study := func(key, cover string) *fstest.MapFile {
		return &fstest.MapFile{Data: []byte(strings.Replace(front, "%s", key, 1) + cover + "---\n\nText.\n")}
	}
	fsys := fstest.MapFS{
		"img/c.png":          {Data: buf.Bytes()},
		"work/en/good.md":    study("good", "cover: {src: /img/c.png, alt: A cover, width: 160, height: 90}\n"),
		"work/en/no-alt.md":  study("no-alt", "cover:\n  src: /img/c.png\n  width: 160\n  height: 90\n"),
		"work/en/no-size.md": study("no-size", "cover: {src: /img/c.png, alt: A cover}\n"),
		"work/en/no-file.md": study("no-file", "cover: {src: /img/missing.png, alt: A cover, width: 160, height: 90}\n"),
		"work/en/none.md":    study("none", ""),
	}
	lib, err := images.Load(fsys, "img", nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Load(fsys, "work", lib.Picture)
	if err == nil {
		t.Fatal("loaded")
	}
	for _, want := range []string{
		"work/en/no-alt.md:13: cover: alt: required",
		"work/en/no-size.md:13: cover: width and height: required",
		`work/en/no-file.md:13: cover: no such image "/img/missing.png"`,
		"work/en/none.md:1: cover: required",
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
	if strings.Contains(err.Error(), "good.md") {
		t.Errorf("the good study is refused: %v", err)
	}
}
