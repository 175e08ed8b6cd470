package consent

import (
	"github.com/northbeam/site/e2e/internal/e2etest"

	"fmt"
	"slices"
	"testing"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/northbeam/site/internal/sitetest"
)

// TestConsentWithoutAnalyticsOneAcknowledgement: with no measurement ID
// the banner of every language has one acknowledgement where "Accept all"
// and "Reject all" would record the same thing; it records the necessary
// category. With an ID, both choices stay.
func TestConsentWithoutAnalyticsOneAcknowledgement(t *testing.T) {
	b, _ := e2etest.Browser(t)
	s := sitetest.Site(t)
	dir := e2etest.ScreenshotDir(t)
	for _, id := range []string{"", e2etest.TestMeasurementID} {
		base := e2etest.ConsentServer(t, id, false)
		for _, lang := range s.Info.Languages {
			t.Run(lang.Code+" "+id, func(t *testing.T) {
				tb, _ := e2etest.ConsentTab(t, b)
				page := base + lang.LocalPath("/")
				var buttons []string
				e2etest.Do(t, tb,
					chromedp.Navigate(page),
					e2etest.WaitHydrated(),
					e2etest.WaitBanner(),
					chromedp.Evaluate(`Array.from(document.querySelectorAll('#cc-main .cm [data-role="all"], #cc-main .cm [data-role="necessary"]')).map((b) => b.textContent.trim())`, &buttons),
				)
				if id != "" {
					want := []string{s.Locales.T(lang.Code, "consent.actions.acceptAll"), s.Locales.T(lang.Code, "consent.actions.rejectAll")}
					if !slices.Equal(buttons, want) {
						t.Errorf("with analytics the banner offers %q, want %q", buttons, want)
					}
					return
				}
				for _, width := range []int64{390, 1280} {
					tb.Run(t, e2etest.Viewport(width, width < 600))
					e2etest.KeepScreenshot(t, tb, dir, fmt.Sprintf("banner-%s-%d", lang.Code, width), false)
				}
				if want := []string{s.Locales.T(lang.Code, "consent.actions.acknowledge")}; !slices.Equal(buttons, want) {
					t.Fatalf("without analytics the banner offers %q, want %q", buttons, want)
				}
				var cookies []*network.Cookie
				e2etest.Do(t, tb,
					e2etest.ClickReachable(`#cc-main .cm [data-role="all"]`),
					e2etest.WaitDecision(),
					e2etest.WaitClosed(),
					e2etest.BrowserCookies(page, &cookies),
				)
				if c := e2etest.CookieNamed(cookies, "cc_cookie"); c == nil {
					t.Error("no cc_cookie after the acknowledgement")
				} else if got := e2etest.RecordField[[]string](t, e2etest.ConsentRecord(t, c), "categories"); !slices.Equal(got, []string{"necessary"}) {
					t.Errorf("categories %v", got)
				}
				for _, width := range []int64{390, 1280} {
					tb.Run(t, e2etest.Viewport(width, width < 600), chromedp.Navigate(base+lang.LocalPath("/privacy")), e2etest.WaitHydrated())
					e2etest.KeepScreenshot(t, tb, dir, fmt.Sprintf("privacy-%s-%d", lang.Code, width), true)
				}
				e2etest.NoConsoleProblems(t, tb)
			})
		}
	}
}
