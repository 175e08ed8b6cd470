package visitor

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/northbeam/site/e2e/internal/e2etest"
	"github.com/northbeam/site/internal/sitetest"
)

// TestVisitorsTour walks the site as a visitor does, on a 360 px phone and
// a 1280 px desktop in every language: the home page, a post with tags and
// code, the time step, a booking up to its confirmation, and the cookie
// banner. No page may scroll sideways. SCREENSHOT_DIR keeps the screenshots
// (tour-<lang>-<width>-<state>.png), which are how a person checks the rest.
func TestVisitorsTour(t *testing.T) {
	b, _ := e2etest.Browser(t)
	s := sitetest.Site(t)
	av, err := os.ReadFile(filepath.Join(sitetest.Root(), "content", "availability.json"))
	if err != nil {
		t.Fatal(err)
	}
	bannerBase := e2etest.ConsentServer(t, "", false)
	dir := e2etest.ScreenshotDir(t)
	for i, lang := range s.Info.Languages {
		zone, post := e2etest.TourZones[i%len(e2etest.TourZones)], e2etest.TourPostIn(t, s, lang.Code)
		for _, width := range []int64{360, 1280} {
			t.Run(fmt.Sprintf("%s/%d", lang.Code, width), func(t *testing.T) {
				// Each visitor books on a server of their own, so that the
				// tours can run side by side: nothing in them is timed.
				t.Parallel()
				env := e2etest.NewBookingEnv(t, string(av)) // the consultancy's real hours, on the real clock
				srv := httptest.NewServer(env.Handler)
				t.Cleanup(srv.Close)
				name := func(state string) string { return fmt.Sprintf("tour-%s-%d-%s", lang.Code, width, state) }
				tb := e2etest.NewTab(t, b)
				tb.Run(t, e2etest.Screen(width), e2etest.InZone(zone),
					chromedp.Navigate(srv.URL+lang.LocalPath("/")), e2etest.WaitHydrated())
				e2etest.Shoot(t, tb, dir, name("home"), true)

				tb.Run(t, chromedp.Navigate(srv.URL+lang.LocalPath("/blog/"+post)), e2etest.WaitHydrated())
				e2etest.Shoot(t, tb, dir, name("post"), true)

				tb.Run(t, chromedp.Navigate(srv.URL+lang.LocalPath("/schedule/discovery")), e2etest.WaitHydrated(), e2etest.WaitTimes())
				e2etest.Shoot(t, tb, dir, name("time"), false)
				e2etest.Shoot(t, tb, dir, name("time-page"), true)

				tb.Run(t,
					e2etest.PickFullDay(),
					chromedp.Click(`.time-grid li:nth-child(2) input`, chromedp.ByQuery),
					chromedp.SendKeys(`input[name="name"]`, "Sam Visitor", chromedp.ByQuery),
					chromedp.SendKeys(`input[name="email"]`, "sam@example.com", chromedp.ByQuery),
					e2etest.FillPhoneIfAsked("+1 415 555 2671"),
					chromedp.Click(`button.booking-confirm`, chromedp.ByQuery),
					chromedp.WaitVisible(`.booking-confirmed`, chromedp.ByQuery),
					chromedp.Evaluate(`window.scrollTo(0, 0)`, nil),
				)
				e2etest.Shoot(t, tb, dir, name("confirmed"), false)

				// "Choose another time", from the link of the confirmation mail.
				var token string
				if err := env.Store.QueryRowContext(context.Background(), `SELECT cancel_token FROM bookings ORDER BY id DESC LIMIT 1`).Scan(&token); err != nil {
					t.Fatal(err)
				}
				tb.Run(t, chromedp.Navigate(srv.URL+lang.LocalPath("/schedule/reschedule")+"?token="+token), e2etest.WaitHydrated(), e2etest.WaitTimes())
				e2etest.Shoot(t, tb, dir, name("reschedule"), true)

				banner := e2etest.NewTab(t, b)
				banner.Run(t, e2etest.Screen(width), chromedp.Navigate(bannerBase+lang.LocalPath("/")), e2etest.WaitHydrated(), e2etest.WaitBanner())
				e2etest.Shoot(t, banner, dir, name("banner"), false)
				if problems := append(tb.ConsoleProblems(), banner.ConsoleProblems()...); len(problems) > 0 {
					t.Errorf("console:\n%s", strings.Join(problems, "\n"))
				}
			})
		}
	}
}
