package illustration

import (
	"image"
	"image/color"
	"image/draw"
	"math"

	"golang.org/x/image/vector"
)

// point is a position on the canvas, in pixels from its top left corner.
type point struct{ x, y float64 }

// path is a shape to fill: one or more closed outlines. Outlines drawn in
// the same direction add up (a union); one drawn the other way cuts a hole.
type path struct {
	outlines [][]point
}

// curveSteps is how many straight pieces a quarter circle or a Bézier
// curve becomes; at the sizes drawn here no facet is visible.
const curveSteps = 24

func (p *path) moveTo(x, y float64) { p.outlines = append(p.outlines, []point{{x, y}}) }

func (p *path) lineTo(x, y float64) {
	last := &p.outlines[len(p.outlines)-1]
	*last = append(*last, point{x, y})
}

// cubeTo adds a cubic Bézier curve from the pen through the control
// points (x1, y1) and (x2, y2) to (x, y).
func (p *path) cubeTo(x1, y1, x2, y2, x, y float64) {
	o := p.outlines[len(p.outlines)-1]
	a := o[len(o)-1]
	for i := 1; i <= curveSteps; i++ {
		t := float64(i) / curveSteps
		u := 1 - t
		p.lineTo(
			u*u*u*a.x+3*u*u*t*x1+3*u*t*t*x2+t*t*t*x,
			u*u*u*a.y+3*u*u*t*y1+3*u*t*t*y2+t*t*t*y,
		)
	}
}

// add appends the outlines of q.
func (p *path) add(q path) { p.outlines = append(p.outlines, q.outlines...) }

// reversed returns p with every outline drawn the other way, to cut it out
// of a shape drawn the first way.
func (p path) reversed() path {
	var r path
	for _, o := range p.outlines {
		ro := make([]point, len(o))
		for i, pt := range o {
			ro[len(o)-1-i] = pt
		}
		r.outlines = append(r.outlines, ro)
	}
	return r
}

// ellipse is an ellipse centred on (cx, cy), drawn clockwise on screen.
func ellipse(cx, cy, rx, ry float64) path {
	var p path
	n := 4 * curveSteps
	for i := 0; i <= n; i++ {
		a := 2 * math.Pi * float64(i) / float64(n)
		x, y := cx+rx*math.Cos(a), cy+ry*math.Sin(a)
		if i == 0 {
			p.moveTo(x, y)
		} else {
			p.lineTo(x, y)
		}
	}
	return p
}

func circle(cx, cy, r float64) path { return ellipse(cx, cy, r, r) }

// ring is the band between two circles.
func ring(cx, cy, r, width float64) path {
	p := circle(cx, cy, r+width/2)
	p.add(circle(cx, cy, r-width/2).reversed())
	return p
}

// roundRect is a rectangle with corners rounded by r, clockwise.
func roundRect(x, y, w, h, r float64) path {
	r = math.Min(r, math.Min(w, h)/2)
	var p path
	corner := func(cx, cy, from float64) {
		for i := 0; i <= curveSteps; i++ {
			a := from + math.Pi/2*float64(i)/curveSteps
			px, py := cx+r*math.Cos(a), cy+r*math.Sin(a)
			if len(p.outlines) == 0 {
				p.moveTo(px, py)
			} else {
				p.lineTo(px, py)
			}
		}
	}
	corner(x+w-r, y+r, -math.Pi/2)
	corner(x+w-r, y+h-r, 0)
	corner(x+r, y+h-r, math.Pi/2)
	corner(x+r, y+r, math.Pi)
	return p
}

func rect(x, y, w, h float64) path {
	var p path
	p.moveTo(x, y)
	p.lineTo(x+w, y)
	p.lineTo(x+w, y+h)
	p.lineTo(x, y+h)
	return p
}

// polygon joins the points in order; give them clockwise on screen.
func polygon(pts ...point) path {
	var p path
	p.moveTo(pts[0].x, pts[0].y)
	for _, pt := range pts[1:] {
		p.lineTo(pt.x, pt.y)
	}
	return p
}

// arc is the points of a circle's arc from angle a0 to a1 (radians,
// clockwise on screen from three o'clock).
func arc(cx, cy, r, a0, a1 float64) []point {
	n := int(math.Ceil(math.Abs(a1-a0)/(math.Pi/2)*curveSteps)) + 1
	pts := make([]point, 0, n+1)
	for i := 0; i <= n; i++ {
		a := a0 + (a1-a0)*float64(i)/float64(n)
		pts = append(pts, point{cx + r*math.Cos(a), cy + r*math.Sin(a)})
	}
	return pts
}

// bezier is the points of a cubic Bézier curve.
func bezier(a, b, c, d point) []point {
	var p path
	p.moveTo(a.x, a.y)
	p.cubeTo(b.x, b.y, c.x, c.y, d.x, d.y)
	return p.outlines[0]
}

// stroke is the outline of a line of the given width along pts, with
// round caps and joins.
func stroke(width float64, pts ...point) path {
	var p path
	h := width / 2
	for i := 0; i+1 < len(pts); i++ {
		a, b := pts[i], pts[i+1]
		dx, dy := b.x-a.x, b.y-a.y
		l := math.Hypot(dx, dy)
		if l == 0 {
			continue
		}
		nx, ny := -dy/l*h, dx/l*h
		p.add(polygon(point{a.x - nx, a.y - ny}, point{b.x - nx, b.y - ny}, point{b.x + nx, b.y + ny}, point{a.x + nx, a.y + ny}))
	}
	for _, pt := range pts {
		p.add(circle(pt.x, pt.y, h))
	}
	return p
}

// dashed is the outline of a dashed line along pts: dashes of length on,
// gaps of length off.
func dashed(width, on, off float64, pts ...point) path {
	var p path
	var dash []point
	pos, drawing := 0.0, true
	for i := 0; i+1 < len(pts); i++ {
		a, b := pts[i], pts[i+1]
		l := math.Hypot(b.x-a.x, b.y-a.y)
		t := 0.0
		for t < l {
			limit := on
			if !drawing {
				limit = off
			}
			step := math.Min(limit-pos, l-t)
			at := func(s float64) point { return point{a.x + (b.x-a.x)*s/l, a.y + (b.y-a.y)*s/l} }
			if drawing {
				if len(dash) == 0 {
					dash = append(dash, at(t))
				}
				dash = append(dash, at(t+step))
			}
			t += step
			pos += step
			if pos >= limit {
				if drawing && len(dash) > 1 {
					p.add(stroke(width, dash...))
				}
				dash, pos, drawing = nil, 0, !drawing
			}
		}
	}
	if drawing && len(dash) > 1 {
		p.add(stroke(width, dash...))
	}
	return p
}

// canvas is an image being drawn.
type canvas struct {
	img *image.RGBA
	// offset moves every shape filled from now on, to place a composition
	// as a whole.
	offset point
}

func newCanvas(w, h int) *canvas {
	return &canvas{img: image.NewRGBA(image.Rect(0, 0, w, h))}
}

func (c *canvas) width() float64  { return float64(c.img.Bounds().Dx()) }
func (c *canvas) height() float64 { return float64(c.img.Bounds().Dy()) }

// fill paints p with src (a colour or a gradient), anti-aliased.
func (c *canvas) fill(p path, src image.Image) {
	if c.offset != (point{}) {
		var moved path
		for _, o := range p.outlines {
			mo := make([]point, len(o))
			for i, pt := range o {
				mo[i] = point{pt.x + c.offset.x, pt.y + c.offset.y}
			}
			moved.outlines = append(moved.outlines, mo)
		}
		p = moved
	}
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, o := range p.outlines {
		for _, pt := range o {
			minX, minY = math.Min(minX, pt.x), math.Min(minY, pt.y)
			maxX, maxY = math.Max(maxX, pt.x), math.Max(maxY, pt.y)
		}
	}
	box := image.Rect(int(math.Floor(minX)), int(math.Floor(minY)), int(math.Ceil(maxX))+1, int(math.Ceil(maxY))+1).Intersect(c.img.Bounds())
	if box.Empty() {
		return
	}
	z := vector.NewRasterizer(box.Dx(), box.Dy())
	for _, o := range p.outlines {
		if len(o) < 3 {
			continue
		}
		z.MoveTo(float32(o[0].x-float64(box.Min.X)), float32(o[0].y-float64(box.Min.Y)))
		for _, pt := range o[1:] {
			z.LineTo(float32(pt.x-float64(box.Min.X)), float32(pt.y-float64(box.Min.Y)))
		}
		z.ClosePath()
	}
	z.Draw(c.img, box, src, box.Min)
}

// paint fills p with one colour.
func (c *canvas) paint(p path, col color.Color) { c.fill(p, image.NewUniform(col)) }

// background covers the whole canvas with src.
func (c *canvas) background(src image.Image) {
	draw.Draw(c.img, c.img.Bounds(), src, image.Point{}, draw.Src)
}

// linear is a gradient from colour a at point from to colour b at point
// to, constant across the line between them.
type linear struct {
	from, to point
	a, b     color.NRGBA
}

func (g linear) ColorModel() color.Model { return color.NRGBAModel }
func (g linear) Bounds() image.Rectangle {
	return image.Rect(-1e6, -1e6, 1e6, 1e6)
}

func (g linear) At(x, y int) color.Color {
	dx, dy := g.to.x-g.from.x, g.to.y-g.from.y
	t := ((float64(x)+0.5-g.from.x)*dx + (float64(y)+0.5-g.from.y)*dy) / (dx*dx + dy*dy)
	return mix(g.a, g.b, t)
}

// mix is the colour a fraction t of the way from a to b.
func mix(a, b color.NRGBA, t float64) color.NRGBA {
	t = math.Max(0, math.Min(1, t))
	l := func(p, q uint8) uint8 { return uint8(math.Round(float64(p) + (float64(q)-float64(p))*t)) }
	return color.NRGBA{l(a.R, b.R), l(a.G, b.G), l(a.B, b.B), l(a.A, b.A)}
}

// alpha is c with opacity a (0 to 1).
func alpha(c color.NRGBA, a float64) color.NRGBA {
	c.A = uint8(math.Round(float64(c.A) * a))
	return c
}

// uniform is one colour everywhere.
type uniform struct{ c color.NRGBA }

func (u *uniform) ColorModel() color.Model { return color.NRGBAModel }
func (u *uniform) Bounds() image.Rectangle { return image.Rect(-1e6, -1e6, 1e6, 1e6) }
func (u *uniform) At(int, int) color.Color { return u.c }
