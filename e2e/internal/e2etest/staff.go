package e2etest

import (
	"context"
	"crypto/tls"
	"fmt"
	"net"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

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

// StaffBrowserEnv is a workspace served over https on localhost.
type StaffBrowserEnv struct {
	Base string
	St   *store.Store
	Ws   *staff.Workspace
}

func NewStaffBrowserEnv(t *testing.T) *StaffBrowserEnv {
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
	cert, _ := BrowserTLS()
	srv.TLS = &tls.Config{Certificates: []tls.Certificate{cert}}
	srv.StartTLS()
	t.Cleanup(srv.Close)
	return &StaffBrowserEnv{Base: base, St: st, Ws: ws}
}

// AddAuthenticator gives the tab a device that makes and keeps passkeys,
// unlocked by its owner.
func AddAuthenticator(t *testing.T, tb *Tab) webauthn.AuthenticatorID {
	t.Helper()
	var id webauthn.AuthenticatorID
	tb.Run(t, chromedp.ActionFunc(func(ctx context.Context) error {
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

// WaitWorkspace waits until the workspace's script has rendered the page.
func WaitWorkspace() chromedp.Action {
	return chromedp.WaitVisible(`html[data-ready="true"] main h1`, chromedp.ByQuery)
}

// PressButton presses the button whose text is label.
func PressButton(label string) chromedp.Action {
	return chromedp.Click(fmt.Sprintf(`//button[normalize-space(.)=%q]`, label), chromedp.BySearch)
}

// WaitMain waits until the main landmark shows text.
func WaitMain(text string) chromedp.Action {
	return WaitTrue(fmt.Sprintf(`document.querySelector("html[data-ready=true] main")?.innerText.includes(%q) === true`, text))
}

// WaitStaffPath waits until the address bar shows path, and the page there
// is rendered.
func WaitStaffPath(path string) chromedp.Action {
	return WaitTrue(fmt.Sprintf(`location.pathname === %q && document.querySelector("html[data-ready=true] main h1") !== null`, path))
}

// WaitTrue evaluates expr until it is true, through the navigations a
// sign-in makes and the page's reloads (an evaluation cut by one is tried
// again), until the tab's context ends: the test's deadline (NewTab).
func WaitTrue(expr string) chromedp.Action {
	return chromedp.ActionFunc(func(ctx context.Context) error {
		start := time.Now()
		for {
			var ok bool
			err := chromedp.Evaluate(expr, &ok).Do(ctx)
			if err == nil && ok {
				return nil
			}
			select {
			case <-ctx.Done():
				return fmt.Errorf("waited %s for %s (last error: %v): %w", time.Since(start).Round(time.Millisecond), expr, err, ctx.Err())
			case <-time.After(100 * time.Millisecond):
			}
		}
	})
}

// HTTPStatus fetches the page on screen again and returns its HTTP status.
func HTTPStatus(dst *int64) chromedp.Action {
	return chromedp.Evaluate(`fetch(location.href).then((r) => r.status)`, dst, func(p *runtime.EvaluateParams) *runtime.EvaluateParams {
		return p.WithAwaitPromise(true)
	})
}

// LatestLink returns the path of the latest sign-in link in the outbox.
func (env *StaffBrowserEnv) LatestLink(t *testing.T) string {
	t.Helper()
	env.Ws.SettleSignInLinks()
	return "/staff/link?token=" + sitetest.MailedSignInToken(t, env.St)
}

// FillWorkspace gives every page of the workspace something to show.
func FillWorkspace(t *testing.T, env *StaffBrowserEnv) {
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
		if _, err := contact.Save(ctx, env.St, r, nil); err != nil {
			t.Fatal(err)
		}
	}
	for _, start := range []time.Time{now.Add(26 * time.Hour).Truncate(time.Hour), now.Add(50 * time.Hour).Truncate(time.Hour), now.Add(-50 * time.Hour).Truncate(time.Hour)} {
		_, err := env.St.ExecContext(ctx, `
INSERT INTO bookings (token, cancel_token, service, start_at, end_at, busy_until, name, email, email_key, company, topic, time_zone, lang, created_at, phone)
VALUES (?, ?, 'strategy', ?, ?, ?, 'Jürgen Weiß', 'j@example.com', 'j@example.com', 'Weiß GmbH', 'Cloud costs', 'Asia/Dubai', 'de', ?, '+4930901820')`,
			booking.NewToken(), booking.NewToken(), store.Millis(start), store.Millis(start.Add(30*time.Minute)),
			store.Millis(start.Add(40*time.Minute)), store.Millis(now.Add(-72*time.Hour)))
		if err != nil {
			t.Fatal(err)
		}
	}
	err := env.St.InTx(ctx, func(tx *store.Tx) error {
		return mail.Enqueue(ctx, tx, mail.Message{Kind: "contact.ack", To: "zoe@example.com", Subject: "Merci", Text: "Merci", Lang: "fr"})
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := env.St.ExecContext(ctx, `UPDATE outbox SET state = 'failed', attempts = 60, last_error = '550 5.1.1 mailbox unavailable'`); err != nil {
		t.Fatal(err)
	}
}

// SignInByLink signs the tab in through a mailed link.
func (env *StaffBrowserEnv) SignInByLink(t *testing.T, tb *Tab, email string) {
	t.Helper()
	if err := env.Ws.RequestSignInLink(context.Background(), email); err != nil {
		t.Fatal(err)
	}
	tb.Run(t,
		chromedp.Navigate(env.Base+env.LatestLink(t)),
		WaitWorkspace(),
		chromedp.Click(`main button`, chromedp.ByQuery),
		WaitStaffPath("/staff"),
	)
}

// StaffPages are the workspace's pages, with what each shows once loaded
// (a locale key), and what the test does there first.
var StaffPages = []struct {
	Path, Key string // Key: a string the page shows, or "=" and a text
	Prepare   func() chromedp.Action
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

// PageText is what a page of staffPages shows once loaded.
func PageText(locales *site.Locales, lang, key string) string {
	if text, ok := strings.CutPrefix(key, "="); ok {
		return text
	}
	return locales.T(lang, key, "name", "Northbeam")
}

// Overflowing lists what sticks out of the screen sideways (a table that
// scrolls inside its own box aside).
func Overflowing(t *testing.T, tb *Tab) []string {
	t.Helper()
	var overflow []string
	tb.Run(t, chromedp.Evaluate(`(() => {
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
