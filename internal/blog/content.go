package blog

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// The blog, the case studies (internal/work) and the team (internal/team)
// are content folders of one shape: <root>/<lang>/<slug>.md, each file
// front matter then Markdown. EachFile walks such a folder, and
// DecodeFrontMatter reads a file's front matter into a struct, for the
// loaders that decode it whole (the blog reads it node by node).

// EachFile calls fn with every Markdown file under root, laid out as
// <root>/<lang>/<slug>.md. Entries of root that are not directories or
// are hidden, and what a language directory holds besides ".md" files, are
// skipped. A folder or file that cannot be read stops the walk with an
// error that wraps the reason (fs.ErrNotExist for a missing root).
func EachFile(fsys fs.FS, root string, fn func(lang, slug, file string, src []byte)) error {
	langs, err := fs.ReadDir(fsys, root)
	if err != nil {
		return fmt.Errorf("reading %s: %w", root, err)
	}
	for _, langDir := range langs {
		if !langDir.IsDir() || strings.HasPrefix(langDir.Name(), ".") {
			continue
		}
		lang := langDir.Name()
		dir := path.Join(root, lang)
		files, err := fs.ReadDir(fsys, dir)
		if err != nil {
			return fmt.Errorf("reading %s: %w", dir, err)
		}
		for _, f := range files {
			if f.IsDir() || !strings.HasSuffix(f.Name(), ".md") {
				continue
			}
			file := path.Join(dir, f.Name())
			src, err := fs.ReadFile(fsys, file)
			if err != nil {
				return fmt.Errorf("reading %s: %w", file, err)
			}
			fn(lang, strings.TrimSuffix(f.Name(), ".md"), file, src)
		}
	}
	return nil
}

// IsSlug reports whether s is lower-case ASCII letters, digits and single
// hyphens: a file name or key that URLs carry without percent-encoding.
func IsSlug(s string) bool { return slugPattern.MatchString(s) }

// yamlErrorLines finds each "line N: reason" of a YAML decoding error.
var yamlErrorLines = regexp.MustCompile(`line (\d+): (.*)`)

// DecodeFrontMatter reads the content file file (named slug.md) into v:
// it checks the slug, drops a byte-order mark and CRLF line ends, splits
// the front matter from the body and decodes the front matter strictly (an
// unknown key is an error), each YAML mistake placed on its line of the
// file. Every mistake is a *ContentError naming file. ok is false when the
// front matter could not be read: v is then unusable.
func DecodeFrontMatter(file, slug string, src []byte, v any) (front, body []byte, errs []error, ok bool) {
	fail := func(line int, err error) {
		errs = append(errs, &ContentError{File: file, Line: line, Err: err})
	}
	if !IsSlug(slug) {
		fail(0, fmt.Errorf("file name %q: a slug is lower-case ASCII letters, digits and single hyphens", slug+".md"))
	}
	src = bytes.ReplaceAll(bytes.TrimPrefix(src, []byte("\uFEFF")), []byte("\r\n"), []byte("\n"))
	front, body, err := SplitFrontMatter(src)
	if err != nil {
		fail(1, err)
		return nil, nil, errs, false
	}
	dec := yaml.NewDecoder(bytes.NewReader(front))
	dec.KnownFields(true)
	if err := dec.Decode(v); err != nil {
		for _, m := range yamlErrorLines.FindAllStringSubmatch(err.Error(), -1) {
			n, _ := strconv.Atoi(m[1])
			fail(frontMatterLine(n), errors.New(m[2]))
		}
		if len(errs) == 0 {
			fail(1, err)
		}
		return nil, nil, errs, false
	}
	return front, body, errs, true
}
