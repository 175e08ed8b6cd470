package staff

import (
	"github.com/northbeam/site/e2e/internal/e2etest"

	"context"
	"crypto/tls"
	"fmt"
	"net"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/northbeam/site/handlers"
	"github.com/northbeam/site/internal/booking"
	"github.com/northbeam/site/internal/sitetest"
	"github.com/northbeam/site/internal/staff"
	"github.com/northbeam/site/internal/store"
	"github.com/northbeam/site/internal/store/storetest"
)

// TestBrowserStaffBookByHandOpensOnAFreeDay: the workspace's "book by
// hand" opens on the first day that has free times, not on a day without
// any. The consultancy is closed today and the next two days (and, as
// always, at weekends), so tomorrow, whatever the day of the week, has none.
func TestBrowserStaffBookByHandOpensOnAFreeDay(t *testing.T) {
	b, _ := e2etest.Browser(t)
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now().In(berlin)
	var closed []string
	for i := range 3 {
		closed = append(closed, fmt.Sprintf(`{"date": %q, "note": "closed"}`, now.AddDate(0, 0, i).Format(time.DateOnly)))
	}
	first := now.AddDate(0, 0, 3)
	for first.Weekday() == time.Saturday || first.Weekday() == time.Sunday {
		first = first.AddDate(0, 0, 1)
	}
	fixture := strings.Replace(sitetest.BookingFixture, `"closedDates": []`, `"closedDates": [`+strings.Join(closed, ", ")+`]`, 1)

	srv := httptest.NewUnstartedServer(nil)
	base := fmt.Sprintf("https://localhost:%d", srv.Listener.Addr().(*net.TCPAddr).Port)
	st := storetest.Open(t, store.SQLite)
	bookings := sitetest.BookingService(t, st, fixture, time.Now)
	cancellation, err := booking.NewStaffCancellation(bookings, sitetest.Content())
	if err != nil {
		t.Fatal(err)
	}
	ws := sitetest.StaffWorkspace(t, st, base, time.Now, func(cfg *staff.Config) { cfg.Bookings = cancellation })
	unlimited := handlers.RateLimit{Requests: 1 << 20, Window: time.Minute}
	srv.Config.Handler = handlers.New(handlers.NewServer(sitetest.Site(t), handlers.Services{
		Log: sitetest.QuietLog(), Store: st, Staff: ws, Booking: bookings, StaffSignInRate: unlimited, StaffLinkRate: unlimited,
		SlotsRate: unlimited,
	}))
	cert, _ := e2etest.BrowserTLS()
	srv.TLS = &tls.Config{Certificates: []tls.Certificate{cert}}
	srv.StartTLS()
	t.Cleanup(srv.Close)
	env := &e2etest.StaffBrowserEnv{Base: base, St: st, Ws: ws}
	if _, err := ws.Invite(context.Background(), "ada@northbeam.test", staff.ActorCommandLine); err != nil {
		t.Fatal(err)
	}

	tb := e2etest.NewTab(t, b)
	env.SignInByLink(t, tb, "ada@northbeam.test")
	var day string
	var times int
	tb.Run(t,
		chromedp.Navigate(base+"/staff/bookings/new"),
		e2etest.WaitWorkspace(),
		// Free times, or the sentence that the day shown has none.
		e2etest.WaitTrue(`document.querySelector(".ws-slots .ws-slot input[type=radio], .ws-slots .ws-empty") !== null`),
		chromedp.Value(`.ws-slots input[type=date]`, &day, chromedp.ByQuery),
		chromedp.Evaluate(`document.querySelectorAll(".ws-slot input[type=radio]").length`, &times),
	)
	for _, width := range []int64{390, 1280} {
		tb.Run(t, e2etest.Viewport(width, width < 600))
		e2etest.KeepScreenshot(t, tb, e2etest.ScreenshotDir(t), fmt.Sprintf("book-by-hand-en-%d", width), true)
	}
	if want := first.Format(time.DateOnly); day != want || times == 0 {
		t.Errorf("book by hand opens on %s with %d free times, want %s, the first day with free times", day, times, want)
	}
}
