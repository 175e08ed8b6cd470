package brand

import (
	"slices"
	"testing"

	"github.com/go-text/typesetting/font"
	"github.com/go-text/typesetting/shaping"
	"golang.org/x/image/math/fixed"
)

// TestArabicIsShaped: Arabic letters take the form their place in the word
// asks for, and lam followed by alef becomes one ligature glyph. Text drawn
// letter by letter from the font's character map (unshaped) has two glyphs
// for "لا" and the isolated beh three times in "ببب".
func TestArabicIsShaped(t *testing.T) {
	ts, err := newTypesetter("rtl", "ar")
	if err != nil {
		t.Fatal(err)
	}
	arabic := ts.arabic[bold]
	nominal := func(r rune) font.GID {
		gid, ok := arabic.NominalGlyph(r)
		if !ok {
			t.Fatalf("the Arabic font has no %q", r)
		}
		return gid
	}

	lamAlef := glyphs(ts.layout("لا", bold, 64, 1000))
	if len(lamAlef) != 1 {
		t.Errorf("لا shaped into %d glyphs, want the lam-alef ligature alone", len(lamAlef))
	} else if g := lamAlef[0].GlyphID; g == nominal('ل') || g == nominal('ا') {
		t.Errorf("لا drew glyph %d, a letter of its own rather than the ligature", g)
	}

	beh := glyphs(ts.layout("ببب", bold, 64, 1000))
	if len(beh) != 3 {
		t.Fatalf("ببب shaped into %d glyphs, want 3", len(beh))
	}
	isolated := nominal('ب')
	forms := map[font.GID]bool{}
	for _, g := range beh {
		if g.GlyphID == isolated {
			t.Errorf("a beh inside a word is drawn in its isolated form (glyph %d)", g.GlyphID)
		}
		forms[g.GlyphID] = true
	}
	if len(forms) != 3 {
		t.Errorf("ببب drew %d distinct forms, want initial, medial and final", len(forms))
	}
}

// TestArabicTitlesRunRightToLeft: in an Arabic title, the words run from
// right to left while a Latin word or a number inside it reads left to
// right, as the bidirectional algorithm orders them; every letter has a
// glyph (no box for "SaaS").
func TestArabicTitlesRunRightToLeft(t *testing.T) {
	ts, err := newTypesetter("rtl", "ar")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		text string
		// Letters (rune indices) in the order they must appear from left
		// to right.
		leftToRight []int
	}{
		// "لمنتجات SaaS موثوقة": موثوقة, then S…S, then لمنتجات.
		{"لمنتجات SaaS موثوقة", []int{13, 8, 11, 0}},
		// "في 40 دقيقة": دقيقة, then 4 and 0, then في.
		{"في 40 دقيقة", []int{6, 3, 4, 0}},
	} {
		p := ts.layout(c.text, bold, 64, 1000)
		if len(p.lines) != 1 {
			t.Fatalf("%q: %d lines", c.text, len(p.lines))
		}
		x := positions(p.lines[0])
		for i := 1; i < len(c.leftToRight); i++ {
			a, b := c.leftToRight[i-1], c.leftToRight[i]
			if x[a] >= x[b] {
				t.Errorf("%q: %q is drawn at x=%v, not left of %q at x=%v", c.text, []rune(c.text)[a], x[a], []rune(c.text)[b], x[b])
			}
		}
		for _, g := range glyphs(p) {
			if g.GlyphID == 0 {
				t.Errorf("%q: a letter has no glyph (drawn as a box)", c.text)
			}
		}
	}
}

// TestLongTitlesBreakBetweenWords: a title too long for one line breaks
// only at spaces, and no line is wider than the room given.
func TestLongTitlesBreakBetweenWords(t *testing.T) {
	for _, c := range []struct{ dir, lang, title string }{
		{"rtl", "ar", "من الطلبات الهاتفية إلى انطلاق الشاحنات في 40 دقيقة لدى تاجر جملة للمواد الغذائية"},
		{"ltr", "en", "From a weekly release train to thirty deployments a day at a payments company"},
	} {
		ts, err := newTypesetter(c.dir, c.lang)
		if err != nil {
			t.Fatal(err)
		}
		text := []rune(c.title)
		p := ts.layout(c.title, bold, 64, 1040)
		if len(p.lines) < 2 {
			t.Errorf("%s: %d line(s), want the title wrapped", c.lang, len(p.lines))
		}
		for i, line := range p.lines {
			var width fixed.Int26_6
			end := 0
			for _, run := range line {
				width += run.Advance
				end = max(end, run.Runes.Offset+run.Runes.Count)
			}
			if width > fixed.I(1040) {
				t.Errorf("%s: line %d is %d px wide", c.lang, i+1, width.Ceil())
			}
			if end < len(text) && text[end-1] != ' ' {
				t.Errorf("%s: line %d breaks inside a word, at %q", c.lang, i+1, string(text[:end]))
			}
		}
	}
}

// glyphs lists the glyphs of a paragraph.
func glyphs(p paragraph) []shaping.Glyph {
	var gs []shaping.Glyph
	for _, line := range p.lines {
		for _, run := range line {
			gs = append(gs, run.Glyphs...)
		}
	}
	return gs
}

// positions maps the index of each letter of a line to the x at which its
// glyph is drawn, the line starting at 0.
func positions(line shaping.Line) map[int]fixed.Int26_6 {
	visual := slices.Clone(line)
	slices.SortFunc(visual, func(a, b shaping.Output) int { return int(a.VisualIndex - b.VisualIndex) })
	x := map[int]fixed.Int26_6{}
	var dot fixed.Int26_6
	for _, run := range visual {
		for _, g := range run.Glyphs {
			x[g.TextIndex()] = dot
			dot += g.Advance
		}
	}
	return x
}
