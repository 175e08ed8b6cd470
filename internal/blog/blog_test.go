package blog

import (
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/northbeam/site/internal/content"
	"github.com/northbeam/site/internal/intl"
	"github.com/northbeam/site/internal/site"
)

// writeDate writes dates as the site does: the shipped languages, from the
// project's CLDR data.
func writeDate(t testing.TB) DateWriter {
	t.Helper()
	info, err := site.Load(os.DirFS("../../content"), site.File)
	if err != nil {
		t.Fatal(err)
	}
	dates, err := intl.Load(os.DirFS("../../node_modules"), info.Languages)
	if err != nil {
		t.Fatal(err)
	}
	return dates.FormatDate
}

// file builds a post file from front matter lines and a body.
func file(frontMatter, body string) *fstest.MapFile {
	return &fstest.MapFile{Data: []byte("---\n" + frontMatter + "---\n" + body)}
}

// minimal returns valid front matter for a post published on date with key.
func minimal(date, key string, extra ...string) string {
	return "title: Post " + key + "\n" +
		"description: About " + key + ".\n" +
		"published: " + date + "\n" +
		"author: Lena Hartmann\n" +
		"translationKey: " + key + "\n" +
		strings.Join(extra, "")
}

const body = "\nSome text.\n"

func load(t *testing.T, fsys fstest.MapFS, includeDrafts bool) *Library {
	t.Helper()
	lib, err := Load(fsys, "content/blog", includeDrafts, writeDate(t))
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	return lib
}

func TestLoadFrontMatter(t *testing.T) {
	fsys := fstest.MapFS{
		"content/blog/fr/figuier-etrangleur.md": file(`title: "Le figuier étrangleur : moderniser sans tout réécrire"
description: Remplacer un système existant route par route.
published: 2026-05-12
updated: 2026-06-02T09:30:00+02:00
author: Julien Moreau
tags: [Architecture, Systèmes hérités]
cover:
  src: /images/blog/figuier.jpg
  alt: Un figuier enlaçant un vieux mur
  width: 1200
  height: 630
translationKey: strangler-fig
draft: false
`, "\n## Pourquoi ça marche\n\nDu texte ici.\n\n### Détail\n\n```go\nfunc main() {}\n```\n"),
		"content/blog/README.md":       {Data: []byte("not a post")},
		"content/blog/fr/notes.txt":    {Data: []byte("not a post either")},
		"content/blog/fr/img/cover.md": {Data: []byte("in a subdirectory: ignored")},
	}
	lib := load(t, fsys, false)
	p, err := lib.Post("fr", "figuier-etrangleur")
	if err != nil {
		t.Fatal(err)
	}
	paris := time.FixedZone("", 2*3600)
	want := &Post{
		Lang: "fr", Slug: "figuier-etrangleur", File: "content/blog/fr/figuier-etrangleur.md",
		Title:          "Le figuier étrangleur : moderniser sans tout réécrire",
		Description:    "Remplacer un système existant route par route.",
		Author:         "Julien Moreau",
		Published:      time.Date(2026, 5, 12, 0, 0, 0, 0, time.UTC),
		Updated:        time.Date(2026, 6, 2, 9, 30, 0, 0, paris),
		Tags:           []Tag{{"architecture", "Architecture"}, {"systèmes-hérités", "Systèmes hérités"}},
		Cover:          &Cover{Src: "/images/blog/figuier.jpg", Alt: "Un figuier enlaçant un vieux mur", Width: 1200, Height: 630},
		TranslationKey: "strangler-fig",
	}
	if p.Title != want.Title || p.Description != want.Description || p.Author != want.Author ||
		p.File != want.File || p.TranslationKey != want.TranslationKey || p.Draft {
		t.Errorf("post = %+v\nwant %+v", p, want)
	}
	if !p.Published.Equal(want.Published) || !p.Updated.Equal(want.Updated) {
		t.Errorf("dates = %v, %v; want %v, %v", p.Published, p.Updated, want.Published, want.Updated)
	}
	if fmt.Sprint(p.Tags) != fmt.Sprint(want.Tags) || *p.Cover != *want.Cover {
		t.Errorf("tags, cover = %v, %+v; want %v, %+v", p.Tags, p.Cover, want.Tags, want.Cover)
	}
	if len(p.TOC) != 2 || p.TOC[0].ID != "pourquoi-ça-marche" || p.TOC[1].Level != 3 {
		t.Errorf("TOC = %+v", p.TOC)
	}
	if !strings.Contains(p.HTML(), `<pre class="chroma" dir="ltr"`) || !strings.Contains(p.HTML(), `<h2 id="pourquoi-ça-marche">`) {
		t.Errorf("HTML = %s", p.HTML())
	}
	if p.Words != 9 || p.ReadingMinutes != 1 {
		t.Errorf("words, minutes = %d, %d; want 9, 1", p.Words, p.ReadingMinutes)
	}
	if got := lib.Languages(); fmt.Sprint(got) != "[fr]" {
		t.Errorf("Languages = %v, want [fr]", got)
	}
}

func TestLoadErrors(t *testing.T) {
	valid := minimal("2026-03-01", "ok")
	tests := []struct {
		name  string
		files map[string]string // path under content/blog → content
		want  []string          // substrings of the error
	}{
		{
			name:  "invalid date names file, line and field",
			files: map[string]string{"fr/x.md": "---\ntitle: T\ndescription: D\npublished: 2026-13-01\nauthor: A\ntranslationKey: x\n---\nText\n"},
			want:  []string{`content/blog/fr/x.md:4: published: invalid date "2026-13-01"`},
		},
		{
			name:  "unknown key",
			files: map[string]string{"en/x.md": "---\n" + valid + "titel: Typo\n---\nText\n"},
			want:  []string{`content/blog/en/x.md:7: titel: unknown front matter key`},
		},
		{
			name:  "required fields",
			files: map[string]string{"en/x.md": "---\ndescription: D\npublished: 2026-01-01\n---\nText\n"},
			want: []string{
				`content/blog/en/x.md:1: title: required`,
				`content/blog/en/x.md:1: author: required`,
				`content/blog/en/x.md:1: translationKey: required`,
			},
		},
		{
			name:  "empty required field",
			files: map[string]string{"en/x.md": "---\n" + strings.Replace(valid, "author: Lena Hartmann", "author: \"  \"", 1) + "---\nText\n"},
			want:  []string{`content/blog/en/x.md:5: author: required`},
		},
		{
			name:  "no front matter",
			files: map[string]string{"en/x.md": "# Just Markdown\n"},
			want:  []string{`content/blog/en/x.md:1: front matter missing`},
		},
		{
			name:  "front matter not closed",
			files: map[string]string{"en/x.md": "---\n" + valid + "\nText\n"},
			want:  []string{`content/blog/en/x.md:1: front matter not closed`},
		},
		{
			name:  "YAML syntax error",
			files: map[string]string{"de/x.md": "---\ntitle: T\ndescription: [unclosed\nauthor: A\n---\nText\n"},
			want:  []string{`content/blog/de/x.md:3: invalid YAML: did not find expected ',' or ']'`},
		},
		{
			name:  "YAML mistake on the front matter's first line",
			files: map[string]string{"de/x.md": "---\ntitle: T: U\nauthor: A\n---\nText\n"},
			want:  []string{`content/blog/de/x.md:2: invalid YAML: mapping values are not allowed in this context`},
		},
		{
			name:  "YAML mistake the parser finds, on its line",
			files: map[string]string{"de/x.md": "---\ntitle: T\n- item\nauthor: A\n---\nText\n"},
			want:  []string{`content/blog/de/x.md:3: invalid YAML: did not find expected key`},
		},
		{
			name:  "YAML syntax error line",
			files: map[string]string{"de/x.md": "---\ntitle: T\n  indented: wrong\n---\nText\n"},
			want:  []string{`content/blog/de/x.md:3: invalid YAML: mapping values are not allowed`},
		},
		{
			name:  "tag given twice, in two cases",
			files: map[string]string{"en/x.md": "---\n" + valid + "tags:\n  - DevOps\n  - devops\n---\nText\n"},
			want:  []string{`content/blog/en/x.md:9: tags: "devops": given twice`},
		},
		{
			name:  "tag with punctuation",
			files: map[string]string{"en/x.md": "---\n" + valid + "tags: [\"platform/engineering\"]\n---\nText\n"},
			want:  []string{`content/blog/en/x.md:7: tags: "platform/engineering": a tag holds letters, digits, spaces and hyphens only`},
		},
		{
			name:  "tag with two spaces",
			files: map[string]string{"en/x.md": "---\n" + valid + "tags: [\"platform  engineering\"]\n---\nText\n"},
			want:  []string{`content/blog/en/x.md:7: tags: "platform  engineering": words are separated by single spaces`},
		},
		{
			name: "tag written two ways in a language",
			files: map[string]string{
				"en/x.md": "---\n" + valid + "tags: [DevOps]\n---\nText\n",
				"en/y.md": "---\n" + minimal("2026-03-02", "other") + "tags: [Devops]\n---\nText\n",
			},
			want: []string{`content/blog/en/y.md:7: tags: "Devops" is written "DevOps" in content/blog/en/x.md`},
		},
		{
			name:  "tags not a list",
			files: map[string]string{"en/x.md": "---\n" + valid + "tags: go\n---\nText\n"},
			want:  []string{`content/blog/en/x.md:7: tags: must be a list`},
		},
		{
			name:  "cover without height",
			files: map[string]string{"en/x.md": "---\n" + valid + "cover:\n  src: /a.jpg\n  alt: A\n  width: 10\n---\nText\n"},
			want:  []string{`content/blog/en/x.md:8: cover: height: required`},
		},
		{
			name:  "cover with a bad width",
			files: map[string]string{"en/x.md": "---\n" + valid + "cover:\n  src: /a.jpg\n  alt: A\n  width: wide\n  height: 10\n---\nText\n"},
			want:  []string{`content/blog/en/x.md:10: cover: width: "wide": must be a whole number of pixels`},
		},
		{
			name:  "cover with an unknown key",
			files: map[string]string{"en/x.md": "---\n" + valid + "cover:\n  src: /a.jpg\n  caption: no\n---\nText\n"},
			want:  []string{`content/blog/en/x.md:9: cover: unknown key "caption"`},
		},
		{
			name:  "draft not a boolean",
			files: map[string]string{"en/x.md": "---\n" + valid + "draft: yes\n---\nText\n"},
			want:  []string{`content/blog/en/x.md:7: draft: "yes": must be true or false`},
		},
		{
			name:  "updated before published",
			files: map[string]string{"en/x.md": "---\n" + valid + "updated: 2026-02-01\n---\nText\n"},
			want:  []string{`content/blog/en/x.md:7: updated: before published`},
		},
		{
			name:  "key given twice",
			files: map[string]string{"en/x.md": "---\n" + valid + "title: Again\n---\nText\n"},
			want:  []string{`content/blog/en/x.md:7: title: given twice`},
		},
		{
			name:  "bad translation key",
			files: map[string]string{"en/x.md": "---\n" + strings.Replace(valid, "translationKey: ok", "translationKey: Not OK", 1) + "---\nText\n"},
			want:  []string{`content/blog/en/x.md:6: translationKey: "Not OK"`},
		},
		{
			name:  "bad slug",
			files: map[string]string{"en/My Post.md": "---\n" + valid + "---\nText\n"},
			want:  []string{`content/blog/en/My Post.md: file name "My Post.md"`},
		},
		{
			name:  "no text",
			files: map[string]string{"en/x.md": "---\n" + valid + "---\n\n"},
			want:  []string{`content/blog/en/x.md: the post has no text`},
		},
		{
			name: "translation key used twice in a language",
			files: map[string]string{
				"en/a.md": "---\n" + valid + "---\nText\n",
				"en/b.md": "---\n" + valid + "---\nText\n",
			},
			want: []string{`content/blog/en/b.md:6: translationKey: "ok" is already used by content/blog/en/a.md`},
		},
		{
			name: "every file's errors at once",
			files: map[string]string{
				"en/a.md": "---\n" + valid + "oops: 1\n---\nText\n",
				"fr/b.md": "---\n" + valid + "published: never\n---\nText\n",
			},
			want: []string{`content/blog/en/a.md:7: oops: unknown`, `content/blog/fr/b.md:7: published: given twice`},
		},
		{
			name:  "CRLF line endings and a BOM",
			files: map[string]string{"en/x.md": "\uFEFF---\r\ntitle: T\r\ndescription: D\r\npublished: 2026-1-2\r\nauthor: A\r\ntranslationKey: x\r\n---\r\nText\r\n"},
			want:  []string{`content/blog/en/x.md:4: published: invalid date "2026-1-2"`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fsys := fstest.MapFS{}
			for name, content := range tt.files {
				fsys["content/blog/"+name] = &fstest.MapFile{Data: []byte(content)}
			}
			_, err := Load(fsys, "content/blog", true, writeDate(t))
			if err == nil {
				t.Fatal("Load succeeded, want an error")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error lacks %q:\n%v", w, err)
				}
			}
			var ce *content.Error
			if !errors.As(err, &ce) {
				t.Errorf("error %v holds no *content.Error", err)
			}
		})
	}
}

func TestLoadMissingRoot(t *testing.T) {
	if _, err := Load(fstest.MapFS{}, "content/blog", false, writeDate(t)); err == nil {
		t.Fatal("Load of a missing directory succeeded")
	}
}

// generated returns n English posts, post-01 the oldest, published a day
// apart, each tagged "all" and, for every third one, "third".
func generated(n int) fstest.MapFS {
	fsys := fstest.MapFS{}
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := 1; i <= n; i++ {
		tags := "tags: [all]\n"
		if i%3 == 0 {
			tags = "tags: [all, third]\n"
		}
		key := fmt.Sprintf("post-%02d", i)
		fsys["content/blog/en/"+key+".md"] = file(minimal(start.AddDate(0, 0, i).Format(time.DateOnly), key, tags), body)
	}
	return fsys
}

func slugs(summaries []Summary) []string {
	var out []string
	for _, s := range summaries {
		out = append(out, s.Slug)
	}
	return out
}

func TestOrderingNewestFirst(t *testing.T) {
	fsys := fstest.MapFS{
		"content/blog/en/old.md":    file(minimal("2026-01-10", "old"), body),
		"content/blog/en/new.md":    file(minimal("2026-09-01", "new"), body),
		"content/blog/en/middle.md": file(minimal("2026-05-05", "middle"), body),
		// Same day: the slug decides, so the order never changes between starts.
		"content/blog/en/same-b.md": file(minimal("2026-05-05", "same-b"), body),
		"content/blog/en/same-a.md": file(minimal("2026-05-05", "same-a"), body),
	}
	lib := load(t, fsys, false)
	var got []string
	for _, p := range lib.Posts("en") {
		got = append(got, p.Slug)
	}
	want := "[new middle same-a same-b old]"
	if fmt.Sprint(got) != want {
		t.Errorf("Posts = %v, want %s", got, want)
	}
	if lib.Posts("fr") != nil {
		t.Errorf("Posts(fr) = %v, want nil", lib.Posts("fr"))
	}
}

func TestPagination(t *testing.T) {
	lib := load(t, generated(23), false)
	tests := []struct {
		page      int
		wantFirst string
		wantLast  string
		wantLen   int
	}{
		{1, "post-23", "post-14", 10},
		{2, "post-13", "post-04", 10},
		{3, "post-03", "post-01", 3},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint("page ", tt.page), func(t *testing.T) {
			p, err := lib.Page("en", tt.page, "")
			if err != nil {
				t.Fatal(err)
			}
			got := slugs(p.Posts)
			if p.Number != tt.page || p.TotalPages != 3 || p.TotalPosts != 23 || len(got) != tt.wantLen ||
				got[0] != tt.wantFirst || got[len(got)-1] != tt.wantLast {
				t.Errorf("page = %d/%d of %d posts %v; want %d/3 of 23, %s…%s (%d)",
					p.Number, p.TotalPages, p.TotalPosts, got, tt.page, tt.wantFirst, tt.wantLast, tt.wantLen)
			}
		})
	}
	for _, page := range []int{-1, 0, 4} {
		if _, err := lib.Page("en", page, ""); !errors.Is(err, ErrNotFound) {
			t.Errorf("Page(%d) error = %v, want ErrNotFound", page, err)
		}
	}
	// A language without posts has one empty page.
	p, err := lib.Page("de", 1, "")
	if err != nil || p.TotalPages != 1 || len(p.Posts) != 0 || p.Posts == nil || p.Tags == nil {
		t.Errorf("Page(de, 1) = %+v, %v; want one empty page", p, err)
	}
	if _, err := lib.Page("de", 2, ""); !errors.Is(err, ErrNotFound) {
		t.Errorf("Page(de, 2) error = %v, want ErrNotFound", err)
	}
	// Exactly ten posts make one page.
	ten := load(t, generated(10), false)
	if p, _ := ten.Page("en", 1, ""); p.TotalPages != 1 {
		t.Errorf("10 posts give %d pages, want 1", p.TotalPages)
	}
}

func TestTagFilter(t *testing.T) {
	lib := load(t, generated(23), false)
	wantTags := []TagCount{{"all", "all", 23}, {"third", "third", 7}}
	if got := lib.Tags("en"); fmt.Sprint(got) != fmt.Sprint(wantTags) {
		t.Errorf("Tags = %v, want %v", got, wantTags)
	}
	p, err := lib.Page("en", 1, "third")
	if err != nil {
		t.Fatal(err)
	}
	want := "[post-21 post-18 post-15 post-12 post-09 post-06 post-03]"
	if got := slugs(p.Posts); fmt.Sprint(got) != want || p.TotalPages != 1 || p.TotalPosts != 7 || p.Tag != "third" {
		t.Errorf("Page(third) = %v (%d pages, %d posts, tag %q), want %s", got, p.TotalPages, p.TotalPosts, p.Tag, want)
	}
	if fmt.Sprint(p.Tags) != fmt.Sprint(wantTags) {
		t.Errorf("a filtered page lists tags %v, want all of them: %v", p.Tags, wantTags)
	}
	if _, err := lib.Page("en", 2, "third"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Page(2, third) error = %v, want ErrNotFound", err)
	}
	if _, err := lib.Page("en", 1, "nope"); !errors.Is(err, ErrNotFound) {
		t.Errorf("unknown tag error = %v, want ErrNotFound", err)
	}
}

func TestReadingTime(t *testing.T) {
	long := strings.Repeat("word ", 661) // 661 words: 3.004 minutes → 4
	fsys := fstest.MapFS{
		"content/blog/en/short.md": file(minimal("2026-01-01", "short"), "\nJust a few words.\n"),
		"content/blog/en/long.md":  file(minimal("2026-01-02", "long"), "\n"+long+"\n"),
		"content/blog/ar/long.md":  file(minimal("2026-01-02", "long"), "\n"+strings.Repeat("كلمة عربية ", 220)+"\n"),
	}
	lib := load(t, fsys, false)
	tests := []struct {
		lang, slug  string
		words, mins int
	}{
		{"en", "short", 4, 1},
		{"en", "long", 661, 4},
		{"ar", "long", 440, 2},
	}
	for _, tt := range tests {
		p, err := lib.Post(tt.lang, tt.slug)
		if err != nil {
			t.Fatal(err)
		}
		if p.Words != tt.words || p.ReadingMinutes != tt.mins || p.Summary().ReadingMinutes != tt.mins {
			t.Errorf("%s/%s: %d words, %d minutes; want %d, %d", tt.lang, tt.slug, p.Words, p.ReadingMinutes, tt.words, tt.mins)
		}
	}
}

func TestDrafts(t *testing.T) {
	fsys := fstest.MapFS{
		"content/blog/en/public.md": file(minimal("2026-01-01", "public"), body),
		"content/blog/en/draft.md":  file(minimal("2026-02-01", "draft", "draft: true\ntags: [secret]\n"), body),
		"content/blog/fr/draft.md":  file(minimal("2026-02-01", "draft", "draft: true\n"), body),
	}
	tests := []struct {
		includeDrafts bool
		wantEN        int
		wantFound     bool
	}{
		{false, 1, false},
		{true, 2, true},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint("includeDrafts=", tt.includeDrafts), func(t *testing.T) {
			lib := load(t, fsys, tt.includeDrafts)
			if got := len(lib.Posts("en")); got != tt.wantEN {
				t.Errorf("%d English posts, want %d", got, tt.wantEN)
			}
			_, err := lib.Post("en", "draft")
			if found := err == nil; found != tt.wantFound {
				t.Errorf("draft found = %v, want %v", found, tt.wantFound)
			}
			_, err = lib.Page("en", 1, "secret")
			if found := err == nil; found != tt.wantFound {
				t.Errorf("draft's tag found = %v, want %v", found, tt.wantFound)
			}
			tr, _ := lib.Translations("en", "public")
			if len(tr) != 0 {
				t.Errorf("public post has translations %v", tr)
			}
			_, err = lib.Feed("fr", "https://x.test", "X", func(lang, slug string) string { return "/" + lang + "/blog/" + slug })
			if found := err == nil; found != tt.wantFound {
				t.Errorf("French feed (drafts only) found = %v, want %v", found, tt.wantFound)
			}
		})
	}
}

func translatedLibrary(t *testing.T) *Library {
	return load(t, fstest.MapFS{
		"content/blog/en/strangler-fig.md":        file(minimal("2026-05-12", "strangler-fig"), body),
		"content/blog/fr/figuier-etrangleur.md":   file(minimal("2026-05-12", "strangler-fig"), body),
		"content/blog/de/strangler-fig-muster.md": file(minimal("2026-05-13", "strangler-fig"), body),
		"content/blog/ar/strangler-fig.md":        file(minimal("2026-05-12", "strangler-fig"), body),
		"content/blog/en/older.md":                file(minimal("2026-02-01", "older"), body),
		"content/blog/en/newer.md":                file(minimal("2026-10-01", "newer"), body),
		"content/blog/fr/plus-recent.md":          file(minimal("2026-10-01", "newer"), body),
	}, false)
}

func TestTranslations(t *testing.T) {
	lib := translatedLibrary(t)
	tests := []struct {
		lang, slug string
		want       string
	}{
		{"en", "strangler-fig", "[{ar strangler-fig Post strangler-fig} {de strangler-fig-muster Post strangler-fig} {fr figuier-etrangleur Post strangler-fig}]"},
		{"fr", "figuier-etrangleur", "[{ar strangler-fig Post strangler-fig} {de strangler-fig-muster Post strangler-fig} {en strangler-fig Post strangler-fig}]"},
		{"en", "newer", "[{fr plus-recent Post newer}]"},
		{"en", "older", "[]"},
	}
	for _, tt := range tests {
		got, err := lib.Translations(tt.lang, tt.slug)
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(got) != tt.want {
			t.Errorf("Translations(%s, %s) = %v, want %s", tt.lang, tt.slug, got, tt.want)
		}
	}
}

func TestNeighboursAndArticle(t *testing.T) {
	lib := translatedLibrary(t)
	tests := []struct {
		slug, newer, older string
	}{
		{"newer", "", "strangler-fig"},
		{"strangler-fig", "newer", "older"},
		{"older", "strangler-fig", ""},
	}
	name := func(p *Post) string {
		if p == nil {
			return ""
		}
		return p.Slug
	}
	for _, tt := range tests {
		newer, older, err := lib.Neighbours("en", tt.slug)
		if err != nil {
			t.Fatal(err)
		}
		if name(newer) != tt.newer || name(older) != tt.older {
			t.Errorf("Neighbours(%s) = %q, %q; want %q, %q", tt.slug, name(newer), name(older), tt.newer, tt.older)
		}
	}

	a, err := lib.Article("en", "strangler-fig")
	if err != nil {
		t.Fatal(err)
	}
	if a.Newer == nil || a.Newer.Slug != "newer" || a.Older == nil || a.Older.Slug != "older" || len(a.Translations) != 3 {
		t.Errorf("Article = %+v", a)
	}
	raw, err := json.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{`"slug":"strangler-fig"`, `"html":"\u003cp\u003eSome text.\u003c/p\u003e\n"`, `"toc":[]`, `"newer":{`, `"translations":[{"lang":"ar"`} {
		if !strings.Contains(string(raw), w) {
			t.Errorf("Article JSON lacks %s:\n%s", w, raw)
		}
	}
}

func TestNotFound(t *testing.T) {
	lib := translatedLibrary(t)
	if _, err := lib.Post("en", "no-such-post"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Post error = %v, want ErrNotFound", err)
	}
	if _, err := lib.Post("it", "strangler-fig"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Post in an unknown language error = %v, want ErrNotFound", err)
	}
	if _, err := lib.Post("fr", "strangler-fig"); !errors.Is(err, ErrNotFound) {
		t.Errorf("English slug in French error = %v, want ErrNotFound", err)
	}
	if _, err := lib.Article("en", "nope"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Article error = %v, want ErrNotFound", err)
	}
	if _, _, err := lib.Neighbours("en", "nope"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Neighbours error = %v, want ErrNotFound", err)
	}
	if _, err := lib.Translations("en", "nope"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Translations error = %v, want ErrNotFound", err)
	}
}

func TestSummaryJSON(t *testing.T) {
	fsys := fstest.MapFS{
		"content/blog/fr/a.md": file(minimal("2026-11-20", "a", "updated: 2026-12-01\ntags: [go]\n"), body),
		"content/blog/ar/a.md": file(minimal("2026-11-20", "a"), body),
		"content/blog/de/a.md": file(minimal("2026-11-20", "a"), body),
	}
	lib := load(t, fsys, false)
	tests := []struct {
		lang string
		want []string
	}{
		{"fr", []string{`"published":"2026-11-20"`, `"publishedText":"20 novembre 2026"`, `"updated":"2026-12-01"`, `"updatedText":"1er décembre 2026"`, `"tags":[{"slug":"go","name":"go"}]`, `"readingMinutes":1`}},
		{"de", []string{`"publishedText":"20. November 2026"`, `"tags":[]`}},
		{"ar", []string{`"publishedText":"20 نوفمبر 2026"`}},
	}
	for _, tt := range tests {
		p, err := lib.Page(tt.lang, 1, "")
		if err != nil {
			t.Fatal(err)
		}
		raw, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range tt.want {
			if !strings.Contains(string(raw), w) {
				t.Errorf("%s JSON lacks %s:\n%s", tt.lang, w, raw)
			}
		}
		if tt.lang != "fr" && (strings.Contains(string(raw), `"updated"`) || strings.Contains(string(raw), `"cover"`)) {
			t.Errorf("%s JSON has empty optional fields:\n%s", tt.lang, raw)
		}
	}
}

// atomDoc is the shape the feed is parsed back into.
type atomDoc struct {
	XMLName xml.Name `xml:"http://www.w3.org/2005/Atom feed"`
	Lang    string   `xml:"http://www.w3.org/XML/1998/namespace lang,attr"`
	ID      string   `xml:"id"`
	Title   string   `xml:"title"`
	Updated string   `xml:"updated"`
	Author  []struct {
		Name string `xml:"name"`
	} `xml:"author"`
	Links   []atomLink `xml:"link"`
	Entries []struct {
		ID        string     `xml:"id"`
		Title     string     `xml:"title"`
		Updated   string     `xml:"updated"`
		Published string     `xml:"published"`
		Links     []atomLink `xml:"link"`
		Author    struct {
			Name string `xml:"name"`
		} `xml:"author"`
		Categories []atomCategory `xml:"category"`
		Summary    string         `xml:"summary"`
		Content    struct {
			Type string `xml:"type,attr"`
			Base string `xml:"http://www.w3.org/XML/1998/namespace base,attr"`
			Body string `xml:",chardata"`
		} `xml:"content"`
	} `xml:"entry"`
}

func TestFeed(t *testing.T) {
	fsys := fstest.MapFS{
		"content/blog/fr/ancien.md": file(minimal("2026-02-01", "ancien", "tags: [Go, Architecture logicielle]\n"), "\n## Titre & sous-titre\n\nDu <b>texte</b> ]]> et du code :\n\n```go\nfunc main() {}\n```\n"),
		"content/blog/fr/recent.md": file(minimal("2026-09-01", "recent", "updated: 2026-10-05T14:00:00+02:00\n"), body),
	}
	lib := load(t, fsys, false)
	postURL := func(lang, slug string) string { return "/" + lang + "/blog/" + slug }
	raw, err := lib.Feed("fr", "https://northbeam.dev/", "Northbeam", postURL)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(raw), `<?xml version="1.0" encoding="UTF-8"?>`) {
		t.Errorf("feed lacks the XML declaration:\n%s", raw)
	}
	var doc atomDoc
	if err := xml.Unmarshal(raw, &doc); err != nil {
		t.Fatalf("feed does not parse: %v\n%s", err, raw)
	}
	if doc.Lang != "fr" || doc.ID != "https://northbeam.dev/fr/blog" || doc.Title != "Northbeam" ||
		doc.Updated != "2026-10-05T12:00:00Z" || len(doc.Author) != 1 || doc.Author[0].Name != "Northbeam" {
		t.Errorf("feed head = lang %q, id %q, title %q, updated %q, authors %v", doc.Lang, doc.ID, doc.Title, doc.Updated, doc.Author)
	}
	links := map[string]string{}
	for _, l := range doc.Links {
		links[l.Rel] = l.Href
	}
	if links["self"] != "https://northbeam.dev/fr/blog/feed.xml" || links["alternate"] != "https://northbeam.dev/fr/blog" {
		t.Errorf("feed links = %v", links)
	}
	if len(doc.Entries) != 2 {
		t.Fatalf("%d entries, want 2", len(doc.Entries))
	}
	recent, old := doc.Entries[0], doc.Entries[1]
	if recent.ID != "https://northbeam.dev/fr/blog/recent" || recent.Updated != "2026-10-05T12:00:00Z" || recent.Published != "2026-09-01T00:00:00Z" {
		t.Errorf("newest entry = %+v", recent)
	}
	for _, e := range doc.Entries {
		if e.ID == "" || e.Title == "" || e.Updated == "" || e.Author.Name == "" || e.Summary == "" {
			t.Errorf("entry lacks a required element: %+v", e)
		}
		if len(e.Links) != 1 || e.Links[0].Rel != "alternate" || e.Links[0].Href != e.ID {
			t.Errorf("entry links = %+v", e.Links)
		}
		if e.Content.Type != "html" || e.Content.Base != e.ID {
			t.Errorf("entry content type %q base %q", e.Content.Type, e.Content.Base)
		}
		if _, err := time.Parse(time.RFC3339, e.Updated); err != nil {
			t.Errorf("entry updated: %v", err)
		}
	}
	p, _ := lib.Post("fr", "ancien")
	if old.Content.Body != p.HTML() {
		t.Errorf("content = %q, want the post's HTML %q", old.Content.Body, p.HTML())
	}
	if fmt.Sprint(old.Categories) != "[{go Go} {architecture-logicielle Architecture logicielle}]" {
		t.Errorf("categories = %v", old.Categories)
	}

	// AtomFeed with explicit URLs and a limit.
	raw, err = lib.AtomFeed("fr", FeedConfig{
		BaseURL: "https://northbeam.dev", Title: "Northbeam — le blog", Author: "Northbeam Software GmbH",
		SelfURL: "/fr/feed.atom", AlternateURL: "https://northbeam.dev/fr/blog/", PostURL: postURL, Limit: 1,
	})
	if err != nil {
		t.Fatal(err)
	}
	doc = atomDoc{}
	if err := xml.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Entries) != 1 || doc.Title != "Northbeam — le blog" || doc.Author[0].Name != "Northbeam Software GmbH" ||
		doc.Links[0].Href != "https://northbeam.dev/fr/feed.atom" || doc.ID != "https://northbeam.dev/fr/blog/" {
		t.Errorf("AtomFeed = %+v", doc)
	}
	if _, err := lib.Feed("en", "https://northbeam.dev", "Northbeam", postURL); !errors.Is(err, ErrNotFound) {
		t.Errorf("feed of a language without posts: error = %v, want ErrNotFound", err)
	}
}
