package widths

import (
	"fmt"
	"os"
	"os/exec"
	"sort"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/northbeam/site/e2e/internal/e2etest"
	"github.com/northbeam/site/internal/sitetest"
)

// commonFonts are the sans-serif faces a visitor's system-ui most often
// resolves to on a Linux desktop, each with its Arabic: DejaVu Sans, the
// default of Debian and Ubuntu and the widest common one, and Noto Sans.
// .ci/run installs both (fonts-dejavu-core, fonts-noto-core).
var commonFonts = []struct{ family, stack string }{
	{"DejaVu Sans", `"DejaVu Sans"`},
	{"Noto Sans", `"Noto Sans", "Noto Sans Arabic"`},
}

// installed tells whether fontconfig, which Chromium asks on Linux, has a
// face of family: without it Chromium would silently measure another.
func installed(t *testing.T, family string) bool {
	t.Helper()
	out, err := exec.Command("fc-list", family, "family").Output()
	if err != nil {
		t.Fatalf("fc-list: %v", err)
	}
	return strings.TrimSpace(string(out)) != ""
}

// headerOutside names the header's brand, links, languages and menu button
// that stick out of its box, or (above the phone layout, 40rem) leave its
// one row. The phone menu's links are not on screen until it opens.
const headerOutside = `(() => {
	const box = document.querySelector(".header-inner").getBoundingClientRect();
	const oneRow = innerWidth > 40 * parseFloat(getComputedStyle(document.documentElement).fontSize);
	return [...document.querySelectorAll(".header-inner > .brand, .nav-wide a, .lang-select a, .nav-phone > summary")].filter((a) => {
		const r = a.getBoundingClientRect();
		return r.width > 0 && (r.right > box.right + 0.5 || r.left < box.left - 0.5 || (oneRow && r.top > box.top + 40));
	}).map((a) => a.textContent.trim() + " at " + Math.round(a.getBoundingClientRect().left) + "-" + Math.round(a.getBoundingClientRect().right) + " px");
})()`

// TestEveryWidthFitsWithCommonFonts sweeps the widths from a 320 px phone
// to a 1600 px desktop with each common font: the header of every
// language holds its links and languages at every width (every 16 px), and
// no page of any type, in any language, reaches past the screen at the
// widths where layouts change. A font's metrics decide where a row
// overflows, so the test fails on the machine whatever fonts it has
// rather than pass where the fonts happen to be narrow.
func TestEveryWidthFitsWithCommonFonts(t *testing.T) {
	b, base := e2etest.Browser(t)
	s := sitetest.Site(t)
	var fonts []string
	for _, f := range commonFonts {
		if installed(t, f.family) {
			fonts = append(fonts, f.stack)
			continue
		}
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI=true but the font %q is not installed (.ci/run installs it)", f.family)
		}
		fmt.Fprintf(os.Stderr, "\n*** SKIPPING the %s layout sweep: the font is not installed (apt-get install fonts-dejavu-core fonts-noto-core) ***\n", f.family)
	}
	if len(fonts) == 0 {
		t.Skip("none of the common fonts is installed")
	}
	seen := map[string]bool{}
	var paths []string
	pages := s.Pages()
	sort.Slice(pages, func(i, j int) bool { return pages[i].Path < pages[j].Path })
	for _, p := range pages {
		if key := p.Lang.Code + " " + p.Component; !seen[key] {
			seen[key] = true
			paths = append(paths, p.Path)
		}
	}
	// The widths where the layouts change (the phone's two header rows up
	// to 40rem, the wide menu from 80rem) and those around them.
	pageWidths := []int64{320, 414, 640, 641, 1024, 1280, 1281, 1600}
	tb := e2etest.NewTab(t, b)
	useFont := func(stack string) chromedp.Action {
		return chromedp.Evaluate(fmt.Sprintf(`document.documentElement.style.setProperty("--font-sans", %q)`, stack), nil)
	}
	for _, font := range fonts {
		for _, lang := range s.Info.Languages {
			home := lang.LocalPath("/")
			tb.Run(t, emulation.SetDeviceMetricsOverride(1600, 800, 1, false), chromedp.Navigate(base+home), e2etest.WaitHydrated(), useFont(font))
			for w := int64(320); w <= 1600; w += 16 {
				var outside []string
				tb.Run(t, emulation.SetDeviceMetricsOverride(w, 800, 1, false), chromedp.Evaluate(headerOutside, &outside))
				if len(outside) > 0 {
					t.Errorf("%s, %s, %d px: the header does not hold %s", home, font, w, strings.Join(outside, ", "))
				}
			}
		}
		for _, path := range paths {
			tb.Run(t, emulation.SetDeviceMetricsOverride(1600, 800, 1, false), chromedp.Navigate(base+path), e2etest.WaitHydrated(), useFont(font))
			for _, w := range pageWidths {
				var culprits []string
				tb.Run(t, emulation.SetDeviceMetricsOverride(w, 800, 1, false), chromedp.Evaluate(e2etest.OverflowCulprits, &culprits))
				if len(culprits) > 0 {
					t.Errorf("%s, %s, %d px: %s", path, font, w, strings.Join(culprits, "; "))
				}
			}
		}
	}
}
