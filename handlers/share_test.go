package handlers

import (
	"bytes"
	"html"
	"image"
	"image/png"
	"net/http"
	"strings"
	"testing"

	"github.com/northbeam/site/internal/sitetest"
)

// TestPagesHaveTheirOwnShareImage: every post, case study and person, in
// every language, names a share image of its own (not the site's), with
// its size and its title as alt text for social previews. Every Arabic
// image and the first of each kind in the other languages are fetched:
// drawn at 1200×630, cached for good, and the Arabic ones mirrored, their
// text set against the right margin.
func TestPagesHaveTheirOwnShareImage(t *testing.T) {
	h := testHandler(t)
	s := sitetest.Site(t)
	seen := map[string]string{}
	for _, lang := range s.Info.Languages {
		type page struct{ path, title string }
		var pages []page
		for _, p := range s.Blog().Posts(lang.Code) {
			pages = append(pages, page{lang.LocalPath("/blog/" + p.Slug), p.Title})
		}
		for _, st := range s.Work().Studies(lang.Code) {
			pages = append(pages, page{lang.LocalPath("/work/" + st.Slug), st.Title})
		}
		for _, p := range s.Team().People(lang.Code) {
			pages = append(pages, page{lang.LocalPath("/team/" + p.Slug), p.Name})
		}
		fetched := map[string]bool{}
		for _, p := range pages {
			rec := sitetest.Get(t, h, p.path)
			if rec.Code != http.StatusOK {
				t.Errorf("%s: %d", p.path, rec.Code)
				continue
			}
			meta := map[string]string{}
			for _, m := range metaProperty.FindAllStringSubmatch(rec.Body.String(), -1) {
				meta[m[1]] = html.UnescapeString(m[2])
			}
			img := meta["og:image"]
			if !strings.HasPrefix(img, "https://example.test/og/") {
				t.Errorf("%s: og:image %q, want one of its own", p.path, img)
				continue
			}
			if other, dup := seen[img]; dup {
				t.Errorf("%s shares its image with %s", p.path, other)
			}
			seen[img] = p.path
			if meta["og:image:width"] != "1200" || meta["og:image:height"] != "630" || meta["og:image:alt"] != p.title {
				t.Errorf("%s: og:image %sx%s alt %q, want 1200x630 alt %q", p.path, meta["og:image:width"], meta["og:image:height"], meta["og:image:alt"], p.title)
			}
			// X reads og:image when twitter:image is absent; a
			// twitter:image, if any, must not name another picture.
			if meta["twitter:card"] != "summary_large_image" || meta["twitter:image"] != "" && meta["twitter:image"] != img {
				t.Errorf("%s: twitter:card %q, twitter:image %q", p.path, meta["twitter:card"], meta["twitter:image"])
			}
			kind := strings.Split(strings.TrimPrefix(p.path, lang.Prefix), "/")[1]
			if lang.Dir != "rtl" && fetched[kind] {
				continue
			}
			fetched[kind] = true
			res := sitetest.Get(t, h, strings.TrimPrefix(img, "https://example.test"))
			if res.Code != http.StatusOK || res.Header().Get("Content-Type") != "image/png" || !strings.Contains(res.Header().Get("Cache-Control"), "immutable") {
				t.Errorf("%s: %d %s %s", img, res.Code, res.Header().Get("Content-Type"), res.Header().Get("Cache-Control"))
				continue
			}
			drawn, err := png.Decode(bytes.NewReader(res.Body.Bytes()))
			if err != nil || drawn.Bounds().Dx() != 1200 || drawn.Bounds().Dy() != 630 {
				t.Errorf("%s (%s): %v %v", img, p.path, drawn.Bounds(), err)
				continue
			}
			left, right := titleInk(drawn)
			switch {
			case right < 0:
				t.Errorf("%s (%s): no title drawn", img, p.path)
			case lang.Dir == "rtl" && (right < 1200-80-8 || right > 1200-80+4):
				t.Errorf("%s (%s): the title ends at x=%d, want against the right margin", img, p.path, right)
			case lang.Dir != "rtl" && (left < 80-4 || left > 80+8):
				t.Errorf("%s (%s): the title starts at x=%d, want against the left margin", img, p.path, left)
			}
		}
	}
	if rec := sitetest.Get(t, h, "/og/0000000000000000.png"); rec.Code != http.StatusNotFound {
		t.Errorf("an unknown share image answers %d", rec.Code)
	}
}

// titleInk returns the left-most and right-most columns where the title
// (light text on the dark background, below the kind) is drawn; right is
// -1 when nothing is.
func titleInk(img image.Image) (left, right int) {
	left, right = img.Bounds().Dx(), -1
	for y := 250; y < img.Bounds().Dy(); y++ {
		for x := 0; x < img.Bounds().Dx(); x++ {
			if r, _, _, _ := img.At(x, y).RGBA(); r>>8 > 128 {
				left, right = min(left, x), max(right, x)
			}
		}
	}
	return left, right
}
