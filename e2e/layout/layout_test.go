package layout

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/northbeam/site/e2e/internal/e2etest"
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
