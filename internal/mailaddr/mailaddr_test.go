package mailaddr

import "testing"

func TestKey(t *testing.T) {
	for _, c := range []struct{ a, b string }{
		{"JÖRG@ÄXAMPLE.de", "jörg@äxample.de"},
		{"jo\u0308rg@a\u0308xample.de", "jörg@äxample.de"},
		{"jörg@xn--xample-9ta.de", "JÖRG@ÄXAMPLE.DE"},
		{"éric@example.com", "ÉRIC@example.com"},
		{"e\u0301ric@example.com", "éric@example.com"},
		{"E\u0301RIC@EXAMPLE.COM", "éric@example.com"},
		{"STRASSE@example.com", "straße@example.com"},
		{"  ada@example.com ", "Ada@Example.COM"},
	} {
		if Key(c.a) != Key(c.b) {
			t.Errorf("Key(%q) = %q, Key(%q) = %q: one address, two keys", c.a, Key(c.a), c.b, Key(c.b))
		}
	}
	for _, c := range []struct{ a, b string }{
		{"nj1@example.net", "inj1@example.net"},
		{"eric@example.com", "éric@example.com"},
		{"ada@example.com", "ada@example.co"},
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
	if Key("") != "" || KeyOf("") != "" {
		t.Error("the key of nothing is not empty")
	}
}
