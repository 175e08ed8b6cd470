package handlers

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserUnderServerCSP loads page types in every script direction
// under the server's own headers: they hydrate with no policy reported,
// and an inline script injected into the page is refused (which also shows
// that a violation reaches consoleProblems, as every browser test checks).
func TestBrowserUnderServerCSP(t *testing.T) {
	// The booking service is there, as in production: the time step loads
	// its slots under the policy too.
	ctx, base, _ := bookingBrowser(t)
	tb := newTab(t, ctx)
	for _, path := range []string{"/", "/ar/schedule/discovery", "/fr/blog", "/de/privacy", "/fr/nowhere"} {
		tb.run(t, chromedp.Navigate(base+path), waitHydrated())
	}
	if problems := tb.consoleProblems(); len(problems) > 0 {
		t.Fatalf("console problems under the server's CSP:\n%s", strings.Join(problems, "\n"))
	}
	var ran bool
	tb.run(t,
		chromedp.Evaluate(`(() => { const s = document.createElement("script"); s.textContent = "window.__inline = true"; document.head.append(s); return window.__inline === true })()`, &ran),
		chromedp.Sleep(200_000_000), // let the report arrive
	)
	if ran {
		t.Error("an inline script ran")
	}
	found := false
	for _, p := range tb.consoleProblems() {
		found = found || strings.Contains(p, "Content Security Policy")
	}
	if !found {
		t.Errorf("the refused inline script was not reported: %q", tb.consoleProblems())
	}
}
