package e2etest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	cdpruntime "github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/northbeam/site/internal/booking"
	"github.com/northbeam/site/internal/sitetest"
)

// BrowserFixture opens every hour of every day with no notice, so that the
// browser tests, which run on the real clock, always find times today and
// on the following days.
const BrowserFixture = `{
  "timeZone": "Europe/Berlin",
  "weeklyHours": {
    "monday": [{"start": "00:00", "end": "24:00"}],
    "tuesday": [{"start": "00:00", "end": "24:00"}],
    "wednesday": [{"start": "00:00", "end": "24:00"}],
    "thursday": [{"start": "00:00", "end": "24:00"}],
    "friday": [{"start": "00:00", "end": "24:00"}],
    "saturday": [{"start": "00:00", "end": "24:00"}],
    "sunday": [{"start": "00:00", "end": "24:00"}]
  },
  "services": {
    "discovery": {"minutes": 15, "meeting": {"type": "phone"}},
    "strategy": {"minutes": 30, "meeting": {"type": "video", "roomBase": "https://meet.example.com/Northbeam-"}}
  },
  "slotIntervalMinutes": 15,
  "bufferMinutes": 10,
  "minimumNoticeHours": 0,
  "daysAhead": 30,
  "closedDates": []
}`

// BookingBrowser returns the shared browser and a server of its own with a
// booking service on a fresh database, on the real clock.
func BookingBrowser(t *testing.T) (context.Context, string, *bookingEnv) {
	t.Helper()
	b, _ := Browser(t)
	env := NewBookingEnv(t, BrowserFixture)
	srv := httptest.NewServer(env.Handler)
	t.Cleanup(srv.Close)
	return b, srv.URL, env
}

// InZone makes the tab's clock run in an IANA zone, as a visitor's would.
// It also asks for reduced motion: without smooth scrolling, a click lands
// where the element is, not where it was before the page scrolled to it.
func InZone(zone string) chromedp.Action {
	return chromedp.ActionFunc(func(ctx context.Context) error {
		if err := emulation.SetTimezoneOverride(zone).Do(ctx); err != nil {
			return err
		}
		return emulation.SetEmulatedMedia().
			WithFeatures([]*emulation.MediaFeature{{Name: "prefers-reduced-motion", Value: "reduce"}}).Do(ctx)
	})
}

// TabTo presses Tab until the focused element matches selector, failing
// after max presses: the keyboard path to an element.
func TabTo(selector string, max int) chromedp.Action {
	return chromedp.ActionFunc(func(ctx context.Context) error {
		for range max {
			if err := chromedp.KeyEvent(kb.Tab).Do(ctx); err != nil {
				return err
			}
			var ok bool
			if err := chromedp.Evaluate(fmt.Sprintf(`!!document.activeElement && document.activeElement.matches(%q)`, selector), &ok).Do(ctx); err != nil {
				return err
			}
			if ok {
				return nil
			}
		}
		var at string
		_ = chromedp.Evaluate(`document.activeElement ? document.activeElement.outerHTML.slice(0, 200) : ""`, &at).Do(ctx)
		return fmt.Errorf("no %s after %d tabs; focus is on %s", selector, max, at)
	})
}

// ReadFocused reads an attribute of the focused element.
func ReadFocused(js string, dst any) chromedp.Action {
	return chromedp.Evaluate(`(() => { const el = document.activeElement; return `+js+`; })()`, dst)
}

// WaitTimes waits until the picker shows the open times of a day.
func WaitTimes() chromedp.Action {
	return chromedp.WaitVisible(`.time-grid input[type="radio"]`, chromedp.ByQuery)
}

// CheckAccessibility runs axe-core (WCAG 2.2 AA and best practices) on the
// page as it is in the tab, for the states of the booking flow that only
// exist after clicks.
func CheckAccessibility(t *testing.T, tb *Tab, state string) {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(sitetest.Root(), "node_modules", "axe-core", "axe.min.js"))
	if err != nil {
		t.Fatalf("axe-core is missing (npm ci): %v", err)
	}
	var raw string
	tb.Run(t,
		chromedp.Evaluate(string(src), nil),
		chromedp.Evaluate(`axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"] } })
			.then((r) => JSON.stringify(r.violations.map((v) => v.id + ": " + v.help + " " + v.nodes.map((n) => n.html).join(" | "))))`,
			&raw, func(p *cdpruntime.EvaluateParams) *cdpruntime.EvaluateParams { return p.WithAwaitPromise(true) }),
	)
	var violations []string
	if err := json.Unmarshal([]byte(raw), &violations); err != nil {
		t.Fatalf("axe result %q: %v", raw, err)
	}
	for _, v := range violations {
		t.Errorf("%s: %s", state, v)
	}
}

// PickFullDay chooses the day after the first one with times: late in the
// evening, the first may have only a time or two left.
func PickFullDay() chromedp.Action {
	return chromedp.ActionFunc(func(ctx context.Context) error {
		const next = `(() => {
			const open = [...document.querySelectorAll('.calendar-grid button.day[data-open]')];
			const selected = document.querySelector('.calendar-grid button.day[aria-pressed="true"]')?.dataset.date ?? "";
			const day = open.find((b) => b.dataset.date > selected);
			if (!day) return "";
			day.click();
			return day.dataset.date;
		})()`
		var day string
		if err := chromedp.Evaluate(next, &day).Do(ctx); err != nil {
			return err
		}
		if day == "" { // the month shown ends with the first day: the next month
			if err := chromedp.Click(`.calendar-next`, chromedp.ByQuery).Do(ctx); err != nil {
				return err
			}
			if err := chromedp.Evaluate(next, &day).Do(ctx); err != nil {
				return err
			}
		}
		if day == "" {
			return fmt.Errorf("no second day with times")
		}
		return chromedp.WaitVisible(`.calendar-grid button.day[aria-pressed="true"][data-date="`+day+`"]`, chromedp.ByQuery).Do(ctx)
	})
}

// StoredBookings returns the start, name, zone and language of every booking.
func StoredBookings(t *testing.T, env *bookingEnv) []string {
	t.Helper()
	rows, err := env.Store.DB().Query(`SELECT start_at, name, time_zone, lang, cancelled_at IS NOT NULL FROM bookings ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var start int64
		var name, zone, lang string
		var cancelled bool
		if err := rows.Scan(&start, &name, &zone, &lang, &cancelled); err != nil {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprintf("%s|%s|%s|%s|%v", time.UnixMilli(start).UTC().Format(time.RFC3339), name, zone, lang, cancelled))
	}
	return out
}

func NextDayOf(t *testing.T, d string) string {
	t.Helper()
	parsed, err := booking.ParseDate(d)
	if err != nil {
		t.Fatalf("day %q: %v", d, err)
	}
	return parsed.AddDays(1).String()
}
