// Package mailaddr gives an email address the one form under which the
// site stores and compares it, so that every spelling of an address finds
// the same person and no other (docs/ARCHITECTURE.md, Data).
package mailaddr

import (
	"net/mail"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/idna"
	"golang.org/x/text/unicode/norm"
)

// Key returns the canonical form of the address s, the one the database
// keeps beside the address as typed and every lookup compares exactly:
// the local part by Local, the domain in its IDNA Unicode form,
// lower-cased and in NFC (xn--, upper-case and decomposed spellings of
// one domain agree: they are one name in the DNS). A domain IDNA refuses
// is keyed like a local part. Key of "" is "".
func Key(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return ""
	}
	at := strings.LastIndexByte(s, '@')
	if at < 0 {
		return Local(s)
	}
	return Local(s[:at]) + "@" + domain(s[at+1:])
}

// KeyOf is Key of the address in a header value such as
// "Name <a@example.com>"; a value that does not parse is keyed whole.
func KeyOf(header string) string {
	if a, err := mail.ParseAddress(header); err == nil {
		return Key(a.Address)
	}
	return Key(header)
}

// Local is the key of a local part: it merges only spellings of the same
// mailbox name, never two names that a mail server tells apart
// (docs/ARCHITECTURE.md, Data, "One key per address, never two people").
//
//   - NFC: a letter typed precomposed (é) or as a letter and a combining
//     mark (e + U+0301) is one letter.
//   - Then the simple lower-case mapping, one character for one, and only
//     for a letter that is the upper-case partner of its lower-case form
//     (ToUpper(ToLower(r)) == r): A and a, Ö and ö, Σ and σ agree.
//
// Nothing else is merged. There is no full case folding and no
// compatibility mapping: ß is not ss, ſ is not s, ﬀ is not ff, ς is not σ.
// Two kinds of character are kept as typed although Unicode relates them
// to another: a canonical singleton, which NFC would replace by a
// different single character (the Kelvin sign K U+212A becomes K, the
// Ångström sign Å, the Ohm sign Ω), and a letter whose lower-case form is
// the partner of another capital (U+212A again, whose simple lower case
// is k; İ, whose is i). Such a character is another code point in the
// address a mail server receives, and merging it would hand one person's
// data to another; keeping it apart costs at most a second search.
func Local(s string) string {
	if isASCII(s) {
		return strings.ToLower(s)
	}
	var b strings.Builder
	b.Grow(len(s))
	start := 0
	for i, r := range s {
		if singleton(r) {
			lower(&b, norm.NFC.String(s[start:i]))
			b.WriteRune(r)
			start = i + utf8.RuneLen(r)
		}
	}
	lower(&b, norm.NFC.String(s[start:]))
	return b.String()
}

// singleton reports whether NFC replaces r, alone, by one other character.
func singleton(r rune) bool {
	if r < 0x300 {
		return false
	}
	n := norm.NFC.String(string(r))
	c, size := utf8.DecodeRuneInString(n)
	return size == len(n) && c != r
}

// lower writes s with each letter that has an upper-case partner lowered.
func lower(b *strings.Builder, s string) {
	for _, r := range s {
		if l := unicode.ToLower(r); l != r && unicode.ToUpper(l) == r {
			r = l
		}
		b.WriteRune(r)
	}
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

func domain(d string) string {
	u, err := idna.Lookup.ToUnicode(norm.NFC.String(d))
	if err != nil {
		return Local(d)
	}
	return norm.NFC.String(u)
}
