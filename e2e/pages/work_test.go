package pages

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/northbeam/site/e2e/internal/e2etest"
	"github.com/northbeam/site/internal/sitetest"
)

// TestViewOurWorkLeadsToTheCaseStudies follows the hero's "View Our Work"
// in each language to the case studies, then a card to its study, within
// the app (no full page load) and in the page's language and direction.
func TestViewOurWorkLeadsToTheCaseStudies(t *testing.T) {
	b, base := e2etest.Browser(t)
	s := sitetest.Site(t)
	for _, lang := range s.Info.Languages {
		t.Run(lang.Code, func(t *testing.T) {
			study := s.Work().Studies(lang.Code)[0]
			list, studyURL := lang.LocalPath("/work"), lang.LocalPath("/work/"+study.Slug)
			tb := e2etest.NewTab(t, b)
			var label, heading, path, marker, dir string
			tb.Run(t,
				chromedp.Navigate(base+lang.LocalPath("/")),
				e2etest.WaitHydrated(),
				chromedp.Evaluate(`window.workMarker = "still here"`, nil),
				chromedp.Text(`.hero .actions a.button-secondary`, &label, chromedp.ByQuery),
				chromedp.Click(`.hero .actions a.button-secondary`, chromedp.ByQuery),
				// The home page has a .study-grid too, and stays until the list is here.
				e2etest.Poll(fmt.Sprintf(`location.pathname === %q`, list), nil),
				chromedp.WaitVisible(`main .study-grid`, chromedp.ByQuery),
				chromedp.Text(`main h1`, &heading, chromedp.ByQuery),
				e2etest.Location(&path),
				chromedp.Evaluate(`window.workMarker ?? "reloaded"`, &marker),
				chromedp.Evaluate(`document.documentElement.dir`, &dir),
			)
			if label != s.Locales.T(lang.Code, "home.hero.work") || heading != s.Locales.T(lang.Code, "work.title") || path != list || marker != "still here" || dir != lang.Dir {
				t.Errorf("after %q: h1 %q path %s marker %q dir %s", label, heading, path, marker, dir)
			}
			tb.Run(t,
				chromedp.Click(`main .study-card a[href="`+studyURL+`"]`, chromedp.ByQuery),
				chromedp.WaitVisible(`main .study-facts`, chromedp.ByQuery),
				chromedp.Text(`main h1`, &heading, chromedp.ByQuery),
				e2etest.Location(&path),
				chromedp.Evaluate(`window.workMarker ?? "reloaded"`, &marker),
			)
			if heading != study.Title || path != studyURL || marker != "still here" {
				t.Errorf("on the study: h1 %q path %s marker %q", heading, path, marker)
			}
			if problems := tb.ConsoleProblems(); len(problems) > 0 {
				t.Errorf("console:\n%s", strings.Join(problems, "\n"))
			}
		})
	}
}

// TestWorkLayoutAtPhoneAndDesktopWidths loads the home page's selected
// work and testimonials, a case study and the list, the team and a
// person's page in English and Arabic at 360 and 1280 px, and fails when
// anything is wider than the viewport or the layout shifts while the page
// loads; SCREENSHOT_DIR keeps a screenshot of each.
func TestWorkLayoutAtPhoneAndDesktopWidths(t *testing.T) {
	b, base := e2etest.Browser(t)
	s := sitetest.Site(t)
	dir := e2etest.ScreenshotDir(t)
	for _, code := range []string{sitetest.Default(t).Code, sitetest.RightToLeft(t).Code} { // the default language, and one written right to left
		lang, _ := s.Info.Language(code)
		pages := map[string]string{
			"home-work": lang.LocalPath("/"),
			"work":      lang.LocalPath("/work"),
			"study":     lang.LocalPath("/work/" + s.Work().Studies(code)[1].Slug),
			"team":      lang.LocalPath("/team"),
			"person":    lang.LocalPath("/team/" + s.Team().People(code)[1].Slug),
		}
		for name, path := range pages {
			for _, width := range []int64{360, 1280} {
				t.Run(fmt.Sprintf("%s/%s/%d", code, name, width), func(t *testing.T) {
					tb := e2etest.NewTab(t, b)
					var overflow []string
					var shifts []string
					actions := []chromedp.Action{
						e2etest.Viewport(width, width < 600),
						e2etest.BeforeLoad(e2etest.LayoutShiftProbe),
						chromedp.Navigate(base + path),
						e2etest.WaitHydrated(),
						chromedp.Evaluate(`(() => {
							const w = document.documentElement.clientWidth;
							if (document.documentElement.scrollWidth <= w) return [];
							return [...document.querySelectorAll("body *")].filter((el) => {
								const r = el.getBoundingClientRect();
								return r.width > 0 && (r.right > w + 1 || r.left < -1);
							}).slice(0, 5).map((el) => el.tagName + "." + el.className);
						})()`, &overflow),
						chromedp.Evaluate(`window.__shifts`, &shifts),
					}
					if name == "home-work" {
						actions = append(actions, chromedp.ScrollIntoView(`section.work`, chromedp.ByQuery))
					}
					tb.Run(t, actions...)
					if len(overflow) > 0 {
						t.Errorf("wider than the %d px viewport: %v", width, overflow)
					}
					if len(shifts) > 0 {
						t.Errorf("layout shifts while the page loads:\n%s", strings.Join(shifts, "\n"))
					}
					e2etest.KeepScreenshot(t, tb, dir, fmt.Sprintf("%s-%s-%d", name, code, width), true)
				})
			}
		}
	}
}

// TestResultsReadFromBeforeToAfter: a result such as "11 → 2" reads from
// the figure before to the figure after in the page's direction. In
// Arabic ("11 ← 2") the first figure stands to the right of the arrow, and
// the arrow points left, to the second; a result made only of digits and
// signs must not fall back to left to right.
func TestResultsReadFromBeforeToAfter(t *testing.T) {
	b, base := e2etest.Browser(t)
	s := sitetest.Site(t)
	for _, lang := range s.Info.Languages {
		t.Run(lang.Code, func(t *testing.T) {
			tb := e2etest.NewTab(t, b)
			pages := []string{lang.LocalPath("/work")}
			for _, st := range s.Work().Studies(lang.Code) {
				pages = append(pages, lang.LocalPath("/work/"+st.Slug))
			}
			checked := 0
			for _, path := range pages {
				// For each result on one line: where its first character and
				// its arrow stand, and which way the arrow points.
				var results []struct {
					Value string  `json:"value"`
					First float64 `json:"first"`
					Arrow float64 `json:"arrow"`
					Glyph string  `json:"glyph"`
				}
				tb.Run(t, e2etest.Viewport(1280, false), chromedp.Navigate(base+path), e2etest.WaitHydrated(), chromedp.Evaluate(`[...document.querySelectorAll(".study-result strong, .study-results strong")].flatMap((el) => {
					const node = el.firstChild, text = node.textContent, i = text.search(/[←→]/);
					if (i < 1) return [];
					const at = (k) => { const r = document.createRange(); r.setStart(node, k); r.setEnd(node, k + 1); return r.getBoundingClientRect(); };
					const first = at(0), arrow = at(i);
					if (Math.abs(first.top - arrow.top) > 2) return []; // wrapped: no line to compare on
					return [{ value: text, first: first.left + first.width / 2, arrow: arrow.left + arrow.width / 2, glyph: text[i] }];
				})`, &results))
				for _, r := range results {
					checked++
					rtl := lang.Dir == "rtl"
					if rtl != (r.First > r.Arrow) || rtl != (r.Glyph == "←") {
						t.Errorf("%s: %q reads the wrong way in %s (first figure at %.0f px, arrow %s at %.0f px)", path, r.Value, lang.Dir, r.First, r.Glyph, r.Arrow)
					}
				}
			}
			if checked == 0 {
				t.Fatalf("no result with an arrow on one line in %v", pages)
			}
		})
	}
}
