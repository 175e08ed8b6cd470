package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/northbeam/site/internal/sitetest"
)

// firstScreenSettled waits until every picture on the first screen is
// loaded (a lazy one far below is not, and stays so).
const firstScreenSettled = `new Promise((resolve) => {
  const done = () => [...document.images].every((img) => img.complete || img.getBoundingClientRect().top > innerHeight);
  const wait = () => (done() ? resolve(true) : setTimeout(wait, 20));
  wait();
})`

// allSettled waits until every picture of the page is loaded.
const allSettled = `new Promise((resolve) => {
  const wait = () => ([...document.images].every((img) => img.complete) ? resolve(true) : setTimeout(wait, 20));
  wait();
})`

// picturesFetched lists the content pictures and copies the page has
// fetched so far.
const picturesFetched = `performance.getEntriesByType("resource").map((e) => new URL(e.name).pathname).filter((p) => p.startsWith("/img/"))`

// copyWidthPattern reads the width of a WebP copy from its address.
var copyWidthPattern = regexp.MustCompile(`-(\d+)\.webp$`)

// TestPicturesWithoutLayoutShiftAndLazyBelow loads a case study, the team
// page and a person's page in English and Arabic, on a phone (390 px, twice the pixel
// density) and a wide screen (1280 px): the pictures on the first screen
// are shown from their WebP copies at their 16:9 or square shape without
// moving anything or upsetting hydration, the case study's other studies far
// below are not fetched until the reader scrolls to them, and then they
// are. SCREENSHOT_DIR keeps screenshots of these pages and of the home
// page's selected work.
func TestPicturesWithoutLayoutShiftAndLazyBelow(t *testing.T) {
	b, base := browser(t)
	s := sitetest.Site(t)
	dir := screenshotDir(t)
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
					tb := newTab(t, b)
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
					tb.run(t,
						chromedp.ActionFunc(func(ctx context.Context) error {
							return emulation.SetDeviceMetricsOverride(width, 844, dpr, width < 600).Do(ctx)
						}),
						beforeLoad(layoutShiftProbe),
						chromedp.Navigate(base+pg.path),
						waitHydrated(),
						chromedp.Evaluate(firstScreenSettled, nil, awaitPromise),
						chromedp.Evaluate(`window.__shifts`, &shifts),
						chromedp.Evaluate(picturesFetched, &fetched),
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
						if m := copyWidthPattern.FindStringSubmatch(first.Src); m != nil {
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
						tb.run(t, chromedp.Evaluate(`[...document.querySelectorAll(".study-more img")].map((img) => ({
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
						tb.run(t,
							chromedp.ScrollIntoView(`.study-more`, chromedp.ByQuery),
							chromedp.Poll(`[...document.querySelectorAll(".study-more img")].every((img) => img.complete && img.naturalWidth > 0)`, nil, chromedp.WithPollingTimeout(10*time.Second)),
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
					tb.run(t,
						chromedp.Evaluate(`document.querySelectorAll("img[loading=lazy]").forEach((img) => (img.loading = "eager"))`, nil),
						chromedp.Evaluate(allSettled, nil, awaitPromise),
					)
					if dir != "" {
						var shot []byte
						if pg.name == "home-work" {
							tb.run(t, chromedp.ScrollIntoView(`section.work`, chromedp.ByQuery), chromedp.Screenshot(`section.work`, &shot, chromedp.ByQuery))
						} else {
							// From the top, where the sticky header belongs.
							tb.run(t, chromedp.Evaluate(`window.scrollTo(0, 0)`, nil), chromedp.FullScreenshot(&shot, 100))
						}
						if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("pictures-%s-%s-%d.png", pg.name, code, width)), shot, 0o644); err != nil {
							t.Fatal(err)
						}
					}
					if problems := tb.consoleProblems(); len(problems) > 0 {
						t.Errorf("console:\n%s", strings.Join(problems, "\n"))
					}
				})
			}
		}
	}
}

// awaitPromise makes chromedp.Evaluate wait for the promise's value.
func awaitPromise(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) }
