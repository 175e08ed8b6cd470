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

	env := byHandServer(t, fixture)
	base := env.Base
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

// byHandServer starts the site over TLS with the bookings of fixture (a
// content/availability.json) and a workspace where ada@northbeam.test is
// invited.
func byHandServer(t *testing.T, fixture string) *e2etest.StaffBrowserEnv {
	t.Helper()
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
	if _, err := ws.Invite(context.Background(), "ada@northbeam.test", staff.ActorCommandLine); err != nil {
		t.Fatal(err)
	}
	return &e2etest.StaffBrowserEnv{Base: base, St: st, Ws: ws}
}

// TestBrowserStaffBookByHandPhoneOrVideo: where the service allows a
// phone or a video call (the discovery call, as shipped), the member says
// which the caller chose. A phone call without a number is refused at the
// number; a video call asks for none, and the booking gets its own room.
func TestBrowserStaffBookByHandPhoneOrVideo(t *testing.T) {
	b, _ := e2etest.Browser(t)
	const room = "https://meet.jit.si/Northbeam-"
	fixture := strings.Replace(sitetest.BookingFixture, `"discovery": {"minutes": 15}`,
		`"discovery": {"minutes": 15, "meeting": {"type": "phone-or-video", "roomBase": "`+room+`"}}`, 1)
	env := byHandServer(t, fixture)
	tb := e2etest.NewTab(t, b)
	env.SignInByLink(t, tb, "ada@northbeam.test")
	var choices int
	var phoneShown bool
	var phoneError string
	tb.Run(t,
		chromedp.Navigate(env.Base+"/staff/bookings/new"),
		e2etest.WaitWorkspace(),
		e2etest.WaitTrue(`document.querySelector(".ws-slots .ws-slot input[type=radio]") !== null`),
		chromedp.Click(`.ws-slot input[type=radio]`, chromedp.ByQuery),
		chromedp.SendKeys(`input[name=name]`, "Jürgen Weiß", chromedp.ByQuery),
		chromedp.SendKeys(`input[name=email]`, "juergen@example.com", chromedp.ByQuery),
		chromedp.Evaluate(`document.querySelectorAll("fieldset.ws-choice input[name=meeting]").length`, &choices),
		// The phone, as the visitor's form starts, without a number.
		chromedp.Click(`form.ws-form button[type=submit]`, chromedp.ByQuery),
		e2etest.WaitTrue(`document.querySelector("input[name=phone][aria-invalid=true]") !== null`),
		chromedp.Evaluate(`document.getElementById(document.querySelector("input[name=phone]").getAttribute("aria-describedby")).textContent`, &phoneError),
	)
	for _, width := range []int64{390, 1280} {
		tb.Run(t, e2etest.Viewport(width, width < 600))
		e2etest.KeepScreenshot(t, tb, e2etest.ScreenshotDir(t), fmt.Sprintf("book-by-hand-meeting-en-%d", width), true)
	}
	if choices != 2 || phoneError == "" {
		t.Errorf("the discovery call by hand offers %d meeting choices and says %q of a phone call without a number, want 2 and a sentence", choices, phoneError)
	}
	if n := sitetest.Count(t, env.St, `SELECT count(*) FROM bookings`); n != 0 {
		t.Fatalf("%d bookings made of a phone call without a number", n)
	}
	var link string
	tb.Run(t,
		chromedp.Click(`input[name=meeting][value=video]`, chromedp.ByQuery),
		chromedp.Evaluate(`document.querySelector("input[name=phone]") !== null`, &phoneShown),
		chromedp.Click(`form.ws-form button[type=submit]`, chromedp.ByQuery),
		e2etest.WaitTrue(`/^\/staff\/bookings\/\d+$/.test(location.pathname) && document.querySelector('main a[href^="`+room+`"]') !== null`),
		chromedp.Evaluate(`document.querySelector('main a[href^="`+room+`"]').href`, &link),
	)
	if phoneShown {
		t.Error("a video call still asks for a phone number")
	}
	if n := sitetest.Count(t, env.St, `SELECT count(*) FROM bookings WHERE meeting_url = ? AND phone = ''`, link); n != 1 {
		t.Errorf("the video call booked by hand: %d bookings with the room %s the page shows and no phone, want 1", n, link)
	}
}
