package booking

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/northbeam/site/e2e/internal/e2etest"
	"github.com/northbeam/site/internal/booking"
	"github.com/northbeam/site/internal/sitetest"
)

// TestArabicKeepsValuesInTheirOrder books a consultation by phone in Arabic
// and reads, from the rendered positions, that the phone number, the times
// and the address run left to right inside the right-to-left text: in the
// phone field's error message, on the confirmation, on the cancel and
// reschedule pages the mailed links lead to, and in the confirmation mail's
// HTML part.
func TestArabicKeepsValuesInTheirOrder(t *testing.T) {
	b, base, env := e2etest.BookingBrowser(t)
	const (
		phone     = `(\+33) 1 23 45 67 (89)`
		clock     = `(\d{1,2}):(\d{2})`
		address   = `(visitor)@example\.(com)`
		hintPhone = `(\+971)\s4\s234\s(5678)`
	)
	tb := e2etest.NewTab(t, b)
	tb.Run(t,
		e2etest.InZone("Asia/Dubai"),
		chromedp.Navigate(base+"/ar/schedule/discovery"),
		e2etest.WaitHydrated(),
		e2etest.WaitTimes(),
		e2etest.PickFullDay(),
		chromedp.Click(`.time-grid li:nth-child(2) input`, chromedp.ByQuery),
		chromedp.SendKeys(`input[name="name"]`, "سامي", chromedp.ByQuery),
		chromedp.SendKeys(`input[name="email"]`, "visitor@example.com", chromedp.ByQuery),
		chromedp.SendKeys(`input[name="phone"]`, "12", chromedp.ByQuery),
		chromedp.Click(`button.booking-confirm`, chromedp.ByQuery),
		chromedp.WaitVisible(`.booking-details .field-error`, chromedp.ByQuery),
	)
	e2etest.ReadsLeftToRight(t, tb, "the phone field's error", `.booking-details .field-error`, hintPhone)
	e2etest.ReadsLeftToRight(t, tb, "the phone field's hint", `.booking-details .field-hint`, hintPhone)
	e2etest.ReadsLeftToRight(t, tb, "the summary of the chosen time", `.booking-summary`, clock)
	tb.Run(t,
		chromedp.Evaluate(`document.querySelector('input[name="phone"]').select()`, nil),
		chromedp.SendKeys(`input[name="phone"]`, "+33 1 23 45 67 89", chromedp.ByQuery),
		chromedp.Click(`button.booking-confirm`, chromedp.ByQuery),
		chromedp.WaitVisible(`.booking-confirmed`, chromedp.ByQuery),
		chromedp.WaitVisible(`.booking-confirmed .zone-name`, chromedp.ByQuery),
	)
	e2etest.ReadsLeftToRight(t, tb, "the confirmation's lead", `.booking-confirmed .lead`, address)
	e2etest.ReadsLeftToRight(t, tb, "the confirmation's phone", `.booking-confirmed .meeting-phone`, phone)
	e2etest.ReadsLeftToRight(t, tb, "the confirmation's time", `.booking-confirmed .booking-facts`, clock)

	var token, htmlPart string
	for _, r := range e2etest.OutboxHTML(t, env) {
		if r[0] == booking.KindConfirmation {
			token, htmlPart = r[1], r[2]
		}
	}
	if htmlPart == "" {
		t.Fatal("the confirmation has no HTML part")
	}
	for _, page := range []string{"cancel", "reschedule"} {
		tb.Run(t,
			chromedp.Navigate(base+"/ar/schedule/"+page+"?token="+token),
			e2etest.WaitHydrated(),
			chromedp.WaitVisible(`.booking-facts .meeting-phone`, chromedp.ByQuery),
		)
		e2etest.ReadsLeftToRight(t, tb, "the "+page+" page's phone", `.booking-facts .meeting-phone`, phone)
		e2etest.ReadsLeftToRight(t, tb, "the "+page+" page's time", `.booking-facts`, clock)
	}

	// The mail's HTML part, as a mail program that shows HTML draws it.
	tb.Run(t,
		chromedp.Navigate("about:blank"),
		chromedp.ActionFunc(func(ctx context.Context) error {
			tree, err := cdppage.GetFrameTree().Do(ctx)
			if err != nil {
				return err
			}
			return cdppage.SetDocumentContent(tree.Frame.ID, htmlPart).Do(ctx)
		}),
		chromedp.WaitReady(`body p`, chromedp.ByQuery),
	)
	e2etest.ReadsLeftToRight(t, tb, "the mail's phone", `body`, phone)
	e2etest.ReadsLeftToRight(t, tb, "the mail's time", `body`, clock)
	e2etest.ReadsLeftToRight(t, tb, "the mail's address", `body`, `(hello)@northbeam\.(dev)`)
	var dir string
	tb.Run(t, chromedp.Evaluate(`getComputedStyle(document.querySelector("body p")).direction`, &dir))
	if dir != "rtl" {
		t.Errorf("the mail's text runs %q, want rtl", dir)
	}
}

// TestLanguageSwitchKeepsTheLinksToken opens the reschedule page of a
// mailed link, switches language, and reloads: the address keeps the
// link's token, and the page in the new language still finds the booking,
// in a tab of its own too (no storage of the first tab to help it).
func TestLanguageSwitchKeepsTheLinksToken(t *testing.T) {
	b, base, env := e2etest.BookingBrowser(t)
	start := time.Now().UTC().Add(60 * time.Hour).Truncate(time.Hour)
	rec := sitetest.PostJSON(t, env.Handler, "/api/bookings", map[string]string{
		"service": "strategy", "start": start.Format(time.RFC3339), "name": "Léa", "email": "lea@example.com",
		"timeZone": "Europe/Paris", "lang": "fr",
	})
	if rec.Code != http.StatusCreated {
		t.Fatalf("booking: %d %.300s", rec.Code, rec.Body.String())
	}
	token := sitetest.EmailedCancelToken(t, env.Store, "/fr")
	tb := e2etest.NewTab(t, b)
	var address string
	tb.Run(t,
		chromedp.Navigate(base+"/fr/schedule/reschedule?token="+token),
		e2etest.WaitHydrated(),
		chromedp.WaitVisible(`.booking-facts`, chromedp.ByQuery),
		chromedp.Click(`.lang-select a[hreflang="ar"]`, chromedp.ByQuery),
		e2etest.Poll(`document.documentElement.lang === "ar"`, nil),
		chromedp.Evaluate(`location.pathname + location.search`, &address),
	)
	if address != "/ar/schedule/reschedule?token="+token {
		t.Errorf("after the switch the address is %q", address)
	}
	tb.Run(t, chromedp.Reload(), e2etest.WaitHydrated(), chromedp.WaitVisible(`.booking-facts`, chromedp.ByQuery))
	fresh := e2etest.NewTab(t, b)
	fresh.Run(t, chromedp.Navigate(base+address), e2etest.WaitHydrated(), chromedp.WaitVisible(`.booking-facts`, chromedp.ByQuery))
	for _, tab := range []*e2etest.Tab{tb, fresh} {
		if problems := tab.ConsoleProblems(); len(problems) > 0 {
			t.Errorf("console:\n%s", strings.Join(problems, "\n"))
		}
	}
}
