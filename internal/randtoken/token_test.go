package randtoken

import "testing"

// TestNewIsValid: a token is valid at its own size only, and nothing that
// is not base64url of that size is.
func TestNewIsValid(t *testing.T) {
	for _, n := range []int{24, 32} {
		tok := New(n)
		if !Valid(tok, n) {
			t.Errorf("New(%d) = %q is not Valid", n, tok)
		}
		if Valid(tok, n+3) {
			t.Errorf("New(%d) = %q is valid at %d bytes", n, tok, n+3)
		}
		if New(n) == tok {
			t.Errorf("New(%d) gave the same token twice", n)
		}
	}
	for _, s := range []string{"", "short", "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!", "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="} {
		if Valid(s, 24) {
			t.Errorf("Valid(%q, 24)", s)
		}
	}
}
