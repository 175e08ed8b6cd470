package staff

import (
	"context"
	"crypto/tls"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/northbeam/site/e2e/internal/e2etest"
	"github.com/northbeam/site/handlers"
	"github.com/northbeam/site/internal/booking"
	"github.com/northbeam/site/internal/sitetest"
	"github.com/northbeam/site/internal/staff"
	"github.com/northbeam/site/internal/store"
	"github.com/northbeam/site/internal/store/storetest"
)

// TestBrowserStaffHosts: a member who is a host sees their bookings under
// "My bookings", each naming its host, hands one to a colleague from its
// page, adds a calendar of their own (shown masked), and makes their
// private feed, whose address a calendar program reads.
func TestBrowserStaffHosts(t *testing.T) {
	b, _ := e2etest.Browser(t)
	ctx := context.Background()
	srv := httptest.NewUnstartedServer(nil)
	base := fmt.Sprintf("https://localhost:%d", srv.Listener.Addr().(*net.TCPAddr).Port)
	st := storetest.Open(t, store.SQLite)
	bookings := sitetest.BookingService(t, st, sitetest.HostsFixture, time.Now)
	cancellation, err := booking.NewStaffCancellation(bookings, sitetest.Content())
	if err != nil {
		t.Fatal(err)
	}
	ws := sitetest.StaffWorkspace(t, st, base, time.Now, func(cfg *staff.Config) { cfg.Bookings = cancellation })
	unlimited := handlers.RateLimit{Requests: 1 << 20, Window: time.Minute}
	site := sitetest.HostsSite(t, sitetest.HostsFixture)
	srv.Config.Handler = handlers.New(handlers.NewServer(site, handlers.Services{
		Log: sitetest.QuietLog(), Store: st, Staff: ws, Booking: bookings, StaffSignInRate: unlimited, StaffLinkRate: unlimited,
		SlotsRate: unlimited,
	}))
	cert, _ := e2etest.BrowserTLS()
	srv.TLS = &tls.Config{Certificates: []tls.Certificate{cert}}
	srv.StartTLS()
	t.Cleanup(srv.Close)
	env := &e2etest.StaffBrowserEnv{Base: base, St: st, Ws: ws}

	// A consultation with Samira at the first time she and Jonas are both
	// free.
	berlin, _ := time.LoadLocation("Europe/Berlin")
	jonasFree := map[time.Time]bool{}
	query := booking.SlotsQuery{Service: "discovery", From: booking.DateOf(time.Now().In(berlin)), Days: 14, TimeZone: "Europe/Berlin", Location: berlin}
	query.Person = sitetest.HostJonas
	days, err := bookings.Slots(ctx, query)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range days {
		for _, s := range d.Slots {
			jonasFree[s.Start] = true
		}
	}
	query.Person = sitetest.HostSamira
	days, err = bookings.Slots(ctx, query)
	if err != nil {
		t.Fatal(err)
	}
	var start time.Time
	for _, d := range days {
		for _, s := range d.Slots {
			if start.IsZero() && jonasFree[s.Start] {
				start = s.Start
			}
		}
	}
	if start.IsZero() {
		t.Fatal("Samira and Jonas are never free together in the coming two weeks")
	}
	// A consultation with Jonas, at his last time of the two weeks: the
	// team's tabs count it, Samira's do not.
	var jonasLast time.Time
	for at := range jonasFree {
		if at.After(jonasLast) {
			jonasLast = at
		}
	}
	if _, err := cancellation.Book(ctx, booking.BookingRequest{Service: "discovery", Start: jonasLast.Format(time.RFC3339), Name: "Bo Lindqvist",
		Email: "bo@example.com", TimeZone: "Europe/Berlin", Lang: "en", Person: sitetest.HostJonas}, "ops@northbeam.test", nil); err != nil {
		t.Fatal(err)
	}
	if _, err := cancellation.Book(ctx, booking.BookingRequest{Service: "discovery", Start: start.Format(time.RFC3339), Name: "Amira Haddad",
		Email: "amira@example.com", TimeZone: "Europe/Berlin", Lang: "en", Person: sitetest.HostSamira}, "ops@northbeam.test", nil); err != nil {
		t.Fatal(err)
	}
	if _, err := ws.Invite(ctx, "samira@northbeam.test", staff.ActorCommandLine); err != nil {
		t.Fatal(err)
	}
	samira, err := site.Team().Person("en", sitetest.HostSamira)
	if err != nil {
		t.Fatal(err)
	}
	jonas, err := site.Team().Person("en", sitetest.HostJonas)
	if err != nil {
		t.Fatal(err)
	}
	text := func(key string, vars ...string) string { return site.StaffLocales.T("en", key, vars...) }
	axe := e2etest.AxeSource(t)
	accessible := func(tb *e2etest.Tab, what string) {
		t.Helper()
		for _, v := range e2etest.RunAxe(t, tb, axe) {
			var where []string
			for _, n := range v.Nodes {
				where = append(where, fmt.Sprint(n.Target))
			}
			t.Errorf("%s: %s: %s at %s", what, v.ID, v.Help, strings.Join(where, ", "))
		}
	}

	tb := e2etest.NewTab(t, b)
	env.SignInByLink(t, tb, "samira@northbeam.test")
	dir := e2etest.ScreenshotDir(t)
	tb.Run(t,
		chromedp.Navigate(base+"/staff/bookings?host=mine"),
		e2etest.WaitWorkspace(),
		e2etest.WaitMain(text("hosts.with", "name", samira.Name)),
	)
	e2etest.KeepScreenshot(t, tb, dir, "staff-my-bookings-en", true)
	accessible(tb, "my bookings")
	// The tabs count what the lists show: Samira's one, then the team's two.
	tabCount := func(target, want string) {
		t.Helper()
		var got string
		tb.Run(t,
			chromedp.Navigate(base+target),
			e2etest.WaitWorkspace(),
			chromedp.WaitVisible(`.ws-tabs a[aria-current=page] .ws-count`, chromedp.ByQuery),
			chromedp.Text(`.ws-tabs a[aria-current=page] .ws-count`, &got, chromedp.ByQuery),
		)
		if strings.TrimSpace(got) != want {
			t.Errorf("%s: the upcoming tab counts %q, want %s", target, got, want)
		}
	}
	tabCount("/staff/bookings?view=upcoming", "2")
	tabCount("/staff/bookings?view=upcoming&host=mine", "1")
	tb.Run(t,
		chromedp.Click(`main .ws-booking a`, chromedp.ByQuery),
		e2etest.WaitMain(text("hosts.handOverTitle")),
		// Chosen as a person does: the select's value, then its change.
		chromedp.Evaluate(`(() => {
			const s = document.querySelector("main form select[name=host]");
			Object.getOwnPropertyDescriptor(HTMLSelectElement.prototype, "value").set.call(s, "`+sitetest.HostJonas+`");
			s.dispatchEvent(new Event("change", { bubbles: true }));
			return true;
		})()`, nil),
		e2etest.PressButton(text("hosts.handOver")),
		e2etest.WaitMain(text("hosts.handedOver", "name", jonas.Name)),
	)
	e2etest.KeepScreenshot(t, tb, dir, "staff-hand-over-en", true)
	accessible(tb, "a booking after its hand-over")
	if n := sitetest.Count(t, st, `SELECT count(*) FROM bookings WHERE host = ?`, sitetest.HostJonas); n != 2 {
		t.Errorf("Jonas has %d bookings after the hand-over", n)
	}

	var address string
	tb.Run(t,
		chromedp.Navigate(base+"/staff/account"),
		e2etest.WaitMain(text("calendars.feedsTitle")),
		chromedp.SendKeys(`main input[type=url]`, "webcal://calendar.example.test/secret-7f3a/basic.ics", chromedp.ByQuery),
		e2etest.PressButton(text("calendars.addFeed")),
		e2etest.WaitMain("https://calendar.example.test/…"),
		e2etest.PressButton(text("calendars.privateMake")),
		chromedp.WaitVisible(`main code.ws-secret`, chromedp.ByQuery),
		chromedp.Text(`main code.ws-secret`, &address, chromedp.ByQuery),
	)
	e2etest.KeepScreenshot(t, tb, dir, "staff-calendars-en", true)
	accessible(tb, "the account's calendars")
	var page string
	tb.Run(t, chromedp.Evaluate(`document.querySelector("main").innerText`, &page))
	if strings.Contains(page, "secret-7f3a") {
		t.Error("the account page shows a calendar's address whole")
	}
	if !strings.HasPrefix(address, base+"/staff/calendar.ics?token=") {
		t.Fatalf("the private address shown: %q", address)
	}
	// The same pages right to left.
	rtl := sitetest.RightToLeft(t).Code
	tb.Run(t, chromedp.Evaluate(fmt.Sprintf(`fetch("/staff/api/me/language", {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify({lang: %q})}).then((r) => r.status)`, rtl), nil,
		func(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) }))
	for _, p := range []struct{ path, key, name string }{
		{"/staff/account", "calendars.privateTitle", "staff-calendars-" + rtl},
		{"/staff/bookings/1", "hosts.handOverTitle", "staff-booking-" + rtl},
	} {
		tb.Run(t, chromedp.Navigate(base+p.path), e2etest.WaitWorkspace(), e2etest.WaitMain(site.StaffLocales.T(rtl, p.key)))
		e2etest.KeepScreenshot(t, tb, dir, p.name, true)
		accessible(tb, p.path+" in "+rtl)
	}
	if problems := tb.ConsoleProblems(); len(problems) > 0 {
		t.Errorf("console:\n%s", strings.Join(problems, "\n"))
	}
	client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}} //nolint:gosec // the test's own certificate
	res, err := client.Get(address)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	_ = res.Body.Close()
	// Samira handed her only consultation over: her calendar is empty.
	if res.StatusCode != http.StatusOK || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/calendar") ||
		!strings.Contains(string(body), "BEGIN:VCALENDAR") || strings.Contains(string(body), "BEGIN:VEVENT") {
		t.Errorf("the private feed: %d %q\n%s", res.StatusCode, res.Header.Get("Content-Type"), body)
	}
}
