package e2e

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/northbeam/site/internal/sitebuild"
	"github.com/northbeam/site/internal/sitetest"
)

// tourZones are the visitors' clocks, one language after the other.
var tourZones = []string{"America/New_York", "Europe/Paris", "Europe/Berlin", "Asia/Riyadh"}

// tourPost is the post of the tour, which has tags and code blocks, in the
// default language: the tour reads its version in each language.
const tourPost = "platform-engineering-without-the-platform-team-tax"

// tourPostIn returns the slug of the tour's post in lang.
func tourPostIn(t *testing.T, s *sitebuild.Build, lang string) string {
	t.Helper()
	def := s.Info.Default().Code
	if lang == def {
		return tourPost
	}
	versions, err := s.Blog().Translations(def, tourPost)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range versions {
		if v.Lang == lang {
			return v.Slug
		}
	}
	t.Fatalf("the tour's post %s has no version in %s", tourPost, lang)
	return ""
}

// screen sets the tab to a phone (360 x 740) or a desktop (1280 x 900) screen.
func screen(width int64) chromedp.Action {
	return chromedp.ActionFunc(func(ctx context.Context) error {
		if width < 600 {
			return emulation.SetDeviceMetricsOverride(width, 740, 2, true).Do(ctx)
		}
		return emulation.SetDeviceMetricsOverride(width, 900, 1, false).Do(ctx)
	})
}

// overflowProbe lists what makes a page scroll sideways, empty when nothing does.
const overflowProbe = `(() => {
	const w = document.documentElement.clientWidth;
	if (document.documentElement.scrollWidth <= w) return [];
	const wide = [...document.querySelectorAll("body *")].filter((el) => {
		const r = el.getBoundingClientRect();
		return r.width > 0 && (r.right > w + 1 || r.left < -1);
	});
	return ["page is " + document.documentElement.scrollWidth + " px wide"].concat(
		wide.slice(0, 5).map((el) => el.tagName + "." + el.className + " " + Math.round(el.getBoundingClientRect().right)));
})()`

// shoot checks that the page in the tab does not scroll sideways and keeps
// a screenshot of it in dir: the first screen, or the whole page.
func shoot(t *testing.T, tb *tab, dir, name string, whole bool) {
	t.Helper()
	var overflow []string
	tb.run(t, chromedp.Evaluate(overflowProbe, &overflow))
	if len(overflow) > 0 {
		t.Errorf("%s is wider than the screen: %v", name, overflow)
	}
	keepScreenshot(t, tb, dir, name, whole)
}

// TestVisitorsTour walks the site as a visitor does, on a 360 px phone and
// a 1280 px desktop in every language: the home page, a post with tags and
// code, the time step, a booking up to its confirmation, and the cookie
// banner. No page may scroll sideways. SCREENSHOT_DIR keeps the screenshots
// (tour-<lang>-<width>-<state>.png), which are how a person checks the rest.
func TestVisitorsTour(t *testing.T) {
	b, _ := browser(t)
	s := sitetest.Site(t)
	av, err := os.ReadFile(filepath.Join(sitetest.Root(), "content", "availability.json"))
	if err != nil {
		t.Fatal(err)
	}
	bannerBase := consentServer(t, "", false)
	dir := screenshotDir(t)
	for i, lang := range s.Info.Languages {
		zone, post := tourZones[i%len(tourZones)], tourPostIn(t, s, lang.Code)
		for _, width := range []int64{360, 1280} {
			t.Run(fmt.Sprintf("%s/%d", lang.Code, width), func(t *testing.T) {
				// Each visitor books on a server of their own, so that the
				// tours can run side by side: nothing in them is timed.
				t.Parallel()
				env := newBookingEnv(t, string(av)) // the consultancy's real hours, on the real clock
				srv := httptest.NewServer(env.handler)
				t.Cleanup(srv.Close)
				name := func(state string) string { return fmt.Sprintf("tour-%s-%d-%s", lang.Code, width, state) }
				tb := newTab(t, b)
				tb.run(t, screen(width), inZone(zone),
					chromedp.Navigate(srv.URL+lang.LocalPath("/")), waitHydrated())
				shoot(t, tb, dir, name("home"), true)

				tb.run(t, chromedp.Navigate(srv.URL+lang.LocalPath("/blog/"+post)), waitHydrated())
				shoot(t, tb, dir, name("post"), true)

				tb.run(t, chromedp.Navigate(srv.URL+lang.LocalPath("/schedule/discovery")), waitHydrated(), waitTimes())
				shoot(t, tb, dir, name("time"), false)
				shoot(t, tb, dir, name("time-page"), true)

				tb.run(t,
					pickFullDay(),
					chromedp.Click(`.time-grid li:nth-child(2) input`, chromedp.ByQuery),
					chromedp.SendKeys(`input[name="name"]`, "Sam Visitor", chromedp.ByQuery),
					chromedp.SendKeys(`input[name="email"]`, "sam@example.com", chromedp.ByQuery),
					fillPhoneIfAsked("+1 415 555 2671"),
					chromedp.Click(`button.booking-confirm`, chromedp.ByQuery),
					chromedp.WaitVisible(`.booking-confirmed`, chromedp.ByQuery),
					chromedp.Evaluate(`window.scrollTo(0, 0)`, nil),
				)
				shoot(t, tb, dir, name("confirmed"), false)

				// "Choose another time", from the link of the confirmation mail.
				var token string
				if err := env.store.QueryRowContext(context.Background(), `SELECT cancel_token FROM bookings ORDER BY id DESC LIMIT 1`).Scan(&token); err != nil {
					t.Fatal(err)
				}
				tb.run(t, chromedp.Navigate(srv.URL+lang.LocalPath("/schedule/reschedule")+"?token="+token), waitHydrated(), waitTimes())
				shoot(t, tb, dir, name("reschedule"), true)

				banner := newTab(t, b)
				banner.run(t, screen(width), chromedp.Navigate(bannerBase+lang.LocalPath("/")), waitHydrated(), waitBanner())
				shoot(t, banner, dir, name("banner"), false)
				if problems := append(tb.consoleProblems(), banner.consoleProblems()...); len(problems) > 0 {
					t.Errorf("console:\n%s", strings.Join(problems, "\n"))
				}
			})
		}
	}
}
