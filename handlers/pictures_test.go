package handlers

import (
	"fmt"
	"html"
	"io/fs"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/northbeam/site/internal/images"
	"github.com/northbeam/site/internal/sitebuild"
	"github.com/northbeam/site/internal/sitetest"
)

// pictureTag is a content picture as pages render it: its WebP copies, then
// the original as the fallback <img>.
var pictureTag = regexp.MustCompile(`<picture><source type="image/webp" srcSet="([^"]+)" sizes="([^"]+)"/><img ([^>]*)/></picture>`)

// shownPicture is one picture of a page.
type shownPicture struct {
	srcset, sizes string
	attrs         map[string]string
}

// picturesIn returns the pictures of the page's markup, in order.
func picturesIn(body string) []shownPicture {
	if i := strings.Index(body, `<script type="application/json" id="page-data">`); i >= 0 {
		body = body[:i]
	}
	var out []shownPicture
	for _, m := range pictureTag.FindAllStringSubmatch(body, -1) {
		p := shownPicture{srcset: m[1], sizes: m[2], attrs: map[string]string{}}
		for _, a := range regexp.MustCompile(`([a-zA-Z]+)="([^"]*)"`).FindAllStringSubmatch(m[3], -1) {
			p.attrs[a[1]] = html.UnescapeString(a[2])
		}
		out = append(out, p)
	}
	return out
}

// TestPicturesOnEveryPage: the case studies' covers (the list, each study,
// the home page's selected work) and the team's portraits (the team page,
// each person) are in the server's HTML of every language with their WebP
// copies, the original as the fallback, their size (no layout shift) and
// their alternative text in the page's language; lazy below the first
// screen, fetched first where a cover is the page's largest picture. Each
// copy and original answers with its type, cached for good, and the
// JSON-LD names the picture.
func TestPicturesOnEveryPage(t *testing.T) {
	h := testHandler(t)
	s := sitetest.Site(t)
	addresses := map[string]string{} // address -> the type it must have
	check := func(path string, want []images.Picture, eager int, priority bool) {
		t.Helper()
		body := sitetest.Get(t, h, path).Body.String()
		got := picturesIn(body)
		if len(got) != len(want) {
			t.Errorf("%s: %d pictures, want %d", path, len(got), len(want))
			return
		}
		for i, p := range got {
			w := want[i]
			a := p.attrs
			if p.srcset != w.WebP || a["src"] != w.Src || a["alt"] != w.Alt || a["width"] != fmt.Sprint(w.Width) || a["height"] != fmt.Sprint(w.Height) {
				t.Errorf("%s: picture %d is %+v, want %+v", path, i, p, w)
			}
			lazy := a["loading"] == "lazy" && a["decoding"] == "async"
			if lazy != (i >= eager) {
				t.Errorf("%s: picture %d lazy %v, want %v", path, i, lazy, i >= eager)
			}
			if (a["fetchPriority"] == "high") != (priority && i == 0) {
				t.Errorf("%s: picture %d fetchpriority %q", path, i, a["fetchPriority"])
			}
			addresses[a["src"]] = "image/png"
			for _, c := range strings.Split(p.srcset, ", ") {
				addresses[strings.Fields(c)[0]] = "image/webp"
			}
		}
	}
	for _, lang := range s.Info.Languages {
		var covers, portraits []images.Picture
		for _, st := range s.Work().Studies(lang.Code) {
			covers = append(covers, st.Cover)
		}
		for _, p := range s.Team().People(lang.Code) {
			portraits = append(portraits, p.Photo)
		}
		check(lang.LocalPath("/"), covers, 0, false)
		check(lang.LocalPath("/work"), covers, 1, false)
		check(lang.LocalPath("/team"), portraits, 1, false)
		for i, st := range s.Work().Studies(lang.Code) {
			path := lang.LocalPath("/work/" + st.Slug)
			others := append(append([]images.Picture{}, covers[:i]...), covers[i+1:]...)
			check(path, append([]images.Picture{st.Cover}, others...), 1, true)
			ld := structuredData(t, sitetest.Get(t, h, path).Body.String())
			if img, _ := ld[0]["image"].([]any); len(img) == 0 || img[0] != "https://example.test"+st.Cover.Src {
				t.Errorf("%s: Article image %v, want the cover first", path, ld[0]["image"])
			}
		}
		for _, p := range s.Team().People(lang.Code) {
			path := lang.LocalPath("/team/" + p.Slug)
			check(path, []images.Picture{p.Photo}, 1, false)
			ld := structuredData(t, sitetest.Get(t, h, path).Body.String())
			if person, _ := ld[0]["mainEntity"].(map[string]any); person["image"] != "https://example.test"+p.Photo.Src {
				t.Errorf("%s: Person image %v", path, person["image"])
			}
		}
	}
	if len(addresses) != 7+3*5+4*3 {
		t.Errorf("%d addresses of pictures and copies, want %d", len(addresses), 7+3*5+4*3)
	}
	for addr, ctype := range addresses {
		rec := sitetest.Get(t, h, addr)
		if rec.Code != http.StatusOK || rec.Header().Get("Content-Type") != ctype || rec.Header().Get("Cache-Control") != "public, max-age=31536000, immutable" || rec.Header().Get("ETag") == "" {
			t.Errorf("%s: %d %q %q", addr, rec.Code, rec.Header().Get("Content-Type"), rec.Header().Get("Cache-Control"))
		}
	}
}

// TestAPictureMistakeInFrontMatterStopsTheStart: a case study's cover
// without alternative text, a person's photo whose file does not exist and
// a post's cover of the wrong shape each stop the start, naming the file,
// the line and the field.
func TestAPictureMistakeInFrontMatterStopsTheStart(t *testing.T) {
	for _, tc := range []struct {
		file, from, to, want string
	}{
		{"work/en/fintech-platform-thirty-deploys-a-day.md", `  alt: "Illustration: a delivery pipeline`, `  # alt: "Illustration: a delivery pipeline`,
			"work/en/fintech-platform-thirty-deploys-a-day.md:22: cover: alt: required"},
		{"work/de/telemedizin-architektur-review.md", "  width: 1600\n", "",
			"work/de/telemedizin-architektur-review.md:22: cover: width and height: required"},
		{"team/fr/julien-moreau.md", "src: /img/team/julien-moreau.png", "src: /img/team/julien.png",
			`team/fr/julien-moreau.md:6: photo: no such image "/img/team/julien.png"`},
		{"blog/en/post-01.md", "translationKey:", "cover: {src: /img/work/fintech-platform.png, alt: A pipeline, width: 1600, height: 1600}\ntranslationKey:",
			"blog/en/post-01.md: cover: /img/work/fintech-platform.png is 1600×900: 1600×1600 is another shape"},
	} {
		t.Run(tc.file, func(t *testing.T) {
			content := fixtureContent(t, fixturePosts())
			src, err := fs.ReadFile(content, tc.file)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(src), tc.from) {
				t.Fatalf("%s has no %q", tc.file, tc.from)
			}
			content.(overlayFS).over[tc.file] = &fstest.MapFile{Data: []byte(strings.Replace(string(src), tc.from, tc.to, 1))}
			_, err = sitetest.Rebuild(t, content, sitebuild.Options{BaseURL: "https://example.test"})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("the start says %v; want %q", err, tc.want)
			}
		})
	}
}
