package blog

import (
	"encoding/xml"
	"io/fs"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/northbeam/site/internal/content"
	"github.com/northbeam/site/internal/markdown"
	"github.com/northbeam/site/internal/site"
)

// shippedLanguages returns the languages every post must exist in, those of
// content/site.json, sorted.
func shippedLanguages(t *testing.T) []string {
	t.Helper()
	info, err := site.Load(os.DirFS("../../content"), site.File)
	if err != nil {
		t.Fatal(err)
	}
	return slices.Sorted(slices.Values(info.Languages.Codes()))
}

// minProseWords is the least a seed post may hold, code blocks not counted.
const minProseWords = 800

// TestSeedContent loads the real content/blog tree and holds it to the
// standard the site promises: every post in all four languages, long enough
// to be worth reading, with code, dated in 2026.
func TestSeedContent(t *testing.T) {
	fsys := os.DirFS("../..")
	siteLanguages := shippedLanguages(t)
	lib, err := Load(fsys, "content/blog", false, writeDate(t))
	if err != nil {
		t.Fatalf("Load(content/blog): %v", err)
	}
	if _, err := Load(fsys, "content/blog", true, writeDate(t)); err != nil {
		t.Fatalf("Load(content/blog, drafts): %v", err)
	}
	if got := lib.Languages(); !slices.Equal(got, siteLanguages) {
		t.Fatalf("languages = %v, want %v", got, siteLanguages)
	}

	fence := regexp.MustCompile("(?s)```.*?```")
	byKey := map[string][]string{}
	tables := map[string]bool{}
	for _, lang := range siteLanguages {
		posts := lib.Posts(lang)
		if len(posts) < 4 {
			t.Errorf("%s has %d posts, want at least 4", lang, len(posts))
		}
		for _, p := range posts {
			byKey[p.TranslationKey] = append(byKey[p.TranslationKey], p.Lang)

			src, err := fs.ReadFile(fsys, p.File)
			if err != nil {
				t.Fatal(err)
			}
			_, body, err := content.SplitFrontMatter([]byte(strings.ReplaceAll(string(src), "\r\n", "\n")))
			if err != nil {
				t.Fatal(err)
			}
			if words := markdown.CountWords(fence.ReplaceAll(body, nil)); words < minProseWords {
				t.Errorf("%s: %d words of prose, want at least %d", p.File, words, minProseWords)
			}
			if !strings.Contains(p.HTML(), `<pre class="chroma" dir="ltr"`) {
				t.Errorf("%s: no code sample", p.File)
			}
			if strings.Contains(p.HTML(), "<table>") {
				tables[lang] = true
			}
			if p.Published.Year() != 2026 {
				t.Errorf("%s: published %v, want a date in 2026", p.File, p.Published)
			}
			if len(p.TOC) < 3 {
				t.Errorf("%s: %d headings in the table of contents, want at least 3", p.File, len(p.TOC))
			}
			if len(p.Tags) == 0 {
				t.Errorf("%s: no tags", p.File)
			}
			if p.Cover != nil {
				if _, err := fs.Stat(fsys, strings.TrimPrefix(p.Cover.Src, "/")); err != nil {
					t.Errorf("%s: cover %s: %v", p.File, p.Cover.Src, err)
				}
			}
			if p.Draft {
				t.Errorf("%s: a seed post is a draft", p.File)
			}
		}
	}
	for key, langs := range byKey {
		slices.Sort(langs)
		if !slices.Equal(langs, siteLanguages) {
			t.Errorf("translationKey %q exists in %v, want %v", key, langs, siteLanguages)
		}
	}
	for _, lang := range siteLanguages {
		if !tables[lang] {
			t.Errorf("no %s post has a table", lang)
		}
		raw, err := lib.Feed(lang, "https://northbeam.dev", "Northbeam", func(lang, slug string) string {
			return "/" + lang + "/blog/" + slug
		})
		if err != nil {
			t.Fatalf("Feed(%s): %v", lang, err)
		}
		var doc atomDoc
		if err := xml.Unmarshal(raw, &doc); err != nil {
			t.Errorf("Feed(%s) does not parse: %v", lang, err)
		}
		if len(doc.Entries) != len(lib.Posts(lang)) {
			t.Errorf("Feed(%s) has %d entries, want %d", lang, len(doc.Entries), len(lib.Posts(lang)))
		}
	}
}

// TestForgottenTextsRenderAgain: once a start's pages are rendered the
// posts' HTML goes and their text is kept compressed (Library.ForgetTexts);
// a page made again later (its file in the renders' cache gone) must show
// the very text it showed before, code highlighting included.
func TestForgottenTextsRenderAgain(t *testing.T) {
	lib, err := Load(os.DirFS("../.."), "content/blog", false, writeDate(t))
	if err != nil {
		t.Fatalf("Load(content/blog): %v", err)
	}
	before := map[*Post]string{}
	for _, lang := range lib.Languages() {
		for _, p := range lib.Posts(lang) {
			before[p] = p.HTML()
			if before[p] == "" {
				t.Fatalf("%s: no HTML", p.File)
			}
		}
	}
	for range 2 { // forgetting twice keeps the same text
		lib.ForgetTexts()
		for p, html := range before {
			if got := p.HTML(); got != html {
				t.Errorf("%s: rendered again after ForgetTexts, the HTML differs (%d bytes, was %d)", p.File, len(got), len(html))
			}
		}
	}
}
