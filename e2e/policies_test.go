package e2e

import (
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
	b, _ := browser(t)
	s := sitetest.Site(t)
	dir := screenshotDir(t)
	for _, id := range []string{"", testMeasurementID} {
		base := consentServer(t, id, false)
		for _, lang := range s.Info.Languages {
			t.Run(lang.Code+" "+id, func(t *testing.T) {
				tb, _ := consentTab(t, b)
				page := base + lang.LocalPath("/")
				var buttons []string
				do(t, tb,
					chromedp.Navigate(page),
					waitHydrated(),
					waitBanner(),
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
					tb.run(t, viewport(width, width < 600))
					keepScreenshot(t, tb, dir, fmt.Sprintf("banner-%s-%d", lang.Code, width), false)
				}
				if want := []string{s.Locales.T(lang.Code, "consent.actions.acknowledge")}; !slices.Equal(buttons, want) {
					t.Fatalf("without analytics the banner offers %q, want %q", buttons, want)
				}
				var cookies []*network.Cookie
				do(t, tb,
					clickReachable(`#cc-main .cm [data-role="all"]`),
					waitDecision(),
					waitClosed(),
					browserCookies(page, &cookies),
				)
				if c := cookieNamed(cookies, "cc_cookie"); c == nil {
					t.Error("no cc_cookie after the acknowledgement")
				} else if got := recordField[[]string](t, consentRecord(t, c), "categories"); !slices.Equal(got, []string{"necessary"}) {
					t.Errorf("categories %v", got)
				}
				for _, width := range []int64{390, 1280} {
					tb.run(t, viewport(width, width < 600), chromedp.Navigate(base+lang.LocalPath("/privacy")), waitHydrated())
					keepScreenshot(t, tb, dir, fmt.Sprintf("privacy-%s-%d", lang.Code, width), true)
				}
				noConsoleProblems(t, tb)
			})
		}
	}
}
