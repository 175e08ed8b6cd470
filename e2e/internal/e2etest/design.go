package e2etest

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/northbeam/site/internal/sitetest"
)

// ScreenshotDir is where layout screenshots are kept: $SCREENSHOT_DIR, or
// "" when it is not set. Screenshots are for a person to look at; a whole
// page's costs a quarter of a second, so none is taken unless asked for.
func ScreenshotDir(t *testing.T) string {
	dir := os.Getenv("SCREENSHOT_DIR")
	if dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// KeepScreenshot writes dir/name.png, a screenshot of the first screen or
// of the whole page in the tab, when dir is set.
func KeepScreenshot(t *testing.T, tb *Tab, dir, name string, whole bool) {
	t.Helper()
	if dir == "" {
		return
	}
	var png []byte
	capture := chromedp.CaptureScreenshot(&png)
	if whole {
		capture = chromedp.FullScreenshot(&png, 100) // 100: PNG
	}
	tb.Run(t, capture)
	if err := os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644); err != nil {
		t.Fatal(err)
	}
}

// Viewport sets the tab's width as a phone or a desktop would have it.
func Viewport(width int64, mobile bool) chromedp.Action {
	return chromedp.ActionFunc(func(ctx context.Context) error {
		return emulation.SetDeviceMetricsOverride(width, 900, 1, mobile).Do(ctx)
	})
}

// AxeSource is axe-core from node_modules, injected into the page under test.
func AxeSource(t *testing.T) string {
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

// RunAxe checks the page in the tab against WCAG 2.2 AA with axe-core.
func RunAxe(t *testing.T, tb *Tab, axe string) []axeViolation {
	t.Helper()
	var raw string
	tb.Run(t,
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
