// Package brand draws the site's images from the brand facts: the icon in
// every size a browser or a phone asks for, the default share image of
// social previews, and a page's own share image in its language and
// direction. Drawing them keeps images out of the repository (only the
// fonts are there) and in step with content/site.json and the content.
package brand

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"math"
)

// The brand's colours, as in frontend/styles/site.css.
var (
	accent       = color.RGBA{0x1d, 0x4e, 0xd8, 0xff}
	accentStrong = color.RGBA{0x1e, 0x3a, 0x8a, 0xff}
	ink          = color.RGBA{0x0d, 0x12, 0x20, 0xff}
	paper        = color.RGBA{0xe8, 0xec, 0xf4, 0xff}
	muted        = color.RGBA{0xa9, 0xb3, 0xc6, 0xff}
)

// IconSVG is the scalable favicon: the brand mark, a rounded square with a
// diagonal gradient and a light band at its foot.
const IconSVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#1d4ed8"/><stop offset="1" stop-color="#1e3a8a"/></linearGradient></defs><rect width="64" height="64" rx="14" fill="url(#g)"/><rect x="12" y="40" width="40" height="8" rx="4" fill="#fff" fill-opacity=".35"/><path d="M20 36V20l24 16V20" fill="none" stroke="#fff" stroke-width="5" stroke-linecap="round" stroke-linejoin="round"/></svg>`

// Icon draws the brand mark as a size×size PNG.
func Icon(size int) []byte {
	img := image.NewRGBA(image.Rect(0, 0, size, size))
	drawMark(img, 0, 0, size)
	return encode(img)
}

// drawMark paints the mark in a square of side s at (x0, y0).
func drawMark(img *image.RGBA, x0, y0, s int) {
	r := float64(s) * 14 / 64
	for y := 0; y < s; y++ {
		for x := 0; x < s; x++ {
			cov := roundedCoverage(float64(x)+0.5, float64(y)+0.5, float64(s), r)
			if cov == 0 {
				continue
			}
			c := mix(accent, accentStrong, (float64(x)+float64(y))/float64(2*s))
			u, v := float64(x)/float64(s)*64, float64(y)/float64(s)*64
			if v >= 40 && v <= 48 && u >= 12 && u <= 52 {
				c = mix(c, color.RGBA{255, 255, 255, 255}, 0.35)
			}
			if onN(u, v) {
				c = color.RGBA{255, 255, 255, 255}
			}
			blend(img, x0+x, y0+y, c, cov)
		}
	}
}

// onN reports whether (u, v), in the 64-unit design grid, lies on the
// mark's "N" stroke.
func onN(u, v float64) bool {
	const w = 2.5
	switch {
	case math.Abs(u-20) <= w && v >= 20-w && v <= 36+w:
		return true
	case math.Abs(u-44) <= w && v >= 20-w && v <= 36+w:
		return true
	}
	// The diagonal from (20,20) to (44,36).
	dx, dy := 24.0, 16.0
	t := ((u-20)*dx + (v-20)*dy) / (dx*dx + dy*dy)
	if t < 0 || t > 1 {
		return false
	}
	px, py := 20+t*dx, 20+t*dy
	return math.Hypot(u-px, v-py) <= w
}

func roundedCoverage(x, y, s, r float64) float64 {
	cx := math.Max(r, math.Min(s-r, x))
	cy := math.Max(r, math.Min(s-r, y))
	d := math.Hypot(x-cx, y-cy) - r
	return math.Max(0, math.Min(1, 0.5-d))
}

// ShareImage draws the 1200×630 default image of social previews: the mark,
// the consultancy's name and its tagline on the dark brand background.
func ShareImage(name, tagline string) ([]byte, error) {
	const w, h = 1200, 630
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			glow := math.Max(0, 1-math.Hypot(float64(x-w), float64(y))/900)
			img.SetRGBA(x, y, mix(ink, accentStrong, glow*0.8))
		}
	}
	drawMark(img, 96, 96, 112)
	t, err := newTypesetter("ltr", "en")
	if err != nil {
		return nil, err
	}
	t.draw(img, t.layout(name, bold, 96, w-2*96), 96, w-96, 380, paper)
	t.draw(img, t.layout(tagline, regular, 40, w-2*96), 96, w-96, 460, muted)
	return encode(img), nil
}

func mix(a, b color.RGBA, t float64) color.RGBA {
	t = math.Max(0, math.Min(1, t))
	l := func(x, y uint8) uint8 { return uint8(float64(x) + (float64(y)-float64(x))*t + 0.5) }
	return color.RGBA{l(a.R, b.R), l(a.G, b.G), l(a.B, b.B), 255}
}

func blend(img *image.RGBA, x, y int, c color.RGBA, alpha float64) {
	if alpha >= 1 {
		img.SetRGBA(x, y, c)
		return
	}
	a := uint8(alpha*255 + 0.5)
	// Premultiplied colour over whatever is there.
	old := img.RGBAAt(x, y)
	inv := 1 - alpha
	img.SetRGBA(x, y, color.RGBA{
		uint8(float64(c.R)*alpha + float64(old.R)*inv),
		uint8(float64(c.G)*alpha + float64(old.G)*inv),
		uint8(float64(c.B)*alpha + float64(old.B)*inv),
		uint8(math.Min(255, float64(a)+float64(old.A)*inv)),
	})
}

// encode writes img as PNG at zlib's default level: the best level makes
// the share image 15 % smaller and takes seven times as long, at every start.
func encode(img image.Image) []byte {
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.DefaultCompression}
	if err := enc.Encode(&buf, img); err != nil {
		panic(err) // encoding an in-memory RGBA image cannot fail
	}
	return buf.Bytes()
}
