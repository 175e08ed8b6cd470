package brand

import (
	"errors"
	"image"
	"math"
)

// ErrUnsupportedScript is returned by PageImage for a text with letters the
// brand's fonts do not hold (they hold Latin and Arabic): such a page keeps
// the site's default share image rather than showing boxes.
var ErrUnsupportedScript = errors.New("brand: the text needs a script the share image fonts do not draw")

// PageImage draws a page's own 1200×630 share image: the mark and the
// consultancy's name, what the page is (kind: "Case study", "Blog"), and
// its title in large type, smaller when it is long. dir is the direction
// of the page's language ("ltr" or "rtl") and lang its tag: a
// right-to-left page is drawn mirrored, as its site is, every line set
// against the right margin.
func PageImage(name, kind, title, dir, lang string) ([]byte, error) {
	const w, h, margin, mark = 1200, 630, 80, 72
	if !CanDraw(name, kind, title) {
		return nil, ErrUnsupportedScript
	}
	t, err := newTypesetter(dir, lang)
	if err != nil {
		return nil, err
	}
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	// The glow sits in the corner where a line of text ends.
	glowX := float64(w)
	if t.rtl {
		glowX = 0
	}
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			glow := math.Max(0, 1-math.Hypot(float64(x)-glowX, float64(h-y))/1000)
			img.SetRGBA(x, y, mix(ink, accentStrong, glow*0.8))
		}
	}
	// The mark and the name beside it, from the edge the text starts at.
	markX, nameLeft, nameRight := margin, margin+mark+24, w-margin
	if t.rtl {
		markX, nameLeft, nameRight = w-margin-mark, margin, w-margin-mark-24
	}
	drawMark(img, markX, margin, mark)
	t.draw(img, t.layout(name, bold, 44, nameRight-nameLeft), nameLeft, nameRight, margin+52, paper)
	const kindBaseline = 230
	t.draw(img, t.layout(kind, regular, 34, w-2*margin), margin, w-margin, kindBaseline, muted)
	// The largest size at which the title's last line stays above the
	// bottom margin.
	var p paragraph
	for size := 64.0; ; size -= 4 {
		p = t.layout(title, bold, size, w-2*margin)
		if size <= 32 || kindBaseline+size*1.4+p.height() <= h-margin {
			break
		}
	}
	t.draw(img, p, margin, w-margin, kindBaseline+p.size*1.4, paper)
	return encode(img), nil
}

// CanDraw reports whether PageImage can draw every text given: whether
// its fonts hold every letter.
func CanDraw(texts ...string) bool {
	maps, err := charmaps()
	if err != nil {
		return false
	}
	for _, s := range texts {
		for _, fonts := range maps {
			if !covers(fonts, s) {
				return false
			}
		}
	}
	return true
}
