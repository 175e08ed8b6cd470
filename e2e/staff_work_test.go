package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/northbeam/site/internal/sitetest"
	"github.com/northbeam/site/internal/staff"
)

// setStaffLanguage makes the signed-in member's workspace speak lang.
func setStaffLanguage(t *testing.T, tb *tab, lang string) {
	t.Helper()
	tb.run(t, chromedp.Evaluate(fmt.Sprintf(`fetch("/staff/api/me/language", {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify({lang: %q})}).then((r) => r.status)`, lang), nil,
		func(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) }))
}

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
	b, _ := browser(t)
	env := newStaffBrowserEnv(t)
	fillWorkspace(t, env)
	if _, err := env.ws.Invite(context.Background(), "ada@northbeam.test", staff.ActorCommandLine); err != nil {
		t.Fatal(err)
	}
	locales := sitetest.Site(t).StaffLocales
	dir := screenshotDir(t)
	tb := newTab(t, b)
	env.signInByLink(t, tb, "ada@northbeam.test")
	firstDay := time.Now().Add(26 * time.Hour).In(env.ws.Location()).Format(time.DateOnly)

	// A note on a booking, from its page: in the audit log with its text.
	setStaffLanguage(t, tb, "en")
	tb.run(t,
		viewport(1280, false),
		chromedp.Navigate(env.base+"/staff/bookings/1"),
		waitMain(locales.T("en", "notes.empty")),
		chromedp.SendKeys(`main textarea[name=note]`, "Prefers to be called in the morning.", chromedp.ByQuery),
		pressButton(locales.T("en", "notes.add")),
		waitMain("Prefers to be called in the morning."),
		chromedp.Navigate(env.base+"/staff/audit"),
		waitMain("Prefers to be called in the morning."),
	)

	// A move for the visitor from the booking's page: the first free time
	// of the next weekday.
	day := time.Now().In(env.ws.Location()).AddDate(0, 0, 2)
	for day.Weekday() == time.Saturday || day.Weekday() == time.Sunday {
		day = day.AddDate(0, 0, 1)
	}
	tb.run(t,
		chromedp.Navigate(env.base+"/staff/bookings/2"),
		waitMain(locales.T("en", "agenda.moveTitle")),
		// The date as a person picks it: React hears the input's own setter.
		chromedp.Evaluate(fmt.Sprintf(`(() => {
			const el = document.querySelector("main .ws-slots input[type=date]");
			Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value").set.call(el, %q);
			el.dispatchEvent(new Event("input", {bubbles: true}));
		})()`, day.Format(time.DateOnly)), nil),
		waitTrue(`document.querySelector("main .ws-slot input") !== null`),
	)
	keepScreenshot(t, tb, dir, "staff-booking-en-1280", true)
	tb.run(t,
		chromedp.Click(`main .ws-slot input`, chromedp.ByQuery),
		pressButton(locales.T("en", "agenda.move")),
		waitMain(locales.T("en", "agenda.moved")),
	)
	if n := sitetest.Count(t, env.st, `SELECT count(*) FROM outbox WHERE kind = 'booking.moved' AND to_addr = 'j@example.com'`); n != 1 {
		t.Errorf("%d \"moved\" mails to the visitor after the move from the page", n)
	}
	var movedTo string
	if err := env.st.QueryRowContext(context.Background(), `SELECT detail FROM staff_audit WHERE action = 'booking-move'`).Scan(&movedTo); err != nil ||
		!strings.Contains(movedTo, "→ "+day.Format(time.DateOnly)+" 09:00") {
		t.Errorf("the move went to %q, want the first time of %s: %v", movedTo, day.Format(time.DateOnly), err)
	}

	// The French visitor's message: read once opened (the navigation's
	// count goes down), answered in French from the English workspace, and
	// filed as spam by hand.
	var unreadBefore, unreadAfter, reply string
	tb.run(t,
		chromedp.Navigate(env.base+"/staff"),
		waitMain(locales.T("en", "messages.unread")),
		chromedp.Text(`#ws-nav a[href="/staff"] .ws-count`, &unreadBefore, chromedp.ByQuery),
		chromedp.Navigate(env.base+"/staff/messages/00000001-0000-4000-8000-000000000000"),
		waitTrue(`document.querySelector("main a[href^='mailto:']") !== null`),
		chromedp.AttributeValue(`main a[href^='mailto:']`, "href", &reply, nil, chromedp.ByQuery),
		waitTrue(`document.querySelector('#ws-nav a[href="/staff"][aria-current="page"]') !== null`),
		chromedp.Navigate(env.base+"/staff/audit"),
		waitWorkspace(),
		chromedp.Text(`#ws-nav a[href="/staff"] .ws-count`, &unreadAfter, chromedp.ByQuery),
	)
	if unreadBefore != "2" || unreadAfter != "1" {
		t.Errorf("the navigation counts %q unread messages, then %q once one was opened; want 2, then 1", unreadBefore, unreadAfter)
	}
	if !strings.Contains(reply, "subject=Re%20%3A%20votre%20message") || !strings.Contains(reply, "a%20%C3%A9crit") {
		t.Errorf("the reply to a French visitor is not in French: %s", reply)
	}
	tb.run(t,
		chromedp.Navigate(env.base+"/staff/messages/00000001-0000-4000-8000-000000000000"),
		pressButton(locales.T("en", "messages.markSpam")),
		waitMain(locales.T("en", "messages.spamDone")),
		waitMain(locales.T("en", "messages.spamByStaff")),
	)

	// A mail of the outbox, read in the workspace.
	tb.run(t,
		chromedp.Navigate(env.base+"/staff/mail"),
		waitMain(locales.T("en", "mail.outboxTitle")),
		chromedp.Click(`//section[@aria-labelledby="ws-mail-outbox"]//h3/a[normalize-space(.)="Merci"]`, chromedp.BySearch),
		waitTrue(`document.querySelector("main pre.ws-mail-text")?.innerText === "Merci"`),
	)

	// Escape closes the menu on a phone, and the focus goes back to its button.
	var navShown, focused bool
	tb.run(t,
		viewport(390, true),
		chromedp.Navigate(env.base+"/staff/bookings"),
		waitWorkspace(),
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
	inv, err := env.ws.Invite(context.Background(), "grete@northbeam.test", staff.ActorCommandLine)
	if err != nil {
		t.Fatal(err)
	}
	other := newTab(t, b)
	addAuthenticator(t, other)
	var htmlLang string
	other.run(t,
		chromedp.Navigate(inv.URL+"&lang=de"),
		waitWorkspace(),
		pressButton(locales.T("de", "enrol.create")),
		waitStaffPath("/staff"),
		waitMain(locales.T("de", "messages.title")),
		chromedp.Evaluate(`document.documentElement.lang`, &htmlLang),
	)
	if htmlLang != "de" {
		t.Errorf("the workspace after a German invitation speaks %q", htmlLang)
	}

	for _, lang := range []string{sitetest.Default(t).Code, sitetest.RightToLeft(t).Code} { // the default language, and one written right to left
		setStaffLanguage(t, tb, lang)
		for _, width := range []int64{390, 1280} {
			tb.run(t, viewport(width, width < 600))
			// The week of the first consultation.
			tb.run(t,
				chromedp.Navigate(env.base+"/staff/bookings?view=week&date="+firstDay),
				waitMain(locales.T(lang, "agenda.thisWeek")),
				waitTrue(`document.querySelectorAll("main .ws-week-day").length === 7`),
			)
			var tops []float64
			tb.run(t, chromedp.Evaluate(`[...document.querySelectorAll("main .ws-week-day")].map((d) => d.getBoundingClientRect().top)`, &tops))
			sameRow := len(tops) == 7 && tops[0] == tops[6]
			if width == 1280 && !sameRow {
				t.Errorf("the week in %s at 1280 px is not a row of seven days: tops %v", lang, tops)
			}
			if width == 390 && sameRow {
				t.Errorf("the week in %s at 390 px squeezes seven columns into a phone", lang)
			}
			if overflow := overflowing(t, tb); len(overflow) > 0 {
				t.Errorf("the week in %s at %d px is wider than the screen: %v", lang, width, overflow)
			}
			// (A whole-page capture of a right-to-left page as wide as the
			// screen comes out shifted sideways: the screen is enough there.)
			keepScreenshot(t, tb, dir, fmt.Sprintf("staff-week-%s-%d", lang, width), width < 600)

			// The audit log: every cell on the screen, none to the side.
			tb.run(t, chromedp.Navigate(env.base+"/staff/audit"), waitMain(locales.T(lang, "audit.actions.signIn")))
			var outside []string
			tb.run(t, chromedp.Evaluate(`(() => {
				const w = document.documentElement.clientWidth;
				return [...document.querySelectorAll("main td")].filter((td) => {
					const r = td.getBoundingClientRect();
					return r.left < -1 || r.right > w + 1;
				}).map((td) => td.dataset.label + ": " + td.innerText.slice(0, 30));
			})()`, &outside))
			if len(outside) > 0 {
				t.Errorf("the audit log in %s at %d px has cells off the screen: %v", lang, width, outside)
			}
			keepScreenshot(t, tb, dir, fmt.Sprintf("staff-audit-%s-%d", lang, width), width < 600)

			// The number to call and the times, left to right inside right-to-left text.
			tb.run(t, chromedp.Navigate(env.base+"/staff/bookings/1"), waitMain("+49 30 901820"))
			if lang == "ar" {
				// Each number (a run of digits, with the spaces and colons
				// inside it: "+49 30 901820", "14:00") must be drawn left to
				// right; the words between them follow the Arabic order.
				for _, sel := range []string{`main dd a[href^="tel:"] bdi`, `main dd time`} {
					var runs [][]float64
					tb.run(t, chromedp.Evaluate(fmt.Sprintf(`(() => {
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
			keepScreenshot(t, tb, dir, fmt.Sprintf("staff-booking-%s-%d", lang, width), true)
			tb.run(t, chromedp.Navigate(env.base+"/staff/mail"), waitMain(locales.T(lang, "mail.outboxTitle")))
			keepScreenshot(t, tb, dir, fmt.Sprintf("staff-mail-%s-%d", lang, width), false)
			tb.run(t, chromedp.Navigate(env.base+"/staff/account"), waitMain(locales.T(lang, "account.thisSession")))
			keepScreenshot(t, tb, dir, fmt.Sprintf("staff-account-%s-%d", lang, width), true)
			tb.run(t, chromedp.Navigate(env.base+"/staff"), waitMain(locales.T(lang, "messages.title")))
			keepScreenshot(t, tb, dir, fmt.Sprintf("staff-inbox-%s-%d", lang, width), false)
		}
	}
	if problems := tb.consoleProblems(); len(problems) > 0 {
		t.Errorf("console:\n%s", strings.Join(problems, "\n"))
	}
}
