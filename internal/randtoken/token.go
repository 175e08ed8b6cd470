// Package randtoken makes the random tokens that the site's links and cookies
// carry (a booking's, a staff session's), and tells their form from
// anything else before a database is asked.
package randtoken

import (
	"crypto/rand"
	"encoding/base64"
)

// New returns a fresh random token of n bytes from crypto/rand, encoded as
// unpadded base64url (A-Z a-z 0-9 - _): safe in paths, query strings, file
// names and cookies.
func New(n int) string {
	b := make([]byte, n)
	// crypto/rand.Read never returns an error (it crashes the program if the
	// system's generator fails), so there is nothing to handle.
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// Valid reports whether s has the form of a token of n bytes from New.
func Valid(s string, n int) bool {
	if len(s) != base64.RawURLEncoding.EncodedLen(n) {
		return false
	}
	_, err := base64.RawURLEncoding.Strict().DecodeString(s)
	return err == nil
}
