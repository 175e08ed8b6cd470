package mailaddr

import (
	"testing"
	"unicode/utf8"
)

func TestKey(t *testing.T) {
	for _, c := range []struct{ a, b string }{
		{"JÖRG@ÄXAMPLE.de", "jörg@äxample.de"},
		{"jo\u0308rg@a\u0308xample.de", "jörg@äxample.de"},
		{"jörg@xn--xample-9ta.de", "JÖRG@ÄXAMPLE.DE"},
		{"éric@example.com", "ÉRIC@example.com"},
		{"e\u0301ric@example.com", "éric@example.com"},
		{"E\u0301RIC@EXAMPLE.COM", "éric@example.com"},
		{"  ada@example.com ", "Ada@Example.COM"},
		{"ΣΟΦΊΑ@example.gr", "σοφία@example.gr"},
		{"STRAẞE@example.com", "STRAẞE@EXAMPLE.COM"},
	} {
		if Key(c.a) != Key(c.b) {
			t.Errorf("Key(%q) = %q, Key(%q) = %q: one address, two keys", c.a, Key(c.a), c.b, Key(c.b))
		}
	}
	for _, c := range []struct{ a, b string }{
		{"nj1@example.net", "inj1@example.net"},
		{"eric@example.com", "éric@example.com"},
		{"ada@example.com", "ada@example.co"},
		// Different mailboxes that full case folding, compatibility
		// mappings or NFC's singletons would merge.
		{"straße@example.de", "strasse@example.de"},
		{"STRASSE@example.de", "straße@example.de"},
		{"ſam@example.com", "sam@example.com"},
		{"ſam@example.com", "SAM@example.com"},
		{"ﬀoo@example.com", "ffoo@example.com"},
		{"ς@example.gr", "σ@example.gr"},
		{"ς@example.gr", "Σ@example.gr"},
		{"\u212Aevin@example.com", "kevin@example.com"},
		{"\u212Aevin@example.com", "Kevin@example.com"},
		{"\u212Bngstrom@example.com", "Ångstrom@example.com"},
		{"\u2126m@example.com", "ωm@example.com"},
		{"\u0130@example.com", "i@example.com"},
	} {
		if Key(c.a) == Key(c.b) {
			t.Errorf("Key(%q) = Key(%q) = %q: two addresses, one key", c.a, c.b, Key(c.a))
		}
	}
	if got := Key("JÖRG@ÄXAMPLE.de"); got != "jörg@äxample.de" {
		t.Errorf("Key = %q", got)
	}
	if got := KeyOf("Jörg <JÖRG@ÄXAMPLE.de>"); got != "jörg@äxample.de" {
		t.Errorf("KeyOf = %q", got)
	}
	// The rule keeps the number of characters of a local part whose
	// letters are composed.
	for _, s := range []string{"straße", "ſam", "ﬀoo", "ς", "\u212Aevin", "ΣΟΦΊΑ", "ǅemal"} {
		if got := Local(s); utf8.RuneCountInString(got) != utf8.RuneCountInString(s) {
			t.Errorf("Local(%q) = %q: the number of characters changed", s, got)
		}
	}
	if got := Local("\u212Aevin"); got != "\u212Aevin" {
		t.Errorf("Local(Kelvin sign + evin) = %q, want it kept as typed", got)
	}
	if Key("") != "" || KeyOf("") != "" {
		t.Error("the key of nothing is not empty")
	}
}
