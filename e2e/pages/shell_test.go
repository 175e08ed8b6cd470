package pages

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/chromedp"
	"github.com/northbeam/site/e2e/internal/e2etest"
	"github.com/northbeam/site/internal/sitetest"
	"github.com/northbeam/site/internal/testwait"
)

// TestPagesHydrateCleanly loads every page type in every language and
// fails on any console error or warning, hydration mismatches included.
func TestPagesHydrateCleanly(t *testing.T) {
	b, base := e2etest.Browser(t)
	s := sitetest.Site(t)
	for _, lang := range s.Info.Languages {
		for _, path := range []string{"/", "/services/platform-engineering", "/blog", "/schedule", "/privacy", "/cookies", "/no-such-page"} {
			url := base + lang.LocalPath(path)
			t.Run(lang.LocalPath(path), func(t *testing.T) {
				t.Parallel() // a tab of its own on a page of its own: nothing timed
				tb := e2etest.NewTab(t, b)
				var dir, htmlLang, title string
				tb.Run(t,
					e2etest.BeforeLoad(fmt.Sprintf(`localStorage.setItem(%q, %q)`, s.Info.LanguageStorageKey, lang.Code)),
					chromedp.Navigate(url),
					e2etest.WaitHydrated(),
					chromedp.Evaluate(`document.documentElement.dir`, &dir),
					chromedp.Evaluate(`document.documentElement.lang`, &htmlLang),
					chromedp.Title(&title),
				)
				if dir != lang.Dir || htmlLang != lang.Tag || title == "" {
					t.Errorf("dir=%q lang=%q title=%q", dir, htmlLang, title)
				}
				if problems := tb.ConsoleProblems(); len(problems) > 0 {
					t.Errorf("console:\n%s", strings.Join(problems, "\n"))
				}
			})
		}
	}
}

// TestClientNavigationShowsThePlaceholderWhileAChunkLoads holds back the
// privacy page's chunk and checks the translated placeholder, then the page.
func TestClientNavigationShowsThePlaceholderWhileAChunkLoads(t *testing.T) {
	b, base := e2etest.Browser(t)
	s := sitetest.Site(t)
	tb := e2etest.NewTab(t, b)
	held := make(chan string, 1)
	chromedp.ListenTarget(tb.Ctx, func(ev any) {
		if e, ok := ev.(*fetch.EventRequestPaused); ok {
			held <- string(e.RequestID)
		}
	})
	legalChunk := s.Bundle.Manifest.Pages["Legal"][0]
	tb.Run(t,
		chromedp.Navigate(base+"/fr"),
		e2etest.WaitHydrated(),
		fetch.Enable().WithPatterns([]*fetch.RequestPattern{{URLPattern: "*" + legalChunk}}),
		chromedp.Click(`footer a[href="/fr/privacy"]`, chromedp.ByQuery),
		chromedp.WaitVisible(`main .loading`, chromedp.ByQuery),
	)
	var placeholder, path string
	tb.Run(t, chromedp.Text(`main .loading`, &placeholder, chromedp.ByQuery), e2etest.Location(&path))
	if placeholder != s.Locales.T("fr", "loading") || path != "/fr/privacy" {
		t.Errorf("placeholder %q at %s", placeholder, path)
	}
	select {
	case id := <-held:
		tb.Run(t, fetch.ContinueRequest(e2etest.FetchRequestID(id)))
	case <-time.After(time.Until(testwait.Deadline(t))):
		t.Fatal("the page's chunk was never requested")
	}
	var heading, title string
	tb.Run(t,
		chromedp.WaitVisible(`main article.legal h1`, chromedp.ByQuery),
		chromedp.Text(`main h1`, &heading, chromedp.ByQuery),
		chromedp.Title(&title),
	)
	if privacy, _ := s.Legal("fr", "privacy"); heading != privacy.Title || !strings.Contains(title, heading) {
		t.Errorf("heading %q, title %q", heading, title)
	}
	if problems := tb.ConsoleProblems(); len(problems) > 0 {
		t.Errorf("console:\n%s", strings.Join(problems, "\n"))
	}
}

// TestLanguageSelector switches language from the header: the path's
// prefix changes, the page is in the new language and direction, and the
// choice is stored.
func TestLanguageSelector(t *testing.T) {
	b, base := e2etest.Browser(t)
	s := sitetest.Site(t)
	tb := e2etest.NewTab(t, b)
	var path, dir, stored, heading string
	tb.Run(t,
		chromedp.Navigate(base+"/schedule"),
		e2etest.WaitHydrated(),
		chromedp.Click(`.lang-select a[hreflang="ar"]`, chromedp.ByQuery),
		chromedp.WaitVisible(`html[dir="rtl"]`, chromedp.ByQuery),
		e2etest.Location(&path),
		chromedp.Evaluate(`document.documentElement.dir`, &dir),
		e2etest.StorageItem(s.Info.LanguageStorageKey, &stored),
		chromedp.Text(`main h1`, &heading, chromedp.ByQuery),
	)
	if path != "/ar/schedule" || dir != "rtl" || stored != "ar" || heading != s.Locales.T("ar", "schedule.title") {
		t.Errorf("path %s dir %s stored %q heading %q", path, dir, stored, heading)
	}
	// And back to English, which is stored too, so / stays English.
	tb.Run(t,
		chromedp.Click(`.lang-select a[hreflang="en"]`, chromedp.ByQuery),
		chromedp.WaitVisible(`html[dir="ltr"]`, chromedp.ByQuery),
		e2etest.Location(&path),
		e2etest.StorageItem(s.Info.LanguageStorageKey, &stored),
	)
	if path != "/schedule" || stored != "en" {
		t.Errorf("back to English: path %s stored %q", path, stored)
	}
}

// TestLanguageRedirects covers every language rule (README, Layout).
func TestLanguageRedirects(t *testing.T) {
	b, base := e2etest.Browser(t)
	s := sitetest.Site(t)
	key := s.Info.LanguageStorageKey
	browserLanguage := func(l string) string {
		return fmt.Sprintf(`Object.defineProperty(Navigator.prototype, "language", { get: () => %q });`, l)
	}
	stored := func(l string) string {
		return fmt.Sprintf(`try { if (!sessionStorage.getItem("seeded")) { localStorage.setItem(%q, %q); sessionStorage.setItem("seeded", "1"); } } catch (e) {}`, key, l)
	}
	brokenStorage := `Object.defineProperty(window, "localStorage", { get() { throw new DOMException("denied", "SecurityError"); } });`
	for _, tc := range []struct {
		name, setup, path, want string
		warns                   bool
	}{
		// The languages of content/site.json: the default one, and three
		// others (fewer when the site has fewer; they then repeat).
		{"a browser in another language, on the root", browserLanguage(sitetest.OtherAt(t, 0).Code + "-CA"), "/", sitetest.OtherAt(t, 0).Prefix, false},
		{"a browser in another language and region", browserLanguage(sitetest.OtherAt(t, 1).Code + "-AT"), "/", sitetest.OtherAt(t, 1).Prefix, false},
		{"a browser in a third language and region", browserLanguage(sitetest.OtherAt(t, 2).Code + "-EG"), "/", sitetest.OtherAt(t, 2).Prefix, false},
		{"a browser in a language the site lacks stays in the default one", browserLanguage(sitetest.Unlisted + "-ES"), "/", "/", false},
		{"browser language only applies to the root", browserLanguage(sitetest.OtherAt(t, 0).Code + "-FR"), "/blog", "/blog", false},
		{"stored preference beats the browser", stored(sitetest.OtherAt(t, 1).Code) + browserLanguage(sitetest.OtherAt(t, 0).Code+"-FR"), "/", sitetest.OtherAt(t, 1).Prefix, false},
		{"stored preference on an inner page", stored(sitetest.OtherAt(t, 2).Code), "/privacy", sitetest.OtherAt(t, 2).LocalPath("/privacy"), false},
		{"stored default language keeps the root", stored(sitetest.Default(t).Code) + browserLanguage(sitetest.OtherAt(t, 0).Code+"-FR"), "/", "/", false},
		{"a prefix always wins", stored(sitetest.OtherAt(t, 1).Code), sitetest.OtherAt(t, 0).LocalPath("/cookies"), sitetest.OtherAt(t, 0).LocalPath("/cookies"), false},
		{"storage throws: browser language, with a warning", brokenStorage + browserLanguage(sitetest.OtherAt(t, 1).Code+"-CH"), "/", sitetest.OtherAt(t, 1).Prefix, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel() // a tab of its own, with storage of its own: nothing timed
			tb := e2etest.NewTab(t, b)
			var path string
			var historyLength int
			tb.Run(t,
				e2etest.BeforeLoad(tc.setup),
				chromedp.Navigate(base+tc.path),
				e2etest.WaitHydrated(),
				e2etest.Location(&path),
				chromedp.Evaluate(`history.length`, &historyLength),
			)
			if path != tc.want {
				t.Errorf("landed on %s, want %s", path, tc.want)
			}
			if historyLength != 2 { // the tab's about:blank, then the page
				t.Errorf("history has %d entries: a redirect must replace, not push", historyLength)
			}
			warned := false
			for _, p := range tb.ConsoleProblems() {
				if strings.Contains(p, "Local storage is unavailable") {
					warned = true
				}
			}
			if warned != tc.warns {
				t.Errorf("storage warning logged: %v, want %v (%v)", warned, tc.warns, tb.ConsoleProblems())
			}
		})
	}
}

// TestServiceRoutesOpenAtTheService checks that /services/<slug> shows the
// home page scrolled to that service's card, whether it is loaded or
// reached from the footer, and that a link to another page then opens at
// that page's top. Scrolling is smooth and starts after the page's effects:
// each check waits, up to 10 s, for the card to come to rest near the top.
func TestServiceRoutesOpenAtTheService(t *testing.T) {
	b, base := e2etest.Browser(t)
	// atRest is true once the card is near the top of the screen and the
	// page has not scrolled for 300 ms.
	atRest := func(slug string) string {
		return `(() => {
			const y = window.scrollY, now = performance.now();
			if (window.__lastY !== y) { window.__lastY = y; window.__since = now; }
			const card = document.getElementById("service-` + slug + `");
			const top = card ? card.getBoundingClientRect().top : -1;
			return y > 0 && top >= 0 && top <= 300 && now - window.__since > 300;
		})()`
	}
	where := func(slug string) string {
		return `"card at " + Math.round(document.getElementById("service-` + slug + `")?.getBoundingClientRect().top ?? -1) + " px, page scrolled by " + Math.round(window.scrollY) + " px"`
	}
	wait := func(t *testing.T, tb *e2etest.Tab, what, slug string) {
		t.Helper()
		err := chromedp.Run(tb.Ctx, e2etest.Poll(atRest(slug), nil,
			chromedp.WithPollingInterval(50*time.Millisecond)))
		if err != nil {
			var state string
			tb.Run(t, chromedp.Evaluate(where(slug), &state))
			t.Errorf("%s: the service card did not come to rest near the top (%s)", what, state)
		}
	}
	tb := e2etest.NewTab(t, b)
	tb.Run(t,
		e2etest.Viewport(390, true),
		chromedp.Navigate(base+"/de/services/platform-engineering"),
		e2etest.WaitHydrated(),
	)
	wait(t, tb, "loaded", "platform-engineering")
	tb.Run(t,
		chromedp.Click(`footer a[href="/de/services/custom-software"]`, chromedp.ByQuery),
		e2etest.Poll(`location.pathname === "/de/services/custom-software"`, nil),
	)
	// The card above the one shown: before the new page scrolls, it is off the top of the screen.
	wait(t, tb, "from the footer", "custom-software")
	var scrollY float64
	tb.Run(t,
		chromedp.Click(`footer a[href="/de/privacy"]`, chromedp.ByQuery),
		chromedp.WaitReady(`main .legal`, chromedp.ByQuery),
		chromedp.Sleep(500*time.Millisecond), // long enough for a smooth scroll to show
		chromedp.Evaluate(`window.scrollY`, &scrollY),
	)
	if scrollY != 0 {
		t.Errorf("the privacy page opened scrolled by %.0f px, not at its top", scrollY)
	}
}
