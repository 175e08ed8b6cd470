package e2e

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/northbeam/site/internal/booking"
	"github.com/northbeam/site/internal/sitetest"
)

// readsLeftToRight checks, from where the browser drew them, that the parts
// a pattern's groups capture (the country code and the last digits of a
// phone number, the hour and the minutes of a time, an address's name and
// domain) lie left to right on screen inside the element selector names:
// a value set into right-to-left text reads in its own order. The pattern
// must match inside one text node.
func readsLeftToRight(t *testing.T, tb *tab, where, selector, pattern string) {
	t.Helper()
	var got struct {
		Found bool      `json:"found"`
		Text  string    `json:"text"`
		Lefts []float64 `json:"lefts"`
	}
	js := fmt.Sprintf(`(() => {
		const root = document.querySelector(%q);
		if (!root) return { found: false, text: "no element", lefts: [] };
		const re = new RegExp(%q, "d");
		const walk = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
		for (let n = walk.nextNode(); n; n = walk.nextNode()) {
			const m = re.exec(n.data);
			if (!m) continue;
			const lefts = m.indices.slice(1).map(([from, to]) => {
				const r = document.createRange();
				r.setStart(n, from);
				r.setEnd(n, to);
				return r.getBoundingClientRect().left;
			});
			return { found: true, text: m[0], lefts };
		}
		return { found: false, text: root.innerText.slice(0, 300), lefts: [] };
	})()`, selector, pattern)
	tb.run(t, chromedp.Evaluate(js, &got))
	if !got.Found {
		t.Errorf("%s: %s holds no %s: %q", where, selector, pattern, got.Text)
		return
	}
	for i := 1; i < len(got.Lefts); i++ {
		if got.Lefts[i] <= got.Lefts[i-1] {
			t.Errorf("%s: %q reads right to left on screen (its parts start at x = %v)", where, got.Text, got.Lefts)
			return
		}
	}
}

// TestArabicKeepsValuesInTheirOrder books a consultation by phone in Arabic
// and reads, from the rendered positions, that the phone number, the times
// and the address run left to right inside the right-to-left text: in the
// phone field's error message, on the confirmation, on the cancel and
// reschedule pages the mailed links lead to, and in the confirmation mail's
// HTML part.
func TestArabicKeepsValuesInTheirOrder(t *testing.T) {
	b, base, env := bookingBrowser(t)
	const (
		phone     = `(\+33) 1 23 45 67 (89)`
		clock     = `(\d{1,2}):(\d{2})`
		address   = `(visitor)@example\.(com)`
		hintPhone = `(\+971)\s4\s234\s(5678)`
	)
	tb := newTab(t, b)
	tb.run(t,
		inZone("Asia/Dubai"),
		chromedp.Navigate(base+"/ar/schedule/discovery"),
		waitHydrated(),
		waitTimes(),
		pickFullDay(),
		chromedp.Click(`.time-grid li:nth-child(2) input`, chromedp.ByQuery),
		chromedp.SendKeys(`input[name="name"]`, "سامي", chromedp.ByQuery),
		chromedp.SendKeys(`input[name="email"]`, "visitor@example.com", chromedp.ByQuery),
		chromedp.SendKeys(`input[name="phone"]`, "12", chromedp.ByQuery),
		chromedp.Click(`button.booking-confirm`, chromedp.ByQuery),
		chromedp.WaitVisible(`.booking-details .field-error`, chromedp.ByQuery),
	)
	readsLeftToRight(t, tb, "the phone field's error", `.booking-details .field-error`, hintPhone)
	readsLeftToRight(t, tb, "the phone field's hint", `.booking-details .field-hint`, hintPhone)
	readsLeftToRight(t, tb, "the summary of the chosen time", `.booking-summary`, clock)
	tb.run(t,
		chromedp.Evaluate(`document.querySelector('input[name="phone"]').select()`, nil),
		chromedp.SendKeys(`input[name="phone"]`, "+33 1 23 45 67 89", chromedp.ByQuery),
		chromedp.Click(`button.booking-confirm`, chromedp.ByQuery),
		chromedp.WaitVisible(`.booking-confirmed`, chromedp.ByQuery),
		chromedp.WaitVisible(`.booking-confirmed .zone-name`, chromedp.ByQuery),
	)
	readsLeftToRight(t, tb, "the confirmation's lead", `.booking-confirmed .lead`, address)
	readsLeftToRight(t, tb, "the confirmation's phone", `.booking-confirmed .meeting-phone`, phone)
	readsLeftToRight(t, tb, "the confirmation's time", `.booking-confirmed .booking-facts`, clock)

	var token, htmlPart string
	for _, r := range outboxHTML(t, env) {
		if r[0] == booking.KindConfirmation {
			token, htmlPart = r[1], r[2]
		}
	}
	if htmlPart == "" {
		t.Fatal("the confirmation has no HTML part")
	}
	for _, page := range []string{"cancel", "reschedule"} {
		tb.run(t,
			chromedp.Navigate(base+"/ar/schedule/"+page+"?token="+token),
			waitHydrated(),
			chromedp.WaitVisible(`.booking-facts .meeting-phone`, chromedp.ByQuery),
		)
		readsLeftToRight(t, tb, "the "+page+" page's phone", `.booking-facts .meeting-phone`, phone)
		readsLeftToRight(t, tb, "the "+page+" page's time", `.booking-facts`, clock)
	}

	// The mail's HTML part, as a mail program that shows HTML draws it.
	tb.run(t,
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
	readsLeftToRight(t, tb, "the mail's phone", `body`, phone)
	readsLeftToRight(t, tb, "the mail's time", `body`, clock)
	readsLeftToRight(t, tb, "the mail's address", `body`, `(hello)@northbeam\.(dev)`)
	var dir string
	tb.run(t, chromedp.Evaluate(`getComputedStyle(document.querySelector("body p")).direction`, &dir))
	if dir != "rtl" {
		t.Errorf("the mail's text runs %q, want rtl", dir)
	}
}

// outboxHTML returns the kind, the link token and the HTML part of every
// mail in env's outbox.
func outboxHTML(t *testing.T, env *bookingEnv) [][3]string {
	t.Helper()
	rows, err := env.store.DB().Query(`SELECT kind, text_body, html_body FROM outbox ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out [][3]string
	for rows.Next() {
		var kind, text, html string
		if err := rows.Scan(&kind, &text, &html); err != nil {
			t.Fatal(err)
		}
		token := ""
		if _, after, ok := strings.Cut(text, "/schedule/cancel?token="); ok {
			token, _, _ = strings.Cut(after, "\n")
		}
		out = append(out, [3]string{kind, token, html})
	}
	return out
}

// TestLanguageSwitchKeepsTheLinksToken opens the reschedule page of a
// mailed link, switches language, and reloads: the address keeps the
// link's token, and the page in the new language still finds the booking,
// in a tab of its own too (no storage of the first tab to help it).
func TestLanguageSwitchKeepsTheLinksToken(t *testing.T) {
	b, base, env := bookingBrowser(t)
	start := time.Now().UTC().Add(60 * time.Hour).Truncate(time.Hour)
	rec := sitetest.PostJSON(t, env.handler, "/api/bookings", map[string]string{
		"service": "strategy", "start": start.Format(time.RFC3339), "name": "Léa", "email": "lea@example.com",
		"timeZone": "Europe/Paris", "lang": "fr",
	})
	if rec.Code != http.StatusCreated {
		t.Fatalf("booking: %d %.300s", rec.Code, rec.Body.String())
	}
	token := sitetest.EmailedCancelToken(t, env.store, "/fr")
	tb := newTab(t, b)
	var address string
	tb.run(t,
		chromedp.Navigate(base+"/fr/schedule/reschedule?token="+token),
		waitHydrated(),
		chromedp.WaitVisible(`.booking-facts`, chromedp.ByQuery),
		chromedp.Click(`.lang-select a[hreflang="ar"]`, chromedp.ByQuery),
		chromedp.Poll(`document.documentElement.lang === "ar"`, nil),
		chromedp.Evaluate(`location.pathname + location.search`, &address),
	)
	if address != "/ar/schedule/reschedule?token="+token {
		t.Errorf("after the switch the address is %q", address)
	}
	tb.run(t, chromedp.Reload(), waitHydrated(), chromedp.WaitVisible(`.booking-facts`, chromedp.ByQuery))
	fresh := newTab(t, b)
	fresh.run(t, chromedp.Navigate(base+address), waitHydrated(), chromedp.WaitVisible(`.booking-facts`, chromedp.ByQuery))
	for _, tab := range []*tab{tb, fresh} {
		if problems := tab.consoleProblems(); len(problems) > 0 {
			t.Errorf("console:\n%s", strings.Join(problems, "\n"))
		}
	}
}
