package e2e

import (
	"context"
	"crypto/tls"
	"fmt"
	"net"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/cdproto/webauthn"
	"github.com/chromedp/chromedp"

	"github.com/northbeam/site/handlers"
	"github.com/northbeam/site/internal/booking"
	"github.com/northbeam/site/internal/contact"
	"github.com/northbeam/site/internal/mail"
	"github.com/northbeam/site/internal/site"
	"github.com/northbeam/site/internal/sitetest"
	"github.com/northbeam/site/internal/staff"
	"github.com/northbeam/site/internal/store"
	"github.com/northbeam/site/internal/store/storetest"
)

// The staff workspace in a real browser. Passkeys need a secure context
// and a relying party that is a domain name, not an IP address: the
// workspace runs over https at https://localhost:<port>, with the
// certificate the test browser trusts (tls_test.go), and Chromium's
// virtual authenticator (the DevTools WebAuthn domain) plays the person's
// device: a platform authenticator with user verification.

// staffBrowserEnv is a workspace served over https on localhost.
type staffBrowserEnv struct {
	base string
	st   *store.Store
	ws   *staff.Workspace
}

func newStaffBrowserEnv(t *testing.T) *staffBrowserEnv {
	t.Helper()
	srv := httptest.NewUnstartedServer(nil)
	port := srv.Listener.Addr().(*net.TCPAddr).Port
	base := fmt.Sprintf("https://localhost:%d", port)
	st := storetest.Open(t, store.SQLite)
	// The booking service behind the agenda's moves, bookings by hand and
	// free times.
	bookings := sitetest.BookingService(t, st, sitetest.BookingFixture, time.Now)
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
	cert, _ := browserTLS()
	srv.TLS = &tls.Config{Certificates: []tls.Certificate{cert}}
	srv.StartTLS()
	t.Cleanup(srv.Close)
	return &staffBrowserEnv{base: base, st: st, ws: ws}
}

// addAuthenticator gives the tab a device that makes and keeps passkeys,
// unlocked by its owner.
func addAuthenticator(t *testing.T, tb *tab) webauthn.AuthenticatorID {
	t.Helper()
	var id webauthn.AuthenticatorID
	tb.run(t, chromedp.ActionFunc(func(ctx context.Context) error {
		if err := webauthn.Enable().Do(ctx); err != nil {
			return err
		}
		var err error
		id, err = webauthn.AddVirtualAuthenticator(&webauthn.VirtualAuthenticatorOptions{
			Protocol: webauthn.AuthenticatorProtocolCtap2, Ctap2version: webauthn.Ctap2versionCtap21,
			Transport: webauthn.AuthenticatorTransportInternal, HasResidentKey: true,
			HasUserVerification: true, IsUserVerified: true, AutomaticPresenceSimulation: true,
		}).Do(ctx)
		return err
	}))
	return id
}

// waitWorkspace waits until the workspace's script has rendered the page.
func waitWorkspace() chromedp.Action {
	return chromedp.WaitVisible(`html[data-ready="true"] main h1`, chromedp.ByQuery)
}

// pressButton presses the button whose text is label.
func pressButton(label string) chromedp.Action {
	return chromedp.Click(fmt.Sprintf(`//button[normalize-space(.)=%q]`, label), chromedp.BySearch)
}

// waitMain waits until the main landmark shows text.
func waitMain(text string) chromedp.Action {
	return waitTrue(fmt.Sprintf(`document.querySelector("html[data-ready=true] main")?.innerText.includes(%q) === true`, text))
}

// waitStaffPath waits until the address bar shows path, and the page there
// is rendered.
func waitStaffPath(path string) chromedp.Action {
	return waitTrue(fmt.Sprintf(`location.pathname === %q && document.querySelector("html[data-ready=true] main h1") !== null`, path))
}

// waitTrue evaluates expr until it is true, through the navigations a
// sign-in makes (an evaluation cut by one is tried again).
func waitTrue(expr string) chromedp.Action { return untilTrue(expr, 15*time.Second) }

// untilTrue evaluates expr until it is true, within, through the page's
// navigations and reloads (an evaluation cut by one is tried again).
func untilTrue(expr string, within time.Duration) chromedp.Action {
	return chromedp.ActionFunc(func(ctx context.Context) error {
		deadline := time.Now().Add(within)
		for {
			var ok bool
			err := chromedp.Evaluate(expr, &ok).Do(ctx)
			if err == nil && ok {
				return nil
			}
			if time.Now().After(deadline) {
				return fmt.Errorf("waited %s for %s (last error: %v)", within, expr, err)
			}
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(100 * time.Millisecond):
			}
		}
	})
}

// httpStatus fetches the page on screen again and returns its HTTP status.
func httpStatus(dst *int64) chromedp.Action {
	return chromedp.Evaluate(`fetch(location.href).then((r) => r.status)`, dst, func(p *runtime.EvaluateParams) *runtime.EvaluateParams {
		return p.WithAwaitPromise(true)
	})
}

// latestLink returns the path of the latest sign-in link in the outbox.
func (env *staffBrowserEnv) latestLink(t *testing.T) string {
	t.Helper()
	env.ws.SettleSignInLinks()
	return "/staff/link?token=" + sitetest.MailedSignInToken(t, env.st)
}

// An invitation enrols a passkey and opens the inbox; signing out and in
// again with the passkey works; the invitation cannot be used twice; a
// mailed sign-in link works once.
func TestBrowserStaffPasskeys(t *testing.T) {
	b, _ := browser(t)
	env := newStaffBrowserEnv(t)
	locales := sitetest.Site(t).StaffLocales
	inv, err := env.ws.Invite(context.Background(), "ada@northbeam.test", staff.ActorCommandLine)
	if err != nil {
		t.Fatal(err)
	}
	tb := newTab(t, b)
	laptop := addAuthenticator(t, tb)

	// The invitation: a button that says "passkey", which makes one.
	var label string
	tb.run(t,
		chromedp.Navigate(inv.URL),
		waitWorkspace(),
		chromedp.Text(`main button`, &label, chromedp.ByQuery),
	)
	if label != "Create a passkey" {
		t.Errorf("the enrolment's button reads %q", label)
	}
	for lang, word := range map[string]string{"fr": "clé d’accès", "de": "Passkey", "ar": "مفتاح مرور"} {
		tb.run(t, chromedp.Navigate(inv.URL+"&lang="+lang), waitWorkspace(), chromedp.Text(`main button`, &label, chromedp.ByQuery))
		if label != locales.T(lang, "enrol.create") || !strings.Contains(label, word) {
			t.Errorf("the enrolment's button in %s reads %q: it must say %q", lang, label, word)
		}
	}
	tb.run(t, chromedp.Navigate(inv.URL), waitWorkspace())
	tb.run(t, pressButton("Create a passkey"), waitStaffPath("/staff"), waitMain(locales.T("en", "messages.empty")))
	var h1 string
	tb.run(t, chromedp.Text(`main h1`, &h1, chromedp.ByQuery))
	if h1 != "Messages" {
		t.Errorf("the enrolment opened %q, want the inbox", h1)
	}
	if n := sitetest.Count(t, env.st, `SELECT count(*) FROM staff_passkeys`); n != 1 {
		t.Fatalf("%d passkeys stored", n)
	}

	// Out, and in again with the passkey.
	tb.run(t,
		pressButton("Sign out"),
		waitStaffPath("/staff/sign-in"),
		waitMain("Sign in with a passkey"),
		pressButton("Sign in with a passkey"),
		waitStaffPath("/staff"),
		waitMain(locales.T("en", "messages.empty")),
	)
	var lastUsed int
	if err := env.st.QueryRowContext(context.Background(), `SELECT count(*) FROM staff_passkeys WHERE last_used_at IS NOT NULL`).Scan(&lastUsed); err != nil || lastUsed != 1 {
		t.Errorf("the passkey's sign-in was not recorded: %d %v", lastUsed, err)
	}

	// A second passkey, for a phone, from the account page: not on the
	// laptop, which has one already.
	tb.run(t,
		chromedp.Navigate(env.base+"/staff/account"),
		waitWorkspace(),
		// Named by the browser and system it was made on, until renamed.
		waitMain("Chrome on Linux"),
		pressButton("Add a passkey"),
		waitMain(locales.T("en", "account.passkeyExists")),
		chromedp.ActionFunc(func(ctx context.Context) error {
			return webauthn.RemoveVirtualAuthenticator(laptop).Do(ctx)
		}),
	)
	addAuthenticator(t, tb) // the phone
	tb.run(t,
		pressButton("Add a passkey"),
		waitMain(locales.T("en", "account.passkeyAdded")),
		chromedp.Click(`(//button[normalize-space(.)="Rename"])[2]`, chromedp.BySearch),
		chromedp.SendKeys(`main form input[name=name]`, "Ada’s phone", chromedp.ByQuery),
		pressButton("Save the name"),
		waitMain("Ada’s phone"),
	)

	// The invitation again: refused, with a page that says why.
	var code int64
	tb.run(t,
		chromedp.Navigate(inv.URL),
		waitWorkspace(),
		waitMain(locales.T("en", "enrol.used")),
		httpStatus(&code),
	)
	if code != 410 {
		t.Errorf("a used invitation answers %d, want 410", code)
	}
	if n := sitetest.Count(t, env.st, `SELECT count(*) FROM staff_passkeys`); n != 2 {
		t.Errorf("%d passkeys, want 2", n)
	}

	// The mailed link, in a browser without the passkey: once.
	other := newTab(t, b)
	other.run(t,
		chromedp.Navigate(env.base+"/staff/bookings"),
		waitStaffPath("/staff/sign-in"),
		waitMain("Sign in with a passkey"),
		chromedp.SendKeys(`input[type=email]`, "ada@northbeam.test", chromedp.ByQuery),
		pressButton("Email me a sign-in link"),
		waitMain(locales.T("en", "signIn.sent")),
	)
	link := env.latestLink(t)
	other.run(t,
		chromedp.Navigate(env.base+link),
		waitWorkspace(),
		pressButton("Sign in"),
		waitStaffPath("/staff"),
		waitMain(locales.T("en", "messages.empty")),
		pressButton("Sign out"),
		waitStaffPath("/staff/sign-in"),
		chromedp.Navigate(env.base+link),
		waitWorkspace(),
		waitMain(locales.T("en", "link.used")),
		httpStatus(&code),
	)
	if code != 410 {
		t.Errorf("a used link answers %d, want 410", code)
	}
	for _, tab := range []*tab{tb, other} {
		if problems := tab.consoleProblems(); len(problems) > 0 {
			t.Errorf("console:\n%s", strings.Join(problems, "\n"))
		}
	}
	var actions []string
	rows, err := env.st.QueryContext(context.Background(), `SELECT action || ':' || detail FROM staff_audit ORDER BY id`)
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

// fillWorkspace gives every page of the workspace something to show.
func fillWorkspace(t *testing.T, env *staffBrowserEnv) {
	t.Helper()
	ctx := context.Background()
	now := time.Now()
	for i, r := range []contact.Record{
		{Name: "Zoë Ørsted", Email: "zoe@example.com", Message: "Nous voulons migrer notre plateforme vers Kubernetes.\nPouvez-vous nous aider ?", Service: "platform-engineering", Lang: "fr"},
		{Name: "سارة الحسيني", Email: "sara@example.com", Message: "نريد تطوير تطبيق جديد لشركتنا.", Service: "custom-software", Lang: "ar"},
		{Name: "Bot", Email: "bot@example.com", Message: "Cheap pills", Lang: "en", Spam: true, SpamReason: contact.SpamTooFast},
	} {
		r.Ref = fmt.Sprintf("%08d-0000-4000-8000-000000000000", i+1)
		r.CreatedAt = now.Add(-time.Duration(i+1) * time.Hour)
		if _, err := contact.Save(ctx, env.st, r, nil); err != nil {
			t.Fatal(err)
		}
	}
	for _, start := range []time.Time{now.Add(26 * time.Hour).Truncate(time.Hour), now.Add(50 * time.Hour).Truncate(time.Hour), now.Add(-50 * time.Hour).Truncate(time.Hour)} {
		_, err := env.st.ExecContext(ctx, `
INSERT INTO bookings (token, cancel_token, service, start_at, end_at, busy_until, name, email, email_key, company, topic, time_zone, lang, created_at, phone)
VALUES (?, ?, 'strategy', ?, ?, ?, 'Jürgen Weiß', 'j@example.com', 'j@example.com', 'Weiß GmbH', 'Cloud costs', 'Asia/Dubai', 'de', ?, '+4930901820')`,
			booking.NewToken(), booking.NewToken(), store.Millis(start), store.Millis(start.Add(30*time.Minute)),
			store.Millis(start.Add(40*time.Minute)), store.Millis(now.Add(-72*time.Hour)))
		if err != nil {
			t.Fatal(err)
		}
	}
	err := env.st.InTx(ctx, func(tx *store.Tx) error {
		return mail.Enqueue(ctx, tx, mail.Message{Kind: "contact.ack", To: "zoe@example.com", Subject: "Merci", Text: "Merci", Lang: "fr"})
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := env.st.ExecContext(ctx, `UPDATE outbox SET state = 'failed', attempts = 60, last_error = '550 5.1.1 mailbox unavailable'`); err != nil {
		t.Fatal(err)
	}
}

// signInByLink signs the tab in through a mailed link.
func (env *staffBrowserEnv) signInByLink(t *testing.T, tb *tab, email string) {
	t.Helper()
	if err := env.ws.RequestSignInLink(context.Background(), email); err != nil {
		t.Fatal(err)
	}
	tb.run(t,
		chromedp.Navigate(env.base+env.latestLink(t)),
		waitWorkspace(),
		chromedp.Click(`main button`, chromedp.ByQuery),
		waitStaffPath("/staff"),
	)
}

// staffPages are the workspace's pages, with what each shows once loaded
// (a locale key), and what the test does there first.
var staffPages = []struct {
	path, key string // key: a string the page shows, or "=" and a text
	prepare   func() chromedp.Action
}{
	{"/staff", "messages.title", nil},
	{"/staff?folder=spam", "=Cheap pills", nil},
	{"/staff/messages/00000003-0000-4000-8000-000000000000", "messages.spamTooFast", nil},
	{"/staff/messages/00000001-0000-4000-8000-000000000000", "messages.reply", nil},
	{"/staff/bookings", "=Weiß GmbH", nil},
	{"/staff/bookings?view=past", "=Weiß GmbH", nil},
	{"/staff/bookings/1", "bookings.cancelTitle", nil},
	{"/staff/bookings?view=week", "agenda.thisWeek", nil},
	{"/staff/bookings/new", "agenda.newHint", nil},
	{"/staff/mail", "mail.retry", nil},
	{"/staff/exports", "exports.messages", nil},
	{"/staff/privacy", "privacy.download", func() chromedp.Action {
		return chromedp.Tasks{
			chromedp.SendKeys(`main input[type=email]`, "zoe@example.com", chromedp.ByQuery),
			chromedp.Click(`main form button[type=submit]`, chromedp.ByQuery),
		}
	}},
	{"/staff/audit", "audit.actions.signIn", nil},
	{"/staff/account", "account.signOutEverywhere", nil},
	{"/staff/nowhere", "notFound.text", nil},
}

// pageText is what a page of staffPages shows once loaded.
func pageText(locales *site.Locales, lang, key string) string {
	if text, ok := strings.CutPrefix(key, "="); ok {
		return text
	}
	return locales.T(lang, key, "name", "Northbeam")
}

// axe finds no violation on the workspace's pages, in English and in
// Arabic (right to left), and each page fits a phone's screen.
func TestBrowserStaffAccessibility(t *testing.T) {
	b, _ := browser(t)
	env := newStaffBrowserEnv(t)
	locales := sitetest.Site(t).StaffLocales
	axe := axeSource(t)
	fillWorkspace(t, env)
	inv, err := env.ws.Invite(context.Background(), "ada@northbeam.test", staff.ActorCommandLine)
	if err != nil {
		t.Fatal(err)
	}
	check := func(t *testing.T, tb *tab, what string) {
		t.Helper()
		for _, v := range runAxe(t, tb, axe) {
			var where []string
			for _, n := range v.Nodes {
				where = append(where, fmt.Sprint(n.Target))
			}
			t.Errorf("%s: %s: %s at %s", what, v.ID, v.Help, strings.Join(where, ", "))
		}
	}
	for _, lang := range []string{sitetest.Default(t).Code, sitetest.RightToLeft(t).Code} { // the default language, and one written right to left
		t.Run(lang, func(t *testing.T) {
			tb := newTab(t, b)
			// The pages before the sign-in.
			for _, target := range []string{"/staff/sign-in?lang=" + lang, inv.URL[len(env.base):] + "&lang=" + lang, "/staff/link?token=nope&lang=" + lang} {
				tb.run(t, chromedp.Navigate(env.base+target), waitWorkspace())
				check(t, tb, target)
			}
			env.signInByLink(t, tb, "ada@northbeam.test")
			tb.run(t, chromedp.Evaluate(fmt.Sprintf(`fetch("/staff/api/me/language", {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify({lang: %q})}).then((r) => r.status)`, lang), nil,
				func(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) }))
			var dir string
			for _, p := range staffPages {
				tb.run(t, chromedp.Navigate(env.base+p.path), waitWorkspace())
				if p.prepare != nil {
					tb.run(t, p.prepare())
				}
				tb.run(t, waitMain(pageText(locales, lang, p.key)), chromedp.Evaluate(`document.documentElement.dir`, &dir))
				if l, _ := sitetest.Info(t).Language(lang); dir != l.Dir {
					t.Errorf("%s in %s: dir=%q", p.path, lang, dir)
				}
				check(t, tb, p.path)
			}
			if problems := tb.consoleProblems(); len(problems) > 0 {
				t.Errorf("console:\n%s", strings.Join(problems, "\n"))
			}
		})
	}
}

// overflowing lists what sticks out of the screen sideways (a table that
// scrolls inside its own box aside).
func overflowing(t *testing.T, tb *tab) []string {
	t.Helper()
	var overflow []string
	tb.run(t, chromedp.Evaluate(`(() => {
		const w = document.documentElement.clientWidth;
		if (document.documentElement.scrollWidth <= w) return [];
		return ["page is " + document.documentElement.scrollWidth + " px wide"].concat(
			[...document.querySelectorAll("body *")].filter((el) => {
				const r = el.getBoundingClientRect();
				return r.width > 0 && (r.right > w + 1 || r.left < -1) && !el.closest(".ws-table-wrap");
			}).slice(0, 5).map((el) => el.tagName + "." + el.className));
	})()`, &overflow))
	return overflow
}

// The workspace works on a phone: no page is wider than the screen, the
// navigation opens from its menu button, and a message is read there.
func TestBrowserStaffOnAPhone(t *testing.T) {
	b, _ := browser(t)
	env := newStaffBrowserEnv(t)
	fillWorkspace(t, env)
	if _, err := env.ws.Invite(context.Background(), "ada@northbeam.test", staff.ActorCommandLine); err != nil {
		t.Fatal(err)
	}
	tb := newTab(t, b)
	tb.run(t, chromedp.ActionFunc(func(ctx context.Context) error {
		return emulation.SetDeviceMetricsOverride(390, 844, 3, true).Do(ctx)
	}))
	for _, target := range []string{"/staff/sign-in", "/staff/sign-in?lang=ar", "/staff/link?token=nope&lang=de"} {
		tb.run(t, chromedp.Navigate(env.base+target), waitWorkspace())
		if overflow := overflowing(t, tb); len(overflow) > 0 {
			t.Errorf("%s is wider than a phone: %v", target, overflow)
		}
	}
	env.signInByLink(t, tb, "ada@northbeam.test")
	for _, lang := range []string{sitetest.Default(t).Code, sitetest.RightToLeft(t).Code} { // the default language, and one written right to left
		tb.run(t, chromedp.Evaluate(fmt.Sprintf(`fetch("/staff/api/me/language", {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify({lang: %q})}).then((r) => r.status)`, lang), nil,
			func(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) }))
		for _, p := range staffPages {
			tb.run(t, chromedp.Navigate(env.base+p.path), waitWorkspace())
			if p.prepare != nil {
				tb.run(t, p.prepare())
			}
			tb.run(t, waitMain(pageText(sitetest.Site(t).StaffLocales, lang, p.key)))
			if overflow := overflowing(t, tb); len(overflow) > 0 {
				t.Errorf("%s in %s is wider than a phone: %v", p.path, lang, overflow)
			}
		}
	}
	var navShown bool
	tb.run(t,
		chromedp.Navigate(env.base+"/staff"),
		waitWorkspace(),
		chromedp.Evaluate(`getComputedStyle(document.getElementById("ws-nav")).display !== "none"`, &navShown),
	)
	if navShown {
		t.Error("the navigation takes the phone's screen before the menu is opened")
	}
	tb.run(t,
		chromedp.Click(`.ws-menu-button`, chromedp.ByQuery),
		chromedp.WaitVisible(`#ws-nav a[href="/staff/bookings"]`, chromedp.ByQuery),
		chromedp.Click(`#ws-nav a[href="/staff/bookings"]`, chromedp.ByQuery),
		waitStaffPath("/staff/bookings"),
	)
}
