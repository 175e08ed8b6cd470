package handlers

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"
)

// chartPNG draws a small image in the test: no binary file in the repository.
func chartPNG(t *testing.T) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := png.Encode(&buf, image.NewRGBA(image.Rect(0, 0, 8, 4))); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestContentImagesAreServedAndChecked: an image a post writes as the
// README shows (/img/<file>) is served from content/img/, the page points
// to an address that changes with the file and is cached for good, and it
// keeps its alternative text, size and lazy loading.
func TestContentImagesAreServedAndChecked(t *testing.T) {
	real := testSite(t)
	posts := fixturePosts()
	posts["en/with-chart.md"] = "---\ntitle: With a chart\ndescription: A post with a chart.\npublished: 2026-03-20\nauthor: Lena Hartmann\ntranslationKey: chart\n---\n\nText.\n\n![Deployments per day, from 1 to 30](/img/chart.png \"=800x450\")\n"
	content := fixtureContent(t, posts)
	content.(overlayFS).over["img/chart.png"] = &fstest.MapFile{Data: chartPNG(t)}
	s, err := BuildSite(context.Background(), content, real.Bundle, real.Engine, Options{BaseURL: "https://example.test"})
	if err != nil {
		t.Fatal(err)
	}
	h := New(NewServer(s, Services{Log: quietLog()}))
	body := markup(get(t, h, "/blog/with-chart").Body.String())
	m := regexp.MustCompile(`<img src="(/img/[0-9a-f]{12}/chart\.png)" alt="Deployments per day, from 1 to 30"[^>]*>`).FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("no image with its hashed address and alt text in the post:\n%s", body[strings.Index(body, "<main"):])
	}
	for _, attr := range []string{`loading="lazy"`, `width="800"`, `height="450"`} {
		if !strings.Contains(m[0], attr) {
			t.Errorf("%s lacks %s", m[0], attr)
		}
	}
	for path, cache := range map[string]string{m[1]: "public, max-age=31536000, immutable", "/img/chart.png": "public, max-age=86400"} {
		rec := get(t, h, path)
		if rec.Code != http.StatusOK || rec.Header().Get("Content-Type") != "image/png" || rec.Header().Get("Cache-Control") != cache {
			t.Errorf("%s: %d %s %q", path, rec.Code, rec.Header().Get("Content-Type"), rec.Header().Get("Cache-Control"))
		}
	}
	if rec := get(t, h, "/img/missing.png"); rec.Code != http.StatusNotFound {
		t.Errorf("a missing image answers %d", rec.Code)
	}
}

// TestAnImageWithoutAltOrFileStopsTheStart: an image without alternative
// text, and one whose file does not exist, each stop the start with the
// post's file and the image named.
func TestAnImageWithoutAltOrFileStopsTheStart(t *testing.T) {
	real := testSite(t)
	posts := fixturePosts()
	posts["en/bad-images.md"] = "---\ntitle: Bad images\ndescription: Two mistakes.\npublished: 2026-03-20\nauthor: Lena Hartmann\ntranslationKey: bad\n---\n\n![](/img/chart.png \"=800x450\")\n\n![A photo](/img/x.png \"=800x450\")\n"
	content := fixtureContent(t, posts)
	content.(overlayFS).over["img/chart.png"] = &fstest.MapFile{Data: chartPNG(t)}
	_, err := BuildSite(context.Background(), content, real.Bundle, real.Engine, Options{BaseURL: "https://example.test"})
	if err == nil {
		t.Fatal("the site started")
	}
	for _, want := range []string{`blog/en/bad-images.md`, `image "/img/chart.png": no alternative text`, `image "/img/x.png": no such image`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
}
