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

// screenshotDir is where layout screenshots are written: $SCREENSHOT_DIR,
// or a temporary directory that the test run removes.
func screenshotDir(t *testing.T) string {
	if dir := os.Getenv("SCREENSHOT_DIR"); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	return t.TempDir()
}

// viewport sets the tab's width as a phone or a desktop would have it.
func viewport(width int64, mobile bool) chromedp.Action {
	return chromedp.ActionFunc(func(ctx context.Context) error {
		return emulation.SetDeviceMetricsOverride(width, 900, 1, mobile).Do(ctx)
	})
}

// TestHomeLayoutAtPhoneAndDesktopWidths takes screenshots of the home page
// in English and Arabic at 390 and 1280 px and fails when anything is wider
// than the viewport (a horizontal scrollbar on a phone).
func TestHomeLayoutAtPhoneAndDesktopWidths(t *testing.T) {
	b, base := browser(t)
	dir := screenshotDir(t)
	for _, lang := range []string{"en", "ar"} {
		for _, width := range []int64{320, 390, 1280} {
			path := map[string]string{"en": "/", "ar": "/ar"}[lang]
			t.Run(fmt.Sprintf("%s/%d", lang, width), func(t *testing.T) {
				tb := newTab(t, b)
				var overflow []string
				var shot []byte
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
					chromedp.FullScreenshot(&shot, 100), // 100: PNG
				)
				if len(overflow) > 0 {
					t.Errorf("wider than the %d px viewport: %v", width, overflow)
				}
				if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("home-%s-%d.png", lang, width)), shot, 0o644); err != nil {
					t.Fatal(err)
				}
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
