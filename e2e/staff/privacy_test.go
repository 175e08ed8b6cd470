package staff

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/google/uuid"

	"github.com/northbeam/site/e2e/internal/e2etest"
	"github.com/northbeam/site/internal/contact"
	"github.com/northbeam/site/internal/sitetest"
	"github.com/northbeam/site/internal/staff"
)

// TestBrowserStaffPrivacyConfirmsSpellings: the privacy page lists each
// spelling of an address that differs by case only, as typed, with the
// one searched for ticked; the erasure takes the ticked spellings alone,
// and leaves the other's data, and an address that full case folding
// would have merged (strasse@ for straße@) is not listed at all.
func TestBrowserStaffPrivacyConfirmsSpellings(t *testing.T) {
	b, _ := e2etest.Browser(t)
	env := e2etest.NewStaffBrowserEnv(t)
	ctx := context.Background()
	lang := sitetest.Site(t).Info.Default().Code
	locales := sitetest.Site(t).StaffLocales
	for _, r := range []contact.Record{
		{Name: "Ann One", Email: "Ann@Example.com", Message: "Message of Ann One"},
		{Name: "Ann Two", Email: "ann@example.com", Message: "Message of Ann Two"},
		{Name: "Zed", Email: "strasse@example.com", Message: "Message of Zed"},
	} {
		r.Ref, r.CreatedAt, r.Lang = uuid.NewString(), time.Now().Add(-time.Hour), lang
		if _, err := contact.Save(ctx, env.St, r, nil); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := env.Ws.Invite(ctx, "ada@northbeam.test", staff.ActorCommandLine); err != nil {
		t.Fatal(err)
	}
	tb := e2etest.NewTab(t, b)
	env.SignInByLink(t, tb, "ada@northbeam.test")
	type spelling struct {
		Email   string `json:"email"`
		Checked bool   `json:"checked"`
	}
	var listed []spelling
	tb.Run(t,
		chromedp.Navigate(env.Base+"/staff/privacy"),
		e2etest.WaitWorkspace(),
		chromedp.SendKeys(`main input[type=email]`, "ann@example.com", chromedp.ByQuery),
		chromedp.Click(`main form button[type=submit]`, chromedp.ByQuery),
		e2etest.WaitTrue(`document.querySelectorAll(".ws-spellings input[type=checkbox]").length === 2`),
		chromedp.Evaluate(`[...document.querySelectorAll(".ws-spellings label")].map((l) => ({email: l.querySelector("bdi").textContent, checked: l.querySelector("input").checked}))`, &listed),
	)
	if want := []spelling{{"Ann@Example.com", false}, {"ann@example.com", true}}; !slices.Equal(listed, want) {
		t.Errorf("the spellings listed: %+v, want %+v", listed, want)
	}
	for _, v := range e2etest.RunAxe(t, tb, e2etest.AxeSource(t)) {
		t.Errorf("the spellings to confirm: %s: %s", v.ID, v.Help)
	}
	tb.Run(t,
		e2etest.PressButton(locales.T(lang, "privacy.erase")),
		chromedp.SendKeys(`main .ws-danger-zone input[type=email]`, "ann@example.com", chromedp.ByQuery),
		e2etest.PressButton(locales.T(lang, "privacy.eraseYes")),
		e2etest.WaitTrue(`document.querySelector(".ws-person") === null && document.querySelector(".ws-danger-zone") === null`),
	)
	for email, want := range map[string]int{"ann@example.com": 0, "Ann@Example.com": 1, "strasse@example.com": 1} {
		if n := sitetest.Count(t, env.St, fmt.Sprintf(`SELECT count(*) FROM messages WHERE email = '%s'`, email)); n != want {
			t.Errorf("%d messages of %s after erasing ann@example.com alone, want %d", n, email, want)
		}
	}

	// straße@ finds nothing: strasse@ is another person.
	tb.Run(t,
		chromedp.Navigate(env.Base+"/staff/privacy"),
		e2etest.WaitWorkspace(),
		chromedp.SendKeys(`main input[type=email]`, "straße@example.com", chromedp.ByQuery),
		chromedp.Click(`main form button[type=submit]`, chromedp.ByQuery),
		e2etest.WaitTrue(fmt.Sprintf(`document.querySelector("html[data-ready=true] main")?.innerText.includes(%q) === true`,
			locales.T(lang, "privacy.nothing", "email", "straße@example.com"))),
	)
	if problems := tb.ConsoleProblems(); len(problems) > 0 {
		t.Errorf("console: %v", problems)
	}
}
