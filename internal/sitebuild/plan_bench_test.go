package sitebuild_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/northbeam/site/internal/assets"
	"github.com/northbeam/site/internal/sitebuild"
	"github.com/northbeam/site/internal/sitetest"
)

// BenchmarkNew measures what a -dev rebuild's site phase costs at 4
// (the project's), 100 and 1,000 posts a language: "post" is a build
// after a post's edit (the collections loaded again, every post but the
// edited one taken from Parsed), "strings" one after a string's edit
// (the collections of the build before kept: the pages planned again).
func BenchmarkNew(b *testing.B) {
	bundle := benchBundle(b)
	for _, n := range []int{4, 100, 1000} {
		dir := benchContent(b, n)
		content := os.DirFS(dir)
		parsed := sitebuild.NewParsed()
		opts := sitebuild.Options{BaseURL: sitetest.BaseURL, Lazy: true, Dev: true, Parsed: parsed}
		first, err := sitebuild.New(context.Background(), content, bundle, nil, opts)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("post/%d", n), func(b *testing.B) {
			for b.Loop() {
				if _, err := sitebuild.New(context.Background(), content, bundle, nil, opts); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("strings/%d", n), func(b *testing.B) {
			o := opts
			o.Collections = first
			for b.Loop() {
				if _, err := sitebuild.New(context.Background(), content, bundle, nil, o); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

var benchBundles struct {
	once   sync.Once
	bundle *assets.Bundle
	err    error
}

func benchBundle(b *testing.B) *assets.Bundle {
	benchBundles.once.Do(func() { benchBundles.bundle, benchBundles.err = assets.Build(sitetest.Root()) })
	if benchBundles.err != nil {
		b.Fatal(benchBundles.err)
	}
	return benchBundles.bundle
}

var frontMatterLine = regexp.MustCompile(`(?m)^(title|translationKey): *(.*)$`)

// benchContent is a copy of the project's content with copies of its
// posts added until each language has n (as the content bench makes them).
func benchContent(b *testing.B, n int) string {
	dir := filepath.Join(b.TempDir(), "content")
	if err := os.CopyFS(dir, sitetest.Content()); err != nil {
		b.Fatal(err)
	}
	langs, err := os.ReadDir(filepath.Join(dir, "blog"))
	if err != nil {
		b.Fatal(err)
	}
	for _, l := range langs {
		files, _ := filepath.Glob(filepath.Join(dir, "blog", l.Name(), "*.md"))
		// By translation key: copy i of a post in every language is a
		// translation of the others.
		key := func(f string) string {
			data, _ := os.ReadFile(f)
			for _, m := range frontMatterLine.FindAllStringSubmatch(string(data), -1) {
				if m[1] == "translationKey" {
					return m[2]
				}
			}
			return f
		}
		slices.SortFunc(files, func(a, b string) int { return strings.Compare(key(a), key(b)) })
		for i := len(files); i < n; i++ {
			f := files[i%len(files)]
			data, err := os.ReadFile(f)
			if err != nil {
				b.Fatal(err)
			}
			text := frontMatterLine.ReplaceAllStringFunc(string(data), func(line string) string {
				m := frontMatterLine.FindStringSubmatch(line)
				v := strings.Trim(strings.TrimSpace(m[2]), `"'`)
				if m[1] == "translationKey" {
					return fmt.Sprintf("%s: %s-%d", m[1], v, i)
				}
				return fmt.Sprintf("%s: %q", m[1], fmt.Sprintf("%s (%d)", v, i))
			})
			name := fmt.Sprintf("%s-%d.md", strings.TrimSuffix(filepath.Base(f), ".md"), i)
			if err := os.WriteFile(filepath.Join(filepath.Dir(f), name), []byte(text), 0o600); err != nil {
				b.Fatal(err)
			}
		}
	}
	return dir
}
