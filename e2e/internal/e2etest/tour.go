package e2etest

import (
	"context"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/northbeam/site/internal/sitebuild"
)

// TourZones are the visitors' clocks, one language after the other.
var TourZones = []string{"America/New_York", "Europe/Paris", "Europe/Berlin", "Asia/Riyadh"}

// tourPost is the post of the tour, which has tags and code blocks, in the
// default language: the tour reads its version in each language.
const tourPost = "platform-engineering-without-the-platform-team-tax"

// TourPostIn returns the slug of the tour's post in lang.
func TourPostIn(t *testing.T, s *sitebuild.Build, lang string) string {
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

// Screen sets the tab to a phone (360 x 740) or a desktop (1280 x 900) screen.
func Screen(width int64) chromedp.Action {
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

// Shoot checks that the page in the tab does not scroll sideways and keeps
// a screenshot of it in dir: the first screen, or the whole page.
func Shoot(t *testing.T, tb *Tab, dir, name string, whole bool) {
	t.Helper()
	var overflow []string
	tb.Run(t, chromedp.Evaluate(overflowProbe, &overflow))
	if len(overflow) > 0 {
		t.Errorf("%s is wider than the screen: %v", name, overflow)
	}
	KeepScreenshot(t, tb, dir, name, whole)
}
