package pages

import (
	"net/url"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/chromedp"
	"github.com/northbeam/site/e2e/internal/e2etest"
	"github.com/northbeam/site/internal/sitetest"
	"github.com/northbeam/site/internal/testwait"
)

// TestBlogClientNavigation goes from the list to a post and back in French
// and Arabic by following links: no full page load (a marker set on window
// survives), the placeholder while the post's data loads, the post's title
// in the head, and no console error.
func TestBlogClientNavigation(t *testing.T) {
	b, base := e2etest.Browser(t)
	s := sitetest.Site(t)
	for _, code := range []string{"fr", "ar"} {
		t.Run(code, func(t *testing.T) {
			lang, _ := s.Info.Language(code)
			post := s.Blog().Posts(code)[1]
			list, postURL := lang.LocalPath("/blog"), lang.LocalPath("/blog/"+post.Slug)
			tb := e2etest.NewTab(t, b)
			held := make(chan fetch.RequestID, 1)
			chromedp.ListenTarget(tb.Ctx, func(ev any) {
				if e, ok := ev.(*fetch.EventRequestPaused); ok {
					held <- e.RequestID
				}
			})
			tb.Run(t,
				chromedp.Navigate(base+list),
				e2etest.WaitHydrated(),
				chromedp.Evaluate(`window.blogMarker = "still here"`, nil),
				// Hold the post's data, to see the placeholder meanwhile.
				fetch.Enable().WithPatterns([]*fetch.RequestPattern{{URLPattern: "*/api/page?path=*"}}),
				chromedp.Click(`main .post-list a[href="`+postURL+`"]`, chromedp.ByQuery),
				chromedp.WaitVisible(`main .loading`, chromedp.ByQuery),
			)
			var placeholder string
			tb.Run(t, chromedp.Text(`main .loading`, &placeholder, chromedp.ByQuery))
			if placeholder != s.Locales.T(code, "loading") {
				t.Errorf("placeholder %q", placeholder)
			}
			select {
			case id := <-held:
				tb.Run(t, fetch.ContinueRequest(id), fetch.Disable())
			case <-time.After(time.Until(testwait.Deadline(t))):
				t.Fatal("the post's data was never requested from /api/page")
			}

			var heading, title, path, marker, dir string
			tb.Run(t,
				chromedp.WaitVisible(`main article.post h1`, chromedp.ByQuery),
				chromedp.Text(`main h1`, &heading, chromedp.ByQuery),
				chromedp.Title(&title),
				e2etest.Location(&path),
				chromedp.Evaluate(`window.blogMarker ?? "reloaded"`, &marker),
				chromedp.Evaluate(`document.documentElement.dir`, &dir),
			)
			if heading != post.Title || title != sitetest.PageTitle(s, code, post.Title) || path != postURL || marker != "still here" || dir != lang.Dir {
				t.Errorf("on the post: h1 %q title %q path %s marker %q dir %s", heading, title, path, marker, dir)
			}

			// Back to the list by its link at the top of the post.
			tb.Run(t,
				chromedp.Click(`main .post-back a`, chromedp.ByQuery),
				chromedp.WaitVisible(`main .post-list`, chromedp.ByQuery),
				chromedp.Text(`main h1`, &heading, chromedp.ByQuery),
				e2etest.Location(&path),
				chromedp.Evaluate(`window.blogMarker ?? "reloaded"`, &marker),
			)
			if heading != s.Locales.T(code, "blog.title") || path != list || marker != "still here" {
				t.Errorf("back on the list: h1 %q path %s marker %q", heading, path, marker)
			}
			if problems := tb.ConsoleProblems(); len(problems) > 0 {
				t.Errorf("console:\n%s", strings.Join(problems, "\n"))
			}
		})
	}
}

// TestBlogDirectLoadHydrates loads a post, and a list filtered by a tag
// written in Arabic letters, straight from the server: the page hydrates
// without a console error and the tag links keep working in the app.
func TestBlogDirectLoadHydrates(t *testing.T) {
	b, base := e2etest.Browser(t)
	s := sitetest.Site(t)
	post := s.Blog().Posts("ar")[0]
	tag := post.Tags[0]
	tb := e2etest.NewTab(t, b)
	var heading, codeDir, tocLinks string
	tb.Run(t,
		chromedp.Navigate(base+"/ar/blog/"+post.Slug),
		e2etest.WaitHydrated(),
		chromedp.Text(`main h1`, &heading, chromedp.ByQuery),
		chromedp.AttributeValue(`main pre.chroma`, "dir", &codeDir, nil, chromedp.ByQuery),
		chromedp.Evaluate(`String(document.querySelectorAll("main nav.toc a").length)`, &tocLinks),
	)
	if heading != post.Title || codeDir != "ltr" || tocLinks == "0" {
		t.Errorf("h1 %q, code dir %q, %s links in the table of contents", heading, codeDir, tocLinks)
	}

	// The post's first tag, then a direct load of the same list.
	tagPath := "/ar/blog/tag/" + url.PathEscape(tag.Slug)
	var path, current string
	var shown []string
	tb.Run(t,
		chromedp.Evaluate(`[...document.querySelectorAll("main .post-header .tag-list a")].map((a) => a.textContent)`, &shown),
		chromedp.Evaluate(`window.blogMarker = "still here"`, nil),
		chromedp.Click(`main .post-header .tag-list a`, chromedp.ByQuery),
		chromedp.WaitVisible(`main .post-list`, chromedp.ByQuery),
		e2etest.Location(&path),
		chromedp.Text(`main .tag-filter a[aria-current="page"]`, &current, chromedp.ByQuery),
	)
	// Tags read as words of the language, spaces and all: the hyphens are
	// the URL's, and a tag in lower-case English letters ("devops") was left
	// untranslated (a product's name, "Kubernetes", stays as it is written).
	if len(shown) != len(post.Tags) {
		t.Errorf("tags shown %q, want %d", shown, len(post.Tags))
	}
	for i, name := range shown {
		slugLike := name == strings.ToLower(name) && !strings.ContainsFunc(name, func(r rune) bool { return r > unicode.MaxASCII })
		if name != post.Tags[i].Name || strings.Contains(name, "-") || slugLike {
			t.Errorf("tag %d reads %q (name %q)", i, name, post.Tags[i].Name)
		}
	}
	if path != tagPath || !strings.HasPrefix(current, tag.Name) {
		t.Errorf("after the tag link: %s, current filter %q", path, current)
	}
	var marker string
	tb.Run(t,
		chromedp.Navigate(base+tagPath),
		e2etest.WaitHydrated(),
		chromedp.Text(`main h1`, &heading, chromedp.ByQuery),
		chromedp.Evaluate(`window.blogMarker ?? "reloaded"`, &marker),
	)
	if want := s.Locales.T("ar", "blog.tagTitle", "tag", tag.Name); heading != want || marker != "reloaded" {
		t.Errorf("direct load of %s: h1 %q, want %q", tagPath, heading, want)
	}
	if problems := tb.ConsoleProblems(); len(problems) > 0 {
		t.Errorf("console:\n%s", strings.Join(problems, "\n"))
	}
}
