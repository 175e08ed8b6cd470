package brand

import (
	"bytes"
	"encoding/xml"
	"errors"
	"image"
	"image/color"
	"image/png"
	"os"
	"testing"
)

func TestImagesHaveTheirSizes(t *testing.T) {
	for _, size := range []int{32, 180, 192, 512} {
		img, err := png.Decode(bytes.NewReader(Icon(size)))
		if err != nil {
			t.Fatal(err)
		}
		if b := img.Bounds(); b.Dx() != size || b.Dy() != size {
			t.Errorf("icon %d: %v", size, b)
		}
		// The corners are transparent (rounded), the centre is not.
		if _, _, _, a := img.At(0, 0).RGBA(); a != 0 {
			t.Errorf("icon %d: corner alpha %d", size, a)
		}
		if _, _, _, a := img.At(size/2, size/2).RGBA(); a == 0 {
			t.Errorf("icon %d: transparent centre", size)
		}
	}
	share, err := ShareImage("Northbeam", "Custom software, platform engineering and strategic consulting.")
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(share))
	if err != nil || img.Bounds().Dx() != 1200 || img.Bounds().Dy() != 630 {
		t.Fatalf("share image: %v %v", err, img.Bounds())
	}
	if dir := os.Getenv("SCREENSHOT_DIR"); dir != "" {
		_ = os.WriteFile(dir+"/share.png", share, 0o644)
		_ = os.WriteFile(dir+"/icon-192.png", Icon(192), 0o644)
	}
	if err := xml.Unmarshal([]byte(IconSVG), new(struct{})); err != nil {
		t.Errorf("IconSVG is not well-formed: %v", err)
	}
}

// TestPageImage: a page's share image is 1200×630 and differs with its
// title, in English, French and Arabic; a text in a script the fonts do
// not hold (Hebrew here) is refused, so the page keeps the default image
// rather than showing boxes.
func TestPageImage(t *testing.T) {
	var images [][]byte
	for _, p := range []struct{ kind, title, dir, lang string }{
		{"Case study", "From a weekly release train to thirty deployments a day at a payments company", "ltr", "en"},
		{"Étude de cas", "D’une mise en production hebdomadaire à trente déploiements par jour", "ltr", "fr"},
		{"دراسة حالة", "من إصدار أسبوعي واحد إلى ثلاثين عملية نشر يوميًا لدى شركة مدفوعات", "rtl", "ar"},
	} {
		img, err := PageImage("Northbeam", p.kind, p.title, p.dir, p.lang)
		if err != nil {
			t.Fatalf("%s: %v", p.lang, err)
		}
		cfg, err := png.DecodeConfig(bytes.NewReader(img))
		if err != nil || cfg.Width != 1200 || cfg.Height != 630 {
			t.Errorf("%s: image %dx%d, %v", p.lang, cfg.Width, cfg.Height, err)
		}
		for _, other := range images {
			if bytes.Equal(img, other) {
				t.Errorf("%s: two titles drew the same image", p.lang)
			}
		}
		images = append(images, img)
	}
	if _, err := PageImage("Northbeam", "מקרה בוחן", "שלושים פריסות ביום", "rtl", "he"); !errors.Is(err, ErrUnsupportedScript) {
		t.Errorf("Hebrew: %v, want ErrUnsupportedScript", err)
	}
	if !CanDraw("Northbeam", "المدونة", "التقنيات المملّة أساسٌ لمنتجات SaaS موثوقة") {
		t.Error("CanDraw refuses an Arabic title with a Latin word")
	}
}

// TestArabicPageImageRunsRightToLeft: an Arabic page's image is the
// English one mirrored, as the Arabic site is: the mark in the top right
// corner, the kind and the title set against the right margin, the left
// side left free by a short title. The English image is the other way
// round.
func TestArabicPageImageRunsRightToLeft(t *testing.T) {
	const w, margin = 1200, 80
	for _, p := range []struct {
		kind, title, dir, lang string
	}{
		{"دراسة حالة", "هندسة المنصات", "rtl", "ar"},
		{"كبيرة المهندسين، البرمجيات المخصّصة", "Samira Haddad", "rtl", "ar"},
		{"Senior engineer, reliability", "Julien Moreau", "ltr", "en"},
	} {
		b, err := PageImage("Northbeam", p.kind, p.title, p.dir, p.lang)
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		kind := inkIn(img, 190, 245)
		title := inkIn(img, 250, 630)
		if title.pixels < 2000 || kind.pixels < 500 {
			t.Errorf("%q: %d inked pixels in the title, %d in the kind: nearly blank", p.title, title.pixels, kind.pixels)
			continue
		}
		// A point inside the 72-pixel mark, clear of its letter.
		markRight := isMark(img.At(w-margin-64, margin+8))
		if p.dir == "rtl" {
			if !markRight || isMark(img.At(margin+8, margin+8)) {
				t.Errorf("%q: the mark is not in the top right corner alone", p.title)
			}
			for name, band := range map[string]inked{"kind": kind, "title": title} {
				if band.maxX < w-margin-8 || band.maxX > w-margin+4 {
					t.Errorf("%q: the %s ends at x=%d, want against the right margin (%d)", p.title, name, band.maxX, w-margin)
				}
			}
			if title.minX < w/2 {
				t.Errorf("%q: a short title reaches x=%d, the left half should be free", p.title, title.minX)
			}
		} else {
			if markRight || !isMark(img.At(margin+8, margin+8)) {
				t.Errorf("%q: the mark is not in the top left corner alone", p.title)
			}
			if title.minX < margin-4 || title.minX > margin+8 || title.maxX > w/2 {
				t.Errorf("%q: the title spans x=%d..%d, want from the left margin (%d) and short", p.title, title.minX, title.maxX, margin)
			}
		}
	}
}

// inked is where text was drawn in a band of rows.
type inked struct{ minX, maxX, pixels int }

// inkIn finds the light pixels (text; the background is dark) in rows
// y0 to y1.
func inkIn(img image.Image, y0, y1 int) inked {
	in := inked{minX: img.Bounds().Dx(), maxX: -1}
	for y := y0; y < y1; y++ {
		for x := 0; x < img.Bounds().Dx(); x++ {
			if r, _, _, _ := img.At(x, y).RGBA(); r>>8 > 128 {
				in.pixels++
				in.minX = min(in.minX, x)
				in.maxX = max(in.maxX, x)
			}
		}
	}
	return in
}

// isMark reports whether c is the mark's blue rather than the dark
// background.
func isMark(c color.Color) bool {
	r, _, b, _ := c.RGBA()
	return b>>8 > 150 && r>>8 < 80
}
