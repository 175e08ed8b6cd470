package work

import (
	"os"
	"strings"
	"testing"
	"testing/fstest"
)

// TestShippedStudies: the shipped case studies load, every one is in the
// four languages, and each carries the facts a prospective client looks for.
func TestShippedStudies(t *testing.T) {
	lib, err := Load(os.DirFS("../../content"), "work")
	if err != nil {
		t.Fatal(err)
	}
	keys := map[string]int{}
	for _, lang := range []string{"en", "fr", "de", "ar"} {
		studies := lib.Studies(lang)
		if len(studies) < 3 {
			t.Errorf("%s: %d case studies, want at least 3", lang, len(studies))
		}
		for _, st := range studies {
			keys[st.TranslationKey]++
			if len(st.Results) < 2 || len(st.Stack) == 0 || !strings.Contains(st.HTML, "<h2") {
				t.Errorf("%s: results %v, stack %v, sections? %v", st.File, st.Results, st.Stack, strings.Contains(st.HTML, "<h2"))
			}
			if got := len(lib.Translations(st)); got != 3 {
				t.Errorf("%s: %d translations, want 3", st.File, got)
			}
		}
	}
	for k, n := range keys {
		if n != 4 {
			t.Errorf("translationKey %s in %d languages", k, n)
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
	_, err := Load(fsys, "work")
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{"work/en/a.md:4: field clients not found", "work/en/b.md:1: client: required"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
}
