package layout

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/northbeam/site/e2e/internal/e2etest"
	"github.com/northbeam/site/internal/sitetest"
)

// TestPicturesWithoutLayoutShiftAndLazyBelow loads a case study, the team
// page and a person's page in English and Arabic, on a phone (390 px, twice the pixel
// density) and a wide screen (1280 px): the pictures on the first screen
// are shown from their WebP copies at their 16:9 or square shape without
// moving anything or upsetting hydration, the case study's other studies far
// below are not fetched until the reader scrolls to them, and then they
// are. SCREENSHOT_DIR keeps screenshots of these pages and of the home
// page's selected work.
func TestPicturesWithoutLayoutShiftAndLazyBelow(t *testing.T) {
	b, base := e2etest.Browser(t)
	s := sitetest.Site(t)
	dir := e2etest.ScreenshotDir(t)
	for _, code := range []string{sitetest.Default(t).Code, sitetest.RightToLeft(t).Code} { // the default language, and one written right to left
		lang, _ := s.Info.Language(code)
		pages := []struct{ name, path string }{
			{"study", lang.LocalPath("/work/" + s.Work().Studies(code)[0].Slug)},
			{"team", lang.LocalPath("/team")},
			{"person", lang.LocalPath("/team/" + s.Team().People(code)[1].Slug)},
			{"home-work", lang.LocalPath("/")},
		}
		for _, pg := range pages {
			for _, width := range []int64{390, 1280} {
				t.Run(fmt.Sprintf("%s/%s/%d", code, pg.name, width), func(t *testing.T) {
					tb := e2etest.NewTab(t, b)
					var shifts, fetched []string
					var first struct {
						Src           string
						Width, Height float64
						Fits          bool
					}
					dpr := 1.0
					if width < 600 {
						dpr = 2
					}
					tb.Run(t,
						chromedp.ActionFunc(func(ctx context.Context) error {
							return emulation.SetDeviceMetricsOverride(width, 844, dpr, width < 600).Do(ctx)
						}),
						e2etest.BeforeLoad(e2etest.LayoutShiftProbe),
						chromedp.Navigate(base+pg.path),
						e2etest.WaitHydrated(),
						chromedp.Evaluate(e2etest.FirstScreenSettled, nil, e2etest.AwaitPromise),
						chromedp.Evaluate(`window.__shifts`, &shifts),
						chromedp.Evaluate(e2etest.PicturesFetched, &fetched),
						chromedp.Evaluate(`(() => {
							const img = document.querySelector("main picture img");
							const r = img.getBoundingClientRect();
							return { src: img.currentSrc, width: r.width, height: r.height, fits: r.left >= 0 && r.right <= document.documentElement.clientWidth };
						})()`, &first),
					)
					if len(shifts) > 0 {
						t.Errorf("layout shifts while the page loads:\n%s", strings.Join(shifts, "\n"))
					}
					if pg.name != "home-work" {
						if !strings.HasSuffix(first.Src, ".webp") || first.Width == 0 || !first.Fits {
							t.Errorf("first picture: %+v", first)
						}
						shape := 9.0 / 16
						if pg.name == "team" || pg.name == "person" {
							shape = 1
						}
						if d := first.Height - first.Width*shape; d > 1 || d < -1 {
							t.Errorf("first picture is %.0f×%.0f, not of its shape", first.Width, first.Height)
						}
						// The copy the browser chose from sizes is sharp on
						// this screen, and not needlessly large.
						var copyWidth float64
						if m := e2etest.CopyWidthPattern.FindStringSubmatch(first.Src); m != nil {
							copyWidth, _ = strconv.ParseFloat(m[1], 64)
						}
						need := first.Width * dpr
						t.Logf("first picture %.0f css px at %gx: copy %s", first.Width, dpr, filepath.Base(first.Src))
						if copyWidth < need && copyWidth < 800 || copyWidth > 2.5*need {
							t.Errorf("first picture %.0f css px at %gx is shown from %s", first.Width, dpr, first.Src)
						}
					}
					if pg.name == "study" {
						// The other studies' covers, far below the first
						// screen, wait for the reader.
						var below []struct {
							Stem     string // "/work/fintech-platform": in the addresses of the file and its copies
							Distance float64
						}
						tb.Run(t, chromedp.Evaluate(`[...document.querySelectorAll(".study-more img")].map((img) => ({
							stem: new URL(img.src).pathname.replace(/^\/img\/[0-9a-f]+/, "").replace(/\.png$/, ""),
							distance: img.getBoundingClientRect().top - innerHeight,
						}))`, &below))
						if len(below) == 0 {
							t.Fatal("no other studies below")
						}
						for _, img := range below {
							if img.Distance < 1500 { // Chromium loads lazy pictures within 1250 px of the screen on a fast connection
								t.Fatalf("%s is only %.0f px below the first screen: too near to tell lazy loading", img.Stem, img.Distance)
							}
							for _, f := range fetched {
								if strings.Contains(f, img.Stem) {
									t.Errorf("%s (%.0f px below the first screen) fetched before scrolling: %s", img.Stem, img.Distance, f)
								}
							}
						}
						if len(fetched) == 0 {
							t.Error("no picture fetched on the first screen")
						}
						var loaded []string
						tb.Run(t,
							chromedp.ScrollIntoView(`.study-more`, chromedp.ByQuery),
							e2etest.Poll(`[...document.querySelectorAll(".study-more img")].every((img) => img.complete && img.naturalWidth > 0)`, nil),
							chromedp.Evaluate(`[...document.querySelectorAll(".study-more img")].map((img) => img.currentSrc)`, &loaded),
						)
						for _, src := range loaded {
							if !strings.HasSuffix(src, ".webp") {
								t.Errorf("below, after scrolling: %s", src)
							}
						}
					}
					// Every lazy picture loaded, then a screenshot of the pictures
					// when one is asked for.
					tb.Run(t,
						chromedp.Evaluate(`document.querySelectorAll("img[loading=lazy]").forEach((img) => (img.loading = "eager"))`, nil),
						chromedp.Evaluate(e2etest.AllSettled, nil, e2etest.AwaitPromise),
					)
					if dir != "" {
						var shot []byte
						if pg.name == "home-work" {
							tb.Run(t, chromedp.ScrollIntoView(`section.work`, chromedp.ByQuery), chromedp.Screenshot(`section.work`, &shot, chromedp.ByQuery))
						} else {
							// From the top, where the sticky header belongs.
							tb.Run(t, chromedp.Evaluate(`window.scrollTo(0, 0)`, nil), chromedp.FullScreenshot(&shot, 100))
						}
						if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("pictures-%s-%s-%d.png", pg.name, code, width)), shot, 0o644); err != nil {
							t.Fatal(err)
						}
					}
					if problems := tb.ConsoleProblems(); len(problems) > 0 {
						t.Errorf("console:\n%s", strings.Join(problems, "\n"))
					}
				})
			}
		}
	}
}
