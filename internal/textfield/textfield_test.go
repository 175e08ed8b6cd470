package textfield

import "testing"

func TestClean(t *testing.T) {
	for in, want := range map[string]string{
		"Ada Lovelace":                     "Ada Lovelace",
		"Eve\u202egnp.exe":                 "Evegnp.exe",                // right-to-left override
		"\u2066Ada\u2069 \u200fزينب\u200e": "Ada زينب",                  // isolates and marks
		"A\u200bd\ufeffa\u00ad":            "Ada",                       // zero-width space, BOM, soft hyphen
		"Ada\u2028Bcc: eve@example.com":    "Ada\nBcc: eve@example.com", // line separator
		"one\u2029two":                     "one\ntwo",                  // paragraph separator
		"می\u200cخواهم":                    "می\u200cخواهم",             // ZWNJ spells Persian
		"👩\u200d💻":                         "👩\u200d💻",                  // ZWJ joins emoji
		"Ada\nLovelace\t\x01":              "Ada\nLovelace\t\x01",       // controls are the caller's to refuse
		"🏴\U000E0067\U000E0062\U000E007F":  "🏴",                         // tag characters
	} {
		if got := Clean(in); got != want {
			t.Errorf("Clean(%q) = %q, want %q", in, got, want)
		}
	}
}
