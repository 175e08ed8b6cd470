package layout

import (
	"context"
	"net/http"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/northbeam/site/e2e/internal/e2etest"
	"github.com/northbeam/site/internal/sitetest"
)

// TestNothingOverflowsA320PixelScreen loads every page type in every
// language on a 320 px phone (every case study and person, whose titles
// and names are the longest words), the time step with its times, a
// booking's confirmation, and the cancel and reschedule pages of a link:
// nothing may reach past the screen's edges, and the failure names the
// element that does.
func TestNothingOverflowsA320PixelScreen(t *testing.T) {
	b, base, env := e2etest.BookingBrowser(t)
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
	tb := e2etest.NewTab(t, b)
	tb.Run(t, emulation.SetDeviceMetricsOverride(320, 700, 2, true), e2etest.InZone("Europe/Berlin"))
	check := func(what string) {
		t.Helper()
		var culprits []string
		tb.Run(t, chromedp.Evaluate(e2etest.OverflowCulprits, &culprits))
		if len(culprits) > 0 {
			t.Errorf("%s: %s", what, strings.Join(culprits, "; "))
		}
	}
	for _, path := range paths {
		tb.Run(t, chromedp.Navigate(base+path), e2etest.WaitHydrated())
		check(path + " (320 px)")
	}
	tb.Run(t, emulation.SetDeviceMetricsOverride(320, 700, 2, true))
	for i, lang := range s.Info.Languages {
		start := time.Now().UTC().Add(time.Duration(50+i) * time.Hour).Truncate(time.Hour)
		rec := sitetest.PostJSON(t, env.Handler, "/api/bookings", map[string]string{
			"service": "discovery", "start": start.Format(time.RFC3339), "name": "Sam", "email": "sam-" + lang.Code + "@example.com",
			"timeZone": "America/Argentina/Buenos_Aires", "lang": lang.Code, "phone": "+54 11 4321 9876",
		})
		if rec.Code != http.StatusCreated {
			t.Fatalf("booking: %d %.300s", rec.Code, rec.Body.String())
		}
		found, err := env.Service.Find(context.Background(), sitetest.DecodeJSON[e2etest.BookingCreated](t, rec).Booking.Token)
		if err != nil {
			t.Fatal(err)
		}
		tb.Run(t, chromedp.Navigate(base+lang.LocalPath("/schedule/cancel")+"?token="+found.CancelToken), e2etest.WaitHydrated(),
			chromedp.WaitVisible(`.booking-facts .zone-name`, chromedp.ByQuery))
		check(lang.LocalPath("/schedule/cancel") + " with its booking")
		tb.Run(t, chromedp.Navigate(base+lang.LocalPath("/schedule/reschedule")+"?token="+found.CancelToken), e2etest.WaitHydrated(), e2etest.WaitTimes())
		check(lang.LocalPath("/schedule/reschedule") + " with its times")
		tb.Run(t, chromedp.Navigate(base+lang.LocalPath("/schedule/discovery")), e2etest.WaitHydrated(), e2etest.WaitTimes())
		check(lang.LocalPath("/schedule/discovery") + " with its times")
		tb.Run(t, e2etest.BookDiscovery("Sam Visitor"))
		check(lang.LocalPath("/schedule/discovery") + ", confirmed")
	}
}
