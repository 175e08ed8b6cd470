package sitetest

import (
	"testing"

	"github.com/northbeam/site/internal/site"
)

// Info returns content/site.json, read and checked as the server reads it:
// the languages a test goes through, never a list of its own
// (docs/ARCHITECTURE.md, "One place for each fact").
func Info(t testing.TB) *site.Info {
	t.Helper()
	info, err := site.Load(Content(), site.File)
	if err != nil {
		t.Fatal(err)
	}
	return info
}

// Languages returns the site's languages, in site.json's order.
func Languages(t testing.TB) site.Languages {
	t.Helper()
	return Info(t).Languages
}

// Default returns the default language, the one without a prefix.
func Default(t testing.TB) site.Language {
	t.Helper()
	return Info(t).Default()
}

// Other returns the first language that is not the default one: a test
// that needs a prefixed language, whichever it is.
func Other(t testing.TB) site.Language {
	t.Helper()
	return OtherAt(t, 0)
}

// OtherAt returns the i-th language after the default one, counting
// round: a test that needs several prefixed languages takes OtherAt(t, 0),
// OtherAt(t, 1)..., whichever they are and however many there are.
func OtherAt(t testing.TB, i int) site.Language {
	t.Helper()
	var others []site.Language
	for _, l := range Languages(t) {
		if l.Prefix != "" {
			others = append(others, l)
		}
	}
	if len(others) == 0 {
		t.Fatal("site.json lists no language beside the default one")
	}
	return others[i%len(others)]
}

// RightToLeft returns the first right-to-left language, for a test of
// what changes with the direction; with none, the test is skipped, since
// then no page is written right to left.
func RightToLeft(t testing.TB) site.Language {
	t.Helper()
	for _, l := range Languages(t) {
		if l.Dir == "rtl" {
			return l
		}
	}
	t.Skip("site.json lists no right-to-left language")
	return site.Language{}
}

// Unlisted is a language code that no site lists (ISO 639's "no linguistic
// content"): a visitor's language the site does not speak.
const Unlisted = "zxx"
