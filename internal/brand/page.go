package brand

import (
	"errors"
	"fmt"
	"image"
	"math"
	"strings"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
)

// ErrUnsupportedScript is returned by PageImage for a text whose letters
// the brand's fonts do not hold, or that needs shaping they cannot do
// (Arabic): such a page keeps the site's default share image.
var ErrUnsupportedScript = errors.New("brand: the text needs a script the share image fonts do not draw")

// PageImage draws a page's own 1200×630 share image: the mark and the
// consultancy's name, what the page is (kind: "Case study", "Blog"), and
// its title in large type, smaller when it is long.
func PageImage(name, kind, title string) ([]byte, error) {
	const w, h, margin = 1200, 630, 80
	if !CanDraw(name, kind, title) {
		return nil, ErrUnsupportedScript
	}
	bold, err := opentype.Parse(gobold.TTF)
	if err != nil {
		return nil, fmt.Errorf("brand: font: %w", err)
	}
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			glow := math.Max(0, 1-math.Hypot(float64(x-w), float64(h-y))/1000)
			img.SetRGBA(x, y, mix(ink, accentStrong, glow*0.8))
		}
	}
	drawMark(img, margin, margin, 72)
	if err := text(img, gobold.TTF, 44, name, margin+96, margin+52, paper); err != nil {
		return nil, err
	}
	const kindBaseline = 230
	if err := text(img, goregular.TTF, 34, kind, margin, kindBaseline, muted); err != nil {
		return nil, err
	}
	// The largest size at which the title's last line stays above the
	// bottom margin.
	size := 64.0
	for ; size > 32; size -= 4 {
		n := lines(bold, size, title, w-2*margin)
		if kindBaseline+size*1.4+float64(n-1)*size*1.35 <= h-margin {
			break
		}
	}
	if err := text(img, gobold.TTF, size, title, margin, kindBaseline+int(size*1.4), paper); err != nil {
		return nil, err
	}
	return encode(img), nil
}

// CanDraw reports whether PageImage can draw every text given.
func CanDraw(texts ...string) bool {
	f, err := opentype.Parse(gobold.TTF)
	if err != nil {
		return false
	}
	for _, s := range texts {
		if !covers(f, s) {
			return false
		}
	}
	return true
}

// covers reports whether f has a glyph for every letter of s, and s needs
// no shaping (no Arabic or Hebrew).
func covers(f *opentype.Font, s string) bool {
	var buf sfnt.Buffer
	for _, r := range s {
		if r >= 0x0590 && r <= 0x08ff || r >= 0xfb1d && r <= 0xfefc {
			return false
		}
		if i, err := f.GlyphIndex(&buf, r); err != nil || i == 0 && r != ' ' {
			return false
		}
	}
	return true
}

// lines counts the lines text wraps into at size within width pixels.
func lines(f *opentype.Font, size float64, s string, width int) int {
	face, err := opentype.NewFace(f, &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		return math.MaxInt
	}
	defer face.Close()
	n, line := 1, ""
	for _, word := range strings.Fields(s) {
		next := line + " " + word
		if line == "" {
			next = word
		}
		if line != "" && font.MeasureString(face, next) > fixed.I(width) {
			n++
			next = word
		}
		line = next
	}
	return n
}
