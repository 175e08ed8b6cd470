package handlers

import (
	"context"
	"maps"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/northbeam/site/internal/sitebuild"
	"github.com/northbeam/site/internal/sitetest"
)

// The cookie banner is built in the browser only: the server's pages never
// carry its markup, whatever the configuration, and they carry no inline
// script for it (the site runs under a strict content security policy).
// Data blocks (application/json page data, application/ld+json structured
// data) are not executed and are allowed.
func TestServerHTMLHasNoBannerMarkup(t *testing.T) {
	shared := sitetest.Site(t)
	botsSeeIt := sitetest.ConsentSite(t, "G-TEST0001")
	banner := regexp.MustCompile(`cc-main|cm-wrapper|pm-wrapper|\bcm__|\bpm__|show--consent|show--preferences|googletagmanager`)
	script := regexp.MustCompile(`<script\b[^>]*>`)
	dataBlock := regexp.MustCompile(`type="application/(?:ld\+)?json"`)
	for _, s := range []*sitebuild.Build{shared, botsSeeIt} {
		var pages int
		check := func(path string, html []byte) {
			pages++
			if m := banner.Find(html); m != nil {
				t.Errorf("%s (bot hiding %v): the server's HTML contains banner markup %q", path, s.Options().ConsentHideFromBots, m)
			}
			for _, tag := range script.FindAll(html, -1) {
				if !strings.Contains(string(tag), ` src="`) && !dataBlock.Match(tag) {
					t.Errorf("%s: inline script %s", path, tag)
				}
			}
		}
		for _, p := range s.Pages() {
			r, _, err := s.Page(context.Background(), p.Path)
			if err != nil {
				t.Fatal(err)
			}
			check(p.Path, r.Bytes())
		}
		for _, l := range s.Info.Languages {
			r, err := s.NotFound(context.Background(), l.Code)
			if err != nil {
				t.Fatal(err)
			}
			check("404/"+l.Code, r.Bytes())
		}
		if pages < 4*6 {
			t.Errorf("only %d pages checked", pages)
		}
	}
}

// firstLoadBudget is the budget (docs/ARCHITECTURE.md, Budgets) for the JavaScript of the home
// page's first load, consent included, gzip.
const firstLoadBudget = 100 * 1024

// consentChunkBudget bounds the consent chunk, gzip: vanilla-cookieconsent
// (about 9.5 KB) and the configuration; its stylesheet is a file of its own.
const consentChunkBudget = 12 * 1024

var (
	// bootScript is a page's one script tag: boot.ts, which starts the
	// entry and preloads the page's modules after the first paint.
	bootScript   = regexp.MustCompile(`<script type="module" src="([^"]+)" data-entry="([^"]+)" data-preload="([^"]*)"></script>`)
	staticImport = regexp.MustCompile(`(?:\bfrom\s*|\bimport\s*)"(/assets/[^"]+\.js)"`)
)

// homeFirstLoad measures the JavaScript of a first visit to the home page:
// the entry, the modules it imports statically and the modules the page
// preloads (all before hydration), then the consent chunk, imported when
// React hydrates. Sizes are gzip, as the server sends them.
type homeFirstLoad struct {
	beforeHydration map[string]int // file -> gzip bytes
	consent         map[string]int // the consent chunk and what it imports beyond the above
	consentChunk    string
	css             int
}

func measureHomeFirstLoad(t testing.TB) homeFirstLoad {
	t.Helper()
	s := sitetest.Site(t)
	html := sitetest.Get(t, testHandler(t), "/").Body.String()
	var roots []string
	for _, m := range bootScript.FindAllStringSubmatch(html, -1) {
		roots = append(append(roots, m[1], m[2]), strings.Fields(m[3])...)
	}
	if len(roots) == 0 {
		t.Fatal("the home page loads no module")
	}
	gz := func(name string) int {
		r, _ := s.Asset(name)
		if r.Gzip != nil {
			return len(r.Gzip)
		}
		return len(r.Body)
	}
	// closure adds a module and everything it imports statically.
	var closure func(url string, into map[string]int)
	closure = func(url string, into map[string]int) {
		name := strings.TrimPrefix(url, "/assets/")
		if _, seen := into[name]; seen {
			return
		}
		data, ok := s.Bundle.Client[name]
		if !ok {
			t.Fatalf("%s is not a built file", url)
		}
		into[name] = gz(name)
		for _, m := range staticImport.FindAllStringSubmatch(string(data), -1) {
			closure(m[1], into)
		}
	}
	fl := homeFirstLoad{beforeHydration: map[string]int{}, consent: map[string]int{}, consentChunk: sitetest.ConsentChunk(t, s)}
	for _, u := range roots {
		closure(u, fl.beforeHydration)
	}
	all := maps.Clone(fl.beforeHydration)
	closure("/assets/"+fl.consentChunk, all)
	for name, n := range all {
		if _, ok := fl.beforeHydration[name]; !ok {
			fl.consent[name] = n
		}
	}
	for _, u := range s.Bundle.Manifest.CSS {
		fl.css += gz(strings.TrimPrefix(u, "/assets/"))
	}
	return fl
}

func sum(m map[string]int) int {
	var n int
	for _, v := range m {
		n += v
	}
	return n
}

// TestConsentStaysOffTheFirstPaint: vanilla-cookieconsent is a chunk of
// its own, loaded by no page before hydration, and small.
func TestConsentStaysOffTheFirstPaint(t *testing.T) {
	fl := measureHomeFirstLoad(t)
	if _, ok := fl.beforeHydration[fl.consentChunk]; ok {
		t.Errorf("the consent library (%s) loads with the page, before hydration", fl.consentChunk)
	}
	if len(fl.consent) != 1 {
		t.Errorf("the consent chunk brings modules no page needs: %v", fl.consent)
	}
	t.Logf("consent chunk %s: %d B gzip; site CSS (consent styles included): %d B gzip", fl.consentChunk, sum(fl.consent), fl.css)
	if n := sum(fl.consent); n > consentChunkBudget {
		t.Errorf("the consent chunk is %d B gzip, over its %d B", n, consentChunkBudget)
	}
}

// BenchmarkHomeFirstLoadJavaScript reports, without asserting it, the gzip
// size of the home page's first-load JavaScript against its budget (docs/ARCHITECTURE.md, Budgets)
// (react-dom alone is about 65 KB of it): go test ./handlers -run X -bench FirstLoad
func BenchmarkHomeFirstLoadJavaScript(b *testing.B) {
	fl := measureHomeFirstLoad(b)
	for _, name := range slices.Sorted(maps.Keys(fl.beforeHydration)) {
		b.Logf("%7d B gzip  %s", fl.beforeHydration[name], name)
	}
	for _, name := range slices.Sorted(maps.Keys(fl.consent)) {
		b.Logf("%7d B gzip  %s (after hydration: consent)", fl.consent[name], name)
	}
	page, consent := sum(fl.beforeHydration), sum(fl.consent)
	b.Logf("home page, first load: %d B gzip before hydration + %d B consent = %d B (budget %d B)", page, consent, page+consent, firstLoadBudget)
	b.ReportMetric(float64(page), "B-before-hydration")
	b.ReportMetric(float64(consent), "B-consent")
	b.ReportMetric(float64(fl.css), "B-css")
	for b.Loop() {
	}
}
