package e2etest

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
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/northbeam/site/handlers"
	"github.com/northbeam/site/internal/sitetest"
)

var (
	consentServersMu sync.Mutex
	consentServers   = map[string]*httptest.Server{}
)

// ConsentServer returns the base URL of a server of sitetest.ConsentSite(measurementID),
// over https when tls is set. Servers are shared by the package's tests.
func ConsentServer(t *testing.T, measurementID string, tls bool) string {
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

type ProbeResult struct {
	Hydrated          float64 `json:"hydrated"`
	Shown             float64 `json:"shown"`
	BannerAtHydration bool    `json:"bannerAtHydration"`
	Shifts            []struct {
		At    float64 `json:"at"`
		Value float64 `json:"value"`
	} `json:"shifts"`
}

// ConsentTab opens a tab that prefers reduced motion: the banner's
// transitions are then instant, so a click lands where the button is.
// It records the URL of every request the page makes to a server (a data:
// URL, such as an icon of the stylesheet, goes nowhere).
func ConsentTab(t *testing.T, b context.Context) (*Tab, func() []string) {
	t.Helper()
	tb := NewTab(t, b)
	var mu sync.Mutex
	var requests []string
	chromedp.ListenTarget(tb.Ctx, func(ev any) {
		if e, ok := ev.(*network.EventRequestWillBeSent); ok && !strings.HasPrefix(e.Request.URL, "data:") {
			mu.Lock()
			requests = append(requests, e.Request.URL)
			mu.Unlock()
		}
	})
	Do(t, tb,
		network.Enable(),
		chromedp.ActionFunc(func(ctx context.Context) error {
			return emulation.SetEmulatedMedia().WithFeatures([]*emulation.MediaFeature{{Name: "prefers-reduced-motion", Value: "reduce"}}).Do(ctx)
		}),
		BeforeLoad(consentProbe),
	)
	return tb, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(requests)
	}
}

const PollEvery = 20 * time.Millisecond

// Do runs actions in the tab; on failure it reports the state of the
// banner and the dialog, then stops the test.
func Do(t *testing.T, tb *Tab, actions ...chromedp.Action) {
	t.Helper()
	err := chromedp.Run(tb.Ctx, actions...)
	if err == nil {
		return
	}
	var state string
	ctx, cancel := context.WithTimeout(tb.Ctx, 2*time.Second)
	defer cancel()
	_ = chromedp.Run(ctx, chromedp.Evaluate(`"html class: " + document.documentElement.className + "\nbanner: " +
  (document.getElementById("cc-main")?.outerHTML.slice(0, 600) ?? "none")`, &state))
	t.Fatalf("browser: %v\n%s\nconsole: %v", err, state, tb.ConsoleProblems())
}

// Named wraps an action's error with what it was waiting for.
func Named(name string, a chromedp.Action) chromedp.Action {
	return chromedp.ActionFunc(func(ctx context.Context) error {
		if err := a.Do(ctx); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		return nil
	})
}

// WaitBanner waits until the consent banner is shown and fully visible.
func WaitBanner() chromedp.Action {
	return Named("waiting for the banner", Poll(`(() => {
  const m = document.querySelector("#cc-main .cm");
  return !!m && document.documentElement.classList.contains("show--consent") &&
    getComputedStyle(m).visibility === "visible" && getComputedStyle(m).opacity === "1";
})()`, nil, chromedp.WithPollingInterval(PollEvery)))
}

// WaitPreferences waits until the preferences dialog is shown and fully visible.
func WaitPreferences() chromedp.Action {
	return Named("waiting for the dialog", Poll(`(() => {
  const m = document.querySelector("#cc-main .pm");
  return !!m && document.documentElement.classList.contains("show--preferences") &&
    getComputedStyle(m).visibility === "visible" && getComputedStyle(m).opacity === "1";
})()`, nil, chromedp.WithPollingInterval(PollEvery)))
}

// ClickReachable clicks the element sel once a click at its centre would
// reach it: nothing over it, not moving into place.
func ClickReachable(sel string) chromedp.Action {
	return chromedp.Tasks{
		Named("waiting to reach "+sel, Poll(fmt.Sprintf(`(() => {
  const el = document.querySelector(%q);
  if (!el) return false;
  el.scrollIntoView({ block: "nearest" });
  const r = el.getBoundingClientRect();
  const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
  return !!hit && (hit === el || el.contains(hit));
})()`, sel), nil, chromedp.WithPollingInterval(PollEvery))),
		chromedp.Click(sel, chromedp.ByQuery),
	}
}

// WaitClosed waits until neither the banner nor the dialog is shown.
func WaitClosed() chromedp.Action {
	return Named("waiting for the banner and dialog to close", Poll(`!document.documentElement.classList.contains("show--consent") &&
  !document.documentElement.classList.contains("show--preferences")`, nil,
		chromedp.WithPollingInterval(PollEvery)))
}

// WaitDecision waits until the consent cookie exists.
func WaitDecision() chromedp.Action {
	return Named("waiting for cc_cookie", Poll(`document.cookie.split("; ").some((c) => c.startsWith("cc_cookie="))`, nil,
		chromedp.WithPollingInterval(PollEvery)))
}

// Shown reports whether the banner or the dialog is on screen.
func Shown(banner, preferences *bool) chromedp.Action {
	return chromedp.Tasks{
		chromedp.Evaluate(`document.documentElement.classList.contains("show--consent")`, banner),
		chromedp.Evaluate(`document.documentElement.classList.contains("show--preferences")`, preferences),
	}
}

// BrowserCookies reads the cookies the browser holds for u, with their attributes.
func BrowserCookies(u string, dst *[]*network.Cookie) chromedp.Action {
	return chromedp.ActionFunc(func(ctx context.Context) error {
		var err error
		*dst, err = network.GetCookies().WithURLs([]string{u}).Do(ctx)
		return err
	})
}

// PresetCookie stores a cookie as another script would have (GA on the widest domain, say); domain "" is host-only.
func PresetCookie(pageURL, name, domain string) chromedp.Action {
	return chromedp.ActionFunc(func(ctx context.Context) error {
		p := network.SetCookie(name, "GA1.1.123456789.1700000000").WithURL(pageURL).WithPath("/")
		if domain != "" {
			p = p.WithDomain("." + domain) // CDP wants the leading dot of a domain cookie
		}
		return p.Do(ctx)
	})
}

func CookieNamed(cookies []*network.Cookie, name string) *network.Cookie {
	for _, c := range cookies {
		if c.Name == name {
			return c
		}
	}
	return nil
}

// ConsentRecord reads the JSON of the cc_cookie.
func ConsentRecord(t *testing.T, c *network.Cookie) map[string]json.RawMessage {
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

func RecordField[T any](t *testing.T, rec map[string]json.RawMessage, field string) T {
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

// DataLayerCommands reads window.dataLayer, each entry as an array.
func DataLayerCommands(dst *[][]any) chromedp.Action {
	return chromedp.ActionFunc(func(ctx context.Context) error {
		var s string
		if err := chromedp.Evaluate(`JSON.stringify((window.dataLayer || []).map((a) => Array.from(a)))`, &s).Do(ctx); err != nil {
			return err
		}
		return json.Unmarshal([]byte(s), dst)
	})
}

// AnalyticsStorageUpdates lists the analytics_storage values of gtag('consent', 'update', ...) commands, in order.
func AnalyticsStorageUpdates(commands [][]any) []string {
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

var UuidV4 = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)

// AnalyticsHost reports whether a request goes to Google's analytics or tag hosts.
func AnalyticsHost(u string) bool {
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

// TestMeasurementID is the measurement ID of the consent tests that offer analytics.
const TestMeasurementID = "G-TEST0001"

// GtagStub is what the tests answer for gtag.js: it only notes that it ran.
var GtagStub = base64.StdEncoding.EncodeToString([]byte(`window.__gtagLoaded = true;`))

// StubGtag answers the tab's requests to googletagmanager.com (gtag.js)
// with gtagStub, from the browser itself: none reaches the network. It
// returns the URLs it answered.
func StubGtag(t *testing.T, tb *Tab) func() []string {
	t.Helper()
	var mu sync.Mutex
	var answered []string
	chromedp.ListenTarget(tb.Ctx, func(ev any) {
		e, ok := ev.(*fetch.EventRequestPaused)
		if !ok {
			return
		}
		mu.Lock()
		answered = append(answered, e.Request.URL)
		mu.Unlock()
		// A listener must not block: the answer goes from a goroutine.
		go func() {
			_ = chromedp.Run(tb.Ctx, fetch.FulfillRequest(e.RequestID, 200).
				WithResponseHeaders([]*fetch.HeaderEntry{{Name: "Content-Type", Value: "text/javascript"}}).
				WithBody(GtagStub))
		}()
	})
	Do(t, tb, fetch.Enable().WithPatterns([]*fetch.RequestPattern{{URLPattern: "*googletagmanager.com*"}}))
	return func() []string {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(answered)
	}
}

// NoConsoleProblems fails on console errors and warnings, and on content
// security policy violations in the current document.
func NoConsoleProblems(t *testing.T, tb *Tab) {
	t.Helper()
	if problems := tb.ConsoleProblems(); len(problems) > 0 {
		t.Errorf("console:\n%s", strings.Join(problems, "\n"))
	}
	var violations []string
	Do(t, tb, chromedp.Evaluate(`window.__consentProbe ? window.__consentProbe.violations : []`, &violations))
	for _, v := range violations {
		t.Errorf("CSP violation: %s", v)
	}
}
