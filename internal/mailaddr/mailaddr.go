// Package mailaddr gives an email address the one form under which the
// site stores and compares it, so that every spelling of an address finds
// the same person and no other (docs/ARCHITECTURE.md, Data).
package mailaddr

import (
	"net/mail"
	"strings"

	"golang.org/x/net/idna"
	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// fold is full Unicode case folding (ß and ss, Σ, σ and ς agree), which
// is safe for concurrent use.
var fold = cases.Fold()

// Key returns the canonical form of the address s, the one the database
// keeps beside the address as typed and every lookup compares exactly:
// the local part in NFC with full case folding, the domain in its IDNA
// Unicode form, lower-cased and in NFC (xn--, upper-case and decomposed
// spellings of one domain agree). A domain IDNA refuses is folded like
// the local part. Key of "" is "".
func Key(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return ""
	}
	at := strings.LastIndexByte(s, '@')
	if at < 0 {
		return foldNFC(s)
	}
	return foldNFC(s[:at]) + "@" + domain(s[at+1:])
}

// KeyOf is Key of the address in a header value such as
// "Name <a@example.com>"; a value that does not parse is keyed whole.
func KeyOf(header string) string {
	if a, err := mail.ParseAddress(header); err == nil {
		return Key(a.Address)
	}
	return Key(header)
}

func foldNFC(s string) string {
	return norm.NFC.String(fold.String(norm.NFD.String(s)))
}

func domain(d string) string {
	u, err := idna.Lookup.ToUnicode(norm.NFC.String(d))
	if err != nil {
		return foldNFC(d)
	}
	return norm.NFC.String(u)
}
