package layout

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/northbeam/site/e2e/internal/e2etest"
	"github.com/northbeam/site/internal/sitetest"
)

// TestNoLayoutShiftWhileThePageArrives loads pages on a phone-sized screen
// while the document arrives in two parts and the cookie banner appears:
// nothing on the page moves.
func TestNoLayoutShiftWhileThePageArrives(t *testing.T) {
	b, _ := e2etest.Browser(t)
	base := e2etest.SlowHeaderServer(t)
	for _, path := range []string{"/fr", "/fr/blog", "/ar/schedule/discovery", "/de/no-such-page"} {
		tb := e2etest.NewTab(t, b)
		var shifts []string
		tb.Run(t,
			emulation.SetDeviceMetricsOverride(412, 823, 1.75, true),
			e2etest.BeforeLoad(e2etest.LayoutShiftProbe),
			chromedp.Navigate(base+path),
			e2etest.WaitBanner(),
			chromedp.Sleep(300*time.Millisecond),
			chromedp.Evaluate(`window.__shifts`, &shifts),
		)
		if len(shifts) > 0 {
			t.Errorf("%s: layout shifts:\n%s", path, strings.Join(shifts, "\n"))
		}
	}
}

// TestNoLayoutShiftWhileTheMainContentArrives loads the pages of card
// grids and lists (the case studies, a study, the team, a person) in the
// default language and one written right to left, on a phone and a wide
// screen, while the document arrives in two parts cut before the last item
// of the page's first list: the first paint waits for the whole main
// content, so no grid is laid out with fewer cards than it has, and
// nothing moves.
func TestNoLayoutShiftWhileTheMainContentArrives(t *testing.T) {
	b, _ := e2etest.Browser(t)
	base := e2etest.SlowListServer(t)
	s := sitetest.Site(t)
	for _, code := range []string{sitetest.Default(t).Code, sitetest.RightToLeft(t).Code} {
		lang, _ := s.Info.Language(code)
		for _, path := range []string{
			lang.LocalPath("/work"),
			lang.LocalPath("/work/" + s.Work().Studies(code)[0].Slug),
			lang.LocalPath("/team"),
			lang.LocalPath("/team/" + s.Team().People(code)[1].Slug),
		} {
			for _, width := range []int64{390, 1280} {
				t.Run(fmt.Sprintf("%s/%d", path, width), func(t *testing.T) {
					tb := e2etest.NewTab(t, b)
					var shifts []string
					tb.Run(t,
						e2etest.Viewport(width, width < 600),
						e2etest.BeforeLoad(e2etest.LayoutShiftProbe),
						chromedp.Navigate(base+path),
						e2etest.WaitHydrated(),
						chromedp.Evaluate(`window.__shifts`, &shifts),
					)
					if len(shifts) > 0 {
						t.Errorf("layout shifts while the page arrives:\n%s", strings.Join(shifts, "\n"))
					}
				})
			}
		}
	}
}
