package content

import (
	"errors"
	"io/fs"
	"slices"
	"testing"
	"testing/fstest"
)

// TestEachFileWalksLanguageFolders: every <lang>/<slug>.md is visited once,
// and nothing else a folder holds.
func TestEachFileWalksLanguageFolders(t *testing.T) {
	fsys := fstest.MapFS{
		"work/en/a.md":         {Data: []byte("a")},
		"work/fr/b.md":         {Data: []byte("b")},
		"work/fr/notes.txt":    {Data: []byte("not content")},
		"work/fr/img/c.md":     {Data: []byte("in a subfolder")},
		"work/.hidden/d.md":    {Data: []byte("hidden")},
		"work/README.md":       {Data: []byte("beside the languages")},
		"elsewhere/en/e.md":    {Data: []byte("another folder")},
		"work/de/uppercase.md": {Data: []byte("d")},
	}
	var seen []string
	err := EachFile(fsys, "work", func(lang, slug, file string, src []byte) {
		seen = append(seen, lang+" "+slug+" "+file+" "+string(src))
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"de uppercase work/de/uppercase.md d", "en a work/en/a.md a", "fr b work/fr/b.md b"}
	if !slices.Equal(seen, want) {
		t.Errorf("visited %q, want %q", seen, want)
	}
	if err := EachFile(fsys, "missing", func(string, string, string, []byte) {}); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing folder: %v, want fs.ErrNotExist", err)
	}
}

type frontMatter struct {
	Title string `yaml:"title"`
	Order int    `yaml:"order"`
}

// TestDecodeFrontMatter: an author's mistakes are named with the file and
// the line they see in their editor.
func TestDecodeFrontMatter(t *testing.T) {
	tests := []struct {
		name, slug, src string
		want            []string // each error, as the author reads it
		ok              bool
		title, body     string
	}{
		{name: "clean", slug: "a-post", src: "---\ntitle: Hello\norder: 2\n---\nBody\n", ok: true, title: "Hello", body: "Body\n"},
		{name: "byte-order mark and CRLF", slug: "a", src: "\uFEFF---\r\ntitle: Hello\r\n---\r\nBody\r\n", ok: true, title: "Hello", body: "Body\n"},
		{name: "unknown key on its line", slug: "a", src: "---\ntitle: Hello\ntitel: typo\n---\n",
			want: []string{"x.md:3: field titel not found in type content.frontMatter"}},
		{name: "wrong type on its line", slug: "a", src: "---\ntitle: Hello\norder: two\n---\n",
			want: []string{"x.md:3: cannot unmarshal !!str `two` into int"}},
		{name: "no front matter", slug: "a", src: "Body\n",
			want: []string{`x.md:1: front matter missing: the file must start with a line "---"`}},
		{name: "not closed", slug: "a", src: "---\ntitle: Hello\n",
			want: []string{`x.md:1: front matter not closed by a line "---"`}},
		{name: "a file name that is no slug", slug: "Hello_World", src: "---\ntitle: Hello\n---\n", ok: true, title: "Hello",
			want: []string{`x.md: file name "Hello_World.md": a slug is lower-case ASCII letters, digits and single hyphens`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var fm frontMatter
			_, body, errs, ok := DecodeFrontMatter("x.md", tt.slug, []byte(tt.src), &fm)
			if ok != tt.ok {
				t.Errorf("ok = %v, want %v", ok, tt.ok)
			}
			var got []string
			for _, err := range errs {
				if _, isContent := errors.AsType[*Error](err); !isContent {
					t.Errorf("%v is not an *Error", err)
				}
				got = append(got, err.Error())
			}
			if len(got) != len(tt.want) {
				t.Fatalf("errors %q, want %q", got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("error %q, want %q", got[i], tt.want[i])
				}
			}
			if ok && (fm.Title != tt.title || string(body) != tt.body) {
				t.Errorf("title %q body %q, want %q %q", fm.Title, body, tt.title, tt.body)
			}
		})
	}
}

// TestKeyLine finds a key of the front matter on the line of the file.
func TestKeyLine(t *testing.T) {
	front, _, err := SplitFrontMatter([]byte("---\ntitle: A\ncover:\n  src: x.png\n---\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got := KeyLine(front, "cover"); got != 3 {
		t.Errorf("cover on line %d, want 3", got)
	}
	if got := KeyLine(front, "photo"); got != 1 {
		t.Errorf("an absent key on line %d, want 1", got)
	}
}

// TestFrontMatterMistakesNameTheirLine: a YAML mistake in the front matter
// is placed on its own line of the file, whether the YAML parser or its
// scanner finds it, on the first line of the front matter as on any other.
func TestFrontMatterMistakesNameTheirLine(t *testing.T) {
	type front struct {
		Title       string   `yaml:"title"`
		Description string   `yaml:"description"`
		Tags        []string `yaml:"tags"`
	}
	for _, tc := range []struct {
		src  string
		want string
	}{
		{"---\ntitle: T: U\n---\nText\n", "x.md:2: mapping values are not allowed in this context"},
		{"---\ntitle: T\n- item\n---\nText\n", "x.md:3: did not find expected key"},
		{"---\n- item\ntitle: T\n---\nText\n", "x.md:3: did not find expected '-' indicator"},
		{"---\ntitle: T\ndescription: [unclosed\ntags: [a]\n---\nText\n", "x.md:3: did not find expected ',' or ']'"},
		{"---\ntitle: T\n  description: D\n---\nText\n", "x.md:3: mapping values are not allowed in this context"},
		{"---\ntitle: T\ndescription: \"unclosed\ntags: [a]\n---\nText\n", "x.md:3: found unexpected end of stream"},
		{"---\ntitle: T\n\tdescription: D\n---\nText\n", "x.md:3: found a tab character that violates indentation"},
		{"---\ntitle: T\ntitel: U\n---\nText\n", "x.md:3: field titel not found in type content.front"},
		{"---\ntitle: T\ntags: x\n---\nText\n", "x.md:3: cannot unmarshal !!str `x` into []string"},
	} {
		var v front
		_, _, errs, ok := DecodeFrontMatter("x.md", "x", []byte(tc.src), &v)
		if ok || len(errs) != 1 || errs[0].Error() != tc.want {
			t.Errorf("%q: ok %v, %v; want %q", tc.src, ok, errs, tc.want)
		}
	}
}
