package sitebuild

import (
	"encoding/xml"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/northbeam/site/internal/site"
)

// TestSitemapIndexPastTheLimits: a synthetic site of more URLs than one
// sitemap may hold gets an index at /sitemap.xml naming parts by language,
// each within the protocol's limits, together every URL once; under the
// limits /sitemap.xml stays one sitemap.
func TestSitemapIndexPastTheLimits(t *testing.T) {
	info, err := site.Load(os.DirFS("../../content"), "site.json")
	if err != nil {
		t.Fatal(err)
	}
	languages := info.Languages
	if len(languages) < 2 {
		t.Skip("one language: nothing to split by")
	}
	const base = "https://example.com"
	// The first language has more pages than a file may list; each of the
	// others a few.
	var urls []sitemapURL
	var langs []string
	for i, l := range languages {
		n := 3
		if i == 0 {
			n = sitemapMaxURLs + 7
		}
		for j := range n {
			u := sitemapURL{Loc: fmt.Sprintf("%s%s/blog/post-%06d", base, l.LocalPath(""), j), LastMod: "2026-11-01"}
			for _, other := range languages {
				u.Alternates = append(u.Alternates, sitemapLink{"alternate", other.Tag, fmt.Sprintf("%s%s/blog/post-%06d", base, other.LocalPath(""), j)})
			}
			urls = append(urls, u)
			langs = append(langs, l.Code)
		}
	}

	check := func(name string, files map[string][]byte, maxURLs, maxBytes int, wantParts int) {
		t.Helper()
		var index struct {
			XMLName  xml.Name
			Sitemaps []struct {
				Loc string `xml:"loc"`
			} `xml:"sitemap"`
		}
		if err := xml.Unmarshal(files["/sitemap.xml"], &index); err != nil || index.XMLName.Local != "sitemapindex" {
			t.Fatalf("%s: /sitemap.xml is not an index (%s, %v)", name, index.XMLName.Local, err)
		}
		if len(index.Sitemaps) != wantParts || len(files) != wantParts+1 {
			t.Errorf("%s: the index names %d parts, %d files made; want %d", name, len(index.Sitemaps), len(files)-1, wantParts)
		}
		var listed []string
		for _, ref := range index.Sitemaps {
			path := strings.TrimPrefix(ref.Loc, base)
			data, ok := files[path]
			if !ok || !strings.HasPrefix(path, SitemapPartPrefix) {
				t.Fatalf("%s: the index names %s, which is not made", name, ref.Loc)
			}
			var part struct {
				XMLName xml.Name
				URLs    []struct {
					Loc   string `xml:"loc"`
					Links []struct {
						Hreflang string `xml:"hreflang,attr"`
					} `xml:"link"`
				} `xml:"url"`
			}
			if err := xml.Unmarshal(data, &part); err != nil || part.XMLName.Local != "urlset" {
				t.Fatalf("%s: %s is not a sitemap: %v", name, path, err)
			}
			if len(part.URLs) > maxURLs || len(data) > maxBytes {
				t.Errorf("%s: %s holds %d URLs in %d bytes, past the limits", name, path, len(part.URLs), len(data))
			}
			for _, u := range part.URLs {
				if len(u.Links) != len(languages) {
					t.Errorf("%s: %s lost its alternates in %s", name, u.Loc, path)
				}
				listed = append(listed, u.Loc)
			}
		}
		var want []string
		for _, u := range urls {
			want = append(want, u.Loc)
		}
		slices.Sort(listed)
		slices.Sort(want)
		if !slices.Equal(listed, want) {
			t.Errorf("%s: the parts list %d URLs, want each of the %d once", name, len(listed), len(want))
		}
	}

	// By count: the first language in two parts, each other in one.
	files, err := splitSitemap(base, urls, langs, languages, sitemapMaxURLs, sitemapMaxBytes)
	if err != nil {
		t.Fatal(err)
	}
	check("past 50,000 URLs", files, sitemapMaxURLs, sitemapMaxBytes, 2+len(languages)-1)

	// By size: the same pages, with a file's bytes limited to 1 MB.
	const maxBytes = 1 << 20
	files, err = splitSitemap(base, urls, langs, languages, sitemapMaxURLs, maxBytes)
	if err != nil {
		t.Fatal(err)
	}
	var parts int
	for path := range files {
		if strings.HasPrefix(path, SitemapPartPrefix) {
			parts++
		}
	}
	if parts <= 2+len(languages)-1 {
		t.Errorf("past the size limit: %d parts, want more than the count alone makes", parts)
	}
	check("past the size limit", files, sitemapMaxURLs, maxBytes, parts)

	// Under the limits: one sitemap, as ever.
	few, err := splitSitemap(base, urls[len(urls)-10:], langs[len(langs)-10:], languages, sitemapMaxURLs, sitemapMaxBytes)
	if err != nil {
		t.Fatal(err)
	}
	if len(few) != 1 || !strings.Contains(string(few["/sitemap.xml"]), "<urlset") {
		t.Errorf("ten pages: %d files, want /sitemap.xml alone, a sitemap", len(few))
	}
}
