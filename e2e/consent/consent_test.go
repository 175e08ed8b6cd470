package consent

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/cdproto/security"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/northbeam/site/e2e/internal/e2etest"
	"github.com/northbeam/site/internal/sitetest"
	"github.com/northbeam/site/internal/testwait"
)

// TestConsentBannerAppearsAfterThePageIsBuilt: in every language, the
// banner is absent when React has hydrated the page, then appears by
// itself about 100 ms later, outside #root, in the page's language and
// direction, with links to that language's policies, without shifting
// the layout.
func TestConsentBannerAppearsAfterThePageIsBuilt(t *testing.T) {
	b, _ := e2etest.Browser(t)
	base := e2etest.ConsentServer(t, "", false)
	s := sitetest.Site(t)
	for _, lang := range s.Info.Languages {
		t.Run(lang.Code, func(t *testing.T) {
			tb, requests := e2etest.ConsentTab(t, b)
			var probe e2etest.ProbeResult
			var title, desc, accept, manage string
			var rejects int
			var links []string
			var outsideRoot, rtl bool
			e2etest.Do(t, tb,
				chromedp.Navigate(base+lang.LocalPath("/")),
				e2etest.WaitHydrated(),
				e2etest.WaitBanner(),
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
			e2etest.NoConsoleProblems(t, tb)
		})
	}
}

// TestConsentAcceptAll: in every language, Accept all writes the consent
// consent record in cc_cookie (path /, SameSite Lax, 182 days,
// not Secure over http), grants analytics storage, and a reload with this
// valid decision shows nothing. No request goes to an analytics host
// before consent; after it, only gtag.js, answered by the test.
func TestConsentAcceptAll(t *testing.T) {
	b, _ := e2etest.Browser(t)
	base := e2etest.ConsentServer(t, e2etest.TestMeasurementID, false)
	s := sitetest.Site(t)
	consentChunk := sitetest.ConsentChunk(t, s)
	for _, lang := range s.Info.Languages {
		t.Run(lang.Code, func(t *testing.T) {
			tb, requests := e2etest.ConsentTab(t, b)
			stubbed := e2etest.StubGtag(t, tb)
			page := base + lang.LocalPath("/")
			var cookies []*network.Cookie
			var commands [][]any
			var before time.Time
			e2etest.Do(t, tb,
				chromedp.Navigate(page),
				e2etest.WaitHydrated(),
				e2etest.WaitBanner(),
			)
			for _, r := range requests() {
				if e2etest.AnalyticsHost(r) || !strings.HasPrefix(r, base+"/") {
					t.Errorf("request before consent: %s", r)
				}
			}
			e2etest.Do(t, tb,
				chromedp.ActionFunc(func(context.Context) error { before = time.Now(); return nil }),
				e2etest.ClickReachable(`#cc-main .cm [data-role="all"]`),
				e2etest.WaitDecision(),
				e2etest.WaitClosed(),
				e2etest.BrowserCookies(page, &cookies),
				e2etest.DataLayerCommands(&commands),
			)
			c := e2etest.CookieNamed(cookies, "cc_cookie")
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
			rec := e2etest.ConsentRecord(t, c)
			for _, field := range []string{"categories", "services", "revision", "data", "consentTimestamp", "lastConsentTimestamp", "consentId", "languageCode", "expirationTime"} {
				if _, ok := rec[field]; !ok {
					t.Errorf("the consent record lacks %s: %v", field, rec)
				}
			}
			if got := e2etest.RecordField[[]string](t, rec, "categories"); !slices.Equal(got, []string{"necessary", "analytics"}) {
				t.Errorf("categories %v", got)
			}
			if got := e2etest.RecordField[map[string][]string](t, rec, "services"); !slices.Equal(got["analytics"], []string{"ga4"}) {
				t.Errorf("services %v", got)
			}
			if got := e2etest.RecordField[int](t, rec, "revision"); got != 0 {
				t.Errorf("revision %d", got)
			}
			if got := e2etest.RecordField[string](t, rec, "consentId"); !e2etest.UuidV4.MatchString(got) {
				t.Errorf("consentId %q is not a random UUID", got)
			}
			if got := e2etest.RecordField[string](t, rec, "languageCode"); got != lang.Code {
				t.Errorf("languageCode %q, want %q", got, lang.Code)
			}
			for _, field := range []string{"consentTimestamp", "lastConsentTimestamp"} {
				ts, err := time.Parse(time.RFC3339Nano, e2etest.RecordField[string](t, rec, field))
				if err != nil || ts.Before(before.Add(-time.Minute)) || ts.After(time.Now().Add(time.Minute)) {
					t.Errorf("%s %v (%v)", field, ts, err)
				}
			}
			if got := time.UnixMilli(e2etest.RecordField[int64](t, rec, "expirationTime")); got.Sub(expires).Abs() > 2*time.Second {
				t.Errorf("expirationTime %v, cookie expires %v", got, expires)
			}
			if len(commands) == 0 || commands[0][0] != "consent" || commands[0][1] != "default" {
				t.Errorf("the Consent Mode defaults are not first in the dataLayer: %v", commands)
			}
			if got := e2etest.AnalyticsStorageUpdates(commands); !slices.Equal(got, []string{"granted"}) {
				t.Errorf("analytics_storage updates %v, want [granted]", got)
			}

			// The same page again, with a valid decision: nothing is shown, and
			// nothing of the banner is fetched; analytics is granted again.
			var probe e2etest.ProbeResult
			var banner, preferences bool
			reloaded := len(requests())
			e2etest.Do(t, tb,
				chromedp.Reload(),
				e2etest.WaitHydrated(),
				chromedp.Sleep(600*time.Millisecond),
				chromedp.Evaluate(`window.__consentProbe`, &probe),
				e2etest.Shown(&banner, &preferences),
				e2etest.DataLayerCommands(&commands),
			)
			if banner || preferences || probe.Shown >= 0 {
				t.Errorf("after a reload with a valid decision: banner %v, dialog %v, shown at %v", banner, preferences, probe.Shown)
			}
			if got := e2etest.AnalyticsStorageUpdates(commands); !slices.Equal(got, []string{"granted"}) {
				t.Errorf("after the reload, analytics_storage updates %v, want [granted]", got)
			}
			for _, r := range requests()[reloaded:] {
				if strings.HasSuffix(r, consentChunk) || strings.HasSuffix(r, s.Bundle.Manifest.ConsentCSS) {
					t.Errorf("a returning visitor with a valid decision fetched the banner: %s", r)
				}
			}
			gtagURL := "https://www.googletagmanager.com/gtag/js?id=" + e2etest.TestMeasurementID
			for _, r := range requests() {
				if r != gtagURL && (e2etest.AnalyticsHost(r) || !strings.HasPrefix(r, base+"/")) {
					t.Errorf("request outside the site: %s", r)
				}
			}
			if got := stubbed(); len(got) == 0 || slices.ContainsFunc(got, func(u string) bool { return u != gtagURL }) {
				t.Errorf("requests answered for Google: %v, want gtag.js with the ID, on each page granted", got)
			}
			e2etest.NoConsoleProblems(t, tb)
		})
	}
}

// TestConsentRejectAll: in every language, Reject all keeps only the
// necessary category, clears the Google Analytics cookies already present
// (names beginning with _ga, and _gid) and no other, and records denied
// analytics storage in the dataLayer.
func TestConsentRejectAll(t *testing.T) {
	b, _ := e2etest.Browser(t)
	base := e2etest.ConsentServer(t, e2etest.TestMeasurementID, false)
	s := sitetest.Site(t)
	for _, lang := range s.Info.Languages {
		t.Run(lang.Code, func(t *testing.T) {
			tb, _ := e2etest.ConsentTab(t, b)
			page := base + lang.LocalPath("/")
			var cookies []*network.Cookie
			var commands [][]any
			e2etest.Do(t, tb,
				e2etest.PresetCookie(page, "_ga", ""),
				e2etest.PresetCookie(page, "_ga_XXXX", ""),
				e2etest.PresetCookie(page, "_gid", ""),
				e2etest.PresetCookie(page, "my_ga", ""), // contains _ga, does not begin with it
				e2etest.PresetCookie(page, "other", ""),
				chromedp.Navigate(page),
				e2etest.WaitHydrated(),
				e2etest.WaitBanner(),
				e2etest.ClickReachable(`#cc-main .cm [data-role="necessary"]`),
				e2etest.WaitDecision(),
				e2etest.WaitClosed(),
				e2etest.BrowserCookies(page, &cookies),
				e2etest.DataLayerCommands(&commands),
			)
			var names []string
			for _, c := range cookies {
				names = append(names, c.Name)
			}
			slices.Sort(names)
			if want := []string{"cc_cookie", "my_ga", "other"}; !slices.Equal(names, want) {
				t.Errorf("cookies after Reject all: %v, want %v", names, want)
			}
			if c := e2etest.CookieNamed(cookies, "cc_cookie"); c != nil {
				rec := e2etest.ConsentRecord(t, c)
				if got := e2etest.RecordField[[]string](t, rec, "categories"); !slices.Equal(got, []string{"necessary"}) {
					t.Errorf("categories %v", got)
				}
				if got := e2etest.RecordField[map[string][]string](t, rec, "services"); len(got["analytics"]) != 0 {
					t.Errorf("services %v", got)
				}
			}
			if got := e2etest.AnalyticsStorageUpdates(commands); !slices.Equal(got, []string{"denied"}) {
				t.Errorf("analytics_storage updates %v, want [denied]", got)
			}
			e2etest.NoConsoleProblems(t, tb)
		})
	}
}

// TestConsentRejectClearsAnalyticsCookiesOnEveryDomain: Google Analytics
// writes its cookies on the widest domain it may; on www.<site> they live
// on .<site>, and rejecting clears them there too.
func TestConsentRejectClearsAnalyticsCookiesOnEveryDomain(t *testing.T) {
	b, _ := e2etest.Browser(t)
	base := e2etest.ConsentServer(t, e2etest.TestMeasurementID, false)
	u, _ := url.Parse(base)
	// Chromium resolves every *.localhost name to loopback by itself.
	page := "http://www.northbeam.localhost:" + u.Port() + "/de"
	tb, _ := e2etest.ConsentTab(t, b)
	var cookies []*network.Cookie
	e2etest.Do(t, tb,
		e2etest.PresetCookie(page, "_ga", "northbeam.localhost"),
		e2etest.PresetCookie(page, "_ga_XXXX", "northbeam.localhost"),
		e2etest.PresetCookie(page, "_gid", "www.northbeam.localhost"),
		e2etest.PresetCookie(page, "_ga", ""),
		e2etest.PresetCookie(page, "other", "northbeam.localhost"),
		e2etest.BrowserCookies(page, &cookies),
	)
	if len(cookies) != 5 {
		t.Fatalf("presetting cookies: got %d", len(cookies))
	}
	e2etest.Do(t, tb,
		chromedp.Navigate(page),
		e2etest.WaitHydrated(),
		e2etest.WaitBanner(),
		e2etest.ClickReachable(`#cc-main .cm [data-role="necessary"]`),
		e2etest.WaitDecision(),
		e2etest.BrowserCookies(page, &cookies),
	)
	var left []string
	for _, c := range cookies {
		left = append(left, c.Name+"@"+c.Domain)
	}
	slices.Sort(left)
	if want := []string{"cc_cookie@.www.northbeam.localhost", "other@.northbeam.localhost"}; !slices.Equal(left, want) {
		t.Errorf("cookies after Reject all: %v, want %v", left, want)
	}
	e2etest.NoConsoleProblems(t, tb)
}

// TestConsentManagePreferencesThenSave: Manage preferences opens the
// dialog (analytics off, necessary on and locked); switching analytics on
// and saving stores that choice; the footer's cookie settings reopen it,
// and switching analytics off again clears the analytics cookies and
// records denied.
func TestConsentManagePreferencesThenSave(t *testing.T) {
	b, _ := e2etest.Browser(t)
	base := e2etest.ConsentServer(t, e2etest.TestMeasurementID, false)
	s := sitetest.Site(t)
	for _, code := range []string{"fr", "ar"} {
		lang, _ := s.Info.Language(code)
		t.Run(code, func(t *testing.T) {
			tb, _ := e2etest.ConsentTab(t, b)
			e2etest.StubGtag(t, tb)
			page := base + lang.LocalPath("/")
			var title, save, closeLabel string
			var analyticsOn, necessaryOn, necessaryLocked bool
			e2etest.Do(t, tb,
				chromedp.Navigate(page),
				e2etest.WaitHydrated(),
				e2etest.WaitBanner(),
				e2etest.ClickReachable(`#cc-main .cm [data-role="show"]`),
				e2etest.WaitPreferences(),
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
			e2etest.Do(t, tb,
				e2etest.ClickReachable(`#cc-main .pm .section__toggle-wrapper:has(input[value="analytics"])`),
				e2etest.ClickReachable(`#cc-main .pm [data-role="save"]`),
				e2etest.WaitDecision(),
				e2etest.WaitClosed(),
				e2etest.BrowserCookies(page, &cookies),
				e2etest.DataLayerCommands(&commands),
			)
			c := e2etest.CookieNamed(cookies, "cc_cookie")
			if c == nil {
				t.Fatal("no cc_cookie after Save preferences")
			}
			rec := e2etest.ConsentRecord(t, c)
			if got := e2etest.RecordField[[]string](t, rec, "categories"); !slices.Equal(got, []string{"necessary", "analytics"}) {
				t.Errorf("categories %v", got)
			}
			if got := e2etest.AnalyticsStorageUpdates(commands); !slices.Equal(got, []string{"granted"}) {
				t.Errorf("analytics_storage updates %v", got)
			}

			// Later, from the footer: analytics off again.
			e2etest.Do(t, tb,
				e2etest.PresetCookie(page, "_ga", ""),
				e2etest.PresetCookie(page, "_gid", ""),
				e2etest.ClickReachable(`footer [data-cc="show-preferencesModal"]`),
				e2etest.WaitPreferences(),
				chromedp.Evaluate(`document.querySelector('#cc-main input.section__toggle[value="analytics"]').checked`, &analyticsOn),
			)
			if !analyticsOn {
				t.Error("the dialog does not show the saved choice")
			}
			e2etest.Do(t, tb,
				e2etest.ClickReachable(`#cc-main .pm .section__toggle-wrapper:has(input[value="analytics"])`),
				e2etest.ClickReachable(`#cc-main .pm [data-role="save"]`),
				e2etest.WaitClosed(),
				e2etest.BrowserCookies(page, &cookies),
				e2etest.DataLayerCommands(&commands),
			)
			if e2etest.CookieNamed(cookies, "_ga") != nil || e2etest.CookieNamed(cookies, "_gid") != nil {
				t.Error("withdrawing analytics left _ga or _gid")
			}
			rec = e2etest.ConsentRecord(t, e2etest.CookieNamed(cookies, "cc_cookie"))
			if got := e2etest.RecordField[[]string](t, rec, "categories"); !slices.Equal(got, []string{"necessary"}) {
				t.Errorf("categories after withdrawing %v", got)
			}
			if got := e2etest.AnalyticsStorageUpdates(commands); !slices.Equal(got, []string{"granted", "denied"}) {
				t.Errorf("analytics_storage updates %v, want [granted denied]", got)
			}
			e2etest.NoConsoleProblems(t, tb)
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
	b, _ := e2etest.Browser(t)
	base := e2etest.ConsentServer(t, e2etest.TestMeasurementID, false)
	s := sitetest.Site(t)
	consentChunk := sitetest.ConsentChunk(t, s)
	tb, requests := e2etest.ConsentTab(t, b)
	e2etest.StubGtag(t, tb)
	page := base + "/ar"
	e2etest.Do(t, tb,
		chromedp.Navigate(page),
		e2etest.WaitHydrated(),
		e2etest.WaitBanner(),
		e2etest.ClickReachable(`#cc-main .cm [data-role="all"]`),
		e2etest.WaitDecision(),
		e2etest.WaitClosed(),
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
	e2etest.Do(t, tb,
		chromedp.Navigate(base+"/ar/blog"),
		e2etest.WaitHydrated(),
		chromedp.Sleep(600*time.Millisecond),
		e2etest.Shown(&banner, &preferences),
		e2etest.DataLayerCommands(&commands),
	)
	if js, css := fetchedBanner(before); js || css || banner || preferences {
		t.Errorf("returning visitor: fetched the chunk %v, the stylesheet %v; banner %v, dialog %v", js, css, banner, preferences)
	}
	if got := e2etest.AnalyticsStorageUpdates(commands); !slices.Equal(got, []string{"granted"}) {
		t.Errorf("stored decision: analytics_storage updates %v, want [granted]", got)
	}

	// The footer's cookie settings: the dialog, styled, in Arabic, with the stored choice.
	var analyticsOn bool
	var position, direction string
	e2etest.Do(t, tb,
		e2etest.ClickReachable(`footer [data-cc="show-preferencesModal"]`),
		e2etest.WaitPreferences(),
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
	e2etest.Do(t, tb,
		e2etest.ClickReachable(`#cc-main .pm .section__toggle-wrapper:has(input[value="analytics"])`),
		e2etest.ClickReachable(`#cc-main .pm [data-role="save"]`),
		e2etest.WaitClosed(),
		e2etest.BrowserCookies(page, &cookies),
		e2etest.DataLayerCommands(&commands),
	)
	if got := e2etest.AnalyticsStorageUpdates(commands); !slices.Equal(got, []string{"granted", "denied"}) {
		t.Errorf("after withdrawing: analytics_storage updates %v, want [granted denied]", got)
	}
	rec := e2etest.ConsentRecord(t, e2etest.CookieNamed(cookies, "cc_cookie"))
	if got := e2etest.RecordField[[]string](t, rec, "categories"); !slices.Equal(got, []string{"necessary"}) {
		t.Errorf("categories after withdrawing %v", got)
	}

	// Records the library would not accept: the banner asks again.
	for name, record := range map[string]string{
		"not JSON":      `{"categories":`,
		"no consent id": `{"categories":["necessary"],"revision":0,"consentTimestamp":"2026-01-01T00:00:00Z","lastConsentTimestamp":"2026-01-01T00:00:00Z"}`,
		"no categories": `{"revision":0,"consentId":"x","consentTimestamp":"2026-01-01T00:00:00Z","lastConsentTimestamp":"2026-01-01T00:00:00Z"}`,
	} {
		e2etest.Do(t, tb,
			chromedp.Evaluate(fmt.Sprintf(`document.cookie = "cc_cookie=" + encodeURIComponent(%q) + "; path=/; SameSite=Lax; max-age=86400"`, record), nil),
			chromedp.Reload(),
			e2etest.WaitHydrated(),
			e2etest.Named("the banner for a record with "+name, e2etest.WaitBanner()),
		)
	}
	e2etest.NoConsoleProblems(t, tb)
}

// TestConsentPreferencesCloseOnEscape: the footer's cookie settings open
// the dialog before any decision; Escape closes it (so does Close) and
// records nothing; the banner is still there.
func TestConsentPreferencesCloseOnEscape(t *testing.T) {
	b, _ := e2etest.Browser(t)
	base := e2etest.ConsentServer(t, "", false)
	tb, _ := e2etest.ConsentTab(t, b)
	page := base + "/de/blog"
	var banner, preferences bool
	var cookies []*network.Cookie
	e2etest.Do(t, tb,
		chromedp.Navigate(page),
		e2etest.WaitHydrated(),
		e2etest.WaitBanner(),
		e2etest.ClickReachable(`footer [data-cc="show-preferencesModal"]`),
		e2etest.WaitPreferences(),
		chromedp.KeyEvent(kb.Escape),
		e2etest.Poll(`!document.documentElement.classList.contains("show--preferences")`, nil,
			chromedp.WithPollingInterval(e2etest.PollEvery)),
		e2etest.Shown(&banner, &preferences),
		e2etest.BrowserCookies(page, &cookies),
	)
	if !banner || preferences || e2etest.CookieNamed(cookies, "cc_cookie") != nil {
		t.Errorf("after Escape: banner %v, dialog %v, cc_cookie %v", banner, preferences, e2etest.CookieNamed(cookies, "cc_cookie") != nil)
	}
	e2etest.Do(t, tb,
		e2etest.ClickReachable(`#cc-main .cm [data-role="show"]`),
		e2etest.WaitPreferences(),
		e2etest.ClickReachable(`#cc-main .pm__close-btn`),
		e2etest.Poll(`!document.documentElement.classList.contains("show--preferences")`, nil,
			chromedp.WithPollingInterval(e2etest.PollEvery)),
		e2etest.Shown(&banner, &preferences),
	)
	if !banner || preferences {
		t.Errorf("after Close: banner %v, dialog %v", banner, preferences)
	}
	e2etest.NoConsoleProblems(t, tb)
}

// TestConsentRevisionChangeReprompts: a decision stored under another
// revision than the site's (0) is no decision: the banner asks again,
// saying why.
func TestConsentRevisionChangeReprompts(t *testing.T) {
	b, _ := e2etest.Browser(t)
	base := e2etest.ConsentServer(t, "", false)
	s := sitetest.Site(t)
	tb, _ := e2etest.ConsentTab(t, b)
	page := base + "/fr"
	var cookies []*network.Cookie
	e2etest.Do(t, tb,
		chromedp.Navigate(page),
		e2etest.WaitHydrated(),
		e2etest.WaitBanner(),
		e2etest.ClickReachable(`#cc-main .cm [data-role="all"]`),
		e2etest.WaitDecision(),
		e2etest.BrowserCookies(page, &cookies),
	)
	c := e2etest.CookieNamed(cookies, "cc_cookie")
	if c == nil {
		t.Fatal("no cc_cookie")
	}
	rec := e2etest.ConsentRecord(t, c)
	rec["revision"] = json.RawMessage("1")
	value, _ := json.Marshal(rec)
	var revisionMessage string
	e2etest.Do(t, tb,
		// Rewritten the way the library writes it, so that it replaces the same cookie.
		chromedp.Evaluate(fmt.Sprintf(`document.cookie = "cc_cookie=" + encodeURIComponent(%q) + "; path=/; SameSite=Lax; max-age=86400" +
  (location.hostname.includes(".") ? "; Domain=" + location.hostname : "")`, value), nil),
		chromedp.Reload(),
		e2etest.WaitHydrated(),
		e2etest.WaitBanner(),
		chromedp.Text(`#cc-main .cm__revision`, &revisionMessage, chromedp.ByQuery),
	)
	if revisionMessage != s.Locales.T("fr", "consent.banner.revision") {
		t.Errorf("revision message %q", revisionMessage)
	}
	e2etest.NoConsoleProblems(t, tb)
}

// TestConsentFollowsTheLanguageOnClientNavigation: switching the language
// from the header switches the banner's language and direction; the
// decision records the language it was made in; the cookie policy's
// button, reached by client navigation, opens the dialog in that language.
func TestConsentFollowsTheLanguageOnClientNavigation(t *testing.T) {
	b, _ := e2etest.Browser(t)
	base := e2etest.ConsentServer(t, "", false)
	s := sitetest.Site(t)
	tb, _ := e2etest.ConsentTab(t, b)
	var title, link string
	var rtl bool
	e2etest.Do(t, tb,
		chromedp.Navigate(base+"/"),
		e2etest.WaitHydrated(),
		e2etest.WaitBanner(),
		chromedp.Text(`#cc-main .cm__title`, &title, chromedp.ByQuery),
	)
	if title != s.Locales.T("en", "consent.banner.title") {
		t.Errorf("English banner title %q", title)
	}
	e2etest.Do(t, tb,
		chromedp.Click(`.lang-select a[hreflang="ar"]`, chromedp.ByQuery),
		chromedp.WaitVisible(`html[dir="rtl"]`, chromedp.ByQuery),
		e2etest.Poll(fmt.Sprintf(`document.querySelector("#cc-main .cm__title").textContent === %q`, s.Locales.T("ar", "consent.banner.title")), nil,
			chromedp.WithPollingInterval(e2etest.PollEvery)),
		chromedp.Evaluate(`document.getElementById("cc-main").classList.contains("cc--rtl")`, &rtl),
		chromedp.AttributeValue(`#cc-main .cm__footer a`, "href", &link, nil, chromedp.ByQuery),
	)
	if !rtl || link != "/ar/privacy" {
		t.Errorf("Arabic banner: rtl %v, first link %q", rtl, link)
	}
	var cookies []*network.Cookie
	e2etest.Do(t, tb,
		e2etest.WaitBanner(),
		e2etest.ClickReachable(`#cc-main .cm [data-role="all"]`),
		e2etest.WaitDecision(),
		e2etest.BrowserCookies(base+"/ar", &cookies),
	)
	if c := e2etest.CookieNamed(cookies, "cc_cookie"); c == nil {
		t.Fatal("no cc_cookie")
	} else if got := e2etest.RecordField[string](t, e2etest.ConsentRecord(t, c), "languageCode"); got != "ar" {
		t.Errorf("languageCode %q, want ar", got)
	}
	var pmTitle string
	e2etest.Do(t, tb,
		chromedp.Click(`footer a[href="/ar/cookies"]`, chromedp.ByQuery),
		chromedp.WaitVisible(`main [data-cc="show-preferencesModal"]`, chromedp.ByQuery),
		e2etest.ClickReachable(`main [data-cc="show-preferencesModal"]`),
		e2etest.WaitPreferences(),
		chromedp.Text(`#cc-main .pm__title`, &pmTitle, chromedp.ByQuery),
	)
	if pmTitle != s.Locales.T("ar", "consent.preferences.title") {
		t.Errorf("dialog title %q", pmTitle)
	}
	e2etest.NoConsoleProblems(t, tb)
}

// TestConsentCookiePolicyButtonBeforeADecision: on the cookie policy, the
// button opens the dialog even before any decision, which can then be
// made there.
func TestConsentCookiePolicyButtonBeforeADecision(t *testing.T) {
	b, _ := e2etest.Browser(t)
	base := e2etest.ConsentServer(t, "", false)
	tb, _ := e2etest.ConsentTab(t, b)
	page := base + "/cookies"
	var cookies []*network.Cookie
	e2etest.Do(t, tb,
		chromedp.Navigate(page),
		e2etest.WaitHydrated(),
		e2etest.ClickReachable(`main [data-cc="show-preferencesModal"]`),
		e2etest.WaitPreferences(),
		e2etest.ClickReachable(`#cc-main .pm [data-role="save"]`),
		e2etest.WaitDecision(),
		e2etest.WaitClosed(),
		e2etest.BrowserCookies(page, &cookies),
	)
	if c := e2etest.CookieNamed(cookies, "cc_cookie"); c == nil {
		t.Fatal("no cc_cookie")
	} else if got := e2etest.RecordField[[]string](t, e2etest.ConsentRecord(t, c), "categories"); !slices.Equal(got, []string{"necessary"}) {
		t.Errorf("categories %v", got)
	}
	e2etest.NoConsoleProblems(t, tb)
}

// TestConsentWithoutAnalyticsOffersOnlyNecessary: with no measurement ID,
// in every language, neither the banner nor the preferences dialog speaks
// of analytics or offers its toggle: the dialog has the necessary category
// only, and Accept all records that alone.
func TestConsentWithoutAnalyticsOffersOnlyNecessary(t *testing.T) {
	b, _ := e2etest.Browser(t)
	base := e2etest.ConsentServer(t, "", false)
	s := sitetest.Site(t)
	for _, lang := range s.Info.Languages {
		t.Run(lang.Code, func(t *testing.T) {
			tb, requests := e2etest.ConsentTab(t, b)
			page := base + lang.LocalPath("/")
			var desc, dialog string
			var toggles []string
			var cookies []*network.Cookie
			e2etest.Do(t, tb,
				chromedp.Navigate(page),
				e2etest.WaitHydrated(),
				e2etest.WaitBanner(),
				chromedp.Text(`#cc-main .cm__desc`, &desc, chromedp.ByQuery),
				e2etest.ClickReachable(`#cc-main .cm [data-role="show"]`),
				e2etest.WaitPreferences(),
				chromedp.Evaluate(`Array.from(document.querySelectorAll("#cc-main .pm input.section__toggle")).map((i) => i.value)`, &toggles),
				chromedp.Evaluate(`document.querySelector("#cc-main .pm").textContent`, &dialog),
				e2etest.ClickReachable(`#cc-main .pm [data-role="save"]`),
				e2etest.WaitDecision(),
				e2etest.WaitClosed(),
				e2etest.BrowserCookies(page, &cookies),
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
			if c := e2etest.CookieNamed(cookies, "cc_cookie"); c == nil {
				t.Error("no cc_cookie after saving")
			} else if got := e2etest.RecordField[[]string](t, e2etest.ConsentRecord(t, c), "categories"); !slices.Equal(got, []string{"necessary"}) {
				t.Errorf("categories %v", got)
			}
			for _, r := range requests() {
				if !strings.HasPrefix(r, base+"/") {
					t.Errorf("request outside the site: %s", r)
				}
			}
			e2etest.NoConsoleProblems(t, tb)
		})
	}
}

// TestConsentLoadsGtagOnlyAfterConsent: with a measurement ID configured,
// gtag.js is requested once analytics is accepted, not before, and
// configured with the ID. The machine has no internet: the request is
// answered by the test.
func TestConsentLoadsGtagOnlyAfterConsent(t *testing.T) {
	b, _ := e2etest.Browser(t)
	const id = e2etest.TestMeasurementID
	base := e2etest.ConsentServer(t, id, false)
	tb, requests := e2etest.ConsentTab(t, b)
	paused := make(chan *fetch.EventRequestPaused, 4)
	chromedp.ListenTarget(tb.Ctx, func(ev any) {
		if e, ok := ev.(*fetch.EventRequestPaused); ok {
			paused <- e
		}
	})
	e2etest.Do(t, tb,
		fetch.Enable().WithPatterns([]*fetch.RequestPattern{{URLPattern: "*googletagmanager.com*"}}),
		chromedp.Navigate(base+"/"),
		e2etest.WaitHydrated(),
		e2etest.WaitBanner(),
		chromedp.Sleep(300*time.Millisecond),
	)
	for _, r := range requests() {
		if e2etest.AnalyticsHost(r) {
			t.Fatalf("analytics requested before consent: %s", r)
		}
	}
	e2etest.Do(t, tb, e2etest.ClickReachable(`#cc-main .cm [data-role="all"]`))
	select {
	case e := <-paused:
		want := "https://www.googletagmanager.com/gtag/js?id=" + id
		if e.Request.URL != want {
			t.Errorf("requested %s, want %s", e.Request.URL, want)
		}
		e2etest.Do(t, tb, fetch.FulfillRequest(e.RequestID, 200).
			WithResponseHeaders([]*fetch.HeaderEntry{{Name: "Content-Type", Value: "text/javascript"}}).
			WithBody(e2etest.GtagStub))
	case <-time.After(time.Until(testwait.Deadline(t))):
		t.Fatal("gtag.js was never requested after Accept all")
	}
	var commands [][]any
	e2etest.Do(t, tb,
		e2etest.Poll(`window.__gtagLoaded === true`, nil, chromedp.WithPollingInterval(e2etest.PollEvery)),
		e2etest.DataLayerCommands(&commands),
	)
	var config bool
	for _, c := range commands {
		if len(c) >= 2 && c[0] == "config" && c[1] == id {
			config = true
		}
	}
	if !config || !slices.Equal(e2etest.AnalyticsStorageUpdates(commands), []string{"granted"}) {
		t.Errorf("dataLayer %v", commands)
	}
	e2etest.NoConsoleProblems(t, tb)
}

// TestConsentSecureOverHTTPS: served over https, cc_cookie is Secure.
func TestConsentSecureOverHTTPS(t *testing.T) {
	b, _ := e2etest.Browser(t)
	base := e2etest.ConsentServer(t, "", true)
	tb, _ := e2etest.ConsentTab(t, b)
	var cookies []*network.Cookie
	e2etest.Do(t, tb,
		security.SetIgnoreCertificateErrors(true),
		chromedp.Navigate(base+"/"),
		e2etest.WaitHydrated(),
		e2etest.WaitBanner(),
		e2etest.ClickReachable(`#cc-main .cm [data-role="all"]`),
		e2etest.WaitDecision(),
		e2etest.BrowserCookies(base+"/", &cookies),
	)
	c := e2etest.CookieNamed(cookies, "cc_cookie")
	if c == nil || !c.Secure || c.SameSite != network.CookieSameSiteLax {
		t.Errorf("cc_cookie over https: %+v", c)
	}
}

// TestConsentHiddenFromBots: with the shipped configuration (bot hiding
// on), the automated browser (navigator.webdriver) gets no banner, and not
// even the banner's code.
func TestConsentHiddenFromBots(t *testing.T) {
	b, base := e2etest.Browser(t)
	s := sitetest.Site(t)
	tb, requests := e2etest.ConsentTab(t, b)
	var webdriver, present bool
	e2etest.Do(t, tb,
		chromedp.Navigate(base+"/"),
		e2etest.WaitHydrated(),
		chromedp.Sleep(600*time.Millisecond),
		e2etest.ClickReachable(`footer [data-cc="show-preferencesModal"]`),
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
	e2etest.NoConsoleProblems(t, tb)
}

// TestConsentAccessibility runs axe-core (WCAG 2.2 AA and best practices)
// on the banner and on the dialog, left to right and right to left, in the
// light and the dark colour scheme.
func TestConsentAccessibility(t *testing.T) {
	b, _ := e2etest.Browser(t)
	base := e2etest.ConsentServer(t, e2etest.TestMeasurementID, false)
	axe, err := os.ReadFile(filepath.Join(sitetest.Root(), "node_modules", "axe-core", "axe.min.js"))
	if err != nil {
		t.Fatalf("axe-core is missing (npm ci): %v", err)
	}
	check := func(t *testing.T, tb *e2etest.Tab, what string) {
		t.Helper()
		var raw string
		e2etest.Do(t, tb,
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
				tb, _ := e2etest.ConsentTab(t, b)
				e2etest.Do(t, tb,
					chromedp.ActionFunc(func(ctx context.Context) error {
						return emulation.SetEmulatedMedia().WithFeatures([]*emulation.MediaFeature{
							{Name: "prefers-reduced-motion", Value: "reduce"}, {Name: "prefers-color-scheme", Value: scheme},
						}).Do(ctx)
					}),
					chromedp.Navigate(base+path),
					e2etest.WaitHydrated(),
					e2etest.WaitBanner(),
				)
				check(t, tb, "banner")
				e2etest.Do(t, tb,
					e2etest.ClickReachable(`#cc-main .cm [data-role="show"]`),
					e2etest.WaitPreferences(),
					// The analytics section unfolded, with its cookie table.
					e2etest.ClickReachable(`#cc-main .pm button.pm__section-title[aria-controls="analytics-desc"]`),
				)
				check(t, tb, "dialog")
			})
		}
	}
}
