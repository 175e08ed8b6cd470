package site

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzSplitPath resolves the language of arbitrary paths: no panic, a
// declared language always, and the path rebuilds from its parts.
func FuzzSplitPath(f *testing.F) {
	for _, p := range []string{"/", "/fr", "/fr/", "/fr/blog/x", "/ar/schedule", "/de", "/en", "/en/x", "/frx", "//fr", "", "fr", "/FR/", "/ar/../de", "/%2e%2e", "/de/\x00"} {
		f.Add(p)
	}
	s, err := Load(os.DirFS(filepath.Join(projectRoot, "content")), "site.json")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, p string) {
		l, rest := s.SplitPath(p)
		if _, ok := s.Language(l.Code); !ok {
			t.Fatalf("SplitPath(%q) gave an undeclared language %q", p, l.Code)
		}
		if l.Prefix == "" {
			if rest != p {
				t.Fatalf("SplitPath(%q) changed the default language's path to %q", p, rest)
			}
			return
		}
		if !strings.HasPrefix(rest, "/") {
			t.Fatalf("SplitPath(%q) = %q, not a path", p, rest)
		}
		if rest == "/" && p == l.Prefix {
			return
		}
		if l.Prefix+rest != p {
			t.Fatalf("SplitPath(%q) = %s + %q", p, l.Prefix, rest)
		}
	})
}
