package e2e

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/cdproto/security"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/northbeam/site/handlers"
	"github.com/northbeam/site/internal/sitetest"
)

// The cookie banner (docs/ARCHITECTURE.md, Consent) in headless Chromium.
// vanilla-cookieconsent hides itself from automated browsers, so these
// tests run against servers of their own whose site is built with bot
// hiding off: the configuration visitors never get, never a change to
// what they get. TestConsentHiddenFromBots checks the shipped default.

var (
	consentServersMu sync.Mutex
	consentServers   = map[string]*httptest.Server{}
)

// consentServer returns the base URL of a server of sitetest.ConsentSite(measurementID),
// over https when tls is set. Servers are shared by the package's tests.
func consentServer(t *testing.T, measurementID string, tls bool) string {
	t.Helper()
	s := sitetest.ConsentSite(t, measurementID)
	consentServersMu.Lock()
	defer consentServersMu.Unlock()
	key := fmt.Sprintf("%s/%v", measurementID, tls)
	if srv, ok := consentServers[key]; ok {
		return srv.URL
	}
	site := handlers.New(handlers.NewServer(s, handlers.Services{Log: sitetest.QuietLog()}))
	// The strict policy the site is meant to run under: no inline script or
	// style; Google's hosts for gtag.js only.
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Security-Policy", strictCSP)
		site.ServeHTTP(w, r)
	})
	var srv *httptest.Server
	if tls {
		srv = httptest.NewUnstartedServer(h)
		// Chromium is told to ignore the test certificate only once its tab exists: its earlier handshakes fail, quietly.
		srv.Config.ErrorLog = log.New(io.Discard, "", 0)
		srv.StartTLS()
	} else {
		srv = httptest.NewServer(h)
	}
	consentServers[key] = srv
	return srv.URL
}

// strictCSP is a content security policy without 'unsafe-inline' anywhere,
// allowing Google Analytics 4 as Google documents it.
const strictCSP = "default-src 'self'; script-src 'self' https://*.googletagmanager.com; style-src 'self'; " +
	"img-src 'self' data: https://*.google-analytics.com https://*.googletagmanager.com; " +
	"connect-src 'self' https://*.google-analytics.com https://*.analytics.google.com https://*.googletagmanager.com; " +
	"font-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"

// consentProbe runs in every document before the page's scripts: it notes
// when React marks the page hydrated, whether the banner existed then, when
// the banner is shown, every layout shift and every CSP violation.
const consentProbe = `(() => {
  const p = (window.__consentProbe = { hydrated: -1, shown: -1, bannerAtHydration: null, shifts: [], violations: [] });
  document.addEventListener("securitypolicyviolation", (e) =>
    p.violations.push(e.violatedDirective + " blocked " + (e.blockedURI || "inline") + " in " + (e.sourceFile || "the document") + ":" + e.lineNumber));
  new MutationObserver(() => {
    const root = document.documentElement;
    if (!root) return;
    if (p.hydrated < 0 && root.dataset.hydrated === "true") {
      p.hydrated = performance.now();
      p.bannerAtHydration = !!document.getElementById("cc-main");
    }
    if (p.shown < 0 && root.classList.contains("show--consent")) p.shown = performance.now();
  }).observe(document, { attributes: true, subtree: true, attributeFilter: ["class", "data-hydrated"] });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) p.shifts.push({ at: e.startTime, value: e.value });
  }).observe({ type: "layout-shift", buffered: true });
})();`

type probeResult struct {
	Hydrated          float64 `json:"hydrated"`
	Shown             float64 `json:"shown"`
	BannerAtHydration bool    `json:"bannerAtHydration"`
	Shifts            []struct {
		At    float64 `json:"at"`
		Value float64 `json:"value"`
	} `json:"shifts"`
}

// consentTab opens a tab that prefers reduced motion: the banner's
// transitions are then instant, so a click lands where the button is.
// It records the URL of every request the page makes to a server (a data:
// URL, such as an icon of the stylesheet, goes nowhere).
func consentTab(t *testing.T, b context.Context) (*tab, func() []string) {
	t.Helper()
	tb := newTab(t, b)
	var mu sync.Mutex
	var requests []string
	chromedp.ListenTarget(tb.ctx, func(ev any) {
		if e, ok := ev.(*network.EventRequestWillBeSent); ok && !strings.HasPrefix(e.Request.URL, "data:") {
			mu.Lock()
			requests = append(requests, e.Request.URL)
			mu.Unlock()
		}
	})
	do(t, tb,
		network.Enable(),
		chromedp.ActionFunc(func(ctx context.Context) error {
			return emulation.SetEmulatedMedia().WithFeatures([]*emulation.MediaFeature{{Name: "prefers-reduced-motion", Value: "reduce"}}).Do(ctx)
		}),
		beforeLoad(consentProbe),
	)
	return tb, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(requests)
	}
}

const pollEvery = 20 * time.Millisecond

// do runs actions in the tab; on failure it reports the state of the
// banner and the dialog, then stops the test.
func do(t *testing.T, tb *tab, actions ...chromedp.Action) {
	t.Helper()
	err := chromedp.Run(tb.ctx, actions...)
	if err == nil {
		return
	}
	var state string
	ctx, cancel := context.WithTimeout(tb.ctx, 2*time.Second)
	defer cancel()
	_ = chromedp.Run(ctx, chromedp.Evaluate(`"html class: " + document.documentElement.className + "\nbanner: " +
  (document.getElementById("cc-main")?.outerHTML.slice(0, 600) ?? "none")`, &state))
	t.Fatalf("browser: %v\n%s\nconsole: %v", err, state, tb.consoleProblems())
}

// named wraps an action's error with what it was waiting for.
func named(name string, a chromedp.Action) chromedp.Action {
	return chromedp.ActionFunc(func(ctx context.Context) error {
		if err := a.Do(ctx); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		return nil
	})
}

// waitBanner waits until the consent banner is shown and fully visible.
func waitBanner() chromedp.Action {
	return named("waiting for the banner", chromedp.Poll(`(() => {
  const m = document.querySelector("#cc-main .cm");
  return !!m && document.documentElement.classList.contains("show--consent") &&
    getComputedStyle(m).visibility === "visible" && getComputedStyle(m).opacity === "1";
})()`, nil, chromedp.WithPollingInterval(pollEvery), chromedp.WithPollingTimeout(10*time.Second)))
}

// waitPreferences waits until the preferences dialog is shown and fully visible.
func waitPreferences() chromedp.Action {
	return named("waiting for the dialog", chromedp.Poll(`(() => {
  const m = document.querySelector("#cc-main .pm");
  return !!m && document.documentElement.classList.contains("show--preferences") &&
    getComputedStyle(m).visibility === "visible" && getComputedStyle(m).opacity === "1";
})()`, nil, chromedp.WithPollingInterval(pollEvery), chromedp.WithPollingTimeout(10*time.Second)))
}

// clickReachable clicks the element sel once a click at its centre would
// reach it: nothing over it, not moving into place.
func clickReachable(sel string) chromedp.Action {
	return chromedp.Tasks{
		named("waiting to reach "+sel, chromedp.Poll(fmt.Sprintf(`(() => {
  const el = document.querySelector(%q);
  if (!el) return false;
  el.scrollIntoView({ block: "nearest" });
  const r = el.getBoundingClientRect();
  const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
  return !!hit && (hit === el || el.contains(hit));
})()`, sel), nil, chromedp.WithPollingInterval(pollEvery), chromedp.WithPollingTimeout(10*time.Second))),
		chromedp.Click(sel, chromedp.ByQuery),
	}
}

// waitClosed waits until neither the banner nor the dialog is shown.
func waitClosed() chromedp.Action {
	return named("waiting for the banner and dialog to close", chromedp.Poll(`!document.documentElement.classList.contains("show--consent") &&
  !document.documentElement.classList.contains("show--preferences")`, nil,
		chromedp.WithPollingInterval(pollEvery), chromedp.WithPollingTimeout(10*time.Second)))
}

// waitDecision waits until the consent cookie exists.
func waitDecision() chromedp.Action {
	return named("waiting for cc_cookie", chromedp.Poll(`document.cookie.split("; ").some((c) => c.startsWith("cc_cookie="))`, nil,
		chromedp.WithPollingInterval(pollEvery), chromedp.WithPollingTimeout(10*time.Second)))
}

// shown reports whether the banner or the dialog is on screen.
func shown(banner, preferences *bool) chromedp.Action {
	return chromedp.Tasks{
		chromedp.Evaluate(`document.documentElement.classList.contains("show--consent")`, banner),
		chromedp.Evaluate(`document.documentElement.classList.contains("show--preferences")`, preferences),
	}
}

// browserCookies reads the cookies the browser holds for u, with their attributes.
func browserCookies(u string, dst *[]*network.Cookie) chromedp.Action {
	return chromedp.ActionFunc(func(ctx context.Context) error {
		var err error
		*dst, err = network.GetCookies().WithURLs([]string{u}).Do(ctx)
		return err
	})
}

// presetCookie stores a cookie as another script would have (GA on the widest domain, say); domain "" is host-only.
func presetCookie(pageURL, name, domain string) chromedp.Action {
	return chromedp.ActionFunc(func(ctx context.Context) error {
		p := network.SetCookie(name, "GA1.1.123456789.1700000000").WithURL(pageURL).WithPath("/")
		if domain != "" {
			p = p.WithDomain("." + domain) // CDP wants the leading dot of a domain cookie
		}
		return p.Do(ctx)
	})
}

func cookieNamed(cookies []*network.Cookie, name string) *network.Cookie {
	for _, c := range cookies {
		if c.Name == name {
			return c
		}
	}
	return nil
}

// consentRecord reads the JSON of the cc_cookie.
func consentRecord(t *testing.T, c *network.Cookie) map[string]json.RawMessage {
	t.Helper()
	raw, err := url.QueryUnescape(c.Value)
	if err != nil {
		t.Fatalf("cc_cookie is not URL-encoded: %v", err)
	}
	var rec map[string]json.RawMessage
	if err := json.Unmarshal([]byte(raw), &rec); err != nil {
		t.Fatalf("cc_cookie is not JSON: %v (%s)", err, raw)
	}
	return rec
}

func recordField[T any](t *testing.T, rec map[string]json.RawMessage, field string) T {
	t.Helper()
	var v T
	raw, ok := rec[field]
	if !ok {
		t.Fatalf("the consent record has no %q: %v", field, rec)
	}
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("consent record field %q: %v", field, err)
	}
	return v
}

// dataLayerCommands reads window.dataLayer, each entry as an array.
func dataLayerCommands(dst *[][]any) chromedp.Action {
	return chromedp.ActionFunc(func(ctx context.Context) error {
		var s string
		if err := chromedp.Evaluate(`JSON.stringify((window.dataLayer || []).map((a) => Array.from(a)))`, &s).Do(ctx); err != nil {
			return err
		}
		return json.Unmarshal([]byte(s), dst)
	})
}

// analyticsStorageUpdates lists the analytics_storage values of gtag('consent', 'update', ...) commands, in order.
func analyticsStorageUpdates(commands [][]any) []string {
	var out []string
	for _, c := range commands {
		if len(c) == 3 && c[0] == "consent" && c[1] == "update" {
			if m, ok := c[2].(map[string]any); ok {
				out = append(out, fmt.Sprint(m["analytics_storage"]))
			}
		}
	}
	return out
}

var uuidV4 = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)

// analyticsHost reports whether a request goes to Google's analytics or tag hosts.
func analyticsHost(u string) bool {
	p, err := url.Parse(u)
	if err != nil {
		return false
	}
	h := p.Hostname()
	for _, host := range []string{"googletagmanager.com", "google-analytics.com", "analytics.google.com", "doubleclick.net"} {
		if h == host || strings.HasSuffix(h, "."+host) {
			return true
		}
	}
	return false
}

// testMeasurementID is the measurement ID of the consent tests that offer analytics.
const testMeasurementID = "G-TEST0001"

// gtagStub is what the tests answer for gtag.js: it only notes that it ran.
var gtagStub = base64.StdEncoding.EncodeToString([]byte(`window.__gtagLoaded = true;`))

// stubGtag answers the tab's requests to googletagmanager.com (gtag.js)
// with gtagStub, from the browser itself: none reaches the network. It
// returns the URLs it answered.
func stubGtag(t *testing.T, tb *tab) func() []string {
	t.Helper()
	var mu sync.Mutex
	var answered []string
	chromedp.ListenTarget(tb.ctx, func(ev any) {
		e, ok := ev.(*fetch.EventRequestPaused)
		if !ok {
			return
		}
		mu.Lock()
		answered = append(answered, e.Request.URL)
		mu.Unlock()
		// A listener must not block: the answer goes from a goroutine.
		go func() {
			_ = chromedp.Run(tb.ctx, fetch.FulfillRequest(e.RequestID, 200).
				WithResponseHeaders([]*fetch.HeaderEntry{{Name: "Content-Type", Value: "text/javascript"}}).
				WithBody(gtagStub))
		}()
	})
	do(t, tb, fetch.Enable().WithPatterns([]*fetch.RequestPattern{{URLPattern: "*googletagmanager.com*"}}))
	return func() []string {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(answered)
	}
}

// noConsoleProblems fails on console errors and warnings, and on content
// security policy violations in the current document.
func noConsoleProblems(t *testing.T, tb *tab) {
	t.Helper()
	if problems := tb.consoleProblems(); len(problems) > 0 {
		t.Errorf("console:\n%s", strings.Join(problems, "\n"))
	}
	var violations []string
	do(t, tb, chromedp.Evaluate(`window.__consentProbe ? window.__consentProbe.violations : []`, &violations))
	for _, v := range violations {
		t.Errorf("CSP violation: %s", v)
	}
}

// TestConsentBannerAppearsAfterThePageIsBuilt: in every language, the
// banner is absent when React has hydrated the page, then appears by
// itself about 100 ms later, outside #root, in the page's language and
// direction, with links to that language's policies, without shifting
// the layout.
func TestConsentBannerAppearsAfterThePageIsBuilt(t *testing.T) {
	b, _ := browser(t)
	base := consentServer(t, "", false)
	s := sitetest.Site(t)
	for _, lang := range s.Info.Languages {
		t.Run(lang.Code, func(t *testing.T) {
			tb, requests := consentTab(t, b)
			var probe probeResult
			var title, desc, accept, manage string
			var rejects int
			var links []string
			var outsideRoot, rtl bool
			do(t, tb,
				chromedp.Navigate(base+lang.LocalPath("/")),
				waitHydrated(),
				waitBanner(),
				chromedp.Evaluate(`window.__consentProbe`, &probe),
				chromedp.Text(`#cc-main .cm__title`, &title, chromedp.ByQuery),
				chromedp.Text(`#cc-main .cm__desc`, &desc, chromedp.ByQuery),
				chromedp.Text(`#cc-main .cm [data-role="all"]`, &accept, chromedp.ByQuery),
				chromedp.Evaluate(`document.querySelectorAll('#cc-main .cm [data-role="necessary"]').length`, &rejects),
				chromedp.Text(`#cc-main .cm [data-role="show"]`, &manage, chromedp.ByQuery),
				chromedp.Evaluate(`Array.from(document.querySelectorAll("#cc-main .cm__footer a")).map((a) => a.getAttribute("href"))`, &links),
				chromedp.Evaluate(`(() => { const cc = document.getElementById("cc-main"); return cc.parentElement === document.body && !document.getElementById("root").contains(cc); })()`, &outsideRoot),
				chromedp.Evaluate(`document.getElementById("cc-main").classList.contains("cc--rtl")`, &rtl),
			)
			if probe.Hydrated < 0 || probe.BannerAtHydration {
				t.Errorf("the banner existed when the page was hydrated (probe %+v)", probe)
			}
			delay := probe.Shown - probe.Hydrated
			t.Logf("banner shown %.0f ms after hydration", delay)
			if delay < 95 || delay > 3000 {
				t.Errorf("banner shown %.0f ms after hydration, want about 100 ms (and never before)", delay)
			}
			if !outsideRoot {
				t.Error("the banner is not a child of body outside #root")
			}
			want := map[string]string{
				// Without analytics, one acknowledgement (TestConsentWithoutAnalyticsOneAcknowledgement).
				"title": s.Locales.T(lang.Code, "consent.banner.title"), "accept": s.Locales.T(lang.Code, "consent.actions.acknowledge"),
				"manage": s.Locales.T(lang.Code, "consent.actions.managePreferences"),
			}
			got := map[string]string{"title": title, "accept": accept, "manage": manage}
			if rejects != 0 {
				t.Errorf("%d reject buttons without analytics", rejects)
			}
			for k, w := range want {
				if strings.TrimSpace(got[k]) != w {
					t.Errorf("%s: %q, want %q", k, got[k], w)
				}
			}
			if !strings.HasPrefix(desc, s.Locales.T(lang.Code, "consent.banner.description")) || strings.Contains(desc, "{{") {
				t.Errorf("description %q", desc)
			}
			if wantLinks := []string{lang.LocalPath("/privacy"), lang.LocalPath("/cookies")}; !slices.Equal(links, wantLinks) {
				t.Errorf("footer links %v, want %v", links, wantLinks)
			}
			if rtl != (lang.Dir == "rtl") {
				t.Errorf("banner right-to-left: %v, page direction %s", rtl, lang.Dir)
			}
			var shift float64
			for _, e := range probe.Shifts {
				if e.At >= probe.Hydrated {
					shift += e.Value
				}
			}
			if shift != 0 {
				t.Errorf("layout shift after hydration: %v", shift)
			}
			for _, r := range requests() {
				if !strings.HasPrefix(r, base+"/") {
					t.Errorf("request outside the site: %s", r)
				}
			}
			noConsoleProblems(t, tb)
		})
	}
}

// TestConsentAcceptAll: in every language, Accept all writes the consent
// consent record in cc_cookie (path /, SameSite Lax, 182 days,
// not Secure over http), grants analytics storage, and a reload with this
// valid decision shows nothing. No request goes to an analytics host
// before consent; after it, only gtag.js, answered by the test.
func TestConsentAcceptAll(t *testing.T) {
	b, _ := browser(t)
	base := consentServer(t, testMeasurementID, false)
	s := sitetest.Site(t)
	consentChunk := sitetest.ConsentChunk(t, s)
	for _, lang := range s.Info.Languages {
		t.Run(lang.Code, func(t *testing.T) {
			tb, requests := consentTab(t, b)
			stubbed := stubGtag(t, tb)
			page := base + lang.LocalPath("/")
			var cookies []*network.Cookie
			var commands [][]any
			var before time.Time
			do(t, tb,
				chromedp.Navigate(page),
				waitHydrated(),
				waitBanner(),
			)
			for _, r := range requests() {
				if analyticsHost(r) || !strings.HasPrefix(r, base+"/") {
					t.Errorf("request before consent: %s", r)
				}
			}
			do(t, tb,
				chromedp.ActionFunc(func(context.Context) error { before = time.Now(); return nil }),
				clickReachable(`#cc-main .cm [data-role="all"]`),
				waitDecision(),
				waitClosed(),
				browserCookies(page, &cookies),
				dataLayerCommands(&commands),
			)
			c := cookieNamed(cookies, "cc_cookie")
			if c == nil {
				t.Fatalf("no cc_cookie among %d cookies", len(cookies))
			}
			if c.Path != "/" || c.SameSite != network.CookieSameSiteLax || c.Secure || c.HTTPOnly || c.Session {
				t.Errorf("cc_cookie attributes: path %q, SameSite %q, Secure %v, HttpOnly %v, session %v", c.Path, c.SameSite, c.Secure, c.HTTPOnly, c.Session)
			}
			expires := time.Unix(0, int64(c.Expires*float64(time.Second)))
			if d := expires.Sub(before) - 182*24*time.Hour; d < -time.Minute || d > time.Minute {
				t.Errorf("cc_cookie expires %v, want 182 days ahead (off by %v)", expires, d)
			}
			rec := consentRecord(t, c)
			for _, field := range []string{"categories", "services", "revision", "data", "consentTimestamp", "lastConsentTimestamp", "consentId", "languageCode", "expirationTime"} {
				if _, ok := rec[field]; !ok {
					t.Errorf("the consent record lacks %s: %v", field, rec)
				}
			}
			if got := recordField[[]string](t, rec, "categories"); !slices.Equal(got, []string{"necessary", "analytics"}) {
				t.Errorf("categories %v", got)
			}
			if got := recordField[map[string][]string](t, rec, "services"); !slices.Equal(got["analytics"], []string{"ga4"}) {
				t.Errorf("services %v", got)
			}
			if got := recordField[int](t, rec, "revision"); got != 0 {
				t.Errorf("revision %d", got)
			}
			if got := recordField[string](t, rec, "consentId"); !uuidV4.MatchString(got) {
				t.Errorf("consentId %q is not a random UUID", got)
			}
			if got := recordField[string](t, rec, "languageCode"); got != lang.Code {
				t.Errorf("languageCode %q, want %q", got, lang.Code)
			}
			for _, field := range []string{"consentTimestamp", "lastConsentTimestamp"} {
				ts, err := time.Parse(time.RFC3339Nano, recordField[string](t, rec, field))
				if err != nil || ts.Before(before.Add(-time.Minute)) || ts.After(time.Now().Add(time.Minute)) {
					t.Errorf("%s %v (%v)", field, ts, err)
				}
			}
			if got := time.UnixMilli(recordField[int64](t, rec, "expirationTime")); got.Sub(expires).Abs() > 2*time.Second {
				t.Errorf("expirationTime %v, cookie expires %v", got, expires)
			}
			if len(commands) == 0 || commands[0][0] != "consent" || commands[0][1] != "default" {
				t.Errorf("the Consent Mode defaults are not first in the dataLayer: %v", commands)
			}
			if got := analyticsStorageUpdates(commands); !slices.Equal(got, []string{"granted"}) {
				t.Errorf("analytics_storage updates %v, want [granted]", got)
			}

			// The same page again, with a valid decision: nothing is shown, and
			// nothing of the banner is fetched; analytics is granted again.
			var probe probeResult
			var banner, preferences bool
			reloaded := len(requests())
			do(t, tb,
				chromedp.Reload(),
				waitHydrated(),
				chromedp.Sleep(600*time.Millisecond),
				chromedp.Evaluate(`window.__consentProbe`, &probe),
				shown(&banner, &preferences),
				dataLayerCommands(&commands),
			)
			if banner || preferences || probe.Shown >= 0 {
				t.Errorf("after a reload with a valid decision: banner %v, dialog %v, shown at %v", banner, preferences, probe.Shown)
			}
			if got := analyticsStorageUpdates(commands); !slices.Equal(got, []string{"granted"}) {
				t.Errorf("after the reload, analytics_storage updates %v, want [granted]", got)
			}
			for _, r := range requests()[reloaded:] {
				if strings.HasSuffix(r, consentChunk) || strings.HasSuffix(r, s.Bundle.Manifest.ConsentCSS) {
					t.Errorf("a returning visitor with a valid decision fetched the banner: %s", r)
				}
			}
			gtagURL := "https://www.googletagmanager.com/gtag/js?id=" + testMeasurementID
			for _, r := range requests() {
				if r != gtagURL && (analyticsHost(r) || !strings.HasPrefix(r, base+"/")) {
					t.Errorf("request outside the site: %s", r)
				}
			}
			if got := stubbed(); len(got) == 0 || slices.ContainsFunc(got, func(u string) bool { return u != gtagURL }) {
				t.Errorf("requests answered for Google: %v, want gtag.js with the ID, on each page granted", got)
			}
			noConsoleProblems(t, tb)
		})
	}
}

// TestConsentRejectAll: in every language, Reject all keeps only the
// necessary category, clears the Google Analytics cookies already present
// (names beginning with _ga, and _gid) and no other, and records denied
// analytics storage in the dataLayer.
func TestConsentRejectAll(t *testing.T) {
	b, _ := browser(t)
	base := consentServer(t, testMeasurementID, false)
	s := sitetest.Site(t)
	for _, lang := range s.Info.Languages {
		t.Run(lang.Code, func(t *testing.T) {
			tb, _ := consentTab(t, b)
			page := base + lang.LocalPath("/")
			var cookies []*network.Cookie
			var commands [][]any
			do(t, tb,
				presetCookie(page, "_ga", ""),
				presetCookie(page, "_ga_XXXX", ""),
				presetCookie(page, "_gid", ""),
				presetCookie(page, "my_ga", ""), // contains _ga, does not begin with it
				presetCookie(page, "other", ""),
				chromedp.Navigate(page),
				waitHydrated(),
				waitBanner(),
				clickReachable(`#cc-main .cm [data-role="necessary"]`),
				waitDecision(),
				waitClosed(),
				browserCookies(page, &cookies),
				dataLayerCommands(&commands),
			)
			var names []string
			for _, c := range cookies {
				names = append(names, c.Name)
			}
			slices.Sort(names)
			if want := []string{"cc_cookie", "my_ga", "other"}; !slices.Equal(names, want) {
				t.Errorf("cookies after Reject all: %v, want %v", names, want)
			}
			if c := cookieNamed(cookies, "cc_cookie"); c != nil {
				rec := consentRecord(t, c)
				if got := recordField[[]string](t, rec, "categories"); !slices.Equal(got, []string{"necessary"}) {
					t.Errorf("categories %v", got)
				}
				if got := recordField[map[string][]string](t, rec, "services"); len(got["analytics"]) != 0 {
					t.Errorf("services %v", got)
				}
			}
			if got := analyticsStorageUpdates(commands); !slices.Equal(got, []string{"denied"}) {
				t.Errorf("analytics_storage updates %v, want [denied]", got)
			}
			noConsoleProblems(t, tb)
		})
	}
}

// TestConsentRejectClearsAnalyticsCookiesOnEveryDomain: Google Analytics
// writes its cookies on the widest domain it may; on www.<site> they live
// on .<site>, and rejecting clears them there too.
func TestConsentRejectClearsAnalyticsCookiesOnEveryDomain(t *testing.T) {
	b, _ := browser(t)
	base := consentServer(t, testMeasurementID, false)
	u, _ := url.Parse(base)
	// Chromium resolves every *.localhost name to loopback by itself.
	page := "http://www.northbeam.localhost:" + u.Port() + "/de"
	tb, _ := consentTab(t, b)
	var cookies []*network.Cookie
	do(t, tb,
		presetCookie(page, "_ga", "northbeam.localhost"),
		presetCookie(page, "_ga_XXXX", "northbeam.localhost"),
		presetCookie(page, "_gid", "www.northbeam.localhost"),
		presetCookie(page, "_ga", ""),
		presetCookie(page, "other", "northbeam.localhost"),
		browserCookies(page, &cookies),
	)
	if len(cookies) != 5 {
		t.Fatalf("presetting cookies: got %d", len(cookies))
	}
	do(t, tb,
		chromedp.Navigate(page),
		waitHydrated(),
		waitBanner(),
		clickReachable(`#cc-main .cm [data-role="necessary"]`),
		waitDecision(),
		browserCookies(page, &cookies),
	)
	var left []string
	for _, c := range cookies {
		left = append(left, c.Name+"@"+c.Domain)
	}
	slices.Sort(left)
	if want := []string{"cc_cookie@.www.northbeam.localhost", "other@.northbeam.localhost"}; !slices.Equal(left, want) {
		t.Errorf("cookies after Reject all: %v, want %v", left, want)
	}
	noConsoleProblems(t, tb)
}

// TestConsentManagePreferencesThenSave: Manage preferences opens the
// dialog (analytics off, necessary on and locked); switching analytics on
// and saving stores that choice; the footer's cookie settings reopen it,
// and switching analytics off again clears the analytics cookies and
// records denied.
func TestConsentManagePreferencesThenSave(t *testing.T) {
	b, _ := browser(t)
	base := consentServer(t, testMeasurementID, false)
	s := sitetest.Site(t)
	for _, code := range []string{"fr", "ar"} {
		lang, _ := s.Info.Language(code)
		t.Run(code, func(t *testing.T) {
			tb, _ := consentTab(t, b)
			stubGtag(t, tb)
			page := base + lang.LocalPath("/")
			var title, save, closeLabel string
			var analyticsOn, necessaryOn, necessaryLocked bool
			do(t, tb,
				chromedp.Navigate(page),
				waitHydrated(),
				waitBanner(),
				clickReachable(`#cc-main .cm [data-role="show"]`),
				waitPreferences(),
				chromedp.Text(`#cc-main .pm__title`, &title, chromedp.ByQuery),
				chromedp.Text(`#cc-main .pm [data-role="save"]`, &save, chromedp.ByQuery),
				chromedp.AttributeValue(`#cc-main .pm__close-btn`, "aria-label", &closeLabel, nil, chromedp.ByQuery),
				chromedp.Evaluate(`document.querySelector('#cc-main input.section__toggle[value="analytics"]').checked`, &analyticsOn),
				chromedp.Evaluate(`document.querySelector('#cc-main input.section__toggle[value="necessary"]').checked`, &necessaryOn),
				chromedp.Evaluate(`document.querySelector('#cc-main input.section__toggle[value="necessary"]').disabled`, &necessaryLocked),
			)
			if title != s.Locales.T(code, "consent.preferences.title") || strings.TrimSpace(save) != s.Locales.T(code, "consent.actions.save") || closeLabel != s.Locales.T(code, "consent.actions.close") {
				t.Errorf("dialog: title %q, save %q, close %q", title, save, closeLabel)
			}
			if analyticsOn || !necessaryOn || !necessaryLocked {
				t.Errorf("defaults: analytics on %v, necessary on %v and locked %v", analyticsOn, necessaryOn, necessaryLocked)
			}
			var cookies []*network.Cookie
			var commands [][]any
			do(t, tb,
				clickReachable(`#cc-main .pm .section__toggle-wrapper:has(input[value="analytics"])`),
				clickReachable(`#cc-main .pm [data-role="save"]`),
				waitDecision(),
				waitClosed(),
				browserCookies(page, &cookies),
				dataLayerCommands(&commands),
			)
			c := cookieNamed(cookies, "cc_cookie")
			if c == nil {
				t.Fatal("no cc_cookie after Save preferences")
			}
			rec := consentRecord(t, c)
			if got := recordField[[]string](t, rec, "categories"); !slices.Equal(got, []string{"necessary", "analytics"}) {
				t.Errorf("categories %v", got)
			}
			if got := analyticsStorageUpdates(commands); !slices.Equal(got, []string{"granted"}) {
				t.Errorf("analytics_storage updates %v", got)
			}

			// Later, from the footer: analytics off again.
			do(t, tb,
				presetCookie(page, "_ga", ""),
				presetCookie(page, "_gid", ""),
				clickReachable(`footer [data-cc="show-preferencesModal"]`),
				waitPreferences(),
				chromedp.Evaluate(`document.querySelector('#cc-main input.section__toggle[value="analytics"]').checked`, &analyticsOn),
			)
			if !analyticsOn {
				t.Error("the dialog does not show the saved choice")
			}
			do(t, tb,
				clickReachable(`#cc-main .pm .section__toggle-wrapper:has(input[value="analytics"])`),
				clickReachable(`#cc-main .pm [data-role="save"]`),
				waitClosed(),
				browserCookies(page, &cookies),
				dataLayerCommands(&commands),
			)
			if cookieNamed(cookies, "_ga") != nil || cookieNamed(cookies, "_gid") != nil {
				t.Error("withdrawing analytics left _ga or _gid")
			}
			rec = consentRecord(t, cookieNamed(cookies, "cc_cookie"))
			if got := recordField[[]string](t, rec, "categories"); !slices.Equal(got, []string{"necessary"}) {
				t.Errorf("categories after withdrawing %v", got)
			}
			if got := analyticsStorageUpdates(commands); !slices.Equal(got, []string{"granted", "denied"}) {
				t.Errorf("analytics_storage updates %v, want [granted denied]", got)
			}
			noConsoleProblems(t, tb)
		})
	}
}

// TestConsentReturningVisitorFetchesTheBannerForThePreferences: a visitor
// whose decision is stored loads none of the banner on their next pages;
// the footer's cookie settings fetch it, open the dialog styled and with
// the stored choice, and a change there is applied and stored. A record of
// another revision, or one the library would not accept, is no decision:
// the banner asks.
func TestConsentReturningVisitorFetchesTheBannerForThePreferences(t *testing.T) {
	b, _ := browser(t)
	base := consentServer(t, testMeasurementID, false)
	s := sitetest.Site(t)
	consentChunk := sitetest.ConsentChunk(t, s)
	tb, requests := consentTab(t, b)
	stubGtag(t, tb)
	page := base + "/ar"
	do(t, tb,
		chromedp.Navigate(page),
		waitHydrated(),
		waitBanner(),
		clickReachable(`#cc-main .cm [data-role="all"]`),
		waitDecision(),
		waitClosed(),
	)
	fetchedBanner := func(since int) (js, css bool) {
		for _, r := range requests()[since:] {
			js = js || strings.HasSuffix(r, consentChunk)
			css = css || strings.HasSuffix(r, s.Bundle.Manifest.ConsentCSS)
		}
		return js, css
	}

	// Another page, loaded as a new document, with the decision stored.
	before := len(requests())
	var commands [][]any
	var banner, preferences bool
	do(t, tb,
		chromedp.Navigate(base+"/ar/blog"),
		waitHydrated(),
		chromedp.Sleep(600*time.Millisecond),
		shown(&banner, &preferences),
		dataLayerCommands(&commands),
	)
	if js, css := fetchedBanner(before); js || css || banner || preferences {
		t.Errorf("returning visitor: fetched the chunk %v, the stylesheet %v; banner %v, dialog %v", js, css, banner, preferences)
	}
	if got := analyticsStorageUpdates(commands); !slices.Equal(got, []string{"granted"}) {
		t.Errorf("stored decision: analytics_storage updates %v, want [granted]", got)
	}

	// The footer's cookie settings: the dialog, styled, in Arabic, with the stored choice.
	var analyticsOn bool
	var position, direction string
	do(t, tb,
		clickReachable(`footer [data-cc="show-preferencesModal"]`),
		waitPreferences(),
		chromedp.Evaluate(`document.querySelector('#cc-main input.section__toggle[value="analytics"]').checked`, &analyticsOn),
		chromedp.Evaluate(`getComputedStyle(document.querySelector('#cc-main .pm')).position`, &position),
		chromedp.Evaluate(`getComputedStyle(document.querySelector('#cc-main .pm')).direction`, &direction),
	)
	if js, css := fetchedBanner(before); !js || !css {
		t.Errorf("opening the preferences fetched the chunk %v and the stylesheet %v, want both", js, css)
	}
	if !analyticsOn || position != "fixed" || direction != "rtl" {
		t.Errorf("dialog: analytics on %v (stored: on), position %q (want fixed: styled), direction %q", analyticsOn, position, direction)
	}
	var cookies []*network.Cookie
	do(t, tb,
		clickReachable(`#cc-main .pm .section__toggle-wrapper:has(input[value="analytics"])`),
		clickReachable(`#cc-main .pm [data-role="save"]`),
		waitClosed(),
		browserCookies(page, &cookies),
		dataLayerCommands(&commands),
	)
	if got := analyticsStorageUpdates(commands); !slices.Equal(got, []string{"granted", "denied"}) {
		t.Errorf("after withdrawing: analytics_storage updates %v, want [granted denied]", got)
	}
	rec := consentRecord(t, cookieNamed(cookies, "cc_cookie"))
	if got := recordField[[]string](t, rec, "categories"); !slices.Equal(got, []string{"necessary"}) {
		t.Errorf("categories after withdrawing %v", got)
	}

	// Records the library would not accept: the banner asks again.
	for name, record := range map[string]string{
		"not JSON":      `{"categories":`,
		"no consent id": `{"categories":["necessary"],"revision":0,"consentTimestamp":"2026-01-01T00:00:00Z","lastConsentTimestamp":"2026-01-01T00:00:00Z"}`,
		"no categories": `{"revision":0,"consentId":"x","consentTimestamp":"2026-01-01T00:00:00Z","lastConsentTimestamp":"2026-01-01T00:00:00Z"}`,
	} {
		do(t, tb,
			chromedp.Evaluate(fmt.Sprintf(`document.cookie = "cc_cookie=" + encodeURIComponent(%q) + "; path=/; SameSite=Lax; max-age=86400"`, record), nil),
			chromedp.Reload(),
			waitHydrated(),
			named("the banner for a record with "+name, waitBanner()),
		)
	}
	noConsoleProblems(t, tb)
}

// TestConsentPreferencesCloseOnEscape: the footer's cookie settings open
// the dialog before any decision; Escape closes it (so does Close) and
// records nothing; the banner is still there.
func TestConsentPreferencesCloseOnEscape(t *testing.T) {
	b, _ := browser(t)
	base := consentServer(t, "", false)
	tb, _ := consentTab(t, b)
	page := base + "/de/blog"
	var banner, preferences bool
	var cookies []*network.Cookie
	do(t, tb,
		chromedp.Navigate(page),
		waitHydrated(),
		waitBanner(),
		clickReachable(`footer [data-cc="show-preferencesModal"]`),
		waitPreferences(),
		chromedp.KeyEvent(kb.Escape),
		chromedp.Poll(`!document.documentElement.classList.contains("show--preferences")`, nil,
			chromedp.WithPollingInterval(pollEvery), chromedp.WithPollingTimeout(5*time.Second)),
		shown(&banner, &preferences),
		browserCookies(page, &cookies),
	)
	if !banner || preferences || cookieNamed(cookies, "cc_cookie") != nil {
		t.Errorf("after Escape: banner %v, dialog %v, cc_cookie %v", banner, preferences, cookieNamed(cookies, "cc_cookie") != nil)
	}
	do(t, tb,
		clickReachable(`#cc-main .cm [data-role="show"]`),
		waitPreferences(),
		clickReachable(`#cc-main .pm__close-btn`),
		chromedp.Poll(`!document.documentElement.classList.contains("show--preferences")`, nil,
			chromedp.WithPollingInterval(pollEvery), chromedp.WithPollingTimeout(5*time.Second)),
		shown(&banner, &preferences),
	)
	if !banner || preferences {
		t.Errorf("after Close: banner %v, dialog %v", banner, preferences)
	}
	noConsoleProblems(t, tb)
}

// TestConsentRevisionChangeReprompts: a decision stored under another
// revision than the site's (0) is no decision: the banner asks again,
// saying why.
func TestConsentRevisionChangeReprompts(t *testing.T) {
	b, _ := browser(t)
	base := consentServer(t, "", false)
	s := sitetest.Site(t)
	tb, _ := consentTab(t, b)
	page := base + "/fr"
	var cookies []*network.Cookie
	do(t, tb,
		chromedp.Navigate(page),
		waitHydrated(),
		waitBanner(),
		clickReachable(`#cc-main .cm [data-role="all"]`),
		waitDecision(),
		browserCookies(page, &cookies),
	)
	c := cookieNamed(cookies, "cc_cookie")
	if c == nil {
		t.Fatal("no cc_cookie")
	}
	rec := consentRecord(t, c)
	rec["revision"] = json.RawMessage("1")
	value, _ := json.Marshal(rec)
	var revisionMessage string
	do(t, tb,
		// Rewritten the way the library writes it, so that it replaces the same cookie.
		chromedp.Evaluate(fmt.Sprintf(`document.cookie = "cc_cookie=" + encodeURIComponent(%q) + "; path=/; SameSite=Lax; max-age=86400" +
  (location.hostname.includes(".") ? "; Domain=" + location.hostname : "")`, value), nil),
		chromedp.Reload(),
		waitHydrated(),
		waitBanner(),
		chromedp.Text(`#cc-main .cm__revision`, &revisionMessage, chromedp.ByQuery),
	)
	if revisionMessage != s.Locales.T("fr", "consent.banner.revision") {
		t.Errorf("revision message %q", revisionMessage)
	}
	noConsoleProblems(t, tb)
}

// TestConsentFollowsTheLanguageOnClientNavigation: switching the language
// from the header switches the banner's language and direction; the
// decision records the language it was made in; the cookie policy's
// button, reached by client navigation, opens the dialog in that language.
func TestConsentFollowsTheLanguageOnClientNavigation(t *testing.T) {
	b, _ := browser(t)
	base := consentServer(t, "", false)
	s := sitetest.Site(t)
	tb, _ := consentTab(t, b)
	var title, link string
	var rtl bool
	do(t, tb,
		chromedp.Navigate(base+"/"),
		waitHydrated(),
		waitBanner(),
		chromedp.Text(`#cc-main .cm__title`, &title, chromedp.ByQuery),
	)
	if title != s.Locales.T("en", "consent.banner.title") {
		t.Errorf("English banner title %q", title)
	}
	do(t, tb,
		chromedp.Click(`.lang-select a[hreflang="ar"]`, chromedp.ByQuery),
		chromedp.WaitVisible(`html[dir="rtl"]`, chromedp.ByQuery),
		chromedp.Poll(fmt.Sprintf(`document.querySelector("#cc-main .cm__title").textContent === %q`, s.Locales.T("ar", "consent.banner.title")), nil,
			chromedp.WithPollingInterval(pollEvery), chromedp.WithPollingTimeout(5*time.Second)),
		chromedp.Evaluate(`document.getElementById("cc-main").classList.contains("cc--rtl")`, &rtl),
		chromedp.AttributeValue(`#cc-main .cm__footer a`, "href", &link, nil, chromedp.ByQuery),
	)
	if !rtl || link != "/ar/privacy" {
		t.Errorf("Arabic banner: rtl %v, first link %q", rtl, link)
	}
	var cookies []*network.Cookie
	do(t, tb,
		waitBanner(),
		clickReachable(`#cc-main .cm [data-role="all"]`),
		waitDecision(),
		browserCookies(base+"/ar", &cookies),
	)
	if c := cookieNamed(cookies, "cc_cookie"); c == nil {
		t.Fatal("no cc_cookie")
	} else if got := recordField[string](t, consentRecord(t, c), "languageCode"); got != "ar" {
		t.Errorf("languageCode %q, want ar", got)
	}
	var pmTitle string
	do(t, tb,
		chromedp.Click(`footer a[href="/ar/cookies"]`, chromedp.ByQuery),
		chromedp.WaitVisible(`main [data-cc="show-preferencesModal"]`, chromedp.ByQuery),
		clickReachable(`main [data-cc="show-preferencesModal"]`),
		waitPreferences(),
		chromedp.Text(`#cc-main .pm__title`, &pmTitle, chromedp.ByQuery),
	)
	if pmTitle != s.Locales.T("ar", "consent.preferences.title") {
		t.Errorf("dialog title %q", pmTitle)
	}
	noConsoleProblems(t, tb)
}

// TestConsentCookiePolicyButtonBeforeADecision: on the cookie policy, the
// button opens the dialog even before any decision, which can then be
// made there.
func TestConsentCookiePolicyButtonBeforeADecision(t *testing.T) {
	b, _ := browser(t)
	base := consentServer(t, "", false)
	tb, _ := consentTab(t, b)
	page := base + "/cookies"
	var cookies []*network.Cookie
	do(t, tb,
		chromedp.Navigate(page),
		waitHydrated(),
		clickReachable(`main [data-cc="show-preferencesModal"]`),
		waitPreferences(),
		clickReachable(`#cc-main .pm [data-role="save"]`),
		waitDecision(),
		waitClosed(),
		browserCookies(page, &cookies),
	)
	if c := cookieNamed(cookies, "cc_cookie"); c == nil {
		t.Fatal("no cc_cookie")
	} else if got := recordField[[]string](t, consentRecord(t, c), "categories"); !slices.Equal(got, []string{"necessary"}) {
		t.Errorf("categories %v", got)
	}
	noConsoleProblems(t, tb)
}

// TestConsentWithoutAnalyticsOffersOnlyNecessary: with no measurement ID,
// in every language, neither the banner nor the preferences dialog speaks
// of analytics or offers its toggle: the dialog has the necessary category
// only, and Accept all records that alone.
func TestConsentWithoutAnalyticsOffersOnlyNecessary(t *testing.T) {
	b, _ := browser(t)
	base := consentServer(t, "", false)
	s := sitetest.Site(t)
	for _, lang := range s.Info.Languages {
		t.Run(lang.Code, func(t *testing.T) {
			tb, requests := consentTab(t, b)
			page := base + lang.LocalPath("/")
			var desc, dialog string
			var toggles []string
			var cookies []*network.Cookie
			do(t, tb,
				chromedp.Navigate(page),
				waitHydrated(),
				waitBanner(),
				chromedp.Text(`#cc-main .cm__desc`, &desc, chromedp.ByQuery),
				clickReachable(`#cc-main .cm [data-role="show"]`),
				waitPreferences(),
				chromedp.Evaluate(`Array.from(document.querySelectorAll("#cc-main .pm input.section__toggle")).map((i) => i.value)`, &toggles),
				chromedp.Evaluate(`document.querySelector("#cc-main .pm").textContent`, &dialog),
				clickReachable(`#cc-main .pm [data-role="save"]`),
				waitDecision(),
				waitClosed(),
				browserCookies(page, &cookies),
			)
			if !slices.Equal(toggles, []string{"necessary"}) {
				t.Errorf("the dialog's toggles %v, want [necessary]", toggles)
			}
			if !strings.HasPrefix(desc, s.Locales.T(lang.Code, "consent.banner.description")) {
				t.Errorf("banner description %q", desc)
			}
			if !strings.Contains(dialog, s.Locales.T(lang.Code, "consent.preferences.intro.description")) {
				t.Errorf("the dialog lacks the necessary-only introduction: %q", dialog)
			}
			for _, text := range []string{desc, dialog} {
				for _, analytics := range []string{"Google Analytics", "_ga", s.Locales.T(lang.Code, "consent.preferences.analytics.title")} {
					if strings.Contains(text, analytics) {
						t.Errorf("%q mentions %q", text, analytics)
					}
				}
			}
			if c := cookieNamed(cookies, "cc_cookie"); c == nil {
				t.Error("no cc_cookie after saving")
			} else if got := recordField[[]string](t, consentRecord(t, c), "categories"); !slices.Equal(got, []string{"necessary"}) {
				t.Errorf("categories %v", got)
			}
			for _, r := range requests() {
				if !strings.HasPrefix(r, base+"/") {
					t.Errorf("request outside the site: %s", r)
				}
			}
			noConsoleProblems(t, tb)
		})
	}
}

// TestConsentLoadsGtagOnlyAfterConsent: with a measurement ID configured,
// gtag.js is requested once analytics is accepted, not before, and
// configured with the ID. The machine has no internet: the request is
// answered by the test.
func TestConsentLoadsGtagOnlyAfterConsent(t *testing.T) {
	b, _ := browser(t)
	const id = testMeasurementID
	base := consentServer(t, id, false)
	tb, requests := consentTab(t, b)
	paused := make(chan *fetch.EventRequestPaused, 4)
	chromedp.ListenTarget(tb.ctx, func(ev any) {
		if e, ok := ev.(*fetch.EventRequestPaused); ok {
			paused <- e
		}
	})
	do(t, tb,
		fetch.Enable().WithPatterns([]*fetch.RequestPattern{{URLPattern: "*googletagmanager.com*"}}),
		chromedp.Navigate(base+"/"),
		waitHydrated(),
		waitBanner(),
		chromedp.Sleep(300*time.Millisecond),
	)
	for _, r := range requests() {
		if analyticsHost(r) {
			t.Fatalf("analytics requested before consent: %s", r)
		}
	}
	do(t, tb, clickReachable(`#cc-main .cm [data-role="all"]`))
	select {
	case e := <-paused:
		want := "https://www.googletagmanager.com/gtag/js?id=" + id
		if e.Request.URL != want {
			t.Errorf("requested %s, want %s", e.Request.URL, want)
		}
		do(t, tb, fetch.FulfillRequest(e.RequestID, 200).
			WithResponseHeaders([]*fetch.HeaderEntry{{Name: "Content-Type", Value: "text/javascript"}}).
			WithBody(gtagStub))
	case <-time.After(10 * time.Second):
		t.Fatal("gtag.js was never requested after Accept all")
	}
	var commands [][]any
	do(t, tb,
		chromedp.Poll(`window.__gtagLoaded === true`, nil, chromedp.WithPollingInterval(pollEvery), chromedp.WithPollingTimeout(5*time.Second)),
		dataLayerCommands(&commands),
	)
	var config bool
	for _, c := range commands {
		if len(c) >= 2 && c[0] == "config" && c[1] == id {
			config = true
		}
	}
	if !config || !slices.Equal(analyticsStorageUpdates(commands), []string{"granted"}) {
		t.Errorf("dataLayer %v", commands)
	}
	noConsoleProblems(t, tb)
}

// TestConsentSecureOverHTTPS: served over https, cc_cookie is Secure.
func TestConsentSecureOverHTTPS(t *testing.T) {
	b, _ := browser(t)
	base := consentServer(t, "", true)
	tb, _ := consentTab(t, b)
	var cookies []*network.Cookie
	do(t, tb,
		security.SetIgnoreCertificateErrors(true),
		chromedp.Navigate(base+"/"),
		waitHydrated(),
		waitBanner(),
		clickReachable(`#cc-main .cm [data-role="all"]`),
		waitDecision(),
		browserCookies(base+"/", &cookies),
	)
	c := cookieNamed(cookies, "cc_cookie")
	if c == nil || !c.Secure || c.SameSite != network.CookieSameSiteLax {
		t.Errorf("cc_cookie over https: %+v", c)
	}
}

// TestConsentHiddenFromBots: with the shipped configuration (bot hiding
// on), the automated browser (navigator.webdriver) gets no banner, and not
// even the banner's code.
func TestConsentHiddenFromBots(t *testing.T) {
	b, base := browser(t)
	s := sitetest.Site(t)
	tb, requests := consentTab(t, b)
	var webdriver, present bool
	do(t, tb,
		chromedp.Navigate(base+"/"),
		waitHydrated(),
		chromedp.Sleep(600*time.Millisecond),
		clickReachable(`footer [data-cc="show-preferencesModal"]`),
		chromedp.Sleep(200*time.Millisecond),
		chromedp.Evaluate(`navigator.webdriver`, &webdriver),
		chromedp.Evaluate(`!!document.getElementById("cc-main")`, &present),
	)
	if !webdriver {
		t.Fatal("navigator.webdriver is false: the browser tests' Chromium does not look automated")
	}
	if present {
		t.Error("the banner was built for a bot")
	}
	consentChunk := sitetest.ConsentChunk(t, s)
	for _, r := range requests() {
		if strings.HasSuffix(r, consentChunk) {
			t.Errorf("a bot downloaded the banner: %s", r)
		}
	}
	noConsoleProblems(t, tb)
}

// TestConsentAccessibility runs axe-core (WCAG 2.2 AA and best practices)
// on the banner and on the dialog, left to right and right to left, in the
// light and the dark colour scheme.
func TestConsentAccessibility(t *testing.T) {
	b, _ := browser(t)
	base := consentServer(t, testMeasurementID, false)
	axe, err := os.ReadFile(filepath.Join(sitetest.Root(), "node_modules", "axe-core", "axe.min.js"))
	if err != nil {
		t.Fatalf("axe-core is missing (npm ci): %v", err)
	}
	check := func(t *testing.T, tb *tab, what string) {
		t.Helper()
		var raw string
		do(t, tb,
			chromedp.Evaluate(string(axe), nil),
			chromedp.Evaluate(`axe.run({ include: [["#cc-main"]] }, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"] } })
  .then((r) => JSON.stringify(r.violations.map((v) => v.id + ": " + v.help + " at " + v.nodes.map((n) => n.target.join(" ")).join(", "))))`,
				&raw, func(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) }),
		)
		var violations []string
		if err := json.Unmarshal([]byte(raw), &violations); err != nil {
			t.Fatalf("axe result: %v", err)
		}
		for _, v := range violations {
			t.Errorf("%s: %s", what, v)
		}
	}
	for _, path := range []string{"/", "/ar"} {
		for _, scheme := range []string{"light", "dark"} {
			t.Run(path+"/"+scheme, func(t *testing.T) {
				tb, _ := consentTab(t, b)
				do(t, tb,
					chromedp.ActionFunc(func(ctx context.Context) error {
						return emulation.SetEmulatedMedia().WithFeatures([]*emulation.MediaFeature{
							{Name: "prefers-reduced-motion", Value: "reduce"}, {Name: "prefers-color-scheme", Value: scheme},
						}).Do(ctx)
					}),
					chromedp.Navigate(base+path),
					waitHydrated(),
					waitBanner(),
				)
				check(t, tb, "banner")
				do(t, tb,
					clickReachable(`#cc-main .cm [data-role="show"]`),
					waitPreferences(),
					// The analytics section unfolded, with its cookie table.
					clickReachable(`#cc-main .pm button.pm__section-title[aria-controls="analytics-desc"]`),
				)
				check(t, tb, "dialog")
			})
		}
	}
}
