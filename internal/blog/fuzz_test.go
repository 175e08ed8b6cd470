package blog

import (
	"errors"
	"testing"
	"testing/fstest"

	"github.com/northbeam/site/internal/content"
)

// FuzzFrontMatter loads a post of arbitrary bytes: no panic, and a refusal
// is a content.Error naming the file, as the author sees it.
func FuzzFrontMatter(f *testing.F) {
	f.Add([]byte("---\n" + minimal("2026-03-01", "ok") + "---\n" + body))
	f.Add([]byte("---\n" + minimal("2026-03-01", "ok", "tags: [go, web]\n", "draft: true\n", "updated: 2026-03-02\n") + "---\n# Title\n\nText.\n"))
	f.Add([]byte("---\ntitle: T\ndescription: D\npublished: 2026-13-01\nauthor: A\ntranslationKey: x\n---\nText\n"))
	f.Add([]byte("---\ntitle: [unclosed\n---\n"))
	f.Add([]byte("---\n- a\n- b\n---\n"))
	f.Add([]byte("---\ntitle: &a [*a, *a]\n---\n"))
	f.Add([]byte("---\ntitle: T\ntitle: U\n...\nbody"))
	f.Add([]byte("no front matter"))
	f.Add([]byte("---\r\ntitle: T\r\n---\r\n"))
	f.Add([]byte("---"))
	f.Add([]byte{})
	dates := writeDate(f)
	f.Fuzz(func(t *testing.T, src []byte) {
		fsys := fstest.MapFS{"content/blog/en/post.md": &fstest.MapFile{Data: src}}
		lib, err := Load(fsys, "content/blog", true, dates)
		if err != nil {
			var ce *content.Error
			if !errors.As(err, &ce) {
				t.Fatalf("error %v is not a content.Error", err)
			}
			return
		}
		for _, p := range lib.Posts("en") {
			if p.Title == "" {
				t.Fatalf("post without a title loaded from %q", src)
			}
		}
	})
}
