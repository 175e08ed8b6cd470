package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/northbeam/site/internal/sitetest"
)

// screenshotDir is where layout screenshots are kept: $SCREENSHOT_DIR, or
// "" when it is not set. Screenshots are for a person to look at; a whole
// page's costs a quarter of a second, so none is taken unless asked for.
func screenshotDir(t *testing.T) string {
	dir := os.Getenv("SCREENSHOT_DIR")
	if dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// keepScreenshot writes dir/name.png, a screenshot of the first screen or
// of the whole page in the tab, when dir is set.
func keepScreenshot(t *testing.T, tb *tab, dir, name string, whole bool) {
	t.Helper()
	if dir == "" {
		return
	}
	var png []byte
	capture := chromedp.CaptureScreenshot(&png)
	if whole {
		capture = chromedp.FullScreenshot(&png, 100) // 100: PNG
	}
	tb.run(t, capture)
	if err := os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644); err != nil {
		t.Fatal(err)
	}
}

// viewport sets the tab's width as a phone or a desktop would have it.
func viewport(width int64, mobile bool) chromedp.Action {
	return chromedp.ActionFunc(func(ctx context.Context) error {
		return emulation.SetDeviceMetricsOverride(width, 900, 1, mobile).Do(ctx)
	})
}

// TestHomeLayoutAtPhoneAndDesktopWidths loads the home page in English and
// Arabic at 320, 390 and 1280 px and fails when anything is wider than the
// viewport (a horizontal scrollbar on a phone); SCREENSHOT_DIR keeps a
// screenshot of each.
func TestHomeLayoutAtPhoneAndDesktopWidths(t *testing.T) {
	b, base := browser(t)
	dir := screenshotDir(t)
	for _, lang := range []string{"en", "ar"} {
		for _, width := range []int64{320, 390, 1280} {
			path := map[string]string{"en": "/", "ar": "/ar"}[lang]
			t.Run(fmt.Sprintf("%s/%d", lang, width), func(t *testing.T) {
				t.Parallel() // a tab of its own on a page of its own: nothing timed
				tb := newTab(t, b)
				var overflow []string
				tb.run(t,
					viewport(width, width < 600),
					chromedp.Navigate(base+path),
					waitHydrated(),
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
				keepScreenshot(t, tb, dir, fmt.Sprintf("home-%s-%d", lang, width), true)
			})
		}
	}
}

// axeSource is axe-core from node_modules, injected into the page under test.
func axeSource(t *testing.T) string {
	src, err := os.ReadFile(filepath.Join(sitetest.Root(), "node_modules", "axe-core", "axe.min.js"))
	if err != nil {
		t.Fatalf("axe-core is missing (npm ci): %v", err)
	}
	return string(src)
}

type axeViolation struct {
	ID    string `json:"id"`
	Help  string `json:"help"`
	Nodes []struct {
		Target []any  `json:"target"`
		HTML   string `json:"html"`
	} `json:"nodes"`
}

// runAxe checks the page in the tab against WCAG 2.2 AA with axe-core.
func runAxe(t *testing.T, tb *tab, axe string) []axeViolation {
	t.Helper()
	var raw string
	tb.run(t,
		chromedp.Evaluate(axe, nil),
		chromedp.Evaluate(`axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"] } })
			.then((r) => JSON.stringify(r.violations))`, &raw, func(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) }),
	)
	var violations []axeViolation
	if err := json.Unmarshal([]byte(raw), &violations); err != nil {
		t.Fatalf("axe result: %v", err)
	}
	return violations
}

// TestAccessibility runs axe-core on every page type in every language.
func TestAccessibility(t *testing.T) {
	b, base := browser(t)
	s := sitetest.Site(t)
	axe := axeSource(t)
	for _, lang := range s.Info.Languages {
		for _, path := range []string{"/", "/services/custom-software", "/blog", "/schedule", "/privacy", "/cookies", "/imprint",
			"/work", "/work/" + s.Work().Studies(lang.Code)[0].Slug, "/team", "/team/" + s.Team().People(lang.Code)[0].Slug, "/missing-page"} {
			url := lang.LocalPath(path)
			t.Run(url, func(t *testing.T) {
				t.Parallel() // a tab of its own on a page of its own: nothing timed
				tb := newTab(t, b)
				tb.run(t, chromedp.Navigate(base+url), waitHydrated())
				for _, v := range runAxe(t, tb, axe) {
					var where []string
					for _, n := range v.Nodes {
						where = append(where, fmt.Sprint(n.Target))
					}
					t.Errorf("%s: %s at %s", v.ID, v.Help, strings.Join(where, ", "))
				}
			})
		}
	}
}
