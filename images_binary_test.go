package main

import (
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/northbeam/site/internal/sitetest"
)

// TestBinaryServesThePicturesCopies: the production binary, which embeds
// no encoder, serves every WebP copy a page names from what the build
// wrote, with its type and cached for good.
func TestBinaryServesThePicturesCopies(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	bin := buildSite(t)
	p := startSite(t, bin, siteEnv(t.TempDir()))
	defer func() { _ = p.stop() }()
	get := func(path string) (*http.Response, []byte) {
		t.Helper()
		res, err := http.Get("http://" + p.addr + path)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		body, _ := io.ReadAll(res.Body)
		return res, body
	}
	copies := map[string]bool{}
	for _, page := range []string{"/work", sitetest.OtherAt(t, 2).LocalPath("/team")} {
		_, body := get(page)
		for _, m := range regexp.MustCompile(`srcSet="([^"]+)"`).FindAllStringSubmatch(string(body), -1) {
			for _, c := range strings.Split(m[1], ", ") {
				copies[strings.Fields(c)[0]] = true
			}
		}
	}
	if len(copies) != 3*5+4*3 {
		t.Fatalf("%d copies named by the pages, want %d", len(copies), 3*5+4*3)
	}
	for c := range copies {
		res, body := get(c)
		if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "image/webp" ||
			res.Header.Get("Cache-Control") != "public, max-age=31536000, immutable" || len(body) < 12 || string(body[8:12]) != "WEBP" {
			t.Errorf("%s: %d %q %q, %d bytes", c, res.StatusCode, res.Header.Get("Content-Type"), res.Header.Get("Cache-Control"), len(body))
		}
	}
	for _, line := range p.logged() {
		if strings.Contains(line, "level=ERROR") {
			t.Errorf("logged: %s", line)
		}
	}
}
