package handlers

import (
	"context"
	"net/url"
	"strings"
	"testing"
	"time"

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

// TestBrowserRedirectsStayOnTheSite follows each canonical redirect that
// once led off the site in Chromium itself, which reads a Location as
// browsers do (a backslash as a slash, tabs dropped): the tab ends on the
// site, on its not-found page.
func TestBrowserRedirectsStayOnTheSite(t *testing.T) {
	ctx, base := browser(t)
	site, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	tb := newTab(t, ctx)
	for _, path := range offSiteRedirects {
		var href string
		// The network is closed: a tab sent to evil.com ends on an error
		// page, or its navigation fails; either way its address tells.
		navCtx, cancel := context.WithTimeout(tb.ctx, 15*time.Second)
		navErr := chromedp.Run(navCtx, chromedp.Navigate(base+path))
		cancel()
		if err := chromedp.Run(tb.ctx, chromedp.Evaluate(`location.href`, &href)); err != nil {
			t.Fatalf("%s: reading the address: %v", path, err)
		}
		u, err := url.Parse(href)
		if err != nil || u.Host != site.Host {
			t.Errorf("%s: the browser left the site for %s (navigation: %v)", path, href, navErr)
			continue
		}
		if navErr != nil {
			t.Errorf("%s: navigation to %s failed: %v", path, href, navErr)
		}
	}
}
