package e2etest

import (
	"context"
	"fmt"
	"html"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/chromedp"
	"github.com/northbeam/site/internal/sitetest"
	"github.com/northbeam/site/internal/testwait"
)

// navigationSample is what a visitor sees at one moment of a navigation:
// taken at every animation frame (what is painted next) and after every
// batch of DOM changes.
type navigationSample struct {
	At      string  `json:"at"` // "frame" or "mutation"
	T       float64 `json:"t"`  // ms since the click
	Path    string  `json:"path"`
	Lang    string  `json:"lang"`
	Dir     string  `json:"dir"`
	Title   string  `json:"title"`
	H1      string  `json:"h1"`      // main's heading, or "" while it has none
	Loading string  `json:"loading"` // the placeholder's text, if it is shown
	Current string  `json:"current"` // the language selector's current language (hreflang)
	Home    string  `json:"home"`    // the header's link to the home page, in the shell's language
}

// recordNavigation starts recording samples in the page; stopRecording
// ends it and returns them.
const recordNavigation = `(() => {
	const samples = [];
	const t0 = performance.now();
	const sample = (at) => samples.push({
		at, t: performance.now() - t0,
		path: location.pathname,
		lang: document.documentElement.lang,
		dir: document.documentElement.dir,
		title: document.title,
		h1: document.querySelector("main h1")?.textContent ?? "",
		loading: document.querySelector("main .loading")?.textContent ?? "",
		current: document.querySelector('.lang-select [aria-current="true"]')?.getAttribute("hreflang") ?? "",
		home: document.querySelector(".nav-wide .nav-list li:first-child a")?.textContent ?? "",
	});
	const observer = new MutationObserver(() => sample("mutation"));
	observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
	let recording = true;
	const frame = () => { if (!recording) return; sample("frame"); requestAnimationFrame(frame); };
	requestAnimationFrame(frame);
	window.stopRecording = () => { recording = false; observer.disconnect(); return samples; };
})()`

// pageView is how a page looks once it has arrived.
type pageView struct {
	Path, Title, H1 string
}

// ServerView reads a page's title and main heading as the server renders it.
func ServerView(t *testing.T, base, path string) pageView {
	t.Helper()
	res, err := http.Get(base + path)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	title := titleTag.FindSubmatch(body)
	h1 := mainHeading.FindSubmatch(body)
	if res.StatusCode != http.StatusOK || title == nil || h1 == nil {
		t.Fatalf("%s: status %d, title %q, heading %q", path, res.StatusCode, title, h1)
	}
	return pageView{Path: path, Title: html.UnescapeString(string(title[1])), H1: html.UnescapeString(tagsInText.ReplaceAllString(string(h1[1]), ""))}
}

var (
	mainHeading = regexp.MustCompile(`(?s)<main[^>]*>.*?<h1[^>]*>(.*?)</h1>`)
	tagsInText  = regexp.MustCompile(`<[^>]+>`)
)

// CheckNavigation goes from one page to another by clicking selector and
// checks every sample taken meanwhile: at no moment do the address and the
// page disagree on the language (html lang and dir, the shell's strings, the
// language selector), and the title and the heading are the page's the
// address names (or, for the heading, the placeholder in that language
// while the page is really loading). It returns the samples.
func CheckNavigation(t *testing.T, tb *Tab, base string, from, to pageView, selector string) []navigationSample {
	t.Helper()
	s := sitetest.Site(t)
	var samples []navigationSample
	tb.Run(t,
		chromedp.Evaluate(`window.navigationMarker = "same document"`, nil),
		chromedp.Evaluate(recordNavigation, nil),
		chromedp.Click(selector, chromedp.ByQuery),
		Poll(fmt.Sprintf(`location.pathname === %q && document.querySelector("main h1")?.textContent === %q`, to.Path, to.H1), nil),
		// A few more frames: nothing may change back.
		chromedp.Sleep(300*time.Millisecond),
		chromedp.Evaluate(`window.stopRecording()`, &samples),
	)
	var marker string
	tb.Run(t, chromedp.Evaluate(`window.navigationMarker ?? "reloaded"`, &marker))
	if marker != "same document" {
		t.Errorf("%s → %s loaded a new document: not a client navigation", from.Path, to.Path)
	}
	if len(samples) < 5 {
		t.Fatalf("%d samples only: the recording did not run", len(samples))
	}
	var problems []string
	sawTarget := false
	for _, smp := range samples {
		lang, _ := s.Info.SplitPath(smp.Path)
		var want pageView
		switch smp.Path {
		case from.Path:
			want = from
		case to.Path:
			want, sawTarget = to, true
		default:
			problems = append(problems, fmt.Sprintf("%s at %.0f ms: address %s, neither page", smp.At, smp.T, smp.Path))
			continue
		}
		var wrong []string
		if smp.Lang != lang.Tag || smp.Dir != lang.Dir {
			wrong = append(wrong, fmt.Sprintf("html lang=%q dir=%q", smp.Lang, smp.Dir))
		}
		if smp.Current != lang.Tag {
			wrong = append(wrong, fmt.Sprintf("language selector on %q", smp.Current))
		}
		if home := s.Locales.T(lang.Code, "nav.home"); smp.Home != home {
			wrong = append(wrong, fmt.Sprintf("header says %q, not %q", smp.Home, home))
		}
		if smp.Title != want.Title {
			wrong = append(wrong, fmt.Sprintf("title %q", smp.Title))
		}
		placeholder := s.Locales.T(lang.Code, "loading")
		if smp.H1 != want.H1 && !(smp.H1 == "" && smp.Loading == placeholder) {
			wrong = append(wrong, fmt.Sprintf("heading %q, placeholder %q", smp.H1, smp.Loading))
		}
		if len(wrong) > 0 {
			problems = append(problems, fmt.Sprintf("%s at %.0f ms: address %s (%s) but %s", smp.At, smp.T, smp.Path, lang.Code, strings.Join(wrong, ", ")))
		}
	}
	if !sawTarget {
		t.Errorf("no sample at %s", to.Path)
	}
	if len(problems) > 0 {
		shown := problems
		if len(shown) > 8 {
			shown = shown[:8]
		}
		t.Errorf("%s → %s: %d of %d samples disagree with the address:\n%s", from.Path, to.Path, len(problems), len(samples), strings.Join(shown, "\n"))
	}
	return samples
}

// CheckFetchedTogether follows the language link to lang from the page at
// from and holds the next page's payload (/api/page) in the browser: the
// strings in lang must be fetched while it is held. Were they requested
// only once the payload had arrived, the two downloads would run one after
// the other on every switch. An order, not a duration: nothing here
// depends on how fast the machine is.
func CheckFetchedTogether(t *testing.T, b context.Context, base, from, lang string, setup ...chromedp.Action) {
	t.Helper()
	tb := NewTab(t, b)
	held := make(chan fetch.RequestID, 4)
	chromedp.ListenTarget(tb.Ctx, func(ev any) {
		if e, ok := ev.(*fetch.EventRequestPaused); ok {
			held <- e.RequestID
		}
	})
	tb.Run(t, append(setup, chromedp.Navigate(base+from), WaitHydrated())...)
	tb.Run(t,
		fetch.Enable().WithPatterns([]*fetch.RequestPattern{{URLPattern: "*/api/page?path=*"}}),
		chromedp.Click(fmt.Sprintf(`.lang-select a[hreflang=%q]`, lang), chromedp.ByQuery),
	)
	var id fetch.RequestID
	select {
	case id = <-held:
	case <-time.After(time.Until(testwait.Deadline(t))):
		t.Fatalf("%s: the next page's payload was never requested", from)
	}
	var fetched bool
	err := chromedp.Run(tb.Ctx, Poll(fmt.Sprintf(`performance.getEntriesByType("resource").some((e) => e.name.includes("/assets/strings/") && e.name.includes("/" + %q + "-"))`, lang), &fetched))
	if err != nil {
		var requested []string
		_ = chromedp.Run(tb.Ctx, chromedp.Evaluate(`performance.getEntriesByType("resource").map((e) => e.name)`, &requested))
		t.Errorf("%s: while the payload was held, the strings in %s were not fetched (%v); fetched meanwhile:\n%s", from, lang, err, strings.Join(requested, "\n"))
	}
	tb.Run(t, fetch.ContinueRequest(id), fetch.Disable())
	// Once it is let through, the page in lang is shown.
	tb.Run(t, chromedp.WaitVisible(fmt.Sprintf(`html[lang=%q] main h1`, lang), chromedp.ByQuery))
}

// LanguageHref returns the address the language selector offers for lang.
func LanguageHref(t *testing.T, tb *Tab, lang string) string {
	t.Helper()
	var href string
	tb.Run(t, chromedp.AttributeValue(fmt.Sprintf(`.lang-select a[hreflang=%q]`, lang), "href", &href, nil, chromedp.ByQuery))
	return href
}
