package brand

import (
	"bytes"
	"encoding/xml"
	"errors"
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
// title; Arabic, which these fonts cannot shape, is refused so the page
// keeps the default image rather than showing boxes.
func TestPageImage(t *testing.T) {
	a, err := PageImage("Northbeam", "Case study", "From a weekly release train to thirty deployments a day at a payments company")
	if err != nil {
		t.Fatal(err)
	}
	b, err := PageImage("Northbeam", "Étude de cas", "D’une mise en production hebdomadaire à trente déploiements par jour")
	if err != nil {
		t.Fatal(err)
	}
	for _, img := range [][]byte{a, b} {
		cfg, err := png.DecodeConfig(bytes.NewReader(img))
		if err != nil || cfg.Width != 1200 || cfg.Height != 630 {
			t.Errorf("image %dx%d, %v", cfg.Width, cfg.Height, err)
		}
	}
	if bytes.Equal(a, b) {
		t.Error("two titles drew the same image")
	}
	if _, err := PageImage("Northbeam", "دراسة حالة", "من إصدار أسبوعي واحد إلى ثلاثين عملية نشر"); !errors.Is(err, ErrUnsupportedScript) {
		t.Errorf("Arabic: %v, want ErrUnsupportedScript", err)
	}
}
