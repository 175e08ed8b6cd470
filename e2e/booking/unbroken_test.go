package booking

import (
	"github.com/northbeam/site/e2e/internal/e2etest"

	"fmt"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/northbeam/site/internal/sitetest"
)

// linesOf returns on how many lines the browser drew text inside the first
// element selector names: the distinct tops of its line boxes.
func linesOf(t *testing.T, tb *e2etest.Tab, selector, text string) int {
	t.Helper()
	var n int
	tb.Run(t, chromedp.Evaluate(fmt.Sprintf(`(() => {
		const el = document.querySelector(%q);
		if (!el) return -1;
		const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
		for (let node = walk.nextNode(); node; node = walk.nextNode()) {
			const at = node.data.indexOf(%q);
			if (at < 0) continue;
			const r = document.createRange();
			r.setStart(node, at);
			r.setEnd(node, at + %d);
			return new Set([...r.getClientRects()].filter((b) => b.width > 0).map((b) => Math.round(b.top))).size;
		}
		return -1;
	})()`, selector, text, len([]rune(text))), &n))
	if n < 0 {
		t.Fatalf("no %q in %s", text, selector)
	}
	return n
}

// TestValuesAreNeverBrokenAcrossLines books a consultation by phone in
// every language on a phone's screen and reads, from where the browser drew
// them, that the address in the confirmation's sentence and the phone
// number each lie on one line, at every width from the smallest phone the
// site fits (320 px) to a large one's (the line's end falls at a different place in the
// sentence at each), and that the address still reads in its own order.
func TestValuesAreNeverBrokenAcrossLines(t *testing.T) {
	b, base, _ := e2etest.BookingBrowser(t)
	s := sitetest.Site(t)
	dir := e2etest.ScreenshotDir(t)
	for _, lang := range s.Info.Languages {
		t.Run(lang.Code, func(t *testing.T) {
			tb := e2etest.NewTab(t, b)
			// A hyphen and a dot: where a line may otherwise break.
			address := lang.Code + "-visitor@example.com"
			tb.Run(t,
				e2etest.Viewport(390, true),
				e2etest.InZone("Europe/Paris"),
				chromedp.Navigate(base+lang.LocalPath("/schedule/discovery")),
				e2etest.WaitHydrated(),
				e2etest.WaitTimes(),
				e2etest.PickFullDay(),
				chromedp.Click(`.time-grid li:nth-child(2) input`, chromedp.ByQuery),
				chromedp.SendKeys(`input[name="name"]`, "Sam Vale", chromedp.ByQuery),
				chromedp.SendKeys(`input[name="email"]`, address, chromedp.ByQuery),
				chromedp.SendKeys(`input[name="phone"]`, "+33 1 23 45 67 89", chromedp.ByQuery),
				chromedp.Click(`button.booking-confirm`, chromedp.ByQuery),
				chromedp.WaitVisible(`.booking-confirmed .lead`, chromedp.ByQuery),
				chromedp.WaitVisible(`.booking-confirmed .meeting-phone`, chromedp.ByQuery),
			)
			broken := map[string][]int64{}
			for width := int64(320); width <= 480; width += 4 {
				tb.Run(t, e2etest.Viewport(width, true))
				for sel, text := range map[string]string{`.booking-confirmed .lead`: address, `.booking-confirmed .meeting-phone`: "+33 1 23 45 67 89"} {
					if n := linesOf(t, tb, sel, text); n != 1 {
						broken[text] = append(broken[text], width)
					}
				}
			}
			for text, widths := range broken {
				t.Errorf("%q is broken across lines at %v px", text, widths)
			}
			tb.Run(t, e2etest.Viewport(1280, false))
			e2etest.KeepScreenshot(t, tb, dir, "confirmation-"+lang.Code+"-1280", false)
			tb.Run(t, e2etest.Viewport(390, true), chromedp.Evaluate(`document.querySelector(".booking-confirmed .lead").scrollIntoView()`, nil))
			e2etest.KeepScreenshot(t, tb, dir, "confirmation-"+lang.Code+"-390", false)
			e2etest.ReadsLeftToRight(t, tb, "the confirmation's address", `.booking-confirmed .lead`, `(visitor)@example\.(com)`)
			e2etest.ReadsLeftToRight(t, tb, "the confirmation's phone", `.booking-confirmed .meeting-phone`, `(\+33) 1 23 45 67 (89)`)
		})
	}
}
