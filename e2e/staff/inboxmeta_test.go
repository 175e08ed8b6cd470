package staff

import (
	"github.com/northbeam/site/e2e/internal/e2etest"

	"context"
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/northbeam/site/internal/sitetest"
	"github.com/northbeam/site/internal/staff"
)

// TestBrowserStaffInboxTimesStayWhole: in every language, at every width
// from a small phone's to a large one's, the time of day in the inbox's
// meta lines ("10:15 ص") is drawn on one line: its day period is never
// left alone on the next.
func TestBrowserStaffInboxTimesStayWhole(t *testing.T) {
	b, _ := e2etest.Browser(t)
	dir := e2etest.ScreenshotDir(t)
	env := e2etest.NewStaffBrowserEnv(t)
	e2etest.FillWorkspace(t, env)
	if _, err := env.Ws.Invite(context.Background(), "ada@northbeam.test", staff.ActorCommandLine); err != nil {
		t.Fatal(err)
	}
	tb := e2etest.NewTab(t, b)
	env.SignInByLink(t, tb, "ada@northbeam.test")
	for _, lang := range sitetest.Site(t).Info.Languages {
		e2etest.SetStaffLanguage(t, tb, lang.Code)
		tb.Run(t,
			e2etest.Viewport(390, true),
			chromedp.Navigate(env.Base+"/staff"),
			e2etest.WaitWorkspace(),
			e2etest.WaitTrue(`document.querySelector(".ws-meta time") !== null`),
		)
		var broken []string
		for width := int64(320); width <= 480; width += 4 {
			tb.Run(t, e2etest.Viewport(width, true))
			var lines []int
			// Each meta line's time of day: from its hour to the end.
			tb.Run(t, chromedp.Evaluate(`[...document.querySelectorAll(".ws-meta time")].map((el) => {
				const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
				let text = "";
				const nodes = [];
				for (let n = walk.nextNode(); n; n = walk.nextNode()) { nodes.push([n, text.length]); text += n.data; }
				const m = /\d{1,2}:\d{2}\D*$/.exec(text);
				if (!m) return -1;
				const r = document.createRange();
				const at = (i) => { for (let k = nodes.length - 1; k >= 0; k--) if (nodes[k][1] <= i) return [nodes[k][0], i - nodes[k][1]]; };
				r.setStart(...at(m.index));
				r.setEnd(...at(text.length - 1));
				r.setEnd(r.endContainer, r.endOffset + 1);
				return new Set([...r.getClientRects()].filter((b) => b.width > 0).map((b) => Math.round(b.top))).size;
			})`, &lines))
			if len(lines) == 0 {
				t.Fatalf("%s: no meta line with a time", lang.Code)
			}
			for i, n := range lines {
				if n != 1 {
					broken = append(broken, fmt.Sprintf("line %d at %d px (%d lines)", i+1, width, n))
				}
			}
		}
		for _, width := range []int64{390, 1280} {
			tb.Run(t, e2etest.Viewport(width, width < 600))
			e2etest.KeepScreenshot(t, tb, dir, fmt.Sprintf("inbox-%s-%d", lang.Code, width), false)
		}
		if len(broken) > 0 {
			t.Errorf("%s: the inbox's time of day is broken across lines: %v", lang.Code, broken)
		}
	}
}
