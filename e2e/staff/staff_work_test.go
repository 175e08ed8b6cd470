package staff

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/northbeam/site/e2e/internal/e2etest"
	"github.com/northbeam/site/internal/sitetest"
	"github.com/northbeam/site/internal/staff"
)

// The staff's everyday work in a browser, in Arabic and English, at a
// phone's and a desktop's width: messages read and counted, a reply in the
// visitor's language, a message filed as spam, a mail of the outbox read,
// Escape closing the phone's menu, an invitation's language kept; the
// audit log fits a phone as a card per
// entry, every part on the screen; the number to call and the times read
// left to right inside Arabic text, measured where they are drawn; the
// week shows its seven days, side by side on a desktop; a booking is moved
// for its visitor from the page, who is mailed the new time; a note is
// written and shows in the audit log. SCREENSHOT_DIR keeps screenshots.
func TestBrowserStaffWork(t *testing.T) {
	b, _ := e2etest.Browser(t)
	env := e2etest.NewStaffBrowserEnv(t)
	e2etest.FillWorkspace(t, env)
	if _, err := env.Ws.Invite(context.Background(), "ada@northbeam.test", staff.ActorCommandLine); err != nil {
		t.Fatal(err)
	}
	locales := sitetest.Site(t).StaffLocales
	dir := e2etest.ScreenshotDir(t)
	tb := e2etest.NewTab(t, b)
	env.SignInByLink(t, tb, "ada@northbeam.test")
	firstDay := time.Now().Add(26 * time.Hour).In(env.Ws.Location()).Format(time.DateOnly)

	// A note on a booking, from its page: in the audit log with its text.
	e2etest.SetStaffLanguage(t, tb, "en")
	tb.Run(t,
		e2etest.Viewport(1280, false),
		chromedp.Navigate(env.Base+"/staff/bookings/1"),
		e2etest.WaitMain(locales.T("en", "notes.empty")),
		chromedp.SendKeys(`main textarea[name=note]`, "Prefers to be called in the morning.", chromedp.ByQuery),
		e2etest.PressButton(locales.T("en", "notes.add")),
		e2etest.WaitMain("Prefers to be called in the morning."),
		chromedp.Navigate(env.Base+"/staff/audit"),
		e2etest.WaitMain("Prefers to be called in the morning."),
	)

	// A move for the visitor from the booking's page: the first free time
	// of the next weekday.
	day := time.Now().In(env.Ws.Location()).AddDate(0, 0, 2)
	for day.Weekday() == time.Saturday || day.Weekday() == time.Sunday {
		day = day.AddDate(0, 0, 1)
	}
	tb.Run(t,
		chromedp.Navigate(env.Base+"/staff/bookings/2"),
		e2etest.WaitMain(locales.T("en", "agenda.moveTitle")),
		// The date as a person picks it: React hears the input's own setter.
		chromedp.Evaluate(fmt.Sprintf(`(() => {
			const el = document.querySelector("main .ws-slots input[type=date]");
			Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value").set.call(el, %q);
			el.dispatchEvent(new Event("input", {bubbles: true}));
		})()`, day.Format(time.DateOnly)), nil),
		e2etest.WaitTrue(`document.querySelector("main .ws-slot input") !== null`),
	)
	e2etest.KeepScreenshot(t, tb, dir, "staff-booking-en-1280", true)
	tb.Run(t,
		chromedp.Click(`main .ws-slot input`, chromedp.ByQuery),
		e2etest.PressButton(locales.T("en", "agenda.move")),
		e2etest.WaitMain(locales.T("en", "agenda.moved")),
	)
	if n := sitetest.Count(t, env.St, `SELECT count(*) FROM outbox WHERE kind = 'booking.moved' AND to_addr = 'j@example.com'`); n != 1 {
		t.Errorf("%d \"moved\" mails to the visitor after the move from the page", n)
	}
	var movedTo string
	if err := env.St.QueryRowContext(context.Background(), `SELECT detail FROM staff_audit WHERE action = 'booking-move'`).Scan(&movedTo); err != nil ||
		!strings.Contains(movedTo, "→ "+day.Format(time.DateOnly)+" 09:00") {
		t.Errorf("the move went to %q, want the first time of %s: %v", movedTo, day.Format(time.DateOnly), err)
	}

	// The French visitor's message: read once opened (the navigation's
	// count goes down), answered in French from the English workspace, and
	// filed as spam by hand.
	var unreadBefore, unreadAfter, reply string
	tb.Run(t,
		chromedp.Navigate(env.Base+"/staff"),
		e2etest.WaitMain(locales.T("en", "messages.unread")),
		chromedp.Text(`#ws-nav a[href="/staff"] .ws-count`, &unreadBefore, chromedp.ByQuery),
		chromedp.Navigate(env.Base+"/staff/messages/00000001-0000-4000-8000-000000000000"),
		e2etest.WaitTrue(`document.querySelector("main a[href^='mailto:']") !== null`),
		chromedp.AttributeValue(`main a[href^='mailto:']`, "href", &reply, nil, chromedp.ByQuery),
		e2etest.WaitTrue(`document.querySelector('#ws-nav a[href="/staff"][aria-current="page"]') !== null`),
		chromedp.Navigate(env.Base+"/staff/audit"),
		e2etest.WaitWorkspace(),
		chromedp.Text(`#ws-nav a[href="/staff"] .ws-count`, &unreadAfter, chromedp.ByQuery),
	)
	if unreadBefore != "2" || unreadAfter != "1" {
		t.Errorf("the navigation counts %q unread messages, then %q once one was opened; want 2, then 1", unreadBefore, unreadAfter)
	}
	if !strings.Contains(reply, "subject=Re%20%3A%20votre%20message") || !strings.Contains(reply, "a%20%C3%A9crit") {
		t.Errorf("the reply to a French visitor is not in French: %s", reply)
	}
	tb.Run(t,
		chromedp.Navigate(env.Base+"/staff/messages/00000001-0000-4000-8000-000000000000"),
		e2etest.PressButton(locales.T("en", "messages.markSpam")),
		e2etest.WaitMain(locales.T("en", "messages.spamDone")),
		e2etest.WaitMain(locales.T("en", "messages.spamByStaff")),
	)

	// A mail of the outbox, read in the workspace.
	tb.Run(t,
		chromedp.Navigate(env.Base+"/staff/mail"),
		e2etest.WaitMain(locales.T("en", "mail.outboxTitle")),
		chromedp.Click(`//section[@aria-labelledby="ws-mail-outbox"]//h3/a[normalize-space(.)="Merci"]`, chromedp.BySearch),
		e2etest.WaitTrue(`document.querySelector("main pre.ws-mail-text")?.innerText === "Merci"`),
	)

	// Escape closes the menu on a phone, and the focus goes back to its button.
	var navShown, focused bool
	tb.Run(t,
		e2etest.Viewport(390, true),
		chromedp.Navigate(env.Base+"/staff/bookings"),
		e2etest.WaitWorkspace(),
		chromedp.Click(`.ws-menu-button`, chromedp.ByQuery),
		chromedp.WaitVisible(`#ws-nav a[href="/staff/bookings"]`, chromedp.ByQuery),
		chromedp.KeyEvent("\x1b"),
		chromedp.Sleep(100*time.Millisecond),
		chromedp.Evaluate(`getComputedStyle(document.getElementById("ws-nav")).display !== "none"`, &navShown),
		chromedp.Evaluate(`document.activeElement === document.querySelector(".ws-menu-button")`, &focused),
	)
	if navShown || !focused {
		t.Errorf("after Escape, the menu is shown: %v; the focus is on its button: %v", navShown, focused)
	}

	// An invitation read in German opens a German workspace.
	inv, err := env.Ws.Invite(context.Background(), "grete@northbeam.test", staff.ActorCommandLine)
	if err != nil {
		t.Fatal(err)
	}
	other := e2etest.NewTab(t, b)
	e2etest.AddAuthenticator(t, other)
	var htmlLang string
	other.Run(t,
		chromedp.Navigate(inv.URL+"&lang=de"),
		e2etest.WaitWorkspace(),
		e2etest.PressButton(locales.T("de", "enrol.create")),
		e2etest.WaitStaffPath("/staff"),
		e2etest.WaitMain(locales.T("de", "messages.title")),
		chromedp.Evaluate(`document.documentElement.lang`, &htmlLang),
	)
	if htmlLang != "de" {
		t.Errorf("the workspace after a German invitation speaks %q", htmlLang)
	}

	for _, lang := range []string{sitetest.Default(t).Code, sitetest.RightToLeft(t).Code} { // the default language, and one written right to left
		e2etest.SetStaffLanguage(t, tb, lang)
		for _, width := range []int64{390, 1280} {
			tb.Run(t, e2etest.Viewport(width, width < 600))
			// The week of the first consultation.
			tb.Run(t,
				chromedp.Navigate(env.Base+"/staff/bookings?view=week&date="+firstDay),
				e2etest.WaitMain(locales.T(lang, "agenda.thisWeek")),
				e2etest.WaitTrue(`document.querySelectorAll("main .ws-week-day").length === 7`),
			)
			var tops []float64
			tb.Run(t, chromedp.Evaluate(`[...document.querySelectorAll("main .ws-week-day")].map((d) => d.getBoundingClientRect().top)`, &tops))
			sameRow := len(tops) == 7 && tops[0] == tops[6]
			if width == 1280 && !sameRow {
				t.Errorf("the week in %s at 1280 px is not a row of seven days: tops %v", lang, tops)
			}
			if width == 390 && sameRow {
				t.Errorf("the week in %s at 390 px squeezes seven columns into a phone", lang)
			}
			if overflow := e2etest.Overflowing(t, tb); len(overflow) > 0 {
				t.Errorf("the week in %s at %d px is wider than the screen: %v", lang, width, overflow)
			}
			// (A whole-page capture of a right-to-left page as wide as the
			// screen comes out shifted sideways: the screen is enough there.)
			e2etest.KeepScreenshot(t, tb, dir, fmt.Sprintf("staff-week-%s-%d", lang, width), width < 600)

			// The audit log: every cell on the screen, none to the side.
			tb.Run(t, chromedp.Navigate(env.Base+"/staff/audit"), e2etest.WaitMain(locales.T(lang, "audit.actions.signIn")))
			var outside []string
			tb.Run(t, chromedp.Evaluate(`(() => {
				const w = document.documentElement.clientWidth;
				return [...document.querySelectorAll("main td")].filter((td) => {
					const r = td.getBoundingClientRect();
					return r.left < -1 || r.right > w + 1;
				}).map((td) => td.dataset.label + ": " + td.innerText.slice(0, 30));
			})()`, &outside))
			if len(outside) > 0 {
				t.Errorf("the audit log in %s at %d px has cells off the screen: %v", lang, width, outside)
			}
			e2etest.KeepScreenshot(t, tb, dir, fmt.Sprintf("staff-audit-%s-%d", lang, width), width < 600)

			// The number to call and the times, left to right inside right-to-left text.
			tb.Run(t, chromedp.Navigate(env.Base+"/staff/bookings/1"), e2etest.WaitMain("+49 30 901820"))
			if lang == "ar" {
				// Each number (a run of digits, with the spaces and colons
				// inside it: "+49 30 901820", "14:00") must be drawn left to
				// right; the words between them follow the Arabic order.
				for _, sel := range []string{`main dd a[href^="tel:"] bdi`, `main dd time`} {
					var runs [][]float64
					tb.Run(t, chromedp.Evaluate(fmt.Sprintf(`(() => {
						const el = document.querySelector(%q);
						const text = el.firstChild.nodeType === 3 ? el.firstChild : el.firstChild.firstChild;
						const runs = [];
						let run = [];
						[...text.data].forEach((c, i) => {
							if (/[0-9+]/.test(c)) {
								const r = document.createRange();
								r.setStart(text, i);
								r.setEnd(text, i + 1);
								run.push(r.getBoundingClientRect().left);
							} else if (!/[ :]/.test(c) && run.length) {
								runs.push(run);
								run = [];
							}
						});
						if (run.length) runs.push(run);
						return runs;
					})()`, sel), &runs))
					digits := 0
					for _, run := range runs {
						digits += len(run)
						for i := 1; i < len(run); i++ {
							if run[i] < run[i-1] {
								t.Errorf("%s at %d px: a number of %s is drawn right to left: %v", lang, width, sel, run)
								break
							}
						}
					}
					if digits < 4 {
						t.Errorf("%s: no number measured in %s: %v", lang, sel, runs)
					}
				}
			}
			e2etest.KeepScreenshot(t, tb, dir, fmt.Sprintf("staff-booking-%s-%d", lang, width), true)
			tb.Run(t, chromedp.Navigate(env.Base+"/staff/mail"), e2etest.WaitMain(locales.T(lang, "mail.outboxTitle")))
			e2etest.KeepScreenshot(t, tb, dir, fmt.Sprintf("staff-mail-%s-%d", lang, width), false)
			tb.Run(t, chromedp.Navigate(env.Base+"/staff/account"), e2etest.WaitMain(locales.T(lang, "account.thisSession")))
			e2etest.KeepScreenshot(t, tb, dir, fmt.Sprintf("staff-account-%s-%d", lang, width), true)
			tb.Run(t, chromedp.Navigate(env.Base+"/staff"), e2etest.WaitMain(locales.T(lang, "messages.title")))
			e2etest.KeepScreenshot(t, tb, dir, fmt.Sprintf("staff-inbox-%s-%d", lang, width), false)
		}
	}
	if problems := tb.ConsoleProblems(); len(problems) > 0 {
		t.Errorf("console:\n%s", strings.Join(problems, "\n"))
	}
}
