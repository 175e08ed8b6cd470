package booking

import (
	"encoding/base64"
	"strings"
	"testing"
)

func TestNewToken(t *testing.T) {
	seen := map[string]bool{}
	for range 1000 {
		tok := NewToken()
		raw, err := base64.RawURLEncoding.DecodeString(tok)
		if err != nil {
			t.Fatalf("token %q is not base64url: %v", tok, err)
		}
		if len(raw)*8 < 128 {
			t.Fatalf("token %q holds %d bits, want at least 128", tok, len(raw)*8)
		}
		if strings.ContainsAny(tok, "+/=") {
			t.Fatalf("token %q is not URL-safe", tok)
		}
		if !ValidToken(tok) {
			t.Fatalf("ValidToken(%q) = false", tok)
		}
		if seen[tok] {
			t.Fatalf("token %q repeated", tok)
		}
		seen[tok] = true
	}
}

func TestValidToken(t *testing.T) {
	good := NewToken()
	for _, s := range []string{"", "abc", good + "A", good[:len(good)-1] + "=", good[:len(good)-1] + "/", "../../../../../../../etc/passwd"} {
		if ValidToken(s) {
			t.Errorf("ValidToken(%q) = true", s)
		}
	}
}
