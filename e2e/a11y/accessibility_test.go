package a11y

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/northbeam/site/e2e/internal/e2etest"
	"github.com/northbeam/site/internal/sitetest"
)

// TestAccessibility runs axe-core on every page type in every language.
func TestAccessibility(t *testing.T) {
	b, base := e2etest.Browser(t)
	s := sitetest.Site(t)
	axe := e2etest.AxeSource(t)
	for _, lang := range s.Info.Languages {
		for _, path := range []string{"/", "/services/custom-software", "/blog", "/schedule", "/privacy", "/cookies", "/imprint",
			"/work", "/work/" + s.Work().Studies(lang.Code)[0].Slug, "/team", "/team/" + s.Team().People(lang.Code)[0].Slug, "/missing-page"} {
			url := lang.LocalPath(path)
			t.Run(url, func(t *testing.T) {
				t.Parallel() // a tab of its own on a page of its own: nothing timed
				tb := e2etest.NewTab(t, b)
				tb.Run(t, chromedp.Navigate(base+url), e2etest.WaitHydrated())
				for _, v := range e2etest.RunAxe(t, tb, axe) {
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
