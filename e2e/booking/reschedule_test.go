package booking

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/northbeam/site/e2e/internal/e2etest"
	"github.com/northbeam/site/internal/sitetest"
)

// TestBookingRescheduleScreen follows "choose another time" from the cancel
// page, in English and in Arabic: the booking as it stands, the same time
// step as a booking's in the visitor's zone, and once the new time is
// confirmed, the finished state; the booking has moved, and its old time is
// offered again.
func TestBookingRescheduleScreen(t *testing.T) {
	b, base, env := e2etest.BookingBrowser(t)
	s := sitetest.Site(t)
	for i, tc := range []struct{ lang, prefix, zone string }{
		{"en", "", "America/New_York"},
		{"ar", "/ar", "Asia/Riyadh"},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			start := time.Now().UTC().Add(time.Duration(30+i) * time.Hour).Truncate(time.Hour)
			rec := sitetest.PostJSON(t, env.Handler, "/api/bookings", map[string]string{
				"service": "strategy", "start": start.Format(time.RFC3339), "name": "Nadia Rahman", "email": "nadia" + tc.lang + "@example.com",
				"timeZone": tc.zone, "lang": tc.lang,
			})
			if rec.Code != http.StatusCreated {
				t.Fatalf("booking: %d %s", rec.Code, rec.Body.String())
			}
			created := sitetest.DecodeJSON[e2etest.BookingCreated](t, rec).Booking
			if created.Meeting == nil || !strings.HasPrefix(created.Meeting.URL, "https://meet.example.com/Northbeam-") {
				t.Errorf("the strategy session's video room: %+v", created.Meeting)
			}
			found, err := env.Service.Find(context.Background(), created.Token)
			if err != nil {
				t.Fatal(err)
			}
			token := found.CancelToken
			tb := e2etest.NewTab(t, b)
			var chosen, heading, facts string
			tb.Run(t,
				e2etest.InZone(tc.zone),
				chromedp.Navigate(base+tc.prefix+"/schedule/cancel?token="+token),
				e2etest.WaitHydrated(),
				chromedp.WaitVisible(`a[href*="/schedule/reschedule?token="]`, chromedp.ByQuery),
				chromedp.Click(`a[href*="/schedule/reschedule?token="]`, chromedp.ByQuery),
				chromedp.WaitVisible(`.reschedule-booking .booking-facts`, chromedp.ByQuery),
				e2etest.WaitTimes(),
			)
			e2etest.CheckAccessibility(t, tb, "the time step of a move")
			tb.Run(t,
				e2etest.PickFullDay(),
				chromedp.Click(`.time-grid li:nth-child(2) input`, chromedp.ByQuery),
				chromedp.Evaluate(`document.querySelector('.time-grid input:checked').value`, &chosen),
				chromedp.Click(`button.booking-confirm`, chromedp.ByQuery),
				chromedp.WaitVisible(`.booking-confirmed`, chromedp.ByQuery),
				chromedp.Text(`#booking-confirmed-title`, &heading, chromedp.ByQuery),
				chromedp.Text(`.booking-confirmed .booking-facts`, &facts, chromedp.ByQuery),
			)
			if heading != s.Locales.T(tc.lang, "booking.reschedule.doneTitle") {
				t.Errorf("heading %q", heading)
			}
			if !strings.Contains(facts, "meet.example.com/Northbeam-") {
				t.Errorf("the confirmation does not show the video room: %s", facts)
			}
			// Once moved, the old time is no longer shown as the current
			// one: only as what it was, in the confirmation.
			var current, previous string
			tb.Run(t,
				chromedp.Evaluate(`document.querySelector("#reschedule-current")?.textContent ?? ""`, &current),
				chromedp.Evaluate(`document.querySelector(".booking-confirmed .fact-previous dt")?.textContent ?? ""`, &previous),
			)
			if current != "" || previous != s.Locales.T(tc.lang, "booking.reschedule.previous") {
				t.Errorf("after the move: current booking heading %q (want none), previous time labelled %q", current, previous)
			}
			e2etest.CheckAccessibility(t, tb, "the move's confirmation")
			moved, err := env.Service.Find(context.Background(), created.Token)
			if err != nil {
				t.Fatal(err)
			}
			if moved.Start.Format(time.RFC3339) != chosen || moved.Sequence != 1 {
				t.Errorf("stored start %s (sequence %d), want %s (1)", moved.Start.Format(time.RFC3339), moved.Sequence, chosen)
			}
			offered := sitetest.Do(t, env.Handler, "GET", "/api/slots?service=strategy&from="+start.Format("2006-01-02")+"&days=1&tz=UTC", "", nil)
			if !strings.Contains(offered.Body.String(), `"start":"`+start.Format("2006-01-02T15:04:05Z")+`"`) {
				t.Errorf("the old time %s is not offered again", start)
			}
			if problems := tb.ConsoleProblems(); len(problems) > 0 {
				t.Errorf("console:\n%s", strings.Join(problems, "\n"))
			}
		})
	}
}
