package visitor

import (
	"fmt"
	"image"
	"math"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/northbeam/site/e2e/internal/e2etest"
	"github.com/northbeam/site/internal/sitetest"
	"github.com/northbeam/site/internal/testwait"
)

// TestBookingConfirmationIsAFinishedState books in English and in Arabic:
// the page then says it is done, both steps completed, the confirmation as
// its one main heading with the focus on it, and no step left current nor
// the introduction that explains the steps. A switch of language keeps the
// confirmation, in the new language.
func TestBookingConfirmationIsAFinishedState(t *testing.T) {
	b, base, _ := e2etest.BookingBrowser(t)
	s := sitetest.Site(t)
	type state struct {
		H1      []string `json:"h1"`
		Focus   string   `json:"focus"`
		Current int      `json:"current"`
		Done    int      `json:"done"`
		Lead    bool     `json:"lead"`
		Title   string   `json:"title"`
	}
	const read = `({
		h1: [...document.querySelectorAll("main h1")].map((h) => h.textContent.trim()),
		focus: document.activeElement?.id ?? "",
		current: document.querySelectorAll('.schedule-steps [aria-current="step"]').length,
		done: document.querySelectorAll(".schedule-steps [data-done]").length,
		lead: !!document.querySelector(".schedule-intro .lead"),
		title: document.title,
	})`
	for _, code := range []string{sitetest.Default(t).Code, sitetest.RightToLeft(t).Code} { // the default language, and one written right to left
		t.Run(code, func(t *testing.T) {
			lang, _ := s.Info.Language(code)
			tb := e2etest.NewTab(t, b)
			var before, after state
			tb.Run(t,
				e2etest.InZone("Europe/Berlin"),
				chromedp.Navigate(base+lang.LocalPath("/schedule/discovery")),
				e2etest.WaitHydrated(),
				e2etest.WaitTimes(),
				chromedp.Evaluate(read, &before),
				e2etest.BookDiscovery("Sam Visitor"),
				chromedp.Evaluate(read, &after),
			)
			if before.Current != 1 || before.Done != 1 || len(before.H1) != 1 || before.H1[0] != s.Locales.T(code, "schedule.title") {
				t.Errorf("step 2 before booking: %+v", before)
			}
			title := s.Locales.T(code, "schedule.confirmed.title")
			if len(after.H1) != 1 || after.H1[0] != title || after.Focus != "booking-confirmed-title" {
				t.Errorf("confirmation headings %q, focus on %q; want one h1 %q with the focus", after.H1, after.Focus, title)
			}
			if after.Current != 0 || after.Done != 2 || after.Lead {
				t.Errorf("confirmation: %d current steps, %d done, intro shown %v; want none current, both done, no intro", after.Current, after.Done, after.Lead)
			}
			if !strings.HasPrefix(after.Title, title) {
				t.Errorf("document title %q", after.Title)
			}
			e2etest.CheckAccessibility(t, tb, "confirmation")
		})
	}

	// The confirmation survives a switch of language, in the new language.
	tb := e2etest.NewTab(t, b)
	var h1 []string
	tb.Run(t,
		e2etest.InZone("Europe/Berlin"),
		chromedp.Navigate(base+"/schedule/strategy"),
		e2etest.WaitHydrated(),
		e2etest.BookDiscovery("Sam Visitor"),
		chromedp.Click(`.lang-select a[hreflang="de"]`, chromedp.ByQuery),
		e2etest.Poll(`document.documentElement.lang === "de" && !!document.querySelector(".booking-confirmed")`, nil),
		chromedp.Evaluate(`[...document.querySelectorAll("main h1")].map((h) => h.textContent.trim())`, &h1),
	)
	if len(h1) != 1 || h1[0] != s.Locales.T("de", "schedule.confirmed.title") {
		t.Errorf("after switching to German: h1 %q", h1)
	}
	if problems := tb.ConsoleProblems(); len(problems) > 0 {
		t.Errorf("console:\n%s", strings.Join(problems, "\n"))
	}
}

// TestBookingKeepsInputAcrossALanguageSwitch chooses a day, a time and a
// zone, types a name, an address and a topic, then switches language on
// the time step: the new language shows the same choice and the same text,
// and books it.
func TestBookingKeepsInputAcrossALanguageSwitch(t *testing.T) {
	b, base, env := e2etest.BookingBrowser(t)
	tb := e2etest.NewTab(t, b)
	var day, chosen string
	tb.Run(t,
		e2etest.InZone("Europe/Berlin"),
		chromedp.Navigate(base+"/schedule/discovery"),
		e2etest.WaitHydrated(),
		e2etest.WaitTimes(),
		e2etest.ChooseZone("Lisbon", "Europe/Lisbon"),
		e2etest.WaitTimes(),
		e2etest.PickFullDay(),
		chromedp.Click(`.time-grid li:nth-child(4) input`, chromedp.ByQuery),
		chromedp.Evaluate(`document.querySelector('.calendar-grid button.day[aria-pressed="true"]').dataset.date`, &day),
		chromedp.Evaluate(`document.querySelector('.time-grid input:checked').value`, &chosen),
		chromedp.SendKeys(`input[name="name"]`, "Élodie Garnier", chromedp.ByQuery),
		chromedp.SendKeys(`input[name="email"]`, "elodie@example.com", chromedp.ByQuery),
		chromedp.SendKeys(`input[name="phone"]`, "+33 1 23 45 67 89", chromedp.ByQuery),
		chromedp.SendKeys(`textarea[name="topic"]`, "Migration vers Kubernetes", chromedp.ByQuery),
		chromedp.Click(`.lang-select a[hreflang="fr"]`, chromedp.ByQuery),
		e2etest.Poll(`document.documentElement.lang === "fr" && !!document.querySelector(".time-grid input")`, nil),
	)
	var got struct {
		Day, Chosen, Name, Email, Phone, Topic, Zone string
	}
	tb.Run(t, chromedp.Evaluate(`({
		Day: document.querySelector('.calendar-grid button.day[aria-pressed="true"]')?.dataset.date ?? "",
		Chosen: document.querySelector('.time-grid input:checked')?.value ?? "",
		Name: document.querySelector('input[name="name"]').value,
		Email: document.querySelector('input[name="email"]').value,
		Phone: document.querySelector('input[name="phone"]').value,
		Topic: document.querySelector('textarea[name="topic"]').value,
		Zone: document.querySelector('.zone-combobox input').value,
	})`, &got))
	if got.Day != day || got.Chosen != chosen || got.Name != "Élodie Garnier" || got.Email != "elodie@example.com" || got.Phone != "+33 1 23 45 67 89" || got.Topic != "Migration vers Kubernetes" {
		t.Errorf("after the switch: %+v; want day %s, time %s and the typed text", got, day, chosen)
	}
	if !strings.HasPrefix(got.Zone, "Lisbonne") {
		t.Errorf("zone after the switch %q, want Lisbon named in French", got.Zone)
	}
	tb.Run(t,
		chromedp.Click(`button.booking-confirm`, chromedp.ByQuery),
		chromedp.WaitVisible(`.booking-confirmed`, chromedp.ByQuery),
	)
	start, _ := time.Parse(time.RFC3339, chosen)
	want := fmt.Sprintf("%s|Élodie Garnier|Europe/Lisbon|fr|false", start.UTC().Format(time.RFC3339))
	if stored := e2etest.StoredBookings(t, env); len(stored) != 1 || stored[0] != want {
		t.Errorf("stored %v, want %s", stored, want)
	}
	if problems := tb.ConsoleProblems(); len(problems) > 0 {
		t.Errorf("console:\n%s", strings.Join(problems, "\n"))
	}
}

// TestZonePickerSpeaksThePagesLanguage opens the time zone field in French
// and Arabic: zones are named as people name them, in the page's language
// (a city with its generic name), one entry per place under its current
// name, the device's zone first, and typing finds a zone by its city or
// country in any accent. The sentence above the times names the zone the
// same way.
func TestZonePickerSpeaksThePagesLanguage(t *testing.T) {
	b, base, _ := e2etest.BookingBrowser(t)
	s := sitetest.Site(t)
	for _, tc := range []struct {
		lang, zone  string
		first       string // the device's zone, first in the list
		query, pick string // a search and the label of its first result
		tz          string // the current IANA name of that zone
		note        string // the sentence above the times, once chosen
	}{
		{"fr", "America/New_York", "New York (heure de l’Est nord-américain)", "kiev", "Kiev (heure d’Europe de l’Est)", "Europe/Kyiv", "Horaires affichés à l’heure de Kiev (heure d’Europe de l’Est)."},
		{"fr", "Europe/Paris", "Paris (heure d’Europe centrale)", "inde", "Calcutta (heure de l’Inde)", "Asia/Kolkata", "Horaires affichés à l’heure de Calcutta (heure de l’Inde)."},
		{"ar", "Asia/Riyadh", "الرياض (التوقيت العربي الرسمي)", "القاهرة", "القاهرة (توقيت شرق أوروبا)", "Africa/Cairo", "المواعيد معروضة بتوقيت القاهرة (توقيت شرق أوروبا)."},
	} {
		t.Run(tc.lang+"/"+tc.zone, func(t *testing.T) {
			lang, _ := s.Info.Language(tc.lang)
			tb := e2etest.NewTab(t, b)
			var requests []string
			var mu sync.Mutex
			chromedp.ListenTarget(tb.Ctx, func(ev any) {
				if e, ok := ev.(*network.EventRequestWillBeSent); ok && strings.Contains(e.Request.URL, "/api/slots") {
					mu.Lock()
					requests = append(requests, e.Request.URL)
					mu.Unlock()
				}
			})
			var options []struct {
				Label string `json:"label"`
				Place string `json:"place"`
			}
			var field, detected string
			tb.Run(t,
				network.Enable(),
				e2etest.InZone(tc.zone),
				chromedp.Navigate(base+lang.LocalPath("/schedule/discovery")),
				e2etest.WaitHydrated(),
				e2etest.WaitTimes(),
				chromedp.Evaluate(`document.querySelector(".zone-combobox input").value`, &field),
				chromedp.Click(`.zone-combobox input`, chromedp.ByQuery),
				chromedp.WaitVisible(`.zone-list [role="option"]`, chromedp.ByQuery),
				chromedp.Evaluate(`[...document.querySelectorAll('.zone-list [role="option"]')].map((o) => ({
					label: o.querySelector(".zone-label").textContent, place: o.querySelector(".zone-place").textContent }))`, &options),
			)
			if field != tc.first {
				t.Errorf("the field shows %q, want %q", field, tc.first)
			}
			detected = s.Locales.T(tc.lang, "schedule.time.zoneDetected")
			if len(options) < 300 || options[0].Label != tc.first || options[0].Place != detected {
				t.Fatalf("%d zones, the first %+v; want some 400 with %q first, marked %q", len(options), options[0], tc.first, detected)
			}
			seen := map[string]bool{}
			for _, o := range options {
				// A raw IANA name ("America/New_York") or a zone listed twice
				// (under a former name too) is what visitors complained about.
				if strings.ContainsAny(o.Label, "/_") || seen[o.Label] {
					t.Errorf("zone %q listed as is, or twice", o.Label)
				}
				seen[o.Label] = true
			}
			var note string
			tb.Run(t,
				chromedp.KeyEvent(kb.Escape),
				e2etest.ChooseZone(tc.query, tc.tz),
				e2etest.WaitTimes(),
				chromedp.Evaluate(`document.querySelector(".zone-combobox input").value`, &field),
				chromedp.Text(`.zone-note`, &note, chromedp.ByQuery),
			)
			// The note isolates the city and the zone's name (FSI … PDI), which
			// no one sees: the test reads what a visitor reads.
			note = strings.Map(func(r rune) rune {
				if r >= '\u2066' && r <= '\u2069' {
					return -1
				}
				return r
			}, note)
			if field != tc.pick || note != tc.note {
				t.Errorf("after searching %q: field %q, note %q; want %q, %q", tc.query, field, note, tc.pick, tc.note)
			}
			mu.Lock()
			last := requests[len(requests)-1]
			mu.Unlock()
			if !strings.Contains(last, "tz="+strings.ReplaceAll(tc.tz, "/", "%2F")) {
				t.Errorf("the times were asked for with %s, want the current name %s", last, tc.tz)
			}
			e2etest.CheckAccessibility(t, tb, "zone picker")
			if problems := tb.ConsoleProblems(); len(problems) > 0 {
				t.Errorf("console:\n%s", strings.Join(problems, "\n"))
			}
		})
	}
}

// TestNightTimesSayTheyAreAtNight shows the times of the day in New York
// (the consultancy is open round the clock in the fixture): every time
// before 07:00 or after 21:00 there says it falls at night, and no other
// does. A time and its day period never part across lines.
func TestNightTimesSayTheyAreAtNight(t *testing.T) {
	b, base, _ := e2etest.BookingBrowser(t)
	s := sitetest.Site(t)
	tb := e2etest.NewTab(t, b)
	var times []struct {
		Start string `json:"start"`
		Clock string `json:"clock"`
		Night string `json:"night"`
	}
	tb.Run(t,
		e2etest.InZone("America/New_York"),
		chromedp.Navigate(base+"/schedule/discovery"),
		e2etest.WaitHydrated(),
		e2etest.WaitTimes(),
		e2etest.PickFullDay(),
		chromedp.Evaluate(`[...document.querySelectorAll(".time-grid label")].map((l) => ({
			start: l.querySelector("input").value,
			clock: l.querySelector(".time-clock").textContent,
			night: l.querySelector(".time-night")?.textContent.trim() ?? "" }))`, &times),
	)
	newYork, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Fatal(err)
	}
	label := s.Locales.T("en", "schedule.times.night")
	nights := 0
	for _, tm := range times {
		start, err := time.Parse(time.RFC3339, tm.Start)
		if err != nil {
			t.Fatal(err)
		}
		local := start.In(newYork)
		minutes := local.Hour()*60 + local.Minute()
		night := minutes < 7*60 || minutes > 21*60
		if night != (tm.Night == label) {
			t.Errorf("%s (%s in New York): night label %q", tm.Clock, local.Format("15:04"), tm.Night)
		}
		if night {
			nights++
		}
		if want := local.Format("3:04") + "\u00a0" + local.Format("pm"); tm.Clock != want {
			t.Errorf("time %q, want %q (a no-break space before the day period)", tm.Clock, want)
		}
	}
	if nights == 0 || nights == len(times) {
		t.Errorf("%d of %d times at night: the day shown should have both", nights, len(times))
	}
}

// TestNavigationFocusAndScroll follows a link at the foot of a long page
// while the next page is on its way: the placeholder is where the visitor
// looks, the new page opens at its top with the focus on its main heading,
// and the back button returns to where the first page was left.
func TestNavigationFocusAndScroll(t *testing.T) {
	b, base := e2etest.Browser(t)
	s := sitetest.Site(t)
	tb := e2etest.NewTab(t, b)
	held := make(chan string, 1)
	chromedp.ListenTarget(tb.Ctx, func(ev any) {
		if e, ok := ev.(*fetch.EventRequestPaused); ok {
			held <- string(e.RequestID)
		}
	})
	legalChunk := s.Bundle.Manifest.Pages["Legal"][0]
	var left float64
	tb.Run(t,
		e2etest.Viewport(390, true),
		chromedp.Navigate(base+"/de/blog"),
		e2etest.WaitHydrated(),
		fetch.Enable().WithPatterns([]*fetch.RequestPattern{{URLPattern: "*" + legalChunk}}),
		chromedp.ScrollIntoView(`footer a[href="/de/cookies"]`, chromedp.ByQuery),
		chromedp.Evaluate(`window.scrollY`, &left),
		chromedp.Click(`footer a[href="/de/cookies"]`, chromedp.ByQuery),
		chromedp.WaitReady(`main .loading`, chromedp.ByQuery),
	)
	if left < 300 {
		t.Fatalf("the list was scrolled by %.0f px only: the footer should be far down", left)
	}
	var placeholder struct {
		Top, Bottom, Height float64
	}
	tb.Run(t, chromedp.Evaluate(`(() => { const r = document.querySelector("main .loading").getBoundingClientRect();
		return { Top: r.top, Bottom: r.bottom, Height: innerHeight }; })()`, &placeholder))
	if placeholder.Top < 0 || placeholder.Top > placeholder.Height/2 {
		t.Errorf("the placeholder is at %.0f px of a %.0f px screen, not where the visitor looks", placeholder.Top, placeholder.Height)
	}
	select {
	case id := <-held:
		tb.Run(t, fetch.ContinueRequest(e2etest.FetchRequestID(id)), fetch.Disable())
	case <-time.After(time.Until(testwait.Deadline(t))):
		t.Fatal("the page's chunk was never requested")
	}
	var scrollY float64
	var focused, heading string
	tb.Run(t,
		chromedp.WaitVisible(`main article.legal h1`, chromedp.ByQuery),
		chromedp.Sleep(300*time.Millisecond), // a smooth scroll would show by now
		chromedp.Evaluate(`window.scrollY`, &scrollY),
		chromedp.Evaluate(`document.activeElement.tagName + ":" + document.activeElement.textContent`, &focused),
		chromedp.Text(`main h1`, &heading, chromedp.ByQuery),
	)
	if scrollY != 0 || focused != "H1:"+heading {
		t.Errorf("the new page opened scrolled by %.0f px with the focus on %q; want its top and its heading", scrollY, focused)
	}
	var back float64
	tb.Run(t,
		chromedp.NavigateBack(),
		chromedp.WaitVisible(`main .post-list`, chromedp.ByQuery),
		e2etest.Poll(fmt.Sprintf(`Math.abs(window.scrollY - %f) < 2`, left), nil),
		chromedp.Evaluate(`window.scrollY`, &back),
	)
	if math.Abs(back-left) >= 2 {
		t.Errorf("back on the list at %.0f px, left at %.0f px", back, left)
	}
	if problems := tb.ConsoleProblems(); len(problems) > 0 {
		t.Errorf("console:\n%s", strings.Join(problems, "\n"))
	}
}

// TestIconsWithoutDirectionAreNotMirrored compares, in English and in
// Arabic, the check marks of the service lists and of the consultations,
// and the moon beside a night time: right to left, each stands where the
// line starts, drawn the same way, not mirrored into an arrow.
func TestIconsWithoutDirectionAreNotMirrored(t *testing.T) {
	b, base, _ := e2etest.BookingBrowser(t)
	// icon returns the image of the first icon of a selector: its box, for
	// an element, or the ::before box at the start of its line.
	type box struct{ X, Y, W, H float64 }
	icon := func(tb *e2etest.Tab, js string) image.Image {
		var r box
		tb.Run(t, chromedp.Evaluate(js, &r))
		if r.W == 0 {
			t.Fatalf("no icon found by %s", js)
		}
		return e2etest.ScreenshotRect(tb, t, r.X, r.Y, r.W, r.H)
	}
	const checkmark = `(() => { const li = document.querySelector(%q); li.scrollIntoView({ block: "center" });
		const r = li.getBoundingClientRect(), c = getComputedStyle(li, "::before");
		const w = parseFloat(c.width), h = parseFloat(c.height), top = parseFloat(c.insetBlockStart);
		const x = getComputedStyle(li).direction === "rtl" ? r.right - w : r.left;
		return { X: x + scrollX, Y: r.top + top + scrollY, W: w, H: h }; })()`
	const element = `(() => { const el = document.querySelector(%q); el.scrollIntoView({ block: "center" });
		const r = el.getBoundingClientRect(); return { X: r.left + scrollX, Y: r.top + scrollY, W: r.width, H: r.height }; })()`
	shots := map[string]map[string]image.Image{}
	for _, path := range []string{"", "/ar"} {
		tb := e2etest.NewTab(t, b)
		tb.Run(t, e2etest.Viewport(1280, false), e2etest.InZone("America/New_York"), chromedp.Navigate(base+path+"/"), e2etest.WaitHydrated())
		got := map[string]image.Image{"service check mark": icon(tb, fmt.Sprintf(checkmark, ".service-card .checklist li"))}
		tb.Run(t, chromedp.Navigate(base+path+"/schedule"), e2etest.WaitHydrated())
		got["consultation check mark"] = icon(tb, fmt.Sprintf(checkmark, ".consult-card .checklist li"))
		tb.Run(t, chromedp.Navigate(base+path+"/schedule/discovery"), e2etest.WaitHydrated(), e2etest.WaitTimes(), e2etest.PickFullDay())
		got["done step"] = icon(tb, fmt.Sprintf(element, ".schedule-steps .done-mark"))
		got["moon"] = icon(tb, fmt.Sprintf(element, ".time-night .moon"))
		shots[path] = got
	}
	for name, en := range shots[""] {
		ar := shots["/ar"][name]
		same, mirrored := e2etest.Difference(en, ar, false), e2etest.Difference(en, ar, true)
		t.Logf("%s: %.2f from English as is, %.2f mirrored", name, same, mirrored)

		if same*2 > mirrored {
			t.Errorf("the %s in Arabic is mirrored or differs (%.2f as is, %.2f mirrored)", name, same, mirrored)
		}
	}
}

// TestCookieBannerOnAPhone shows the banner on a 360 x 740 phone in every
// language: the box at the bottom centre, inline, in less than half of the
// screen, its text whole; its two actions (without analytics, one
// acknowledgement and the preferences) look alike and have the same
// height; Tab reaches each of them from the page.
func TestCookieBannerOnAPhone(t *testing.T) {
	b, _ := e2etest.Browser(t)
	base := e2etest.ConsentServer(t, "", false)
	s := sitetest.Site(t)
	for _, lang := range s.Info.Languages {
		t.Run(lang.Code, func(t *testing.T) {
			tb := e2etest.NewTab(t, b)
			var box struct {
				Top, Bottom, Left, Right, Screen, Width float64
				Inline, Centre, Bottom2                 bool
				DescClipped                             bool
			}
			var buttons []struct {
				Role, Background, Colour, Weight, Font string
				Height                                 float64
			}
			tb.Run(t,
				e2etest.Screen(360),
				chromedp.Navigate(base+lang.LocalPath("/")),
				e2etest.WaitHydrated(),
				e2etest.WaitBanner(),
				chromedp.Evaluate(`(() => { const m = document.querySelector("#cc-main .cm"), r = m.getBoundingClientRect(), d = m.querySelector(".cm__desc");
					return { Top: r.top, Bottom: r.bottom, Left: r.left, Right: r.right, Screen: innerHeight, Width: innerWidth,
						Inline: m.classList.contains("cm--inline"), Centre: m.classList.contains("cm--center"), Bottom2: m.classList.contains("cm--bottom"),
						DescClipped: d.scrollHeight > d.clientHeight + 1 }; })()`, &box),
				chromedp.Evaluate(`[...document.querySelectorAll("#cc-main .cm .cm__btn")].map((b) => { const c = getComputedStyle(b);
					return { Role: b.dataset.role, Background: c.backgroundColor, Colour: c.color, Weight: c.fontWeight, Font: c.fontSize, Height: b.getBoundingClientRect().height }; })`, &buttons),
			)
			height := box.Bottom - box.Top
			t.Logf("the banner takes %.0f of %.0f px (%.0f%%)", height, box.Screen, 100*height/box.Screen)
			if !box.Inline || !box.Centre || !box.Bottom2 || box.Bottom > box.Screen || box.Left < 0 || box.Right > box.Width {
				t.Errorf("banner %+v: want the inline box at the bottom centre, on screen", box)
			}
			if height > 0.45*box.Screen || box.DescClipped {
				t.Errorf("the banner takes %.0f of %.0f px (%.0f%%), text cut: %v; want under 45%%, whole", height, box.Screen, 100*height/box.Screen, box.DescClipped)
			}
			if len(buttons) != 2 {
				t.Fatalf("%d actions, want 2", len(buttons))
			}
			for _, btn := range buttons[1:] {
				if btn.Background != buttons[0].Background || btn.Colour != buttons[0].Colour || btn.Weight != buttons[0].Weight ||
					btn.Font != buttons[0].Font || math.Abs(btn.Height-buttons[0].Height) > 0.5 {
					t.Errorf("actions of unequal weight: %+v and %+v", buttons[0], btn)
				}
			}
			for _, role := range []string{"all", "show"} {
				tb.Run(t, e2etest.TabTo(fmt.Sprintf(`#cc-main .cm [data-role=%q]`, role), 60))
			}
			e2etest.CheckAccessibility(t, tb, "banner on a phone")
		})
	}
}

// TestCodeBlocksShowTheyScroll opens a post with code wider than a phone:
// a shadow on the side where there is more to see, on the right at first,
// on the left once scrolled to the end, and none where the block ends.
func TestCodeBlocksShowTheyScroll(t *testing.T) {
	b, base := e2etest.Browser(t)
	tb := e2etest.NewTab(t, b)
	type box struct{ X, Y, W, H float64 }
	var pre box
	tb.Run(t,
		e2etest.Screen(360),
		chromedp.Navigate(base+"/blog/platform-engineering-without-the-platform-team-tax"),
		e2etest.WaitHydrated(),
		chromedp.Evaluate(`(() => { const p = [...document.querySelectorAll("main pre")].find((p) => p.scrollWidth > p.clientWidth + 40);
			if (!p) return { X: 0, Y: 0, W: 0, H: 0 };
			p.id = "wide-code"; p.scrollIntoView({ block: "center" });
			const r = p.getBoundingClientRect(); return { X: r.left + scrollX, Y: r.top + scrollY, W: r.width, H: r.height }; })()`, &pre),
	)
	if pre.W == 0 {
		t.Fatal("no code block wider than the phone in the post")
	}
	// edges returns how dark the first and last 10 px inside the border are, from an empty line of the block.
	edges := func() (start, end float64) {
		var line box
		tb.Run(t, chromedp.Evaluate(`(() => { const p = document.getElementById("wide-code"), r = p.getBoundingClientRect();
			return { X: r.left + scrollX, Y: r.bottom + scrollY - 14, W: r.width, H: 6 }; })()`, &line))
		img := e2etest.ScreenshotRect(tb, t, line.X+1, line.Y, line.W-2, line.H)
		dark := func(x0, x1 int) float64 {
			var sum float64
			bounds := img.Bounds()
			for y := bounds.Min.Y; y < bounds.Max.Y; y++ {
				for x := bounds.Min.X + x0; x < bounds.Min.X+x1; x++ {
					r, g, b, _ := img.At(x, y).RGBA()
					sum += 255 - float64(r+g+b)/3/257
				}
			}
			return sum / float64((x1-x0)*bounds.Dy())
		}
		w := img.Bounds().Dx()
		return dark(0, 10), dark(w-10, w)
	}
	startBefore, endBefore := edges()
	tb.Run(t, chromedp.Evaluate(`(() => { const p = document.getElementById("wide-code"); p.scrollLeft = p.scrollWidth; })()`, nil),
		chromedp.Sleep(100*time.Millisecond))
	startAfter, endAfter := edges()
	t.Logf("darkness at the start and the end: %.1f, %.1f before scrolling; %.1f, %.1f after", startBefore, endBefore, startAfter, endAfter)
	if endBefore < startBefore+8 || startAfter < endAfter+8 {
		t.Errorf("no shadow where the code goes on: %.1f, %.1f before scrolling; %.1f, %.1f after", startBefore, endBefore, startAfter, endAfter)
	}
}

// TestTimeStepOnAPhone opens the time step on a 360 x 740 phone in every
// language: loaded directly, the calendar starts on the first screen; from
// the choice of consultation, the step comes to the top and the whole month
// is on the screen, with the focus on the step's heading.
func TestTimeStepOnAPhone(t *testing.T) {
	b, base, _ := e2etest.BookingBrowser(t)
	s := sitetest.Site(t)
	type rect struct{ Top, Bottom, Screen float64 }
	const calendar = `(() => { const r = document.querySelector(".calendar").getBoundingClientRect(); return { Top: r.top, Bottom: r.bottom, Screen: innerHeight }; })()`
	for _, lang := range s.Info.Languages {
		t.Run(lang.Code, func(t *testing.T) {
			tb := e2etest.NewTab(t, b)
			var direct, followed rect
			var focused string
			tb.Run(t,
				e2etest.Screen(360),
				e2etest.InZone("Europe/Berlin"),
				chromedp.Navigate(base+lang.LocalPath("/schedule/discovery")),
				e2etest.WaitHydrated(),
				e2etest.WaitTimes(),
				chromedp.Evaluate(calendar, &direct),
				chromedp.Navigate(base+lang.LocalPath("/schedule")),
				e2etest.WaitHydrated(),
				chromedp.Click(`a.consult-choose[href="`+lang.LocalPath("/schedule/discovery")+`"]`, chromedp.ByQuery),
				e2etest.WaitTimes(),
				e2etest.Poll(`(() => { const y = scrollY, now = performance.now();
					if (window.__y !== y) { window.__y = y; window.__at = now; }
					return y > 0 && now - window.__at > 300; })()`, nil),
				chromedp.Evaluate(calendar, &followed),
				e2etest.ReadFocused(`el.id`, &focused),
			)
			if direct.Top < 0 || direct.Top > direct.Screen*0.7 {
				t.Errorf("loaded directly, the calendar starts at %.0f px of %.0f", direct.Top, direct.Screen)
			}
			if followed.Top < 0 || followed.Bottom > followed.Screen || focused != "schedule-time-title" {
				t.Errorf("from step 1, the calendar spans %.0f to %.0f px of %.0f, focus on %q", followed.Top, followed.Bottom, followed.Screen, focused)
			}
		})
	}
}
