package site

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestCodeNamesNoLanguage fails when the code, Go or TypeScript, singles
// out one of the site's languages (a switch case, a comparison, a list, a
// file of its own): what differs by language is data, in content/site.json
// and what is derived from it. Tests, which check the shipped languages,
// may name them.
func TestCodeNamesNoLanguage(t *testing.T) {
	root := projectRoot
	info, err := Load(os.DirFS(filepath.Join(root, "content")), File)
	if err != nil {
		t.Fatal(err)
	}
	var patterns []*regexp.Regexp
	for _, code := range info.Languages.Codes() {
		q := regexp.QuoteMeta(code)
		patterns = append(patterns, regexp.MustCompile(`\{["']`+q+`["'], |`+`case ["']`+q+`["']|[!=]==? ?["']`+q+`["']|["']`+q+`["'] ?[!=]==?|\| ?["']`+q+`["']|["']`+q+`["'] ?\||\(["']`+q+`["'][,)]|/`+q+`\.json["']|/main/`+q+`/|\b`+q+`: ["']|["']`+q+`["']: ["']`))
	}
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".") && p != root) {
			return fs.SkipDir
		}
		// A benchmark renders in one language of its choosing.
		code := strings.HasSuffix(p, ".ts") || strings.HasSuffix(p, ".tsx") || strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, "_test.go")
		if d.IsDir() || !code || strings.Contains(p, "bench") {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(src), "\n") {
			// The reference language's strings give the strings' type;
			// comments may give examples.
			trimmed := strings.TrimSpace(line)
			if strings.HasPrefix(line, "import type ") || strings.HasPrefix(trimmed, "//") || strings.HasPrefix(trimmed, "*") {
				continue
			}
			for _, re := range patterns {
				if m := re.FindString(line); m != "" {
					rel, _ := filepath.Rel(root, p)
					t.Errorf("%s:%d names a language (%s): %s", rel, i+1, m, strings.TrimSpace(line))
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
