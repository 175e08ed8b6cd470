package pages

import (
	"context"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/northbeam/site/e2e/internal/e2etest"
	"github.com/northbeam/site/handlers"
	"github.com/northbeam/site/internal/logtest"
	"github.com/northbeam/site/internal/sitetest"
)

// TestBrowserUnderServerCSP loads page types in every script direction
// under the server's own headers, over https as in production: they
// hydrate with no policy reported. Then an inline script and an image from
// another host are injected into a page: both are refused, the browser
// says so in the console (which shows that a violation reaches
// consoleProblems, as every browser test checks), and it reports both to
// the server's endpoint, whose log names the directive, the blocked origin
// and the page, and nothing of the image's path or query.
func TestBrowserUnderServerCSP(t *testing.T) {
	ctx, _ := e2etest.Browser(t)
	// The booking service is there, as in production: the time step loads
	// its slots under the policy too.
	env := e2etest.NewBookingEnv(t, e2etest.BrowserFixture)
	var logs logtest.Buffer
	unlimited := handlers.RateLimit{Requests: 1 << 20, Window: time.Minute}
	base := e2etest.ServeTLS(t, handlers.New(handlers.NewServer(sitetest.Site(t), handlers.Services{
		Log: logs.Logger(), Store: env.Store, Booking: env.Service, BookingRate: unlimited, SlotsRate: unlimited,
	})))
	tb := e2etest.NewTab(t, ctx)
	for _, path := range []string{"/", "/ar/schedule/discovery", "/fr/blog", "/de/privacy", "/fr/nowhere"} {
		tb.Run(t, chromedp.Navigate(base+path), e2etest.WaitHydrated())
	}
	if problems := tb.ConsoleProblems(); len(problems) > 0 {
		t.Fatalf("console problems under the server's CSP:\n%s", strings.Join(problems, "\n"))
	}
	if strings.Contains(logs.String(), "csp violation") {
		t.Fatalf("the pages themselves violate the policy:\n%s", logs.String())
	}
	var ran bool
	tb.Run(t,
		chromedp.Evaluate(`(() => {
			const img = document.createElement("img");
			img.src = "https://images.elsewhere.test/private/path?token=abc123";
			document.body.append(img);
			const s = document.createElement("script");
			s.textContent = "window.__inline = true";
			document.head.append(s);
			return window.__inline === true;
		})()`, &ran),
	)
	if ran {
		t.Error("an inline script ran")
	}
	// The Reporting API sends its batch a moment later.
	want := []*regexp.Regexp{
		regexp.MustCompile(`msg="csp violation" .*directive=script-src-elem blocked=inline document=/fr/nowhere`),
		regexp.MustCompile(`msg="csp violation" .*directive=img-src blocked=https://images.elsewhere.test document=/fr/nowhere`),
	}
	deadline := time.Now().Add(15 * time.Second)
	for {
		out := logs.String()
		missing := 0
		for _, re := range want {
			if !re.MatchString(out) {
				missing++
			}
		}
		if missing == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of the 2 violations did not reach the report endpoint's log within 15 s:\n%s", missing, e2etest.GrepLines(out, "csp"))
		}
		time.Sleep(100 * time.Millisecond)
	}
	for _, secret := range []string{"private/path", "abc123", "__inline"} {
		if strings.Contains(logs.String(), secret) {
			t.Errorf("the log holds %q:\n%s", secret, e2etest.GrepLines(logs.String(), "csp"))
		}
	}
	found := false
	for _, p := range tb.ConsoleProblems() {
		found = found || strings.Contains(p, "Content Security Policy")
	}
	if !found {
		t.Errorf("the refused inline script was not reported in the console: %q", tb.ConsoleProblems())
	}
	t.Logf("reported:\n%s", e2etest.GrepLines(logs.String(), "csp violation"))
}

// TestBrowserRedirectsStayOnTheSite follows each canonical redirect that
// once led off the site in Chromium itself, which reads a Location as
// browsers do (a backslash as a slash, tabs dropped): the tab ends on the
// site, on its not-found page.
func TestBrowserRedirectsStayOnTheSite(t *testing.T) {
	ctx, base := e2etest.Browser(t)
	site, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	tb := e2etest.NewTab(t, ctx)
	for _, path := range sitetest.OffSiteRedirects() {
		var href string
		// The network is closed: a tab sent to evil.com ends on an error
		// page, or its navigation fails; either way its address tells.
		navCtx, cancel := context.WithTimeout(tb.Ctx, 15*time.Second)
		navErr := chromedp.Run(navCtx, chromedp.Navigate(base+path))
		cancel()
		if err := chromedp.Run(tb.Ctx, chromedp.Evaluate(`location.href`, &href)); err != nil {
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
