package content

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"slices"

	"github.com/northbeam/site/internal/markdown"
)

// LoadAll reads the files under root, laid out as <root>/<lang>/<slug>.md,
// each with parse: the item it holds, or the mistakes found in it; kept,
// when not nil, gives the items of the files that did not change since a
// load kept them there (-dev), and keeps the items parse makes. check,
// when not nil, then looks at each item in the order of the files, for
// mistakes between files (two with one key). It returns each language's
// items in compare's order, or every mistake of every file at once,
// joined with errors.Join. A missing root holds no item; a folder or file
// that cannot be read is an error naming name ("team: reading
// content/team/fr: ...").
func LoadAll[T any](fsys fs.FS, root, name string, kept *Parsed[T], parse func(lang, slug, file string, src []byte) (T, []error),
	check func(item T) []error, compare func(a, b T) int) (map[string][]T, error) {
	byLang := map[string][]T{}
	if _, err := fs.Stat(fsys, root); errors.Is(err, fs.ErrNotExist) {
		kept.begin()
		kept.end()
		return byLang, nil
	}
	var errs []error
	kept.begin()
	err := EachFile(fsys, root, func(lang, slug, file string, src []byte) {
		item, fileErrs := kept.parse(file, src, func() (T, []error) { return parse(lang, slug, file, src) })
		if len(fileErrs) == 0 && check != nil {
			fileErrs = check(item)
		}
		if len(fileErrs) > 0 {
			errs = append(errs, fileErrs...)
			return
		}
		byLang[lang] = append(byLang[lang], item)
	})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	kept.end()
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	for _, items := range byLang {
		slices.SortFunc(items, compare)
	}
	return byLang, nil
}

// Document is one content file as a loader checks it: its front matter,
// decoded into the loader's struct by Decode, its Markdown body, and the
// mistakes found in it so far.
type Document struct {
	file        string
	front, body []byte
	errs        []error
}

// Decode reads the front matter of file (named slug.md) into v, as
// DecodeFrontMatter does. ok is false when the front matter could not be
// read: v is then unusable, and Errors says why.
func Decode(file, slug string, src []byte, v any) (d *Document, ok bool) {
	d = &Document{file: file}
	d.front, d.body, d.errs, ok = DecodeFrontMatter(file, slug, src, v)
	return d, ok
}

// Fail records a mistake on line of the file (0: on none), in the front
// matter's field when one is named.
func (d *Document) Fail(line int, field string, err error) {
	d.errs = append(d.errs, &Error{File: d.file, Line: line, Field: field, Err: err})
}

// Errors returns the mistakes found so far, each an *Error.
func (d *Document) Errors() []error { return d.errs }

// Check is a front matter field and whether it holds what it must.
type Check struct {
	Field string
	OK    bool
}

// Require records each check that fails as a mistake in its field, on
// the front matter's first line; what says what the fields require.
func (d *Document) Require(what string, checks ...Check) {
	for _, c := range checks {
		if !c.OK {
			d.Fail(1, c.Field, errors.New(what))
		}
	}
}

// Render checks that the body holds text (empty says that it does not)
// and, when no mistake was found in the file, renders it with md: ok is
// false when a mistake was found, Errors lists them.
func (d *Document) Render(md *markdown.Renderer, empty string) (html string, ok bool) {
	if len(bytes.TrimSpace(d.body)) == 0 {
		d.Fail(0, "", errors.New(empty))
	}
	if len(d.errs) > 0 {
		return "", false
	}
	doc, err := md.Convert(d.body)
	if err != nil {
		d.Fail(0, "", err)
		return "", false
	}
	return doc.HTML, true
}

// Picture returns what pages show of the picture the front matter names
// at key (ref, nil when it names none), as pictures makes it; a picture
// pictures refuses is a mistake on key's line.
func Picture[Ref, Pic any](d *Document, key string, ref *Ref, pictures func(Ref) (Pic, error)) Pic {
	var pic Pic
	if ref == nil {
		return pic
	}
	pic, err := pictures(*ref)
	if err != nil {
		d.Fail(KeyLine(d.front, key), key, err)
	}
	return pic
}
