package e2e

import (
	"context"
	"net/http"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/northbeam/site/internal/sitetest"
)

// overflowCulprits names what reaches past a 320 px screen: the page's
// width when it scrolls sideways, and the innermost elements that stick
// out, each as tag.class#id and its right (or left) edge. Empty when
// nothing does.
const overflowCulprits = `(() => {
	const w = document.documentElement.clientWidth;
	const out = [];
	if (document.documentElement.scrollWidth > w) out.push("page is " + document.documentElement.scrollWidth + " px wide");
	const wide = [...document.querySelectorAll("body *")].filter((el) => {
		// Inside a box that scrolls or clips, sticking out is that box's business.
		for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
			if (getComputedStyle(a).overflowX !== "visible") return false;
		}
		const r = el.getBoundingClientRect();
		return r.width > 0 && r.height > 0 && (r.right > w + 0.5 || r.left < -0.5);
	});
	const innermost = wide.filter((el) => !wide.some((o) => o !== el && el.contains(o)));
	for (const el of innermost.slice(0, 5)) {
		const r = el.getBoundingClientRect();
		out.push(el.tagName.toLowerCase() + (el.className && typeof el.className === "string" ? "." + el.className.trim().split(/\s+/).join(".") : "") +
			(el.id ? "#" + el.id : "") + " " + JSON.stringify((el.textContent || "").trim().slice(0, 40)) +
			" from " + Math.round(r.left) + " to " + Math.round(r.right) + " px");
	}
	return out;
})()`

// TestNothingOverflowsA320PixelScreen loads every page type in every
// language on a 320 px phone (every case study and person, whose titles
// and names are the longest words), the time step with its times, a
// booking's confirmation, and the cancel and reschedule pages of a link:
// nothing may reach past the screen's edges, and the failure names the
// element that does.
func TestNothingOverflowsA320PixelScreen(t *testing.T) {
	b, base, env := bookingBrowser(t)
	s := sitetest.Site(t)
	seen := map[string]bool{}
	var paths []string
	pages := s.Pages()
	sort.Slice(pages, func(i, j int) bool { return pages[i].Path < pages[j].Path })
	for _, p := range pages {
		key := p.Lang.Code + " " + p.Component
		if seen[key] && p.Component != "CaseStudy" && p.Component != "Person" {
			continue
		}
		seen[key] = true
		paths = append(paths, p.Path)
	}
	tb := newTab(t, b)
	tb.run(t, emulation.SetDeviceMetricsOverride(320, 700, 2, true), inZone("Europe/Berlin"))
	check := func(what string) {
		t.Helper()
		var culprits []string
		tb.run(t, chromedp.Evaluate(overflowCulprits, &culprits))
		if len(culprits) > 0 {
			t.Errorf("%s: %s", what, strings.Join(culprits, "; "))
		}
	}
	for _, path := range paths {
		tb.run(t, chromedp.Navigate(base+path), waitHydrated())
		check(path + " (320 px)")
	}
	// Just wide enough for the wide menu: its links and the languages
	// share the header's one row.
	tb.run(t, emulation.SetDeviceMetricsOverride(1160, 800, 1, false))
	for _, lang := range s.Info.Languages {
		var outside []string
		tb.run(t, chromedp.Navigate(base+lang.LocalPath("/")), waitHydrated(), chromedp.Evaluate(`(() => {
			const box = document.querySelector(".header-inner").getBoundingClientRect();
			return [...document.querySelectorAll(".header-inner a")].filter((a) => {
				const r = a.getBoundingClientRect();
				return r.width > 0 && (r.right > box.right + 0.5 || r.left < box.left - 0.5 || r.top > box.top + 40);
			}).map((a) => a.textContent.trim());
		})()`, &outside))
		check(lang.LocalPath("/") + " (1160 px)")
		if len(outside) > 0 {
			t.Errorf("%s at 1160 px: the header's row does not hold %q", lang.LocalPath("/"), outside)
		}
	}
	tb.run(t, emulation.SetDeviceMetricsOverride(320, 700, 2, true))
	for i, lang := range s.Info.Languages {
		start := time.Now().UTC().Add(time.Duration(50+i) * time.Hour).Truncate(time.Hour)
		rec := sitetest.PostJSON(t, env.handler, "/api/bookings", map[string]string{
			"service": "discovery", "start": start.Format(time.RFC3339), "name": "Sam", "email": "sam-" + lang.Code + "@example.com",
			"timeZone": "America/Argentina/Buenos_Aires", "lang": lang.Code, "phone": "+54 11 4321 9876",
		})
		if rec.Code != http.StatusCreated {
			t.Fatalf("booking: %d %.300s", rec.Code, rec.Body.String())
		}
		found, err := env.service.Find(context.Background(), sitetest.DecodeJSON[bookingCreated](t, rec).Booking.Token)
		if err != nil {
			t.Fatal(err)
		}
		tb.run(t, chromedp.Navigate(base+lang.LocalPath("/schedule/cancel")+"?token="+found.CancelToken), waitHydrated(),
			chromedp.WaitVisible(`.booking-facts .zone-name`, chromedp.ByQuery))
		check(lang.LocalPath("/schedule/cancel") + " with its booking")
		tb.run(t, chromedp.Navigate(base+lang.LocalPath("/schedule/reschedule")+"?token="+found.CancelToken), waitHydrated(), waitTimes())
		check(lang.LocalPath("/schedule/reschedule") + " with its times")
		tb.run(t, chromedp.Navigate(base+lang.LocalPath("/schedule/discovery")), waitHydrated(), waitTimes())
		check(lang.LocalPath("/schedule/discovery") + " with its times")
		tb.run(t, bookDiscovery("Sam Visitor"))
		check(lang.LocalPath("/schedule/discovery") + ", confirmed")
	}
}
