package e2etest

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"math"
	"strings"
	"testing"

	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// FillPhoneIfAsked types number into the phone field, which a consultation
// by phone asks for and a video call does not.
func FillPhoneIfAsked(number string) chromedp.Action {
	return chromedp.ActionFunc(func(ctx context.Context) error {
		var asked bool
		if err := chromedp.Evaluate(`!!document.querySelector('input[name="phone"]')`, &asked).Do(ctx); err != nil || !asked {
			return err
		}
		return chromedp.SendKeys(`input[name="phone"]`, number, chromedp.ByQuery).Do(ctx)
	})
}

// BookDiscovery picks the second open day's second time, types a name and
// an address, and confirms.
func BookDiscovery(name string) chromedp.Action {
	return chromedp.Tasks{
		WaitTimes(),
		PickFullDay(),
		chromedp.Click(`.time-grid li:nth-child(2) input`, chromedp.ByQuery),
		chromedp.SendKeys(`input[name="name"]`, name, chromedp.ByQuery),
		chromedp.SendKeys(`input[name="email"]`, "visitor@example.com", chromedp.ByQuery),
		FillPhoneIfAsked("+33 1 23 45 67 89"),
		chromedp.Click(`button.booking-confirm`, chromedp.ByQuery),
		chromedp.WaitVisible(`.booking-confirmed`, chromedp.ByQuery),
	}
}

// ChooseZone types query in the time zone field and picks the first
// option, then waits for the times of that zone (whose IANA name is want).
func ChooseZone(query, want string) chromedp.Action {
	return chromedp.Tasks{
		chromedp.Click(`.zone-combobox input`, chromedp.ByQuery),
		chromedp.SendKeys(`.zone-combobox input`, query, chromedp.ByQuery),
		chromedp.WaitVisible(`.zone-list [role="option"]`, chromedp.ByQuery),
		chromedp.KeyEvent(kb.ArrowDown),
		chromedp.KeyEvent(kb.Enter),
		Poll(fmt.Sprintf(`performance.getEntriesByType("resource").some((e) => e.name.includes("tz=%s"))`, strings.ReplaceAll(want, "/", "%2F")), nil),
	}
}

// ScreenshotRect captures a region of the page, in CSS pixels, as an image.
func ScreenshotRect(tb *Tab, t *testing.T, x, y, w, h float64) image.Image {
	t.Helper()
	var buf []byte
	tb.Run(t, chromedp.ActionFunc(func(ctx context.Context) error {
		var err error
		buf, err = cdppage.CaptureScreenshot().WithFormat(cdppage.CaptureScreenshotFormatPng).
			WithClip(&cdppage.Viewport{X: x, Y: y, Width: w, Height: h, Scale: 1}).Do(ctx)
		return err
	}))
	img, err := png.Decode(bytes.NewReader(buf))
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// Difference is the mean difference of two images' grey levels (0 to 255),
// the second one mirrored left to right when mirror is set, at the best of
// the alignments within a pixel (the same icon may sit a fraction of a
// pixel apart on two pages).
func Difference(a, b image.Image, mirror bool) float64 {
	ba, bb := a.Bounds(), b.Bounds()
	w, h := min(ba.Dx(), bb.Dx()), min(ba.Dy(), bb.Dy())
	grey := func(img image.Image, x, y int) float64 {
		r, g, bl, _ := img.At(x, y).RGBA()
		return float64(r+g+bl) / 3 / 257
	}
	best := math.Inf(1)
	for dy := -1; dy <= 1; dy++ {
		for dx := -1; dx <= 1; dx++ {
			var sum float64
			var n int
			for y := max(0, -dy); y < h && y+dy < h; y++ {
				for x := max(0, -dx); x < w && x+dx < w; x++ {
					xb := x + dx
					if mirror {
						xb = w - 1 - xb
					}
					sum += math.Abs(grey(a, ba.Min.X+x, ba.Min.Y+y) - grey(b, bb.Min.X+xb, bb.Min.Y+y+dy))
					n++
				}
			}
			best = min(best, sum/float64(n))
		}
	}
	return best
}
