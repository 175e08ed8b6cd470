package mail

import "testing"

// TestOneLine keeps a value on its line, whatever kind of line break it
// holds: ASCII controls and Unicode's separators alike.
func TestOneLine(t *testing.T) {
	for in, want := range map[string]string{
		"Ada Lovelace":                 "Ada Lovelace",
		"Eve\r\nBcc: evil@example.com": "Eve Bcc: evil@example.com",
		"Eve\u2028Bcc: x@example.com":  "Eve Bcc: x@example.com",
		"one\u2029two\u0085three":      "one two three",
	} {
		if got := OneLine(in); got != want {
			t.Errorf("OneLine(%q) = %q, want %q", in, got, want)
		}
	}
}
