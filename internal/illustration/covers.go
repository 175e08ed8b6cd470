package illustration

import (
	"image/color"
	"math"
)

// A cover is 16:9, large enough for the widest place a page shows it
// (a case study's page on a wide screen at twice the pixel density).
const (
	coverWidth  = 1600
	coverHeight = 900
)

// covers draw the case studies' covers, by the studies' translationKey.
// Each is a diagram of what the engagement changed, without words, so
// that one picture serves every language.
var covers = map[string]func(c *canvas){
	"wholesale-dispatch":  wholesaleDispatch,
	"fintech-platform":    fintechPlatform,
	"telemedicine-review": telemedicineReview,
}

// backdrop paints a cover's background: a soft diagonal gradient in the
// site's accent tints and a faint grid of dots, like squared paper.
func backdrop(c *canvas) {
	c.background(linear{from: point{0, 0}, to: point{c.width(), c.height()}, a: sky, b: mist})
	dots := alpha(haze, 0.9)
	for y := 45.0; y < c.height(); y += 50 {
		for x := 50.0; x < c.width(); x += 50 {
			c.paint(circle(x, y, 2.6), dots)
		}
	}
}

// card paints a white card with a soft shadow.
func card(c *canvas, x, y, w, h, r float64) {
	for i, a := range []float64{0.035, 0.045, 0.06} {
		grow := float64(3-i) * 5
		c.paint(roundRect(x-grow/2, y+10-grow/2+float64(i)*2, w+grow, h+grow, r+grow/2), alpha(shadowColor, a))
	}
	c.paint(roundRect(x, y, w, h, r), white)
}

// textLines paints grey bars standing for lines of text.
func textLines(c *canvas, x, y, w float64, widths ...float64) {
	for i, f := range widths {
		c.paint(roundRect(x, y+float64(i)*26, w*f, 12, 6), line)
	}
}

// truck paints a small delivery truck facing right, its box at (x, y).
func truck(c *canvas, x, y float64) {
	c.paint(roundRect(x, y, 120, 70, 12), accent)
	c.paint(roundRect(x+112, y+22, 52, 48, 12), accentDeep)
	c.paint(roundRect(x+128, y+30, 26, 18, 5), sky)
	for _, wx := range []float64{x + 28, x + 132} {
		c.paint(circle(wx, y+72, 16), ink)
		c.paint(circle(wx, y+72, 6), muted)
	}
}

// wholesaleDispatch: orders taken on paper flow into one depot, which
// sends its trucks out on planned routes; the clock shows the forty
// minutes from order to truck.
func wholesaleDispatch(c *canvas) {
	backdrop(c)
	c.offset = point{0, 55}

	// The order slips, stacked.
	for i := 2; i >= 0; i-- {
		x, y := 150+float64(i)*34, 250+float64(i)*42
		card(c, x, y, 270, 330, 22)
		c.paint(roundRect(x+28, y+30, 120, 18, 9), accentSoft)
		textLines(c, x+28, y+78, 214, 1, 0.8, 0.92, 0.6)
		for row := 0; row < 3; row++ {
			ry := y + 200 + float64(row)*38
			c.paint(roundRect(x+28, ry, 22, 22, 6), haze)
			c.paint(roundRect(x+64, ry+5, 150, 12, 6), line)
		}
	}

	// From the orders to the depot.
	c.paint(stroke(12, bezier(point{520, 470}, point{610, 470}, point{600, 450}, point{690, 450})...), accent)
	c.paint(polygon(point{684, 428}, point{722, 450}, point{684, 472}), accent)

	// The depot: one place where every order lands.
	card(c, 730, 330, 240, 240, 40)
	c.paint(roundRect(730, 330, 240, 240, 40), accentDeep)
	// A crate with its lid and a check mark.
	c.paint(roundRect(790, 400, 120, 110, 14), accentSoft)
	c.paint(roundRect(780, 385, 140, 34, 12), white)
	c.paint(stroke(14, point{818, 462}, point{842, 486}, point{884, 436}), accentDeep)

	// Routes out to the stops.
	routes := [][]point{
		bezier(point{970, 400}, point{1100, 330}, point{1150, 220}, point{1300, 200}),
		bezier(point{970, 450}, point{1120, 450}, point{1200, 470}, point{1380, 430}),
		bezier(point{970, 500}, point{1090, 600}, point{1180, 700}, point{1330, 700}),
	}
	for _, r := range routes {
		c.paint(dashed(8, 26, 18, r...), accent)
	}
	stops := []point{{1300, 200}, {1380, 430}, {1330, 700}, {1460, 300}, {1470, 600}}
	c.paint(stroke(6, point{1300, 200}, point{1460, 300}), haze)
	c.paint(stroke(6, point{1330, 700}, point{1470, 600}), haze)
	for _, s := range stops {
		c.paint(circle(s.x, s.y, 26), white)
		c.paint(ring(s.x, s.y, 20, 10), accentDeep)
	}
	truck(c, 1095, 255)
	truck(c, 1120, 575)

	// The clock: forty minutes of the hour.
	cx, cy, r := 850.0, 175.0, 70.0
	c.paint(circle(cx, cy, r+22), white)
	c.paint(ring(cx, cy, r, 18), mist)
	c.paint(stroke(18, arc(cx, cy, r, -math.Pi/2, -math.Pi/2+2*math.Pi*40/60)...), amber)
	c.paint(stroke(10, point{cx, cy}, point{cx, cy - 42}), ink)
	c.paint(circle(cx, cy, 9), ink)
}

// fintechPlatform: every change runs one paved path from commit to
// production, a canary branch tries it on a little traffic first, and
// deployments go from one a week to many a day.
func fintechPlatform(c *canvas) {
	backdrop(c)

	// The pipeline: commit, build, test, canary, production.
	y := 300.0
	stages := []float64{200, 500, 800, 1100, 1400}
	c.paint(stroke(12, point{stages[0], y}, point{stages[4], y}), accent)
	// The canary: a part of the traffic takes the upper branch first.
	c.paint(dashed(9, 22, 16, bezier(point{stages[2] + 60, y}, point{stages[2] + 180, y - 190}, point{stages[4] - 180, y - 190}, point{stages[4] - 60, y})...), amber)
	c.paint(circle(1100, y-142, 30), white)
	c.paint(ring(1100, y-142, 24, 10), amber)
	c.paint(circle(1100, y-142, 8), amber)
	// Changes on their way.
	for _, x := range []float64{300, 360, 410, 610, 650, 700, 900, 960, 1210, 1270} {
		c.paint(circle(x, y, 13), white)
		c.paint(ring(x, y, 10, 6), accentDeep)
	}
	for i, x := range stages {
		r := 52.0
		if i == len(stages)-1 {
			c.paint(circle(x, y, r+16), alpha(accent, 0.18))
			c.paint(circle(x, y, r), accentDeep)
			c.paint(stroke(13, point{x - 20, y + 2}, point{x - 4, y + 18}, point{x + 24, y - 16}), white)
			continue
		}
		c.paint(circle(x, y, r), white)
		c.paint(ring(x, y, r-8, 14), accent)
		c.paint(circle(x, y, 14), accentDeep)
	}

	// Deployments per day: a few on the left, many on the right.
	base := 800.0
	card(c, 150, 470, 1300, 370, 28)
	c.paint(roundRect(190, base-2, 1220, 6, 3), line)
	n := 36
	for i := 0; i < n; i++ {
		x := 200 + float64(i)*33.5
		t := float64(i) / float64(n-1)
		// A steady rise with a small, fixed wobble.
		h := 26 + 240*math.Pow(t, 1.4) + 18*math.Sin(float64(i)*2.3)*t
		col := haze
		if i >= 8 {
			col = mix(accentSoft, accent, t)
		}
		if i < 8 && i%3 != 0 {
			continue // the old weekly train: a release now and then
		}
		c.paint(roundRect(x, base-h-8, 20, h, 6), col)
	}
}

// telemedicineReview: an architecture under review. The services and
// their database, a magnifying glass over the weak spot, and a pulse
// that goes from ragged to steady.
func telemedicineReview(c *canvas) {
	backdrop(c)

	// The pulse across the top: ragged on the left (the outages), a calm,
	// regular beat on the right.
	var ragged, steady []point
	for x := 120.0; x <= 700; x += 4 {
		t := (x - 120) / 580
		ragged = append(ragged, point{x, 170 + 70*math.Sin(x/23)*math.Sin(x/61)*(1-0.6*t)})
	}
	steady = append(steady, ragged[len(ragged)-1])
	for beat := 0; beat < 4; beat++ {
		x0 := 760 + float64(beat)*180
		y0 := 170.0
		steady = append(steady,
			point{x0, y0}, point{x0 + 40, y0}, point{x0 + 52, y0 + 22},
			point{x0 + 70, y0 - 88}, point{x0 + 88, y0 + 30}, point{x0 + 100, y0},
			point{x0 + 180, y0})
	}
	c.paint(stroke(9, ragged...), amber)
	c.paint(stroke(9, steady...), accent)

	// Services, joined to the API gateway and the database.
	type box struct{ x, y float64 }
	services := []box{{200, 330}, {200, 520}, {200, 710}}
	gateway := box{620, 430}
	db := point{1230, gateway.y + 120}
	for _, s := range services {
		c.paint(stroke(10, point{s.x + 300, s.y + 60}, point{560, s.y + 60}, point{560, gateway.y + 120}, point{gateway.x, gateway.y + 120}), haze)
	}
	c.paint(stroke(10, point{gateway.x + 320, gateway.y + 120}, point{db.x - 110, db.y}), haze)
	for i, s := range services {
		card(c, s.x, s.y, 300, 120, 20)
		col := accentSoft
		if i == 1 {
			col = accent
		}
		c.paint(roundRect(s.x+26, s.y+30, 60, 60, 14), col)
		textLines(c, s.x+110, s.y+36, 160, 1, 0.65)
	}
	card(c, gateway.x, gateway.y, 320, 240, 26)
	c.paint(roundRect(gateway.x, gateway.y, 320, 64, 26), accentDeep)
	c.paint(rect(gateway.x, gateway.y+40, 320, 24), accentDeep)
	for row := 0; row < 3; row++ {
		ry := gateway.y + 98 + float64(row)*42
		c.paint(circle(gateway.x+44, ry+9, 11), []color.NRGBA{accent, amber, accent}[row])
		c.paint(roundRect(gateway.x+70, ry+3, 210-float64(row)*40, 12, 6), line)
	}

	// The database: a cylinder.
	w, h := 220.0, 250.0
	top := db.y - h/2
	body := rect(db.x-w/2, top, w, h)
	body.add(ellipse(db.x, top+h, w/2, 34))
	c.paint(body, accentDeep)
	c.paint(ellipse(db.x, top, w/2, 34), accent)
	for _, yy := range []float64{top + 84, top + 168} {
		var band []point
		for _, pt := range arc(0, 0, 1, 0.12, math.Pi-0.12) {
			band = append(band, point{db.x + pt.x*(w/2-4), yy + pt.y*30})
		}
		c.paint(stroke(6, band...), alpha(accentSoft, 0.75))
	}

	// The review: a magnifying glass over the gateway's warning.
	gx, gy := gateway.x+60, gateway.y+146
	c.paint(stroke(28, point{gx + 62, gy + 62}, point{gx + 140, gy + 140}), ink)
	c.paint(circle(gx, gy, 80), alpha(amberSoft, 0.35))
	c.paint(ring(gx, gy, 80, 20), ink)

}
