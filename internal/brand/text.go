package brand

import (
	"bytes"
	_ "embed"
	"fmt"
	"image"
	"image/color"
	"math"
	"slices"
	"sync"

	"github.com/go-text/typesetting/di"
	"github.com/go-text/typesetting/font"
	ot "github.com/go-text/typesetting/font/opentype"
	"github.com/go-text/typesetting/font/opentype/tables"
	"github.com/go-text/typesetting/harfbuzz"
	"github.com/go-text/typesetting/language"
	"github.com/go-text/typesetting/shaping"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/math/fixed"
	"golang.org/x/image/vector"
)

// The images' text is set by go-text/typesetting (HarfBuzz's shaping, the
// Unicode bidi algorithm and line breaking, in Go) and its glyph outlines
// filled by x/image/vector. Latin is set in the Go fonts; Arabic in Noto
// Sans Arabic, the face the site's CSS asks for, which joins the letters
// and forms lam-alef ligatures through its own OpenType tables. Its two
// weights (SIL Open Font License, fonts/OFL.txt) are embedded whole, 497 KB
// of a 65 MB binary: subsetting them would take a tool outside the Go
// build, and would drop letters a future title may need.

//go:embed fonts/NotoSansArabic-Bold.ttf
var notoSansArabicBold []byte

//go:embed fonts/NotoSansArabic-Regular.ttf
var notoSansArabicRegular []byte

// weight is the weight of a text: the Go and Noto faces come in two.
type weight int

const (
	regular weight = iota
	bold
)

// typeface is one weight of the brand's type: a Latin font and an Arabic
// one. A font is safe for concurrent use; the faces made from it are not.
type typeface struct {
	latin, arabic *font.Font
	// leading is the distance between baselines, in ems, of a paragraph
	// in each font: Arabic's letters reach higher and lower than Latin's.
	latinLeading, arabicLeading float64
}

// typefaces parses the fonts on first use: the server's start plans the
// images but draws none, and parsing them there would only slow it.
var typefaces = sync.OnceValues(parseTypefaces)

func parseTypefaces() ([2]typeface, error) {
	var t [2]typeface
	for w, src := range [2][2][]byte{regular: {goregular.TTF, notoSansArabicRegular}, bold: {gobold.TTF, notoSansArabicBold}} {
		latin, err := parseFont(src[0])
		if err != nil {
			return t, err
		}
		arabic, err := parseFont(src[1])
		if err != nil {
			return t, err
		}
		t[w] = typeface{latin: latin, arabic: arabic, latinLeading: 1.35, arabicLeading: 1.6}
	}
	return t, nil
}

func parseFont(ttf []byte) (*font.Font, error) {
	f, err := font.ParseTTF(bytes.NewReader(ttf))
	if err != nil {
		return nil, fmt.Errorf("brand: font: %w", err)
	}
	return f.Font, nil
}

// charmaps are the fonts' character maps, by weight (Latin, then Arabic),
// read without the rest of the fonts: the start asks whether the fonts hold
// every page's letters, and parsing the whole fonts there would cost it
// 4.5 ms where this takes 0.04 ms.
var charmaps = sync.OnceValues(readCharmaps)

func readCharmaps() ([2][2]font.Cmap, error) {
	var maps [2][2]font.Cmap
	for w, srcs := range [2][2][]byte{regular: {goregular.TTF, notoSansArabicRegular}, bold: {gobold.TTF, notoSansArabicBold}} {
		for i, src := range srcs {
			ld, err := ot.NewLoader(bytes.NewReader(src))
			if err != nil {
				return maps, fmt.Errorf("brand: font: %w", err)
			}
			raw, err := ld.RawTable(ot.MustNewTag("cmap"))
			if err != nil {
				return maps, fmt.Errorf("brand: font: %w", err)
			}
			table, _, err := tables.ParseCmap(raw)
			if err != nil {
				return maps, fmt.Errorf("brand: font: %w", err)
			}
			if maps[w][i], _, err = font.ProcessCmap(table, 0); err != nil {
				return maps, fmt.Errorf("brand: font: %w", err)
			}
		}
	}
	return maps, nil
}

// covers reports whether one of the fonts has a glyph for every letter
// of s.
func covers(fonts [2]font.Cmap, s string) bool {
	for _, r := range s {
		if r == ' ' || harfbuzz.IsDefaultIgnorable(r) {
			continue
		}
		if _, ok := fonts[0].Lookup(r); ok {
			continue
		}
		if _, ok := fonts[1].Lookup(r); !ok {
			return false
		}
	}
	return true
}

// fontmap chooses a face for each letter: the face of the page's script
// when it has the letter (so an Arabic title's digits and punctuation
// match its letters), else the other.
type fontmap struct {
	first, second *font.Face
}

func (m fontmap) ResolveFace(r rune) *font.Face {
	if _, ok := m.first.NominalGlyph(r); ok {
		return m.first
	}
	return m.second
}

// typesetter sets the texts of one image in one direction. It is not safe
// for concurrent use: each drawing makes its own.
type typesetter struct {
	rtl      bool
	lang     language.Language
	fontmaps [2]fontmap
	faces    [2]typeface
	arabic   [2]*font.Face
	shaper   shaping.HarfbuzzShaper
	seg      shaping.Segmenter
}

// newTypesetter prepares to set text in the direction dir ("ltr" or
// "rtl", as the site's languages declare it) and the language lang.
func newTypesetter(dir, lang string) (*typesetter, error) {
	faces, err := typefaces()
	if err != nil {
		return nil, err
	}
	t := &typesetter{rtl: dir == "rtl", lang: language.NewLanguage(lang), faces: faces}
	for w, tf := range faces {
		latin, arabic := font.NewFace(tf.latin), font.NewFace(tf.arabic)
		t.arabic[w] = arabic
		t.fontmaps[w] = fontmap{first: latin, second: arabic}
		if t.rtl {
			t.fontmaps[w] = fontmap{first: arabic, second: latin}
		}
	}
	return t, nil
}

// paragraph is a text shaped and broken into lines, each line's runs in
// logical order with their visual positions (VisualIndex) resolved.
type paragraph struct {
	lines   []shaping.Line
	size    float64
	leading float64 // the distance between baselines, in pixels
}

// layout shapes s at size pixels in weight w and breaks it into lines at
// most width pixels wide, between words.
func (t *typesetter) layout(s string, w weight, size float64, width int) paragraph {
	text := []rune(s)
	dir := di.DirectionLTR
	if t.rtl {
		dir = di.DirectionRTL
	}
	input := shaping.Input{
		Text:      text,
		RunEnd:    len(text),
		Direction: dir,
		Size:      fixed.Int26_6(size * 64),
		Language:  t.lang,
	}
	runs := t.seg.Split(input, t.fontmaps[w])
	outs := make([]shaping.Output, len(runs))
	leading := t.faces[w].latinLeading
	for i, run := range runs {
		outs[i] = t.shaper.Shape(run)
		if run.Face == t.arabic[w] {
			leading = math.Max(leading, t.faces[w].arabicLeading)
		}
	}
	var wrapper shaping.LineWrapper
	lines, _ := wrapper.WrapParagraph(shaping.WrapConfig{Direction: dir, BreakPolicy: shaping.WhenNecessary}, width, text, shaping.NewSliceIterator(outs))
	// The wrapper's lines live in its buffers: keep copies.
	p := paragraph{size: size, leading: size * leading}
	for _, line := range lines {
		p.lines = append(p.lines, slices.Clone(line))
	}
	return p
}

// height is the distance from the first line's baseline to the last's.
func (p paragraph) height() float64 {
	return float64(len(p.lines)-1) * p.leading
}

// draw paints the paragraph from the baseline y, each line against the
// edge its direction starts from: left for left-to-right, right for
// right-to-left.
func (t *typesetter) draw(img *image.RGBA, p paragraph, left, right int, y float64, c color.RGBA) {
	var z vector.Rasterizer
	src := image.NewUniform(c)
	for _, line := range p.lines {
		var width fixed.Int26_6
		for _, run := range line {
			width += run.Advance
		}
		x := fixed.I(left)
		if t.rtl {
			x = fixed.I(right) - width
		}
		visual := slices.Clone(line)
		slices.SortFunc(visual, func(a, b shaping.Output) int { return int(a.VisualIndex - b.VisualIndex) })
		for _, run := range visual {
			scale := float32(run.Size) / 64 / float32(run.Face.Upem())
			for _, g := range run.Glyphs {
				drawGlyph(img, &z, src, run.Face, g, x, y, scale)
				x += g.Advance
			}
		}
		y += p.leading
	}
}

// drawGlyph fills the outline of g, whose origin is at (x, y), y the
// baseline, scaled from font units to pixels by scale.
func drawGlyph(img *image.RGBA, z *vector.Rasterizer, src image.Image, face *font.Face, g shaping.Glyph, x fixed.Int26_6, y float64, scale float32) {
	outline, ok := face.GlyphDataOutline(g.GlyphID)
	if !ok || len(outline.Segments) == 0 {
		return
	}
	ox := float64(x+g.XOffset) / 64
	oy := y - float64(g.YOffset)/64
	// The glyph's ink box, a pixel wider each side, within the image.
	box := image.Rect(
		int(math.Floor(ox+float64(g.XBearing)/64))-1,
		int(math.Floor(oy-float64(g.YBearing)/64))-1,
		int(math.Ceil(ox+float64(g.XBearing+g.Width)/64))+1,
		int(math.Ceil(oy-float64(g.YBearing+g.Height)/64))+1,
	).Intersect(img.Bounds())
	if box.Empty() {
		return
	}
	z.Reset(box.Dx(), box.Dy())
	dx, dy := float32(ox)-float32(box.Min.X), float32(oy)-float32(box.Min.Y)
	pt := func(p ot.SegmentPoint) (float32, float32) { return dx + p.X*scale, dy - p.Y*scale }
	started := false
	for _, seg := range outline.Segments {
		switch seg.Op {
		case ot.SegmentOpMoveTo:
			if started {
				z.ClosePath()
			}
			z.MoveTo(pt(seg.Args[0]))
			started = true
		case ot.SegmentOpLineTo:
			z.LineTo(pt(seg.Args[0]))
		case ot.SegmentOpQuadTo:
			bx, by := pt(seg.Args[0])
			cx, cy := pt(seg.Args[1])
			z.QuadTo(bx, by, cx, cy)
		case ot.SegmentOpCubeTo:
			bx, by := pt(seg.Args[0])
			cx, cy := pt(seg.Args[1])
			ex, ey := pt(seg.Args[2])
			z.CubeTo(bx, by, cx, cy, ex, ey)
		}
	}
	z.ClosePath()
	z.Draw(img, box, src, image.Point{})
}
