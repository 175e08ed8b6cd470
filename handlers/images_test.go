package handlers

import (
	"bytes"
	"image"
	"image/png"
	"io/fs"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/northbeam/site/internal/sitebuild"
	"github.com/northbeam/site/internal/sitetest"
)

// chartPNG draws a 16:9 image in the test: no binary file in the
// repository.
func chartPNG(t *testing.T) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := png.Encode(&buf, image.NewRGBA(image.Rect(0, 0, 480, 270))); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// addImage adds a file under img/ to the overlay of fixtureContent, beside
// the shipped ones (a directory of the overlay hides the shipped one).
func addImage(t *testing.T, content fs.FS, name string, data []byte) {
	t.Helper()
	o := content.(overlayFS)
	err := fs.WalkDir(o.base, "img", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(o.base, p)
		o.over[p] = &fstest.MapFile{Data: b}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	o.over[name] = &fstest.MapFile{Data: data}
}

// TestContentImagesAreServedAndChecked: an image a post writes as the
// README shows (/img/<file>) is served from content/img/, the page points
// to an address that changes with the file and is cached for good, offers
// its WebP copies (never wider than the file) in a <picture>, and keeps its
// alternative text, size and lazy loading.
func TestContentImagesAreServedAndChecked(t *testing.T) {
	posts := fixturePosts()
	posts["en/with-chart.md"] = "---\ntitle: With a chart\ndescription: A post with a chart.\npublished: 2026-03-20\nauthor: Lena Hartmann\ntranslationKey: chart\n---\n\nText.\n\n![Deployments per day, from 1 to 30](/img/chart.png \"=480x270\")\n"
	content := fixtureContent(t, posts)
	addImage(t, content, "img/chart.png", chartPNG(t))
	s, err := sitetest.Rebuild(t, content, sitebuild.Options{BaseURL: "https://example.test"})
	if err != nil {
		t.Fatal(err)
	}
	h := New(NewServer(s, Services{Log: sitetest.QuietLog()}))
	body := markup(sitetest.Get(t, h, "/blog/with-chart").Body.String())
	m := regexp.MustCompile(`<picture><source type="image/webp" srcset="(/img/[0-9a-f]{12}/chart-200\.webp) 200w, (/img/[0-9a-f]{12}/chart-400\.webp) 400w, (/img/[0-9a-f]{12}/chart-480\.webp) 480w" sizes="[^"]+">` +
		`<img src="(/img/[0-9a-f]{12}/chart\.png)" alt="Deployments per day, from 1 to 30"[^>]*></picture>`).FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("no picture with its copies, hashed address and alt text in the post:\n%s", body[strings.Index(body, "<main"):])
	}
	for _, attr := range []string{`loading="lazy"`, `decoding="async"`, `width="480"`, `height="270"`} {
		if !strings.Contains(m[0], attr) {
			t.Errorf("%s lacks %s", m[0], attr)
		}
	}
	for path, want := range map[string]string{
		m[4]: "image/png public, max-age=31536000, immutable", "/img/chart.png": "image/png public, max-age=86400",
		m[1]: "image/webp public, max-age=31536000, immutable", m[3]: "image/webp public, max-age=31536000, immutable",
	} {
		rec := sitetest.Get(t, h, path)
		if got := rec.Header().Get("Content-Type") + " " + rec.Header().Get("Cache-Control"); rec.Code != http.StatusOK || got != want {
			t.Errorf("%s: %d %s, want %s", path, rec.Code, got, want)
		}
		if head := rec.Body.String(); strings.HasSuffix(want, "immutable") && strings.HasPrefix(want, "image/webp") && (len(head) < 12 || head[:4] != "RIFF" || head[8:12] != "WEBP") {
			t.Errorf("%s is no WebP file", path)
		}
	}
	if rec := sitetest.Get(t, h, "/img/missing.png"); rec.Code != http.StatusNotFound {
		t.Errorf("a missing image answers %d", rec.Code)
	}
}

// TestAnImageWithoutAltOrFileStopsTheStart: an image without alternative
// text, and one whose file does not exist, each stop the start with the
// post's file and the image named.
func TestAnImageWithoutAltOrFileStopsTheStart(t *testing.T) {
	posts := fixturePosts()
	posts["en/bad-images.md"] = "---\ntitle: Bad images\ndescription: Two mistakes.\npublished: 2026-03-20\nauthor: Lena Hartmann\ntranslationKey: bad\n---\n\n![](/img/chart.png \"=800x450\")\n\n![A photo](/img/x.png \"=800x450\")\n"
	content := fixtureContent(t, posts)
	addImage(t, content, "img/chart.png", chartPNG(t))
	_, err := sitetest.Rebuild(t, content, sitebuild.Options{BaseURL: "https://example.test"})
	if err == nil {
		t.Fatal("the site started")
	}
	for _, want := range []string{`blog/en/bad-images.md`, `image "/img/chart.png": no alternative text`, `image "/img/x.png": no such image`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
}
