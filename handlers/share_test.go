package handlers

import (
	"bytes"
	"image/png"
	"net/http"
	"strings"
	"testing"
)

// TestPagesHaveTheirOwnShareImage: a post, a case study and a person in
// English, French and German each name a share image of their own, drawn
// at 1200×630 and cached for good; Arabic pages, whose titles need shaping
// the image fonts cannot do, keep the site's image.
func TestPagesHaveTheirOwnShareImage(t *testing.T) {
	h := testHandler(t)
	s := testSite(t)
	seen := map[string]string{}
	for _, lang := range s.Info.Languages {
		paths := []string{
			lang.LocalPath("/blog/" + s.blog.Posts(lang.Code)[0].Slug),
			lang.LocalPath("/work/" + s.work.Studies(lang.Code)[0].Slug),
			lang.LocalPath("/team/" + s.team.People(lang.Code)[0].Slug),
		}
		for _, path := range paths {
			meta := map[string]string{}
			for _, m := range metaProperty.FindAllStringSubmatch(get(t, h, path).Body.String(), -1) {
				meta[m[1]] = m[2]
			}
			img := meta["og:image"]
			if lang.Code == "ar" {
				if img != "https://example.test/og.png" {
					t.Errorf("%s: og:image %q, want the site's image", path, img)
				}
				continue
			}
			if !strings.HasPrefix(img, "https://example.test/og/") {
				t.Errorf("%s: og:image %q, want one of its own", path, img)
				continue
			}
			if other, dup := seen[img]; dup {
				t.Errorf("%s shares its image with %s", path, other)
			}
			seen[img] = path
			rec := get(t, h, strings.TrimPrefix(img, "https://example.test"))
			if rec.Code != http.StatusOK || rec.Header().Get("Content-Type") != "image/png" || !strings.Contains(rec.Header().Get("Cache-Control"), "immutable") {
				t.Errorf("%s: %d %s %s", img, rec.Code, rec.Header().Get("Content-Type"), rec.Header().Get("Cache-Control"))
				continue
			}
			cfg, err := png.DecodeConfig(bytes.NewReader(rec.Body.Bytes()))
			if err != nil || cfg.Width != 1200 || cfg.Height != 630 {
				t.Errorf("%s: %dx%d %v", img, cfg.Width, cfg.Height, err)
			}
		}
	}
	if rec := get(t, h, "/og/0000000000000000.png"); rec.Code != http.StatusNotFound {
		t.Errorf("an unknown share image answers %d", rec.Code)
	}
}
