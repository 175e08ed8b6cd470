// Package content reads the content folders of one shape that the blog
// (internal/blog), the case studies (internal/work) and the team
// (internal/team) are made of: <root>/<lang>/<slug>.md, each file YAML
// front matter then Markdown. EachFile walks such a folder, and
// DecodeFrontMatter reads a file's front matter into a struct, for the
// loaders that decode it whole (the blog reads it node by node); every
// mistake is an *Error naming the file and line.
package content

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Error is a mistake in one content file. The loaders return all of them
// at once, joined with errors.Join, so an author can fix every file in one
// go.
type Error struct {
	File  string // path inside the fs.FS given to the loader, such as "content/blog/fr/x.md"
	Line  int    // 1-based line in File; 0 when the mistake is not on one line
	Field string // the front matter key, if the mistake is in one
	Err   error
}

// Error formats e as "file:line: field: problem", the form editors and
// terminals turn into a link.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		b.WriteString(":" + strconv.Itoa(e.Line))
	}
	b.WriteString(": ")
	if e.Field != "" {
		b.WriteString(e.Field + ": ")
	}
	b.WriteString(e.Err.Error())
	return b.String()
}

// Unwrap returns the underlying problem.
func (e *Error) Unwrap() error { return e.Err }

// EachFile calls fn with every Markdown file under root, laid out as
// <root>/<lang>/<slug>.md. Entries of root that are not directories or
// are hidden, and what a language directory holds besides ".md" files, are
// skipped. A folder or file that cannot be read stops the walk with an
// error that wraps the reason (fs.ErrNotExist for a missing root).
func EachFile(fsys fs.FS, root string, fn func(lang, slug, file string, src []byte)) error {
	return EachName(fsys, root, func(lang, slug, file string) error {
		src, err := fs.ReadFile(fsys, file)
		if err != nil {
			return fmt.Errorf("reading %s: %w", file, err)
		}
		fn(lang, slug, file, src)
		return nil
	})
}

// EachName is EachFile without reading the files: fn reads what it needs,
// and its error stops the walk.
func EachName(fsys fs.FS, root string, fn func(lang, slug, file string) error) error {
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
			if err := fn(lang, strings.TrimSuffix(f.Name(), ".md"), file); err != nil {
				return err
			}
		}
	}
	return nil
}

var slugPattern = regexp.MustCompile(`^[a-z0-9]+(?:-[a-z0-9]+)*$`)

// IsSlug reports whether s is lower-case ASCII letters, digits and single
// hyphens: a file name or key that URLs carry without percent-encoding.
func IsSlug(s string) bool { return slugPattern.MatchString(s) }

// yamlErrorLines finds each "line N: reason" of a YAML decoding error.
var yamlErrorLines = regexp.MustCompile(`line (\d+): (.*)`)

// yamlParserProblems are the mistakes the YAML parser (rather than its
// scanner) finds. The decoder numbers their lines from 0 and leaves the
// number out on the first line (go.yaml.in/yaml/v3, parser.fail), where it
// numbers the scanner's from 1.
var yamlParserProblems = []string{
	"did not find expected <stream-start>", "did not find expected <document start>", "found undefined tag handle",
	"did not find expected node content", "did not find expected '-' indicator", "did not find expected key",
	"did not find expected ',' or ']'", "did not find expected ',' or '}'", "found duplicate %YAML directive",
	"found incompatible YAML document", "found duplicate %TAG directive",
}

// FrontMatterErrors places each mistake of err, an error of the YAML
// decoder on the front matter of file, on its line of the file: the
// decoder's "line N" of the front matter, counted from 1 whatever the
// mistake, one further down for the "---" above it.
func FrontMatterErrors(file string, err error) []*Error {
	msg := err.Error()
	if rest, ok := strings.CutPrefix(msg, "yaml: unmarshal errors:\n"); ok {
		// Decoding errors: each on its own line, counted from 1.
		var out []*Error
		for _, m := range yamlErrorLines.FindAllStringSubmatch(rest, -1) {
			n, _ := strconv.Atoi(m[1])
			out = append(out, &Error{File: file, Line: FrontMatterLine(n), Err: errors.New(m[2])})
		}
		if len(out) > 0 {
			return out
		}
	}
	msg = strings.TrimPrefix(msg, "yaml: ")
	line := 1 // no number: the first line
	if m := yamlErrorPos.FindStringSubmatch(msg); m != nil {
		line, _ = strconv.Atoi(m[1])
		msg = m[2]
		if slices.Contains(yamlParserProblems, msg) {
			line++
		}
	}
	return []*Error{{File: file, Line: FrontMatterLine(line), Err: errors.New(msg)}}
}

var yamlErrorPos = regexp.MustCompile(`^line (\d+): (.*)$`)

// DecodeFrontMatter reads the content file file (named slug.md) into v:
// it checks the slug, drops a byte-order mark and CRLF line ends, splits
// the front matter from the body and decodes the front matter strictly (an
// unknown key is an error), each YAML mistake placed on its line of the
// file. Every mistake is an *Error naming file. ok is false when the
// front matter could not be read: v is then unusable.
func DecodeFrontMatter(file, slug string, src []byte, v any) (front, body []byte, errs []error, ok bool) {
	fail := func(line int, err error) {
		errs = append(errs, &Error{File: file, Line: line, Err: err})
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
		for _, e := range FrontMatterErrors(file, err) {
			errs = append(errs, e)
		}
		return nil, nil, errs, false
	}
	return front, body, errs, true
}

// SplitFrontMatter splits src into the YAML between the first two "---"
// lines and the Markdown after them. The YAML starts on line 2 of the file.
func SplitFrontMatter(src []byte) (front, body []byte, err error) {
	first, rest, _ := bytes.Cut(src, []byte("\n"))
	if string(bytes.TrimRight(first, " \t")) != "---" {
		return nil, nil, errors.New(`front matter missing: the file must start with a line "---"`)
	}
	for offset := 0; offset < len(rest); {
		line, _, _ := bytes.Cut(rest[offset:], []byte("\n"))
		if s := string(bytes.TrimRight(line, " \t")); s == "---" || s == "..." {
			end := min(offset+len(line)+1, len(rest))
			return rest[:offset], rest[end:], nil
		}
		offset += len(line) + 1
	}
	return nil, nil, errors.New(`front matter not closed by a line "---"`)
}

// KeyLine returns the line of the file on which the top-level key of the
// front matter front (as SplitFrontMatter returns it) is written, or 1
// when it is not there.
func KeyLine(front []byte, key string) int {
	for i, line := range bytes.Split(front, []byte("\n")) {
		if rest, ok := bytes.CutPrefix(line, []byte(key)); ok && bytes.HasPrefix(bytes.TrimLeft(rest, " \t"), []byte(":")) {
			return FrontMatterLine(i + 1)
		}
	}
	return 1
}

// FrontMatterLine turns a line of the YAML (as SplitFrontMatter returns
// it) into a line of the file.
func FrontMatterLine(yamlLine int) int { return yamlLine + 1 }
