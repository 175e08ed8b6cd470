// Package textfield cleans what visitors type into the text fields of the
// site's forms before it is checked and kept.
package textfield

import (
	"strings"
	"unicode"
)

// Zero-width joiners are the format characters that spell words: ZWNJ
// keeps Persian and Indic letters apart where a word wants it, ZWJ joins
// them (and emoji). Neither changes the direction or the lines of a text.
const (
	zwnj = '\u200c'
	zwj  = '\u200d'
)

// Clean returns s without the invisible characters that change how text
// around them reads: format characters (Unicode category Cf: bidirectional
// overrides, embeddings, isolates and marks such as U+202E, zero-width
// spaces, the byte order mark, soft hyphens, tags), but for the zero-width
// joiners, are removed; line and paragraph separators (U+2028, U+2029)
// become "\n", so that a field of one line refuses them as it refuses any
// line break, and a field of several lines keeps them as line breaks.
// Nothing else changes; the caller trims and checks the result.
func Clean(s string) string {
	if !strings.ContainsFunc(s, changes) {
		return s
	}
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\u2028' || r == '\u2029':
			return '\n'
		case r == zwnj || r == zwj:
			return r
		case unicode.Is(unicode.Cf, r):
			return -1
		}
		return r
	}, s)
}

func changes(r rune) bool {
	return r == '\u2028' || r == '\u2029' || unicode.Is(unicode.Cf, r) && r != zwnj && r != zwj
}
