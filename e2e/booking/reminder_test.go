package booking

import (
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/northbeam/site/e2e/internal/e2etest"
	"github.com/northbeam/site/handlers"
	"github.com/northbeam/site/internal/booking"
	"github.com/northbeam/site/internal/sitetest"
	"github.com/northbeam/site/internal/store"
	"github.com/northbeam/site/internal/store/storetest"
)

// TestBrowserConfirmationSaysWhenTheReminderComes: with REMINDER_HOURS at
// 49, the confirmation page says, in every language, that the reminder
// comes 2 days before, not "the day before".
func TestBrowserConfirmationSaysWhenTheReminderComes(t *testing.T) {
	b, _ := e2etest.Browser(t)
	st := storetest.Open(t, store.SQLite)
	svc := sitetest.BookingService(t, st, e2etest.BrowserFixture, time.Now, func(c *booking.Config) { c.ReminderBefore = 49 * time.Hour })
	unlimited := handlers.RateLimit{Requests: 1 << 20, Window: time.Minute}
	srv := httptest.NewServer(handlers.New(handlers.NewServer(sitetest.Site(t), handlers.Services{
		Log: sitetest.QuietLog(), Store: st, Booking: svc, BookingRate: unlimited, SlotsRate: unlimited,
	})))
	t.Cleanup(srv.Close)
	s := sitetest.Site(t)
	for _, lang := range s.Info.Languages {
		t.Run(lang.Code, func(t *testing.T) {
			tb := e2etest.NewTab(t, b)
			var next string
			tb.Run(t,
				chromedp.Navigate(srv.URL+lang.LocalPath("/schedule/discovery")),
				e2etest.WaitHydrated(),
				e2etest.WaitTimes(),
				// Four days on: more than 49 hours ahead, whatever the hour.
				e2etest.PickFullDay(), e2etest.WaitTimes(), e2etest.PickFullDay(), e2etest.WaitTimes(), e2etest.PickFullDay(), e2etest.WaitTimes(), e2etest.PickFullDay(), e2etest.WaitTimes(),
				chromedp.Click(`.time-grid input[type="radio"]`, chromedp.ByQuery),
				chromedp.SendKeys(`input[name="name"]`, "Ada Lovelace", chromedp.ByQuery),
				chromedp.SendKeys(`input[name="email"]`, "visitor@example.com", chromedp.ByQuery),
				chromedp.SendKeys(`input[name="phone"]`, "+49 30 901820", chromedp.ByQuery),
				chromedp.Click(`button.booking-confirm`, chromedp.ByQuery),
				chromedp.WaitVisible(`.booking-confirmed`, chromedp.ByQuery),
				chromedp.Text(`.next-steps`, &next, chromedp.ByQuery),
			)
			want := s.Locales.Plural(lang.Code, "schedule.confirmed.next.reminderDays", 2)
			if !strings.Contains(next, want) || strings.Contains(next, s.Locales.T(lang.Code, "schedule.confirmed.next.reminder")) {
				t.Errorf("the next steps say:\n%s\nwant %q", next, want)
			}
		})
	}
}
