package staff

import (
	"github.com/northbeam/site/e2e/internal/e2etest"

	"context"
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/northbeam/site/internal/booking"
	"github.com/northbeam/site/internal/contact"
	"github.com/northbeam/site/internal/site"
	"github.com/northbeam/site/internal/sitetest"
	"github.com/northbeam/site/internal/staff"
	"github.com/northbeam/site/internal/store"
)

// TestBrowserStaffPagesAsTheMemberScrolls fills the inbox and the agenda
// beyond a page each: the next page comes when the member scrolls to the
// end of the list, or presses the button there, until every row is shown
// once; a search of the agenda finds a booking by the phone number typed
// in pieces; the mail that could not be sent has its own next page
// (docs/ARCHITECTURE.md, Data).
func TestBrowserStaffPagesAsTheMemberScrolls(t *testing.T) {
	b, _ := e2etest.Browser(t)
	env := e2etest.NewStaffBrowserEnv(t)
	ctx := context.Background()
	now := time.Now()
	info, err := site.Load(sitetest.Content(), site.File)
	if err != nil {
		t.Fatal(err)
	}
	lang := info.Languages.Default().Code
	const messages = 2*staff.PageSize + 10
	for i := range messages {
		r := contact.Record{Ref: fmt.Sprintf("%08d-0000-4000-8000-000000000000", i+1), CreatedAt: now.Add(-time.Duration(i+1) * time.Minute),
			Name: fmt.Sprintf("Visitor %03d", i), Email: fmt.Sprintf("visitor%d@example.com", i), Message: "Un projet à discuter.", Lang: lang}
		if _, err := contact.Save(ctx, env.St, r, nil); err != nil {
			t.Fatal(err)
		}
	}
	const bookings = staff.PageSize + 5
	for i := range bookings {
		start := now.Add(time.Duration(i+26) * time.Hour).Truncate(time.Hour)
		phone := ""
		if i == bookings-1 {
			phone = "+4930901820"
		}
		_, err := env.St.ExecContext(ctx, `
INSERT INTO bookings (token, cancel_token, service, start_at, end_at, busy_until, name, email, email_key, company, topic, time_zone, lang, created_at, phone)
VALUES (?, ?, 'strategy', ?, ?, ?, ?, 'caller@example.com', 'caller@example.com', 'Weiß GmbH', 'Cloud costs', 'Asia/Dubai', ?, ?, ?)`,
			booking.NewToken(), booking.NewToken(), store.Millis(start), store.Millis(start.Add(30*time.Minute)),
			store.Millis(start.Add(40*time.Minute)), fmt.Sprintf("Caller %03d", i), lang, store.Millis(now.Add(-72*time.Hour)), phone)
		if err != nil {
			t.Fatal(err)
		}
	}
	const troubled = staff.PageSize + 5
	for i := range troubled {
		created := store.Millis(now.Add(-time.Duration(i+1) * time.Minute))
		_, err := env.St.ExecContext(ctx, `
INSERT INTO outbox (ref, kind, to_addr, subject, text_body, lang, state, attempts, last_error, next_attempt_at, created_at, to_key)
VALUES (?, 'contact.ack', ?, ?, 'Merci', ?, 'failed', 5, 'smtp: 550', ?, ?, ?)`,
			fmt.Sprintf("%08d-1111-4000-8000-000000000000", i+1), fmt.Sprintf("visitor%d@example.com", i), fmt.Sprintf("Undelivered %03d", i),
			lang, created, created, fmt.Sprintf("visitor%d@example.com", i))
		if err != nil {
			t.Fatal(err)
		}
	}
	if _, err := env.Ws.Invite(ctx, "ada@northbeam.test", staff.ActorCommandLine); err != nil {
		t.Fatal(err)
	}
	tb := e2etest.NewTab(t, b)
	env.SignInByLink(t, tb, "ada@northbeam.test")

	items := `document.querySelectorAll("main .ws-list > li").length`
	tb.Run(t, chromedp.Navigate(env.Base+"/staff"), e2etest.WaitWorkspace(),
		e2etest.WaitTrue(fmt.Sprintf(`%s === %d`, items, staff.PageSize)))
	// Scrolling to the end brings the next pages by themselves.
	for shown := 2 * staff.PageSize; ; shown += staff.PageSize {
		tb.Run(t, chromedp.Evaluate(`window.scrollTo(0, document.body.scrollHeight)`, nil),
			e2etest.WaitTrue(fmt.Sprintf(`%s === %d`, items, min(shown, messages))))
		if shown >= messages {
			break
		}
	}
	var names []string
	tb.Run(t, e2etest.WaitTrue(`document.querySelector("main .ws-more") === null`),
		chromedp.Evaluate(`[...document.querySelectorAll("main .ws-list > li h2 a")].map((a) => a.innerText)`, &names))
	for i, name := range names {
		if want := fmt.Sprintf("Visitor %03d", i); name != want {
			t.Fatalf("message %d of the inbox is %q, want %q: a row lost or repeated", i, name, want)
		}
	}

	// The button: the agenda's second page, asked for.
	tb.Run(t, chromedp.Navigate(env.Base+"/staff/bookings"), e2etest.WaitWorkspace(),
		e2etest.WaitTrue(fmt.Sprintf(`%s === %d`, items, staff.PageSize)),
		chromedp.Click(`main .ws-more button`, chromedp.ByQuery),
		e2etest.WaitTrue(fmt.Sprintf(`%s === %d && document.querySelector("main .ws-more") === null`, items, bookings)))

	// A search of the agenda by a phone number typed in pieces.
	tb.Run(t, chromedp.SendKeys(`main form[role=search] input`, "+49 30 901820", chromedp.ByQuery),
		chromedp.Click(`main form[role=search] button[type=submit]`, chromedp.ByQuery),
		e2etest.WaitTrue(fmt.Sprintf(`%s === 1 && document.querySelector("main .ws-list > li").innerText.includes("Caller %03d")`, items, bookings-1)))

	// The mail that could not be sent: its next page, asked for, below it.
	troubledItems := `document.querySelectorAll("section[aria-labelledby=ws-mail-troubled] .ws-list > li").length`
	var subjects []string
	tb.Run(t, chromedp.Navigate(env.Base+"/staff/mail"), e2etest.WaitWorkspace(),
		e2etest.WaitTrue(fmt.Sprintf(`%s === %d`, troubledItems, staff.PageSize)),
		chromedp.Click(`section[aria-labelledby=ws-mail-troubled] .ws-more button`, chromedp.ByQuery),
		e2etest.WaitTrue(fmt.Sprintf(`%s === %d && !document.querySelector("section[aria-labelledby=ws-mail-troubled] .ws-more")`, troubledItems, troubled)),
		chromedp.Evaluate(`[...document.querySelectorAll("section[aria-labelledby=ws-mail-troubled] .ws-list > li h3")].map((h) => h.innerText)`, &subjects))
	for i, subject := range subjects {
		if want := fmt.Sprintf("Undelivered %03d", i); subject != want {
			t.Fatalf("mail %d of those not sent is %q, want %q: a row lost or repeated", i, subject, want)
		}
	}
}
