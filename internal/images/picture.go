package images

import (
	"errors"
	"fmt"
	"strings"
)

// Ref is a picture as front matter names it:
//
//	cover:
//	  src: /img/work/wholesale-dispatch.png
//	  alt: What the picture shows, in the page's language.
//	  width: 1600
//	  height: 900
//
// Every field is required; width and height are the size the page reserves
// for it, the file's own size or the same shape smaller.
type Ref struct {
	Src    string `yaml:"src" json:"src"`
	Alt    string `yaml:"alt" json:"alt"`
	Width  int    `yaml:"width" json:"width"`
	Height int    `yaml:"height" json:"height"`
}

// Picture is what a page needs to show a picture: the original at its
// hashed address as the fallback, the srcset of its WebP copies, its
// alternative text and size.
type Picture struct {
	Src    string `json:"src"`
	WebP   string `json:"webp,omitempty"`
	Alt    string `json:"alt"`
	Width  int    `json:"width"`
	Height int    `json:"height"`
}

// Picture checks ref against the files and returns what a page shows.
// Every mistake is reported, joined: no alternative text, no size, no
// such file, or a size of another shape than the file's or larger.
func (l *Library) Picture(ref Ref) (Picture, error) {
	var errs []error
	if strings.TrimSpace(ref.Alt) == "" {
		errs = append(errs, errors.New("alt: required: what the picture shows, for those who cannot see it"))
	}
	src, err := l.Check(ref.Src, ref.Width, ref.Height)
	if err != nil {
		errs = append(errs, err)
	}
	if len(errs) > 0 {
		return Picture{}, errors.Join(errs...)
	}
	return Picture{Src: src.Hashed, WebP: src.Srcset(), Alt: ref.Alt, Width: ref.Width, Height: ref.Height}, nil
}

// Check returns the file at the stable address p (as content writes it,
// "/img/work/cover.png"), or an error when there is none or when a page
// showing it at width×height would reserve the wrong space for it: no
// size, another shape than the file's, or larger than the file.
func (l *Library) Check(p string, width, height int) (*Source, error) {
	var errs []error
	if p == "" {
		errs = append(errs, errors.New("src: required: the picture's address, /img/<file> for a file under content/img/"))
	}
	if width <= 0 || height <= 0 {
		errs = append(errs, errors.New("width and height: required, in pixels, so that the page keeps the picture's place while it loads"))
	}
	if p == "" {
		return nil, errors.Join(errs...)
	}
	src, ok := l.sources[p]
	if !ok {
		errs = append(errs, fmt.Errorf("no such image %q: write /img/<file> for a file under content/img/", p))
		return nil, errors.Join(errs...)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	if src.Width > 0 {
		// The same shape, to within the rounding of a smaller size.
		if d := width*src.Height - height*src.Width; d > max(src.Width, src.Height) || -d > max(src.Width, src.Height) {
			return nil, fmt.Errorf("%s is %d×%d: %d×%d is another shape, and the picture would be stretched", p, src.Width, src.Height, width, height)
		}
		if width > src.Width {
			return nil, fmt.Errorf("%s is %d×%d: %d×%d is larger, and the picture would be blurred", p, src.Width, src.Height, width, height)
		}
	}
	return src, nil
}
