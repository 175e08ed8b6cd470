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
	s, err := Load(os.DirFS(filepath.Join(projectRoot, "content")), "site.json")
	if err != nil {
		f.Fatal(err)
	}
	for _, p := range []string{"/", "", "/%2e%2e", "//"} {
		f.Add(p)
	}
	for _, l := range s.Languages {
		for _, p := range []string{"/" + l.Code, "/" + l.Code + "/x", l.Prefix + "/", l.Prefix + "/blog/x", l.Prefix + "x", "/" + l.Prefix, strings.TrimPrefix(l.Prefix, "/"), strings.ToUpper(l.Prefix) + "/", l.Prefix + "/../" + s.DefaultLanguage, l.Prefix + "/\x00"} {
			f.Add(p)
		}
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
