package booking

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/northbeam/site/e2e/internal/e2etest"
	"github.com/northbeam/site/internal/sitetest"
)

// TestBookingFlowByKeyboard books a consultation in English and in Arabic
// with Tab, the arrow keys, Enter and Space only, from the choice of
// consultation to the confirmation, and downloads the invite.
func TestBookingFlowByKeyboard(t *testing.T) {
	b, base, env := e2etest.BookingBrowser(t)
	s := sitetest.Site(t)
	for _, tc := range []struct {
		lang, zone, name string
		nextDayKey       string   // the arrow key that moves to the next day
		cities           []string // the visitor's zone and the consultancy's, as the confirmation names them
	}{
		{"en", "America/New_York", "Ada Lovelace", kb.ArrowRight, []string{"New York", "Berlin"}},
		{"ar", "Asia/Riyadh", "ليلى الهاشمي", kb.ArrowLeft, []string{"الرياض", "برلين"}},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			lang, _ := s.Info.Language(tc.lang)
			tb := e2etest.NewTab(t, b)
			var path, focusID, day, nextDay, chosen string
			tb.Run(t,
				e2etest.InZone(tc.zone),
				chromedp.Navigate(base+lang.LocalPath("/schedule")),
				e2etest.WaitHydrated(),
				e2etest.TabTo(`a.consult-choose[href="`+lang.LocalPath("/schedule/discovery")+`"]`, 40),
				chromedp.KeyEvent(kb.Enter),
				e2etest.WaitTimes(),
				e2etest.Location(&path),
				e2etest.ReadFocused(`el.id`, &focusID),
			)
			if path != lang.LocalPath("/schedule/discovery") || focusID != "schedule-time-title" {
				t.Errorf("step 2 at %s with focus on %q, want the step's heading", path, focusID)
			}
			// The calendar holds one tab stop, on the chosen day; the
			// arrow toward the end of the line moves to the next day.
			tb.Run(t,
				e2etest.TabTo(`.calendar-grid button.day`, 10),
				e2etest.ReadFocused(`el.dataset.date`, &day),
				chromedp.KeyEvent(tc.nextDayKey),
				e2etest.ReadFocused(`el.dataset.date`, &nextDay),
			)
			if nextDay != e2etest.NextDayOf(t, day) {
				t.Fatalf("%s moved from %s to %s, want the next day", tc.nextDayKey, day, nextDay)
			}
			tb.Run(t,
				chromedp.KeyEvent(kb.Enter),
				chromedp.WaitVisible(`.calendar-grid button.day[aria-pressed="true"][data-date="`+nextDay+`"]`, chromedp.ByQuery),
				e2etest.WaitTimes(),
			)
			e2etest.CheckAccessibility(t, tb, "step 2")
			tb.Run(t,
				e2etest.TabTo(`.time-grid input[type="radio"]`, 5),
				chromedp.KeyEvent(" "),
				chromedp.Evaluate(`document.querySelector('.time-grid input:checked')?.value ?? ""`, &chosen),
				e2etest.TabTo(`input[name="name"]`, 5),
				chromedp.KeyEvent(tc.name),
				e2etest.TabTo(`input[name="email"]`, 2),
				chromedp.KeyEvent("visitor@example.com"),
				// A discovery call is a phone call: the number, with its country code.
				e2etest.TabTo(`input[name="phone"]`, 2),
				chromedp.KeyEvent("+49 30 901820"),
				e2etest.TabTo(`button.booking-confirm`, 8),
				chromedp.KeyEvent(kb.Enter),
				chromedp.WaitVisible(`.booking-confirmed`, chromedp.ByQuery),
				e2etest.ReadFocused(`el.id`, &focusID),
			)
			if chosen == "" || focusID != "booking-confirmed-title" {
				t.Errorf("chosen %q, focus %q after booking", chosen, focusID)
			}
			e2etest.CheckAccessibility(t, tb, "confirmation")
			var heading, facts, ics, google, outlook string
			tb.Run(t,
				chromedp.Text(`#booking-confirmed-title`, &heading, chromedp.ByQuery),
				chromedp.Text(`.booking-facts`, &facts, chromedp.ByQuery),
				chromedp.AttributeValue(`.booking-confirmed a[download]`, "href", &ics, nil, chromedp.ByQuery),
				chromedp.AttributeValue(`.booking-confirmed a[href^="https://calendar.google.com/"]`, "href", &google, nil, chromedp.ByQuery),
				chromedp.AttributeValue(`.booking-confirmed a[href^="https://outlook.live.com/"]`, "href", &outlook, nil, chromedp.ByQuery),
			)
			if heading != s.Locales.T(tc.lang, "schedule.confirmed.title") {
				t.Errorf("confirmation heading %q", heading)
			}
			for _, want := range append([]string{s.Locales.T(tc.lang, "schedule.services.discovery.title"), "+49 30 901820"}, tc.cities...) {
				if !strings.Contains(facts, want) {
					t.Errorf("confirmation lacks %q: %s", want, facts)
				}
			}
			start, err := time.Parse(time.RFC3339, chosen)
			if err != nil {
				t.Fatal(err)
			}
			want := fmt.Sprintf("%s|%s|%s|%s|false", start.UTC().Format(time.RFC3339), tc.name, tc.zone, tc.lang)
			if got := e2etest.StoredBookings(t, env); len(got) == 0 || got[len(got)-1] != want {
				t.Errorf("stored %v, want last %s", got, want)
			}
			// The invite behind the download link holds the chosen time; a
			// file to import, it carries no METHOD.
			res, err := http.Get(base + ics)
			if err != nil {
				t.Fatal(err)
			}
			data, err := io.ReadAll(res.Body)
			res.Body.Close()
			if err != nil || res.StatusCode != http.StatusOK {
				t.Fatalf("invite: %d %v", res.StatusCode, err)
			}
			ev := sitetest.ParseInvite(t, data, "")
			if got, _ := ev.GetStartAt(); !got.Equal(start) {
				t.Errorf("invite starts %v, want %v", got, start)
			}
			if google == "" || outlook == "" {
				t.Error("no calendar links")
			}
			if problems := tb.ConsoleProblems(); len(problems) > 0 {
				t.Errorf("console:\n%s", strings.Join(problems, "\n"))
			}
		})
	}
}

// TestBookingStepsFollowHistory moves between the steps with the page's
// links, the browser's back and forward buttons and a reload.
func TestBookingStepsFollowHistory(t *testing.T) {
	b, base, _ := e2etest.BookingBrowser(t)
	s := sitetest.Site(t)
	tb := e2etest.NewTab(t, b)
	servicesTitle := s.Locales.T("fr", "schedule.services.title")
	timeTitle := s.Locales.T("fr", "schedule.time.title")
	var path, heading, focusID string
	step := func(wantPath, wantHeading string) {
		t.Helper()
		tb.Run(t, e2etest.Location(&path), chromedp.Text(`main h2`, &heading, chromedp.ByQuery))
		if path != wantPath || heading != wantHeading {
			t.Errorf("at %s showing %q, want %s showing %q", path, heading, wantPath, wantHeading)
		}
	}
	tb.Run(t,
		e2etest.InZone("Europe/Paris"),
		chromedp.Navigate(base+"/fr/schedule"),
		e2etest.WaitHydrated(),
		chromedp.Click(`a.consult-choose[href="/fr/schedule/strategy"]`, chromedp.ByQuery),
		e2etest.WaitTimes(),
	)
	step("/fr/schedule/strategy", timeTitle)

	tb.Run(t, chromedp.NavigateBack(), chromedp.WaitVisible(`.consult-grid`, chromedp.ByQuery))
	step("/fr/schedule", servicesTitle)
	tb.Run(t, chromedp.NavigateForward(), e2etest.WaitTimes())
	step("/fr/schedule/strategy", timeTitle)

	// A reload (or a shared link) lands on step 2, rendered by the server.
	tb.Run(t, chromedp.Reload(), e2etest.WaitHydrated(), e2etest.WaitTimes())
	step("/fr/schedule/strategy", timeTitle)

	// The step's own back link returns to step 1 and gives it the focus.
	tb.Run(t,
		chromedp.Click(`.schedule-back a`, chromedp.ByQuery),
		chromedp.WaitVisible(`.consult-grid`, chromedp.ByQuery),
		e2etest.ReadFocused(`el.id`, &focusID),
	)
	step("/fr/schedule", servicesTitle)
	if focusID != "schedule-services-title" {
		t.Errorf("focus on %q after going back", focusID)
	}
	// The contact link leads to the contact section of the French home page.
	var href string
	tb.Run(t,
		chromedp.Click(`a.consult-choose[href="/fr/schedule/discovery"]`, chromedp.ByQuery),
		e2etest.WaitTimes(),
		chromedp.AttributeValue(`.schedule-contact a`, "href", &href, nil, chromedp.ByQuery),
	)
	if href != "/fr#contact" {
		t.Errorf("contact link %q", href)
	}
	if problems := tb.ConsoleProblems(); len(problems) > 0 {
		t.Errorf("console:\n%s", strings.Join(problems, "\n"))
	}
}

// TestBookingSlotTakenWhileConfirming books the chosen time through the API
// between loading and confirming: the visitor sees the localized 409
// message and fresh times without it, then books another time.
func TestBookingSlotTakenWhileConfirming(t *testing.T) {
	b, base, env := e2etest.BookingBrowser(t)
	s := sitetest.Site(t)
	tb := e2etest.NewTab(t, b)
	var chosen string
	tb.Run(t,
		e2etest.InZone("Europe/Berlin"),
		chromedp.Navigate(base+"/de/schedule/strategy"),
		e2etest.WaitHydrated(),
		e2etest.WaitTimes(),
		e2etest.PickFullDay(),
		chromedp.Click(`.time-grid li:nth-child(3) input`, chromedp.ByQuery),
		chromedp.Evaluate(`document.querySelector('.time-grid input:checked').value`, &chosen),
		chromedp.SendKeys(`input[name="name"]`, "Jonas Weber", chromedp.ByQuery),
		chromedp.SendKeys(`input[name="email"]`, "jonas@example.com", chromedp.ByQuery),
	)
	// Someone else takes the time.
	rec := sitetest.PostJSON(t, env.Handler, "/api/bookings", map[string]string{
		"service": "discovery", "start": chosen, "name": "Someone Else", "email": "else@example.com", "timeZone": "UTC", "lang": "en",
		"phone": "+44 20 7946 0000",
	})
	if rec.Code != http.StatusCreated {
		t.Fatalf("booking through the API: %d %s", rec.Code, rec.Body.String())
	}
	var notice string
	var stillOffered, checked bool
	tb.Run(t,
		chromedp.Click(`button.booking-confirm`, chromedp.ByQuery),
		chromedp.WaitVisible(`.notice`, chromedp.ByQuery),
		chromedp.Text(`.notice`, &notice, chromedp.ByQuery),
		chromedp.Evaluate(fmt.Sprintf(`!!document.querySelector('.time-grid input[value=%q]')`, chosen), &stillOffered),
		chromedp.Evaluate(`!!document.querySelector('.time-grid input:checked')`, &checked),
	)
	if notice != s.Locales.T("de", "booking.taken") {
		t.Errorf("notice %q", notice)
	}
	if stillOffered || checked {
		t.Errorf("after the 409 the taken time is offered: %v, a time is still chosen: %v", stillOffered, checked)
	}
	// The form kept what the visitor typed; another time books.
	tb.Run(t,
		chromedp.Click(`.time-grid li:last-child input`, chromedp.ByQuery),
		chromedp.Click(`button.booking-confirm`, chromedp.ByQuery),
		chromedp.WaitVisible(`.booking-confirmed`, chromedp.ByQuery),
	)
	if got := e2etest.StoredBookings(t, env); len(got) != 2 || !strings.Contains(got[1], "|Jonas Weber|Europe/Berlin|de|") {
		t.Errorf("stored %v", got)
	}
	if problems := tb.ConsoleProblems(); len(problems) > 0 {
		t.Errorf("console:\n%s", strings.Join(problems, "\n"))
	}
}

// TestBookingCancelPage follows the cancel link of the email: the booking
// is shown, cancelled after the click, and a second visit says so.
func TestBookingCancelPage(t *testing.T) {
	b, base, env := e2etest.BookingBrowser(t)
	s := sitetest.Site(t)
	start := time.Now().UTC().Add(48 * time.Hour).Truncate(time.Hour)
	rec := sitetest.PostJSON(t, env.Handler, "/api/bookings", map[string]string{
		"service": "discovery", "start": start.Format(time.RFC3339), "name": "Claire Martin", "email": "claire@example.com",
		"timeZone": "Europe/Paris", "lang": "fr", "phone": "+33 1 23 45 67 89",
	})
	if rec.Code != http.StatusCreated {
		t.Fatalf("booking: %d %s", rec.Code, rec.Body.String())
	}
	link := base + "/fr/schedule/cancel?token=" + sitetest.EmailedCancelToken(t, env.Store, "/fr")
	tb := e2etest.NewTab(t, b)
	var outcome string
	tb.Run(t,
		e2etest.InZone("Europe/Paris"),
		chromedp.Navigate(link),
		e2etest.WaitHydrated(),
		chromedp.WaitVisible(`button.cancel-confirm`, chromedp.ByQuery),
		chromedp.Click(`button.cancel-confirm`, chromedp.ByQuery),
		chromedp.WaitVisible(`.cancel-outcome`, chromedp.ByQuery),
		chromedp.Text(`.cancel-outcome`, &outcome, chromedp.ByQuery),
	)
	if outcome != s.Locales.T("fr", "booking.cancel.done") {
		t.Errorf("outcome %q", outcome)
	}
	e2etest.CheckAccessibility(t, tb, "cancelled")
	if got := e2etest.StoredBookings(t, env); len(got) != 1 || !strings.HasSuffix(got[0], "|true") {
		t.Errorf("stored %v", got)
	}
	tb.Run(t,
		chromedp.Reload(),
		e2etest.WaitHydrated(),
		chromedp.WaitVisible(`.cancel-outcome`, chromedp.ByQuery),
		chromedp.Text(`.cancel-outcome`, &outcome, chromedp.ByQuery),
	)
	if outcome != s.Locales.T("fr", "booking.cancel.already") {
		t.Errorf("second visit %q", outcome)
	}
	if problems := tb.ConsoleProblems(); len(problems) > 0 {
		t.Errorf("console:\n%s", strings.Join(problems, "\n"))
	}
}

// TestBookingWithoutJavaScript checks what a visitor without JavaScript
// reads on both steps: booking needs it; the contact form and the address.
func TestBookingWithoutJavaScript(t *testing.T) {
	b, base, _ := e2etest.BookingBrowser(t)
	s := sitetest.Site(t)
	for _, path := range []string{"/schedule", "/ar/schedule/discovery"} {
		t.Run(path, func(t *testing.T) {
			lang, _ := s.Info.SplitPath(path)
			tb := e2etest.NewTab(t, b)
			var text, contact, mailto string
			tb.Run(t,
				chromedp.ActionFunc(func(ctx context.Context) error {
					return emulation.SetScriptExecutionDisabled(true).Do(ctx)
				}),
				chromedp.Navigate(base+path),
				chromedp.WaitVisible(`.schedule-noscript`, chromedp.ByQuery),
				chromedp.Text(`.schedule-noscript`, &text, chromedp.ByQuery),
				chromedp.AttributeValue(`.schedule-noscript a[href$="#contact"]`, "href", &contact, nil, chromedp.ByQuery),
				chromedp.AttributeValue(`.schedule-noscript a[href^="mailto:"]`, "href", &mailto, nil, chromedp.ByQuery),
			)
			if !strings.Contains(text, s.Locales.T(lang.Code, "schedule.noscript.text")) || !strings.Contains(text, s.Info.Email) {
				t.Errorf("notice %q", text)
			}
			if contact != lang.LocalPath("/")+"#contact" || mailto != "mailto:"+s.Info.Email {
				t.Errorf("links %q %q", contact, mailto)
			}
		})
	}
}

// TestBookingLoadingAndEmptyDay holds the slots request to see the
// "Loading..." state, then finds the days without open times (the
// consultancy's weekends) disabled, like the days out of range.
func TestBookingLoadingAndEmptyDay(t *testing.T) {
	b, _ := e2etest.Browser(t)
	s := sitetest.Site(t)
	weekdays := strings.NewReplacer(`"minimumNoticeHours": 12`, `"minimumNoticeHours": 0`).Replace(sitetest.BookingFixture)
	env := e2etest.NewBookingEnv(t, weekdays)
	srv := httptest.NewServer(env.Handler)
	defer srv.Close()
	tb := e2etest.NewTab(t, b)
	held := make(chan string, 4)
	chromedp.ListenTarget(tb.Ctx, func(ev any) {
		if e, ok := ev.(*fetch.EventRequestPaused); ok {
			held <- string(e.RequestID)
		}
	})
	var loading string
	tb.Run(t,
		e2etest.InZone("Europe/Berlin"),
		fetch.Enable().WithPatterns([]*fetch.RequestPattern{{URLPattern: "*/api/slots*"}}),
		chromedp.Navigate(srv.URL+"/de/schedule/discovery"),
		e2etest.WaitHydrated(),
		chromedp.WaitVisible(`.loading-inline`, chromedp.ByQuery),
		// The step says it is loading until the booking's chunk arrives, then the booking does until the times do.
		chromedp.Evaluate(`document.querySelector(".loading-inline")?.textContent ?? ""`, &loading),
	)
	if loading != s.Locales.T("de", "loading") {
		t.Errorf("loading state %q", loading)
	}
	for done := false; !done; {
		select {
		case id := <-held:
			tb.Run(t, fetch.ContinueRequest(e2etest.FetchRequestID(id)))
		case <-time.After(2 * time.Second):
			done = true
		}
	}
	// The consultancy's weekends have no open times: their days are
	// disabled like the days out of range, never offered to be picked.
	const weekend = `[...document.querySelectorAll('.calendar-grid button.day')].filter((b) => [0, 6].includes(new Date(b.dataset.date + "T12:00:00Z").getUTCDay()))`
	// In this month and the next, both within the bookable days' reach in part.
	var inReach, enabled [2]int
	tb.Run(t,
		fetch.Disable(),
		e2etest.WaitTimes(),
		chromedp.Evaluate(weekend+`.filter((b) => b.dataset.date >= document.querySelector('.calendar-grid button.day[data-open]').dataset.date).length`, &inReach[0]),
		chromedp.Evaluate(weekend+`.filter((b) => !b.disabled).length`, &enabled[0]),
		chromedp.Click(`.calendar-next`, chromedp.ByQuery),
		chromedp.WaitVisible(`.calendar-grid button.day[data-open]`, chromedp.ByQuery),
		chromedp.Evaluate(weekend+`.filter((b) => b.dataset.date <= [...document.querySelectorAll('.calendar-grid button.day[data-open]')].at(-1).dataset.date).length`, &inReach[1]),
		chromedp.Evaluate(weekend+`.filter((b) => !b.disabled).length`, &enabled[1]),
	)
	if inReach[0]+inReach[1] == 0 || enabled[0]+enabled[1] != 0 {
		t.Errorf("%v of the weekend days (%v within reach), which have no open times, can be picked", enabled, inReach)
	}
	if problems := tb.ConsoleProblems(); len(problems) > 0 {
		t.Errorf("console:\n%s", strings.Join(problems, "\n"))
	}
}

// TestCalendarWeekdaysFitAPhone opens the time step on a 320 px phone in
// every language: each weekday heading of the calendar stays on one line,
// and is a word one can read, not a single letter. Abbreviated names broke
// there in the middle ("sam." in French, every Arabic day, whose
// abbreviations are the whole words); single letters (Arabic's ن ث ر) were
// hard to read: a narrow calendar uses CLDR's short names ("Mo", "lu",
// "إثنين").
func TestCalendarWeekdaysFitAPhone(t *testing.T) {
	b, _ := e2etest.Browser(t)
	s := sitetest.Site(t)
	env := e2etest.NewBookingEnv(t, sitetest.BookingFixture)
	srv := httptest.NewServer(env.Handler)
	defer srv.Close()
	for _, lang := range s.Info.Languages {
		t.Run(lang.Code, func(t *testing.T) {
			tb := e2etest.NewTab(t, b)
			var headings []struct {
				Text  string `json:"text"`
				Full  string `json:"full"`
				Lines int    `json:"lines"`
			}
			tb.Run(t,
				e2etest.Viewport(320, true),
				chromedp.Navigate(srv.URL+lang.LocalPath("/schedule/discovery")),
				e2etest.WaitHydrated(),
				chromedp.WaitVisible(`.calendar-grid th`, chromedp.ByQuery),
				// The lines a heading's text takes: the distinct tops of its boxes.
				chromedp.Evaluate(`[...document.querySelectorAll(".calendar-grid th")].map((th) => {
					const range = document.createRange();
					range.selectNodeContents(th);
					const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
					return { text: th.innerText, full: th.getAttribute("abbr") ?? "", lines: tops.size };
				})`, &headings),
			)
			if len(headings) != 7 {
				t.Fatalf("%d weekday headings, want 7", len(headings))
			}
			for _, h := range headings {
				if h.Lines != 1 {
					t.Errorf("weekday %q takes %d lines", h.Text, h.Lines)
				}
				if utf8.RuneCountInString(strings.TrimRight(h.Text, ".")) < 2 {
					t.Errorf("weekday %q (%s) is a single letter", h.Text, h.Full)
				}
				if h.Full == "" {
					t.Errorf("weekday %q has no full name for screen readers (abbr)", h.Text)
				}
			}
		})
	}
}
