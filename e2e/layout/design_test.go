package layout

import (
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/northbeam/site/e2e/internal/e2etest"
)

// TestHomeLayoutAtPhoneAndDesktopWidths loads the home page in English and
// Arabic at 320, 390 and 1280 px and fails when anything is wider than the
// viewport (a horizontal scrollbar on a phone); SCREENSHOT_DIR keeps a
// screenshot of each.
func TestHomeLayoutAtPhoneAndDesktopWidths(t *testing.T) {
	b, base := e2etest.Browser(t)
	dir := e2etest.ScreenshotDir(t)
	for _, lang := range []string{"en", "ar"} {
		for _, width := range []int64{320, 390, 1280} {
			path := map[string]string{"en": "/", "ar": "/ar"}[lang]
			t.Run(fmt.Sprintf("%s/%d", lang, width), func(t *testing.T) {
				t.Parallel() // a tab of its own on a page of its own: nothing timed
				tb := e2etest.NewTab(t, b)
				var overflow []string
				tb.Run(t,
					e2etest.Viewport(width, width < 600),
					chromedp.Navigate(base+path),
					e2etest.WaitHydrated(),
					// What a visitor notices is a page that scrolls sideways; the
					// elements sticking out are listed to say why.
					chromedp.Evaluate(`(() => {
						const w = document.documentElement.clientWidth;
						if (document.documentElement.scrollWidth <= w) return [];
						const wide = [...document.querySelectorAll("body *")].filter((el) => {
							const r = el.getBoundingClientRect();
							return r.width > 0 && (r.right > w + 1 || r.left < -1);
						});
						return ["page is " + document.documentElement.scrollWidth + " px wide"].concat(
							wide.slice(0, 5).map((el) => el.tagName + "." + el.className + " " + Math.round(el.getBoundingClientRect().right)));
					})()`, &overflow),
				)
				if len(overflow) > 0 {
					t.Errorf("wider than the %d px viewport: %v", width, overflow)
				}
				e2etest.KeepScreenshot(t, tb, dir, fmt.Sprintf("home-%s-%d", lang, width), true)
			})
		}
	}
}
