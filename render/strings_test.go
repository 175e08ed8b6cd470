package render

import (
	"context"
	"strings"
	"testing"
)

// stringsBundle renders a page's greeting in its language from the strings
// the engine gives (globalThis.__siteStrings), and the number of the
// runtime that rendered it: a runtime made anew counts one more.
const stringsBundle = `globalThis.runtimes = (globalThis.runtimes || 0) + 1;
var made = Math.random();
globalThis.renderPage = function (p) {
  var payload = JSON.parse(p);
  return "<p>" + globalThis.__siteStrings[payload.lang].hello + "</p><i>" + made + "</i>";
};`

// TestStringsAreGivenNotCompiled: an engine renders with the strings it is
// given; WithStrings (and Prepare) renders with others on the same runtimes, without
// evaluating the bundle again, while the engine before still renders with
// its own; the memo keeps each one's renders apart.
func TestStringsAreGivenNotCompiled(t *testing.T) {
	ctx := context.Background()
	memo := NewMemo()
	before, err := NewEngine([]byte(stringsBundle), Options{Runtimes: 1, Memo: memo, Strings: []byte(`{"en":{"hello":"Hello"},"fr":{"hello":"Bonjour"}}`)})
	if err != nil {
		t.Fatal(err)
	}
	render := func(e *Engine, payload string) (greeting, runtime string) {
		t.Helper()
		html, err := e.Render(ctx, []byte(payload))
		if err != nil {
			t.Fatal(err)
		}
		greeting, runtime, _ = strings.Cut(html, "<i>")
		return greeting, runtime
	}
	hello, first := render(before, `{"lang":"en"}`)
	if hello != "<p>Hello</p>" {
		t.Fatalf("got %q", hello)
	}
	after := before.WithStrings([]byte(`{"en":{"hello":"Hello there"},"fr":{"hello":"Bonjour"}}`))
	if err := after.Prepare(); err != nil {
		t.Fatal(err)
	}
	hello, second := render(after, `{"lang":"en"}`)
	if hello != "<p>Hello there</p>" {
		t.Errorf("with the new strings: %q, want the new string", hello)
	}
	if second != first {
		t.Errorf("the new strings made a new runtime (%s, then %s): the bundle was evaluated again", first, second)
	}
	// The engine before renders with its strings still; its render of the
	// same payload is the memo's.
	if hello, _ := render(before, `{"lang":"en"}`); hello != "<p>Hello</p>" {
		t.Errorf("the engine before: %q, want its own string", hello)
	}
	if hello, _ := render(after, `{"lang":"fr"}`); hello != "<p>Bonjour</p>" {
		t.Errorf("fr: %q", hello)
	}
	if memo.Len() != 3 {
		t.Errorf("the memo holds %d bodies, want 3: each strings' own", memo.Len())
	}
	memo.KeepOnly(after)
	if memo.Len() != 2 {
		t.Errorf("after KeepOnly, the memo holds %d bodies, want the new strings' 2", memo.Len())
	}
}
