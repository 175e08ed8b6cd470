package booking

import (
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/northbeam/site/e2e/internal/e2etest"
	"github.com/northbeam/site/internal/sitetest"
)

// TestBookingWithANamedConsultant books a discovery call from a
// consultant's page in the right-to-left language: the page's "Book a
// call with <name>" leads to the time step with that person's times, and
// the confirmation names the host with their portrait and role. The
// visitor, abroad, chooses a video call over a phone call, as the shipped
// discovery call allows.
func TestBookingWithANamedConsultant(t *testing.T) {
	b, _ := e2etest.Browser(t)
	availability := sitetest.HostsOf(strings.Replace(e2etest.BrowserFixture, `"meeting": {"type": "phone"}`,
		`"meeting": {"type": "phone-or-video", "roomBase": "https://meet.example.com/Northbeam-"}`, 1))
	s := sitetest.HostsSite(t, availability)
	env := e2etest.NewBookingEnvOn(t, s, availability)
	srv := httptest.NewServer(env.Handler)
	t.Cleanup(srv.Close)

	lang := sitetest.RightToLeft(t)
	person, err := s.Team().Person(lang.Code, sitetest.HostJonas)
	if err != nil {
		t.Fatal(err)
	}
	tb := e2etest.NewTab(t, b)
	var path, with, label string
	tb.Run(t,
		e2etest.InZone("Asia/Riyadh"),
		chromedp.Navigate(srv.URL+lang.LocalPath("/team/"+sitetest.HostJonas)),
		e2etest.WaitHydrated(),
		chromedp.Text(`a.person-book`, &label, chromedp.ByQuery),
		chromedp.Click(`a.person-book`, chromedp.ByQuery),
		chromedp.WaitVisible(`.schedule-host .host-name`, chromedp.ByQuery),
		e2etest.WaitTimes(),
		e2etest.Location(&path),
		chromedp.Text(`.schedule-host .host-name`, &with, chromedp.ByQuery),
	)
	if want := s.Locales.T(lang.Code, "team.book", "name", person.Name); label != want {
		t.Errorf("the person's link reads %q, want %q", label, want)
	}
	if path != lang.LocalPath("/schedule/discovery") {
		t.Errorf("the link leads to %s", path)
	}
	if !strings.Contains(with, person.Name) {
		t.Errorf("the time step says %q, want it to name %s", with, person.Name)
	}

	var chosen string
	tb.Run(t,
		chromedp.Evaluate(`(() => { const r = document.querySelector('.time-grid input[type="radio"]'); r.click(); return r.value; })()`, &chosen),
		chromedp.SendKeys(`input[name="name"]`, "ليلى الهاشمي", chromedp.ByQuery),
		chromedp.SendKeys(`input[name="email"]`, "layla@example.com", chromedp.ByQuery),
		chromedp.Click(`.meeting-choice input[value="video"]`, chromedp.ByQuery),
		chromedp.WaitNotPresent(`input[name="phone"]`, chromedp.ByQuery),
		chromedp.Click(`button.booking-confirm`, chromedp.ByQuery),
		chromedp.WaitVisible(`.booking-confirmed .fact-host`, chromedp.ByQuery),
	)
	var name, role, src, alt, room string
	var loaded bool
	tb.Run(t,
		chromedp.Text(`.fact-host .host-name`, &name, chromedp.ByQuery),
		chromedp.Text(`.fact-host .host-role`, &role, chromedp.ByQuery),
		chromedp.AttributeValue(`.fact-host img`, "src", &src, nil, chromedp.ByQuery),
		chromedp.AttributeValue(`.fact-host img`, "alt", &alt, nil, chromedp.ByQuery),
		chromedp.AttributeValue(`.booking-facts a.meeting-link`, "href", &room, nil, chromedp.ByQuery),
		// The portrait is shown, not only named: wait for it to load.
		e2etest.Poll(`(() => { const i = document.querySelector('.fact-host img'); return i.complete && i.naturalWidth > 0; })()`, &loaded),
	)
	if name != person.Name || role != person.Role {
		t.Errorf("the confirmation names %q, %q; want %q, %q", name, role, person.Name, person.Role)
	}
	if src != person.Photo.Src || alt != person.Photo.Alt {
		t.Errorf("the confirmation's portrait is %q (%q), want %q (%q)", src, alt, person.Photo.Src, person.Photo.Alt)
	}
	if !strings.HasPrefix(room, "https://meet.example.com/Northbeam-") {
		t.Errorf("the confirmation's video room is %q", room)
	}
	if n := sitetest.Count(t, env.Store, `SELECT count(*) FROM bookings WHERE host = ? AND lang = ? AND meeting_url = ? AND phone = ''`,
		sitetest.HostJonas, lang.Code, room); n != 1 {
		t.Errorf("%d video bookings with Jonas in %s, want 1", n, lang.Code)
	}
	if chosen == "" {
		t.Error("no time was chosen")
	}
	e2etest.CheckAccessibility(t, tb, "confirmation with a host")
	if problems := tb.ConsoleProblems(); len(problems) > 0 {
		t.Errorf("console:\n%s", strings.Join(problems, "\n"))
	}
}

// TestChoosingTheHost: where the visitors of a service choose their host,
// the time step lists the hosts; choosing one shows that person's times,
// and "the whole team's times" leads back to everyone's.
func TestChoosingTheHost(t *testing.T) {
	b, _ := e2etest.Browser(t)
	availability := sitetest.HostsOf(e2etest.BrowserFixture)
	s := sitetest.HostsSite(t, availability)
	env := e2etest.NewBookingEnvOn(t, s, availability)
	srv := httptest.NewServer(env.Handler)
	t.Cleanup(srv.Close)
	lang := sitetest.Default(t)
	lena, err := s.Team().Person(lang.Code, sitetest.HostLena)
	if err != nil {
		t.Fatal(err)
	}
	tb := e2etest.NewTab(t, b)
	var names []string
	var with, search string
	tb.Run(t,
		chromedp.Navigate(srv.URL+lang.LocalPath("/schedule/strategy")),
		e2etest.WaitHydrated(),
		chromedp.WaitVisible(`.host-choice a`, chromedp.ByQuery),
		chromedp.Evaluate(`[...document.querySelectorAll('.host-choice .host-name')].map((e) => e.textContent)`, &names),
		chromedp.Click(`.host-choice a[href$="?with=`+sitetest.HostLena+`"]`, chromedp.ByQuery),
		// The chosen host's heading (a div; the choice's entries are links
		// of the same class, still in the page until React renders the
		// choice's result).
		e2etest.Poll(`document.querySelector("div.schedule-host .host-name")?.textContent || ""`, &with),
		e2etest.WaitTimes(),
		chromedp.Evaluate(`location.search`, &search),
	)
	if len(names) != 2 || names[0] != lena.Name {
		t.Errorf("the hosts offered are %q, want Lena first and Samira", names)
	}
	if !strings.Contains(with, lena.Name) || search != "?with="+sitetest.HostLena {
		t.Errorf("after choosing Lena: %q at %q", with, search)
	}
	// Back to the whole team's times: the choice again.
	tb.Run(t, chromedp.Click(`.schedule-host a`, chromedp.ByQuery), chromedp.WaitVisible(`.host-choice`, chromedp.ByQuery))
	if problems := tb.ConsoleProblems(); len(problems) > 0 {
		t.Errorf("console:\n%s", strings.Join(problems, "\n"))
	}
}

// TestHostTakenWhileConfirming: another visitor takes the named host's
// time while this one fills in the details. The answer says so in the
// page's language and offers the same time with each colleague still free
// then; one click there and the booking goes through with that colleague,
// at the time chosen.
func TestHostTakenWhileConfirming(t *testing.T) {
	b, _ := e2etest.Browser(t)
	availability := sitetest.HostsOf(e2etest.BrowserFixture)
	s := sitetest.HostsSite(t, availability)
	env := e2etest.NewBookingEnvOn(t, s, availability)
	srv := httptest.NewServer(env.Handler)
	t.Cleanup(srv.Close)
	lang := sitetest.Other(t)
	jonas, err := s.Team().Person(lang.Code, sitetest.HostJonas)
	if err != nil {
		t.Fatal(err)
	}
	tb := e2etest.NewTab(t, b)
	var chosen string
	tb.Run(t,
		e2etest.InZone("Europe/Berlin"),
		chromedp.Navigate(srv.URL+lang.LocalPath("/schedule/discovery")+"?with="+sitetest.HostJonas),
		e2etest.WaitHydrated(),
		chromedp.WaitVisible(`.schedule-host .host-name`, chromedp.ByQuery),
		e2etest.WaitTimes(),
		e2etest.PickFullDay(),
		chromedp.Click(`.time-grid li:nth-child(3) input`, chromedp.ByQuery),
		chromedp.Evaluate(`document.querySelector('.time-grid input:checked').value`, &chosen),
		chromedp.SendKeys(`input[name="name"]`, "Nora Weber", chromedp.ByQuery),
		chromedp.SendKeys(`input[name="email"]`, "nora@example.com", chromedp.ByQuery),
		chromedp.SendKeys(`input[name="phone"]`, "+49 30 901820", chromedp.ByQuery),
	)
	// Someone else books Jonas at that time.
	rec := sitetest.PostJSON(t, env.Handler, "/api/bookings", map[string]string{
		"service": "discovery", "start": chosen, "name": "Someone Else", "email": "else@example.com", "timeZone": "UTC", "lang": "en",
		"phone": "+44 20 7946 0000", "person": sitetest.HostJonas,
	})
	if rec.Code != http.StatusCreated {
		t.Fatalf("booking Jonas through the API: %d %s", rec.Code, rec.Body.String())
	}
	var notice string
	var offers []string
	tb.Run(t,
		chromedp.Click(`button.booking-confirm`, chromedp.ByQuery),
		chromedp.WaitVisible(`.host-offers a`, chromedp.ByQuery),
		chromedp.Text(`.notice`, &notice, chromedp.ByQuery),
		chromedp.Evaluate(`[...document.querySelectorAll('.host-offers a')].map((a) => a.textContent)`, &offers),
	)
	if want := s.Locales.T(lang.Code, "booking.hostTaken", "name", jonas.Name); notice != want {
		t.Errorf("notice %q, want %q", notice, want)
	}
	if len(offers) != 2 {
		t.Fatalf("the time is offered with %q, want the two colleagues", offers)
	}
	var with, checked string
	tb.Run(t,
		chromedp.Click(`.host-offers a`, chromedp.ByQuery),
		chromedp.WaitVisible(`.time-grid input:checked`, chromedp.ByQuery),
		// The heading names the colleague once React has rendered the
		// choice (until then it still names Jonas).
		e2etest.Poll(`(() => { const e = document.querySelector("div.schedule-host .host-name"); return e && !e.textContent.includes(`+strconv.Quote(jonas.Name)+`) ? e.textContent : ""; })()`, &with),
		// The colleague's times load after the heading names them: the
		// grid holds no choice until they are there (a loaded machine
		// showed it between the two).
		e2etest.Poll(`(() => { const e = document.querySelector('.time-grid input:checked'); return e ? e.value : ""; })()`, &checked),
		chromedp.Click(`button.booking-confirm`, chromedp.ByQuery),
		chromedp.WaitVisible(`.booking-confirmed .fact-host`, chromedp.ByQuery),
	)
	if checked != chosen || strings.Contains(with, jonas.Name) {
		t.Errorf("after choosing a colleague: %q with the time %s, want %s with someone else", with, checked, chosen)
	}
	if n := sitetest.Count(t, env.Store, `SELECT count(*) FROM bookings WHERE name = 'Nora Weber' AND host <> ?`, sitetest.HostJonas); n != 1 {
		t.Errorf("%d bookings of Nora with a colleague, want 1", n)
	}
	if problems := tb.ConsoleProblems(); len(problems) > 0 {
		t.Errorf("console:\n%s", strings.Join(problems, "\n"))
	}
}
