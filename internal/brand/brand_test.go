package brand

import (
	"bytes"
	"encoding/xml"
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
