// Package illustration draws the pictures that ship with the content: a
// cover for each case study and a portrait for each person of the team.
// They are drawn, not photographed, in the site's palette
// (frontend/styles/site.css), so that the content carries no picture from
// elsewhere and every one can be drawn again from this code:
//
//	go run ./internal/illustration/cmd/draw
//
// writes them as PNG under content/img/, where the front matter of the
// case studies (cover) and the team (photo) names them. The drawing is
// deterministic: the same code draws the same pixels.
package illustration

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"sort"
)

// The site's colours (frontend/styles/site.css) and a few tints between
// them.
var (
	white       = color.NRGBA{0xff, 0xff, 0xff, 0xff}
	sky         = color.NRGBA{0xee, 0xf4, 0xff, 0xff} // --bg-accent
	mist        = color.NRGBA{0xdb, 0xe6, 0xfd, 0xff}
	haze        = color.NRGBA{0xc3, 0xd4, 0xfa, 0xff}
	accent      = color.NRGBA{0x1d, 0x4e, 0xd8, 0xff} // --accent
	accentSoft  = color.NRGBA{0x8f, 0xb1, 0xff, 0xff} // --accent in the dark theme
	accentDeep  = color.NRGBA{0x1e, 0x3a, 0x8a, 0xff} // --accent-strong
	ink         = color.NRGBA{0x14, 0x1a, 0x26, 0xff} // --text
	muted       = color.NRGBA{0xa9, 0xb3, 0xc6, 0xff}
	line        = color.NRGBA{0xd9, 0xde, 0xe7, 0xff} // --border
	amber       = color.NRGBA{0xf5, 0x9e, 0x0b, 0xff}
	amberSoft   = color.NRGBA{0xfd, 0xe6, 0xb0, 0xff}
	shadowColor = color.NRGBA{0x10, 0x18, 0x28, 0xff}
)

// Picture is one drawing: where it goes under content/ and how to draw it.
type Picture struct {
	// Path is the file under content/, such as "img/work/fintech-platform.png".
	Path string
	// Width and Height are its size in pixels.
	Width, Height int
	draw          func(c *canvas)
}

// PNG draws the picture and encodes it.
func (p Picture) PNG() ([]byte, error) {
	c := newCanvas(p.Width, p.Height)
	p.draw(c)
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestCompression}
	if err := enc.Encode(&buf, c.img); err != nil {
		return nil, fmt.Errorf("illustration: %s: %w", p.Path, err)
	}
	return buf.Bytes(), nil
}

// Image draws the picture.
func (p Picture) Image() image.Image {
	c := newCanvas(p.Width, p.Height)
	p.draw(c)
	return c.img
}

// Pictures returns every picture the content uses, by path.
func Pictures() []Picture {
	var out []Picture
	for key, draw := range covers {
		out = append(out, Picture{Path: "img/work/" + key + ".png", Width: coverWidth, Height: coverHeight, draw: draw})
	}
	for slug, look := range portraits {
		out = append(out, Picture{Path: "img/team/" + slug + ".png", Width: portraitSize, Height: portraitSize, draw: look.draw})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}
