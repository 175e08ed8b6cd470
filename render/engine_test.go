package render

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// A tiny stand-in for the server bundle: the engine only needs a global
// renderPage(payloadJSON) function.
const echoBundle = `globalThis.renderPage = function (p) {
  var payload = JSON.parse(p);
  if (payload.spin) { for (;;) {} }
  if (payload.fail) { throw new Error("boom"); }
  if (payload.fallback) { return "<!--$!--><p>Loading...</p><!--/$-->"; }
  return "<p>" + payload.text + "</p>";
};`

func TestRenderUsesThePool(t *testing.T) {
	e, err := NewEngine([]byte(echoBundle), Options{Runtimes: 2})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan string, 8)
	for i := range 8 {
		go func() {
			html, err := e.Render(context.Background(), []byte(`{"text":"hello `+string(rune('a'+i))+`"}`)) //nolint:gosec // G115: i < 8
			if err != nil {
				t.Error(err)
			}
			done <- html
		}()
	}
	for range 8 {
		if html := <-done; !strings.HasPrefix(html, "<p>hello ") {
			t.Errorf("got %q", html)
		}
	}
}

func TestARunawayRenderTimesOutAndTheRuntimeIsReplaced(t *testing.T) {
	e, err := NewEngine([]byte(echoBundle), Options{Runtimes: 1, Timeout: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Render(context.Background(), []byte(`{"spin":true}`)); !errors.Is(err, ErrTimeout) {
		t.Fatalf("err = %v, want ErrTimeout", err)
	}
	html, err := e.Render(context.Background(), []byte(`{"text":"after"}`))
	if err != nil || html != "<p>after</p>" {
		t.Fatalf("the next render got %q, %v", html, err)
	}
}

func TestRenderErrors(t *testing.T) {
	e, err := NewEngine([]byte(echoBundle), Options{Runtimes: 1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Render(context.Background(), []byte(`{"fail":true}`)); err == nil || !strings.Contains(err.Error(), "boom") {
		t.Errorf("a throwing render: err = %v", err)
	}
	if _, err := e.Render(context.Background(), []byte(`{"fallback":true}`)); err == nil {
		t.Error("a render that fell back to the Suspense placeholder must fail")
	}
	if _, err := NewEngine([]byte(`var x = 1;`), Options{}); err == nil {
		t.Error("a bundle without renderPage must be refused")
	}
	if _, err := NewEngine([]byte(`this is not javascript`), Options{}); err == nil {
		t.Error("a bundle that does not compile must be refused")
	}
}

// TestPluralRules checks the Intl.PluralRules shim against CLDR, Arabic's
// six categories included, as i18next asks for them.
func TestPluralRules(t *testing.T) {
	e, err := NewEngine([]byte(`globalThis.renderPage = function (p) {
	  var q = JSON.parse(p), r = new Intl.PluralRules(q.lang);
	  return q.n.map(function (n) { return r.select(n); }).join(",") + "|" + r.resolvedOptions().pluralCategories.join(",");
	};`), Options{Runtimes: 1})
	if err != nil {
		t.Fatal(err)
	}
	for lang, want := range map[string]string{
		"ar": "zero,one,two,few,many,other|zero,one,two,few,many,other",
		"en": "other,one,other,other,other,other|one,other",
		"fr": "one,one,other,other,other,other|one,other", // x/text's CLDR data predates French "many"
		"de": "other,one,other,other,other,other|one,other",
	} {
		got, err := e.Render(context.Background(), []byte(`{"lang":"`+lang+`","n":[0,1,2,3,11,100]}`))
		if err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("%s: %s, want %s", lang, got, want)
		}
	}
}

func TestConsoleAndURLShims(t *testing.T) {
	e, err := NewEngine([]byte(`globalThis.renderPage = function () {
	  console.log("a", 1); console.warn("w"); console.error("e");
	  var u = new URL("/fr/blog?tag=go", "http://x.test");
	  return u.pathname + " " + new URLSearchParams(u.search).get("tag");
	};`), Options{Runtimes: 1})
	if err != nil {
		t.Fatal(err)
	}
	if got, err := e.Render(context.Background(), []byte(`{}`)); err != nil || got != "/fr/blog go" {
		t.Errorf("got %q, %v", got, err)
	}
}

// TestRendersAfterRelease: once the engine has let go of its runtimes,
// the next renders start them again, as many at once as the pool allows.
func TestRendersAfterRelease(t *testing.T) {
	e, err := NewEngine([]byte(echoBundle), Options{Runtimes: 2})
	if err != nil {
		t.Fatal(err)
	}
	e.Release()
	if started := slices.DeleteFunc(slices.Clone(e.pool.idle), func(rt *runtime) bool { return rt == nil }); len(started) > 0 {
		t.Fatalf("%d runtimes still held after Release", len(started))
	}
	done := make(chan string, 4)
	for range 4 {
		go func() {
			html, err := e.Render(context.Background(), []byte(`{"text":"again"}`))
			if err != nil {
				t.Error(err)
			}
			done <- html
		}()
	}
	for range 4 {
		if html := <-done; html != "<p>again</p>" {
			t.Errorf("after Release: %q", html)
		}
	}
	if n := len(e.pool.idle); n != 2 {
		t.Errorf("the pool has %d slots after the renders, want 2", n)
	}
}

// TestARequestRendersBeforeThePagesBehind: while a start renders its
// pages behind on every runtime, a visitor's page takes the next runtime
// free, before the pages behind that asked first.
func TestARequestRendersBeforeThePagesBehind(t *testing.T) {
	e, err := NewEngine([]byte(echoBundle), Options{Runtimes: 1})
	if err != nil {
		t.Fatal(err)
	}
	behind := Behind(context.Background())
	var order []string
	var mu sync.Mutex
	var wg sync.WaitGroup
	render := func(ctx context.Context, text string) {
		defer wg.Done()
		if _, err := e.Render(ctx, []byte(`{"text":"`+text+`"}`)); err != nil {
			t.Error(err)
		}
		mu.Lock()
		order = append(order, text)
		mu.Unlock()
	}
	// The runtime is busy with a page behind; three more wait for it.
	held, err := e.pool.get(behind)
	if err != nil {
		t.Fatal(err)
	}
	waiting := func(front, back int) {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
			e.pool.mu.Lock()
			f, b := len(e.pool.front), len(e.pool.back)
			e.pool.mu.Unlock()
			if f == front && b == back {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("waiting: %d requests and %d behind, want %d and %d", f, b, front, back)
			}
		}
	}
	for i := range 3 {
		wg.Add(1)
		go render(behind, fmt.Sprint("behind ", i))
		waiting(0, i+1)
	}
	wg.Add(1)
	go render(context.Background(), "request")
	waiting(1, 3)
	e.pool.put(held)
	wg.Wait()
	if want := []string{"request", "behind 0", "behind 1", "behind 2"}; !slices.Equal(order, want) {
		t.Errorf("rendered in the order %q, want %q", order, want)
	}
	// A render behind whose context ends leaves the line; the runtime
	// goes to the next.
	held, _ = e.pool.get(behind)
	ctx, cancel := context.WithCancel(behind)
	gaveUp := make(chan error, 1)
	go func() { _, err := e.Render(ctx, []byte(`{"text":"left"}`)); gaveUp <- err }()
	waiting(0, 1)
	cancel()
	if err := <-gaveUp; !errors.Is(err, context.Canceled) {
		t.Errorf("a render whose context ended: %v", err)
	}
	waiting(0, 0)
	e.pool.put(held)
	if html, err := e.Render(behind, []byte(`{"text":"next"}`)); err != nil || html != "<p>next</p>" {
		t.Errorf("after one left the line: %q, %v", html, err)
	}
}
