package illustration

import (
	"image/color"
	"math"
)

// A portrait is square; pages crop it to a circle.
const portraitSize = 800

// look is how one person is drawn: the same figure for everyone, with
// their own colours, hair and backdrop, and no face, so that nobody is
// misrepresented by a guess at their features.
type look struct {
	background, backdrop color.NRGBA
	skin, hair, clothes  color.NRGBA
	hairStyle            string // "bob", "long", "short", "curly"
	beard, glasses       bool
}

// portraits are the team's, by the slug of their page.
var portraits = map[string]look{
	"lena-hartmann": {
		background: sky, backdrop: haze, skin: color.NRGBA{0xf1, 0xc9, 0xa8, 0xff},
		hair: color.NRGBA{0xc9, 0x8b, 0x3c, 0xff}, clothes: accentDeep, hairStyle: "bob",
	},
	"samira-haddad": {
		background: color.NRGBA{0xfd, 0xf1, 0xdc, 0xff}, backdrop: amberSoft, skin: color.NRGBA{0xc8, 0x8e, 0x66, 0xff},
		hair: color.NRGBA{0x2a, 0x1c, 0x16, 0xff}, clothes: accent, hairStyle: "long",
	},
	"jonas-becker": {
		background: mist, backdrop: accentSoft, skin: color.NRGBA{0xea, 0xb8, 0x94, 0xff},
		hair: color.NRGBA{0x7a, 0x4f, 0x2a, 0xff}, clothes: ink, hairStyle: "short", beard: true,
	},
	"julien-moreau": {
		background: color.NRGBA{0xe6, 0xee, 0xfb, 0xff}, backdrop: haze, skin: color.NRGBA{0x8d, 0x5b, 0x3c, 0xff},
		hair: color.NRGBA{0x1b, 0x16, 0x14, 0xff}, clothes: color.NRGBA{0x0f, 0x76, 0x6e, 0xff}, hairStyle: "curly", glasses: true,
	},
}

func (l look) draw(c *canvas) {
	s := c.width() / portraitSize
	at := func(v float64) float64 { return v * s }
	c.background(colorImage(l.background))

	// The backdrop: a disc behind the figure, inside the circle pages
	// crop the portrait to.
	c.paint(circle(at(400), at(400), at(330)), l.backdrop)

	shade := mix(l.skin, color.NRGBA{0x40, 0x20, 0x10, 0xff}, 0.18)
	hx, hy, hrx, hry := 400.0, 330.0, 112.0, 132.0

	// Hair that falls behind the neck and shoulders.
	switch l.hairStyle {
	case "long":
		c.paint(roundRect(at(hx-150), at(hy-152), at(300), at(440), at(150)), l.hair)
	case "bob":
		c.paint(roundRect(at(hx-142), at(hy-150), at(284), at(290), at(142)), l.hair)
	}

	// Shoulders, the collar and the neck.
	var body path
	body.moveTo(at(110), at(820))
	body.cubeTo(at(110), at(620), at(230), at(540), at(400), at(540))
	body.cubeTo(at(570), at(540), at(690), at(620), at(690), at(820))
	c.paint(body, l.clothes)
	c.paint(roundRect(at(hx-46), at(hy+80), at(92), at(150), at(40)), shade)
	c.paint(polygon(point{at(hx - 62), at(548)}, point{at(hx + 62), at(548)}, point{at(hx), at(640)}), shade)
	collar := mix(l.clothes, white, 0.85)
	c.paint(stroke(at(14), point{at(hx - 70), at(546)}, point{at(hx), at(646)}, point{at(hx + 70), at(546)}), collar)

	// Ears, unless the hair covers them, then the head.
	if l.hairStyle != "bob" && l.hairStyle != "long" {
		c.paint(ellipse(at(hx-hrx+4), at(hy+14), at(20), at(30)), shade)
		c.paint(ellipse(at(hx+hrx-4), at(hy+14), at(20), at(30)), shade)
	}
	c.paint(ellipse(at(hx), at(hy), at(hrx), at(hry)), l.skin)

	// Hair on top of the head.
	switch l.hairStyle {
	case "bob":
		// A side parting: the fringe sweeps from the left across the
		// forehead.
		var p path
		p.moveTo(at(hx-hrx-16), at(hy+40))
		p.cubeTo(at(hx-hrx-24), at(hy-196), at(hx+hrx+24), at(hy-196), at(hx+hrx+16), at(hy+40))
		p.cubeTo(at(hx+hrx-4), at(hy-30), at(hx+70), at(hy-70), at(hx-40), at(hy-72))
		p.cubeTo(at(hx-70), at(hy-30), at(hx-hrx+4), at(hy-10), at(hx-hrx-16), at(hy+40))
		c.paint(p, l.hair)
	case "long":
		var p path
		p.moveTo(at(hx-hrx-16), at(hy+60))
		p.cubeTo(at(hx-hrx-30), at(hy-200), at(hx+hrx+30), at(hy-200), at(hx+hrx+16), at(hy+60))
		p.cubeTo(at(hx+hrx-20), at(hy-50), at(hx+40), at(hy-80), at(hx), at(hy-96))
		p.cubeTo(at(hx-40), at(hy-80), at(hx-hrx+20), at(hy-50), at(hx-hrx-16), at(hy+60))
		c.paint(p, l.hair)
	case "short":
		var p path
		p.moveTo(at(hx-hrx-6), at(hy-10))
		p.cubeTo(at(hx-hrx-12), at(hy-196), at(hx+hrx+12), at(hy-196), at(hx+hrx+6), at(hy-10))
		p.cubeTo(at(hx+hrx-6), at(hy-60), at(hx+60), at(hy-86), at(hx), at(hy-84))
		p.cubeTo(at(hx-60), at(hy-86), at(hx-hrx+6), at(hy-60), at(hx-hrx-6), at(hy-10))
		c.paint(p, l.hair)
	case "curly":
		var p path
		for i := 0; i < 11; i++ {
			a := math.Pi + math.Pi*float64(i)/10
			p.add(circle(at(hx+(hrx-6)*math.Cos(a)), at(hy-20+(hry-14)*math.Sin(a)), at(34)))
		}
		for i := 0; i < 5; i++ {
			a := math.Pi*1.15 + math.Pi*0.7*float64(i)/4
			p.add(circle(at(hx+(hrx-50)*math.Cos(a)), at(hy-40+(hry-50)*math.Sin(a)), at(34)))
		}
		c.paint(p, l.hair)
	}
	if l.beard {
		var p path
		p.moveTo(at(hx-hrx+6), at(hy+30))
		p.cubeTo(at(hx-hrx+20), at(hy+160), at(hx+hrx-20), at(hy+160), at(hx+hrx-6), at(hy+30))
		p.cubeTo(at(hx+hrx-26), at(hy+80), at(hx+50), at(hy+84), at(hx), at(hy+78))
		p.cubeTo(at(hx-50), at(hy+84), at(hx-hrx+26), at(hy+80), at(hx-hrx+6), at(hy+30))
		c.paint(p, l.hair)
	}
	if l.glasses {
		frame := ink
		for _, dx := range []float64{-48, 48} {
			c.paint(ring(at(hx+dx), at(hy+14), at(34), at(9)), frame)
		}
		c.paint(stroke(at(9), point{at(hx - 16), at(hy + 10)}, point{at(hx + 16), at(hy + 10)}), frame)
	}
}

// colorImage is a uniform image of c.
func colorImage(c color.NRGBA) *uniform { return &uniform{c} }
