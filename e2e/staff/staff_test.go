package staff

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/cdproto/webauthn"
	"github.com/chromedp/chromedp"

	"github.com/northbeam/site/e2e/internal/e2etest"
	"github.com/northbeam/site/internal/sitetest"
	"github.com/northbeam/site/internal/staff"
)

// An invitation enrols a passkey and opens the inbox; signing out and in
// again with the passkey works; the invitation cannot be used twice; a
// mailed sign-in link works once.
func TestBrowserStaffPasskeys(t *testing.T) {
	b, _ := e2etest.Browser(t)
	env := e2etest.NewStaffBrowserEnv(t)
	locales := sitetest.Site(t).StaffLocales
	inv, err := env.Ws.Invite(context.Background(), "ada@northbeam.test", staff.ActorCommandLine)
	if err != nil {
		t.Fatal(err)
	}
	tb := e2etest.NewTab(t, b)
	laptop := e2etest.AddAuthenticator(t, tb)

	// The invitation: a button that says "passkey", which makes one.
	var label string
	tb.Run(t,
		chromedp.Navigate(inv.URL),
		e2etest.WaitWorkspace(),
		chromedp.Text(`main button`, &label, chromedp.ByQuery),
	)
	if label != "Create a passkey" {
		t.Errorf("the enrolment's button reads %q", label)
	}
	for lang, word := range map[string]string{"fr": "clé d’accès", "de": "Passkey", "ar": "مفتاح مرور"} {
		tb.Run(t, chromedp.Navigate(inv.URL+"&lang="+lang), e2etest.WaitWorkspace(), chromedp.Text(`main button`, &label, chromedp.ByQuery))
		if label != locales.T(lang, "enrol.create") || !strings.Contains(label, word) {
			t.Errorf("the enrolment's button in %s reads %q: it must say %q", lang, label, word)
		}
	}
	tb.Run(t, chromedp.Navigate(inv.URL), e2etest.WaitWorkspace())
	tb.Run(t, e2etest.PressButton("Create a passkey"), e2etest.WaitStaffPath("/staff"), e2etest.WaitMain(locales.T("en", "messages.empty")))
	var h1 string
	tb.Run(t, chromedp.Text(`main h1`, &h1, chromedp.ByQuery))
	if h1 != "Messages" {
		t.Errorf("the enrolment opened %q, want the inbox", h1)
	}
	if n := sitetest.Count(t, env.St, `SELECT count(*) FROM staff_passkeys`); n != 1 {
		t.Fatalf("%d passkeys stored", n)
	}

	// Out, and in again with the passkey.
	tb.Run(t,
		e2etest.PressButton("Sign out"),
		e2etest.WaitStaffPath("/staff/sign-in"),
		e2etest.WaitMain("Sign in with a passkey"),
		e2etest.PressButton("Sign in with a passkey"),
		e2etest.WaitStaffPath("/staff"),
		e2etest.WaitMain(locales.T("en", "messages.empty")),
	)
	var lastUsed int
	if err := env.St.QueryRowContext(context.Background(), `SELECT count(*) FROM staff_passkeys WHERE last_used_at IS NOT NULL`).Scan(&lastUsed); err != nil || lastUsed != 1 {
		t.Errorf("the passkey's sign-in was not recorded: %d %v", lastUsed, err)
	}

	// A second passkey, for a phone, from the account page: not on the
	// laptop, which has one already.
	tb.Run(t,
		chromedp.Navigate(env.Base+"/staff/account"),
		e2etest.WaitWorkspace(),
		// Named by the browser and system it was made on, until renamed.
		e2etest.WaitMain("Chrome on Linux"),
		e2etest.PressButton("Add a passkey"),
		e2etest.WaitMain(locales.T("en", "account.passkeyExists")),
		chromedp.ActionFunc(func(ctx context.Context) error {
			return webauthn.RemoveVirtualAuthenticator(laptop).Do(ctx)
		}),
	)
	e2etest.AddAuthenticator(t, tb) // the phone
	tb.Run(t,
		e2etest.PressButton("Add a passkey"),
		e2etest.WaitMain(locales.T("en", "account.passkeyAdded")),
		chromedp.Click(`(//button[normalize-space(.)="Rename"])[2]`, chromedp.BySearch),
		chromedp.SendKeys(`main form input[name=name]`, "Ada’s phone", chromedp.ByQuery),
		e2etest.PressButton("Save the name"),
		e2etest.WaitMain("Ada’s phone"),
	)

	// The invitation again: refused, with a page that says why.
	var code int64
	tb.Run(t,
		chromedp.Navigate(inv.URL),
		e2etest.WaitWorkspace(),
		e2etest.WaitMain(locales.T("en", "enrol.used")),
		e2etest.HTTPStatus(&code),
	)
	if code != 410 {
		t.Errorf("a used invitation answers %d, want 410", code)
	}
	if n := sitetest.Count(t, env.St, `SELECT count(*) FROM staff_passkeys`); n != 2 {
		t.Errorf("%d passkeys, want 2", n)
	}

	// The mailed link, in a browser without the passkey: once.
	other := e2etest.NewTab(t, b)
	other.Run(t,
		chromedp.Navigate(env.Base+"/staff/bookings"),
		e2etest.WaitStaffPath("/staff/sign-in"),
		e2etest.WaitMain("Sign in with a passkey"),
		chromedp.SendKeys(`input[type=email]`, "ada@northbeam.test", chromedp.ByQuery),
		e2etest.PressButton("Email me a sign-in link"),
		e2etest.WaitMain(locales.T("en", "signIn.sent")),
	)
	link := env.LatestLink(t)
	other.Run(t,
		chromedp.Navigate(env.Base+link),
		e2etest.WaitWorkspace(),
		e2etest.PressButton("Sign in"),
		e2etest.WaitStaffPath("/staff"),
		e2etest.WaitMain(locales.T("en", "messages.empty")),
		e2etest.PressButton("Sign out"),
		e2etest.WaitStaffPath("/staff/sign-in"),
		chromedp.Navigate(env.Base+link),
		e2etest.WaitWorkspace(),
		e2etest.WaitMain(locales.T("en", "link.used")),
		e2etest.HTTPStatus(&code),
	)
	if code != 410 {
		t.Errorf("a used link answers %d, want 410", code)
	}
	for _, tab := range []*e2etest.Tab{tb, other} {
		if problems := tab.ConsoleProblems(); len(problems) > 0 {
			t.Errorf("console:\n%s", strings.Join(problems, "\n"))
		}
	}
	var actions []string
	rows, err := env.St.QueryContext(context.Background(), `SELECT action || ':' || detail FROM staff_audit ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var a string
		if err := rows.Scan(&a); err != nil {
			t.Fatal(err)
		}
		actions = append(actions, a)
	}
	rows.Close()
	want := "invitation: enrolment: sign-out: sign-in:passkey passkey-added: sign-in:link sign-out:"
	if got := strings.Join(actions, " "); got != want {
		t.Errorf("audit log:\n got %s\nwant %s", got, want)
	}
}

// axe finds no violation on the workspace's pages, in English and in
// Arabic (right to left), and each page fits a phone's screen.
func TestBrowserStaffAccessibility(t *testing.T) {
	b, _ := e2etest.Browser(t)
	env := e2etest.NewStaffBrowserEnv(t)
	locales := sitetest.Site(t).StaffLocales
	axe := e2etest.AxeSource(t)
	e2etest.FillWorkspace(t, env)
	inv, err := env.Ws.Invite(context.Background(), "ada@northbeam.test", staff.ActorCommandLine)
	if err != nil {
		t.Fatal(err)
	}
	check := func(t *testing.T, tb *e2etest.Tab, what string) {
		t.Helper()
		for _, v := range e2etest.RunAxe(t, tb, axe) {
			var where []string
			for _, n := range v.Nodes {
				where = append(where, fmt.Sprint(n.Target))
			}
			t.Errorf("%s: %s: %s at %s", what, v.ID, v.Help, strings.Join(where, ", "))
		}
	}
	for _, lang := range []string{sitetest.Default(t).Code, sitetest.RightToLeft(t).Code} { // the default language, and one written right to left
		t.Run(lang, func(t *testing.T) {
			tb := e2etest.NewTab(t, b)
			// The pages before the sign-in.
			for _, target := range []string{"/staff/sign-in?lang=" + lang, inv.URL[len(env.Base):] + "&lang=" + lang, "/staff/link?token=nope&lang=" + lang} {
				tb.Run(t, chromedp.Navigate(env.Base+target), e2etest.WaitWorkspace())
				check(t, tb, target)
			}
			env.SignInByLink(t, tb, "ada@northbeam.test")
			tb.Run(t, chromedp.Evaluate(fmt.Sprintf(`fetch("/staff/api/me/language", {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify({lang: %q})}).then((r) => r.status)`, lang), nil,
				func(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) }))
			var dir string
			for _, p := range e2etest.StaffPages {
				tb.Run(t, chromedp.Navigate(env.Base+p.Path), e2etest.WaitWorkspace())
				if p.Prepare != nil {
					tb.Run(t, p.Prepare())
				}
				tb.Run(t, e2etest.WaitMain(e2etest.PageText(locales, lang, p.Key)), chromedp.Evaluate(`document.documentElement.dir`, &dir))
				if l, _ := sitetest.Info(t).Language(lang); dir != l.Dir {
					t.Errorf("%s in %s: dir=%q", p.Path, lang, dir)
				}
				check(t, tb, p.Path)
			}
			if problems := tb.ConsoleProblems(); len(problems) > 0 {
				t.Errorf("console:\n%s", strings.Join(problems, "\n"))
			}
		})
	}
}

// The workspace works on a phone: no page is wider than the screen, the
// navigation opens from its menu button, and a message is read there.
func TestBrowserStaffOnAPhone(t *testing.T) {
	b, _ := e2etest.Browser(t)
	env := e2etest.NewStaffBrowserEnv(t)
	e2etest.FillWorkspace(t, env)
	if _, err := env.Ws.Invite(context.Background(), "ada@northbeam.test", staff.ActorCommandLine); err != nil {
		t.Fatal(err)
	}
	tb := e2etest.NewTab(t, b)
	tb.Run(t, chromedp.ActionFunc(func(ctx context.Context) error {
		return emulation.SetDeviceMetricsOverride(390, 844, 3, true).Do(ctx)
	}))
	for _, target := range []string{"/staff/sign-in", "/staff/sign-in?lang=ar", "/staff/link?token=nope&lang=de"} {
		tb.Run(t, chromedp.Navigate(env.Base+target), e2etest.WaitWorkspace())
		if overflow := e2etest.Overflowing(t, tb); len(overflow) > 0 {
			t.Errorf("%s is wider than a phone: %v", target, overflow)
		}
	}
	env.SignInByLink(t, tb, "ada@northbeam.test")
	for _, lang := range []string{sitetest.Default(t).Code, sitetest.RightToLeft(t).Code} { // the default language, and one written right to left
		tb.Run(t, chromedp.Evaluate(fmt.Sprintf(`fetch("/staff/api/me/language", {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify({lang: %q})}).then((r) => r.status)`, lang), nil,
			func(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) }))
		for _, p := range e2etest.StaffPages {
			tb.Run(t, chromedp.Navigate(env.Base+p.Path), e2etest.WaitWorkspace())
			if p.Prepare != nil {
				tb.Run(t, p.Prepare())
			}
			tb.Run(t, e2etest.WaitMain(e2etest.PageText(sitetest.Site(t).StaffLocales, lang, p.Key)))
			if overflow := e2etest.Overflowing(t, tb); len(overflow) > 0 {
				t.Errorf("%s in %s is wider than a phone: %v", p.Path, lang, overflow)
			}
		}
	}
	var navShown bool
	tb.Run(t,
		chromedp.Navigate(env.Base+"/staff"),
		e2etest.WaitWorkspace(),
		chromedp.Evaluate(`getComputedStyle(document.getElementById("ws-nav")).display !== "none"`, &navShown),
	)
	if navShown {
		t.Error("the navigation takes the phone's screen before the menu is opened")
	}
	tb.Run(t,
		chromedp.Click(`.ws-menu-button`, chromedp.ByQuery),
		chromedp.WaitVisible(`#ws-nav a[href="/staff/bookings"]`, chromedp.ByQuery),
		chromedp.Click(`#ws-nav a[href="/staff/bookings"]`, chromedp.ByQuery),
		e2etest.WaitStaffPath("/staff/bookings"),
	)
}
