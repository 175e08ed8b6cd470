package pages

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/northbeam/site/e2e/internal/e2etest"
	"github.com/northbeam/site/internal/sitetest"
)

// TestLanguageSwitchChangesEverythingTogether switches the language from a
// blog post and from the booking's time step, and follows a plain link in
// the same language: from the click on, the address, html lang and dir,
// the shell's strings, the title and the page always belong together.
func TestLanguageSwitchChangesEverythingTogether(t *testing.T) {
	b, base, _ := e2etest.BookingBrowser(t)
	s := sitetest.Site(t)
	post := s.Blog().Posts("en")[0]

	t.Run("blog post", func(t *testing.T) {
		tb := e2etest.NewTab(t, b)
		from := e2etest.ServerView(t, base, "/blog/"+post.Slug)
		// A desktop wide enough for the wide menu, whose link it follows.
		tb.Run(t, e2etest.Viewport(1440, false), chromedp.Navigate(base+from.Path), e2etest.WaitHydrated())
		to := e2etest.ServerView(t, base, e2etest.LanguageHref(t, tb, "ar"))
		if !strings.HasPrefix(to.Path, "/ar/blog/") {
			t.Fatalf("the Arabic link of %s leads to %s", from.Path, to.Path)
		}
		e2etest.CheckNavigation(t, tb, base, from, to, `.lang-select a[hreflang="ar"]`)

		// And a plain link in the same language: the header's booking link.
		schedule := e2etest.ServerView(t, base, "/ar/schedule")
		e2etest.CheckNavigation(t, tb, base, to, schedule, `.nav-wide a[href="/ar/schedule"]`)
		if problems := tb.ConsoleProblems(); len(problems) > 0 {
			t.Errorf("console:\n%s", strings.Join(problems, "\n"))
		}
	})

	t.Run("on a phone", func(t *testing.T) {
		dir := e2etest.ScreenshotDir(t)
		tb := e2etest.NewTab(t, b)
		en := e2etest.ServerView(t, base, "/blog/"+post.Slug)
		tb.Run(t, e2etest.Viewport(390, true), chromedp.Navigate(base+en.Path), e2etest.WaitHydrated())
		e2etest.Shoot(t, tb, dir, "switch-blog-en-390", false)
		ar := e2etest.ServerView(t, base, e2etest.LanguageHref(t, tb, "ar"))
		// The language links sit in the header on a phone too.
		e2etest.CheckNavigation(t, tb, base, en, ar, `.lang-select a[hreflang="ar"]`)
		e2etest.Shoot(t, tb, dir, "switch-blog-ar-390", false)
		e2etest.Shoot(t, tb, dir, "switch-blog-ar-390-whole", true)
		schedule := e2etest.ServerView(t, base, "/ar/schedule/discovery")
		tb.Run(t, e2etest.InZone("Europe/Berlin"), chromedp.Navigate(base+"/schedule/discovery"), e2etest.WaitHydrated(), e2etest.WaitTimes())
		e2etest.CheckNavigation(t, tb, base, e2etest.ServerView(t, base, "/schedule/discovery"), schedule, `.lang-select a[hreflang="ar"]`)
		tb.Run(t, e2etest.WaitTimes())
		e2etest.Shoot(t, tb, dir, "switch-schedule-ar-390", false)
	})

	t.Run("strings fetched beside the payload", func(t *testing.T) {
		e2etest.CheckFetchedTogether(t, b, base, "/blog/"+post.Slug, "ar")
		e2etest.CheckFetchedTogether(t, b, base, "/schedule/discovery", "ar", e2etest.InZone("Europe/Berlin"))
	})

	t.Run("time step", func(t *testing.T) {
		tb := e2etest.NewTab(t, b)
		en := e2etest.ServerView(t, base, "/schedule/discovery")
		ar := e2etest.ServerView(t, base, "/ar/schedule/discovery")
		tb.Run(t, e2etest.InZone("Europe/Berlin"), chromedp.Navigate(base+en.Path), e2etest.WaitHydrated(), e2etest.WaitTimes())
		e2etest.CheckNavigation(t, tb, base, en, ar, `.lang-select a[hreflang="ar"]`)
		tb.Run(t, e2etest.WaitTimes())
		e2etest.CheckNavigation(t, tb, base, ar, en, `.lang-select a[hreflang="en"]`)
		if problems := tb.ConsoleProblems(); len(problems) > 0 {
			t.Errorf("console:\n%s", strings.Join(problems, "\n"))
		}
	})
}
