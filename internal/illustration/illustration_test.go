package illustration

import (
	"bytes"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"testing"
)

// TestTheContentHoldsWhatThisCodeDraws: every picture under content/img/
// that this package draws is what it draws today (to within a step of
// colour, for another processor's rounding), so that nobody edits the PNG
// by hand and loses it at the next drawing, and no picture is left out.
// After a change here: go run ./internal/illustration/cmd/draw
func TestTheContentHoldsWhatThisCodeDraws(t *testing.T) {
	for _, p := range Pictures() {
		t.Run(p.Path, func(t *testing.T) {
			raw, err := os.ReadFile(filepath.Join("..", "..", "content", filepath.FromSlash(p.Path)))
			if err != nil {
				t.Fatalf("%v: run go run ./internal/illustration/cmd/draw", err)
			}
			shipped, err := png.Decode(bytes.NewReader(raw))
			if err != nil {
				t.Fatal(err)
			}
			drawn := p.Image()
			if shipped.Bounds() != drawn.Bounds() || drawn.Bounds() != image.Rect(0, 0, p.Width, p.Height) {
				t.Fatalf("shipped %v, drawn %v", shipped.Bounds(), drawn.Bounds())
			}
			differ := 0
			b := drawn.Bounds()
			for y := b.Min.Y; y < b.Max.Y; y++ {
				for x := b.Min.X; x < b.Max.X; x++ {
					r1, g1, b1, a1 := shipped.At(x, y).RGBA()
					r2, g2, b2, a2 := drawn.At(x, y).RGBA()
					if far(r1, r2) || far(g1, g2) || far(b1, b2) || far(a1, a2) {
						differ++
					}
				}
			}
			if differ > 0 {
				t.Errorf("%d pixels differ from what the code draws: run go run ./internal/illustration/cmd/draw", differ)
			}
		})
	}
}

// far reports whether two 16-bit channel values differ by more than two
// steps of 8 bits.
func far(a, b uint32) bool { return a > b+2*257 || b > a+2*257 }
