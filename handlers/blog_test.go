package handlers

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"html"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/northbeam/site/internal/markdown"
	"github.com/northbeam/site/internal/site"
	"github.com/northbeam/site/internal/sitebuild"
	"github.com/northbeam/site/internal/sitetest"
)

var (
	h1Tag       = regexp.MustCompile(`<h1[^>]*>([^<]*)</h1>`)
	feedLinkTag = regexp.MustCompile(`<link rel="alternate" type="application/atom(?:\+|&#43;)xml" title="([^"]+)" href="([^"]+)">`)
	postLinks   = regexp.MustCompile(`<h2 id="[^"]*"><a href="([^"]+)"`)
	// React writes dateTime; HTML attribute names are case-insensitive.
	timeTag = regexp.MustCompile(`<time (?i:datetime)="(\d{4}-\d{2}-\d{2})">([^<]+)</time>`)
)

// blogURLs lists every URL of a language's blog as a reader reaches them
// (tags percent-encoded, as a browser sends them), with the title the page
// must have, derived from the library rather than from the handlers.
func blogURLs(s *sitebuild.Build, lang site.Language) map[string]string {
	urls := map[string]string{}
	list := s.Locales.T(lang.Code, "meta.blog.title")
	posts := s.Blog().Posts(lang.Code)
	urls[lang.LocalPath("/blog")] = sitetest.PageTitle(s, lang.Code, list)
	for n := 2; n <= (len(posts)+9)/10; n++ {
		urls[lang.LocalPath(fmt.Sprintf("/blog/page/%d", n))] = sitetest.PageTitle(s, lang.Code, s.Locales.T(lang.Code, "meta.blog.pageTitle", "title", list, "page", fmt.Sprint(n)))
	}
	for _, tc := range s.Blog().Tags(lang.Code) {
		urls[lang.LocalPath("/blog/tag/"+url.PathEscape(tc.Tag))] = sitetest.PageTitle(s, lang.Code, s.Locales.T(lang.Code, "blog.tagTitle", "tag", tc.Name))
	}
	for _, p := range posts {
		urls[lang.LocalPath("/blog/"+p.Slug)] = sitetest.PageTitle(s, lang.Code, p.Title)
	}
	return urls
}

// TestBlogEveryURLInEveryLanguage renders the list, every tag and every
// post in the four languages and checks what a crawler and a reader get.
func TestBlogEveryURLInEveryLanguage(t *testing.T) {
	h := testHandler(t)
	s := sitetest.Site(t)
	for _, lang := range s.Info.Languages {
		urls := blogURLs(s, lang)
		if len(s.Blog().Posts(lang.Code)) < 4 || len(urls) < 9 {
			t.Fatalf("%s: %d posts, %d URLs: the seed content is missing", lang.Code, len(s.Blog().Posts(lang.Code)), len(urls))
		}
		titles := map[string]string{}
		for path, wantTitle := range urls {
			t.Run(path, func(t *testing.T) {
				rec := sitetest.Get(t, h, path)
				if rec.Code != http.StatusOK {
					t.Fatalf("status %d", rec.Code)
				}
				body := rec.Body.String()
				if m := htmlTag.FindStringSubmatch(body); m == nil || m[1] != lang.Tag || m[2] != lang.Dir {
					t.Errorf("html tag %v, want lang=%s dir=%s", m, lang.Tag, lang.Dir)
				}
				title := titleTag.FindStringSubmatch(body)
				if title == nil || html.UnescapeString(title[1]) != wantTitle {
					t.Errorf("title %q, want %q", title, wantTitle)
				} else if other, dup := titles[title[1]]; dup {
					t.Errorf("title %q is also the title of %s", title[1], other)
				}
				titles[title[1]] = path
				if c := canonicalTag.FindStringSubmatch(body); c == nil || c[1] != "https://example.test"+path {
					t.Errorf("canonical %v, want https://example.test%s", c, path)
				}
				feed := feedLinkTag.FindStringSubmatch(body)
				if feed == nil || feed[2] != "https://example.test"+lang.LocalPath("/blog/feed.xml") {
					t.Errorf("feed link %v", feed)
				}
				if h1 := h1Tag.FindStringSubmatch(body); h1 == nil || !strings.Contains(wantTitle, html.UnescapeString(h1[1])) {
					t.Errorf("h1 %v is not in the title %q", h1, wantTitle)
				}
				assertCompleteRender(t, s, lang.Code, body)
			})
		}
	}
}

func TestBlogListShowsPostsNewestFirstWithTheirDetails(t *testing.T) {
	h := testHandler(t)
	s := sitetest.Site(t)
	for _, lang := range s.Info.Languages {
		body := sitetest.Get(t, h, lang.LocalPath("/blog")).Body.String()
		var want []string
		for _, p := range s.Blog().Posts(lang.Code) {
			want = append(want, lang.LocalPath("/blog/"+p.Slug))
			for _, tag := range p.Tags {
				// The link goes to the tag's slug and reads as its name.
				link := `rel="tag" href="` + lang.LocalPath("/blog/tag/"+url.PathEscape(tag.Slug)) + `" data-discover="true">` + html.EscapeString(tag.Name) + `<`
				if !strings.Contains(body, link) {
					t.Errorf("%s: no link to the tag %q", lang.Code, tag.Name)
				}
			}
			if !strings.Contains(html.UnescapeString(body), p.Description) {
				t.Errorf("%s: no description of %s", lang.Code, p.Slug)
			}
		}
		var got []string
		for _, m := range postLinks.FindAllStringSubmatch(body, -1) {
			got = append(got, m[1])
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: posts %v, want newest first %v", lang.Code, got, want)
		}
		// One list page has the tag filter, with "all posts" current.
		if !regexp.MustCompile(`<nav class="tag-filter" aria-label="[^"]+"><ul><li><a aria-current="page"`).MatchString(body) {
			t.Errorf("%s: no tag filter with the unfiltered list current", lang.Code)
		}
		if strings.Contains(body, `class="pagination"`) {
			t.Errorf("%s: four posts need no pagination", lang.Code)
		}
	}
}

// TestBlogDatesInEachLanguage checks that the server, which has no Intl,
// writes dates the way each language writes them, along with the machine
// form.
func TestBlogDatesInEachLanguage(t *testing.T) {
	h := testHandler(t)
	for path, want := range map[string][]string{
		"/blog":    {"20 October 2026", "25 August 2026", "17 February 2026"},
		"/fr/blog": {"20 octobre 2026", "25 août 2026", "17 février 2026"},
		"/de/blog": {"20. Oktober 2026", "25. August 2026", "17. Februar 2026"},
		"/ar/blog": {"20 أكتوبر 2026", "25 أغسطس 2026", "17 فبراير 2026"},
	} {
		body := sitetest.Get(t, h, path).Body.String()
		dates := map[string]string{}
		for _, m := range timeTag.FindAllStringSubmatch(body, -1) {
			dates[m[2]] = m[1]
		}
		for _, text := range want {
			if _, ok := dates[text]; !ok {
				t.Errorf("%s: no <time> showing %q (found %v)", path, text, dates)
			}
		}
		if dates[want[0]] != "2026-10-20" {
			t.Errorf("%s: %q has datetime %q", path, want[0], dates[want[0]])
		}
		if path != "/blog" && strings.Contains(body, "October") {
			t.Errorf("%s: an English month name", path)
		}
	}
	// A post shows its update too, and the reading time in the language.
	body := html.UnescapeString(sitetest.Get(t, testHandler(t), "/fr/blog/figuier-etrangleur-moderniser-sans-tout-reecrire").Body.String())
	for _, want := range []string{"Publié le <time", ">12 mai 2026</time>", "Mis à jour le <time", ">2 juin 2026</time>", " min de lecture<", "Par Samira Haddad"} {
		if !strings.Contains(body, want) {
			t.Errorf("the French post does not say %q", want)
		}
	}
}

func TestBlogPostPage(t *testing.T) {
	h := testHandler(t)
	s := sitetest.Site(t)
	post := s.Blog().Posts("ar")[0]
	body := sitetest.Get(t, h, "/ar/blog/"+post.Slug).Body.String()
	for name, want := range map[string]string{
		"the article":                   `<article class="container post" aria-labelledby=`,
		"the author":                    post.Author,
		"a table of contents":           `<nav class="toc"`,
		"the first heading in the TOC":  `<a href="#` + post.TOC[0].ID + `">`,
		"code kept left to right":       `<pre class="chroma" dir="ltr"`,
		"the call to book":              `href="/ar/schedule"`,
		"the link back to the list":     `href="/ar/blog"`,
		"the older post":                `rel="prev" href="/ar/blog/` + s.Blog().Posts("ar")[1].Slug + `"`,
		"the English version":           `hrefLang="en" dir="ltr" title="`,
		"the translations' nav":         `<nav class="post-translations" aria-labelledby=`,
		"the post's description (head)": `<meta name="description" content="` + html.EscapeString(post.Description) + `">`,
	} {
		if !strings.Contains(body, want) && !strings.Contains(html.UnescapeString(body), want) {
			t.Errorf("the newest Arabic post lacks %s: %q", name, want)
		}
	}
	if strings.Contains(body, `rel="next"`) {
		t.Error("the newest post has a next post")
	}
	// A post with fewer headings has no table of contents.
	for _, p := range s.Blog().Posts("en") {
		if got := strings.Contains(sitetest.Get(t, h, "/blog/"+p.Slug).Body.String(), `<nav class="toc"`); got != (len(p.TOC) >= 4) {
			t.Errorf("%s: %d headings, table of contents %v", p.Slug, len(p.TOC), got)
		}
	}
}

// TestBlogHreflangOnlyBetweenTranslations: a post declares its real
// translations, and nothing else.
func TestBlogHreflangOnlyBetweenTranslations(t *testing.T) {
	h := testHandler(t)
	s := sitetest.Site(t)
	for _, lang := range s.Info.Languages {
		for _, p := range s.Blog().Posts(lang.Code) {
			path := lang.LocalPath("/blog/" + p.Slug)
			want := map[string]string{lang.Tag: "https://example.test" + path}
			translations, _ := s.Blog().Translations(lang.Code, p.Slug)
			for _, tr := range translations {
				l, _ := s.Info.Language(tr.Lang)
				want[l.Tag] = "https://example.test" + l.LocalPath("/blog/"+tr.Slug)
			}
			// x-default: the default language's version, or the post
			// itself when it has none.
			want["x-default"] = "https://example.test" + path
			if def, ok := s.Info.Language(s.Info.DefaultLanguage); ok {
				if v, ok := want[def.Tag]; ok {
					want["x-default"] = v
				}
			}
			got := map[string]string{}
			for _, a := range hreflangTags.FindAllStringSubmatch(sitetest.Get(t, h, path).Body.String(), -1) {
				got[a[1]] = a[2]
			}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("%s: hreflang %v, want %v", path, got, want)
			}
		}
	}
}

func TestBlogUnknownPagesAreLocalized404s(t *testing.T) {
	h := testHandler(t)
	s := sitetest.Site(t)
	for _, lang := range s.Info.Languages {
		tag := s.Blog().Tags(lang.Code)[0].Tag
		for _, path := range []string{
			lang.LocalPath("/blog/no-such-post"),
			lang.LocalPath("/blog/page/2"), // four posts: one page
			lang.LocalPath("/blog/page/0"),
			lang.LocalPath("/blog/page/two"),
			lang.LocalPath("/blog/tag/no-such-tag"),
			lang.LocalPath("/blog/tag/" + url.PathEscape(tag) + "/page/2"),
			lang.LocalPath("/blog/" + s.Blog().Posts(lang.Code)[0].Slug + "/more"),
		} {
			rec := sitetest.Get(t, h, path)
			if rec.Code != http.StatusNotFound {
				t.Errorf("%s: status %d, want 404", path, rec.Code)
				continue
			}
			body := rec.Body.String()
			if m := htmlTag.FindStringSubmatch(body); m == nil || m[1] != lang.Tag || m[2] != lang.Dir {
				t.Errorf("%s: html tag %v", path, m)
			}
			if want := s.Locales.T(lang.Code, "notFound.title"); !strings.Contains(html.UnescapeString(body), want) {
				t.Errorf("%s: the page does not say %q", path, want)
			}
			if api := sitetest.Get(t, h, "/api/page?path="+url.QueryEscape(path)); api.Code != http.StatusNotFound || !strings.Contains(api.Body.String(), `"page":"NotFound"`) {
				t.Errorf("/api/page for %s: %d %.100s", path, api.Code, api.Body.String())
			}
		}
	}
}

// TestBlogFirstPageHasOneURL: page 1 of a list is the list itself.
func TestBlogFirstPageHasOneURL(t *testing.T) {
	h := testHandler(t)
	arabicTag := "/ar/blog/tag/" + url.PathEscape(sitetest.Site(t).Blog().Tags("ar")[0].Tag)
	for from, to := range map[string]string{
		"/blog/page/1": "/blog",
		sitetest.OtherAt(t, 0).LocalPath("/blog/page/1"):             sitetest.OtherAt(t, 0).LocalPath("/blog"),
		"/blog/tag/devops/page/1":                                    "/blog/tag/devops",
		arabicTag + "/page/1":                                        arabicTag,
		sitetest.OtherAt(t, 1).LocalPath("/blog/tag/nothing/page/1"): "", // no such tag: not found
		"/" + sitetest.Default(t).Code + "/blog/tag/devops/page/1":   "/blog/tag/devops/page/1",
		"/blog/boring-technology-for-":                               "",
	} {
		rec := sitetest.Get(t, h, from)
		switch {
		case to == "" && rec.Code != http.StatusNotFound:
			t.Errorf("%s: %d, want 404", from, rec.Code)
		case to != "" && (rec.Code != http.StatusMovedPermanently || rec.Header().Get("Location") != to):
			t.Errorf("%s: %d to %q, want 301 to %q", from, rec.Code, rec.Header().Get("Location"), to)
		}
	}
}

// TestBlogTagsInTheirOwnScript: tag URLs hold the tag's own letters,
// percent-encoded by the browser; both forms reach the page, and the
// client's data request for the encoded form finds it.
func TestBlogTagsInTheirOwnScript(t *testing.T) {
	h := testHandler(t)
	s := sitetest.Site(t)
	tag := s.Blog().Tags("ar")[0].Tag
	encoded := "/ar/blog/tag/" + url.PathEscape(tag)
	page := sitetest.Get(t, h, encoded)
	if page.Code != http.StatusOK || !strings.Contains(page.Body.String(), `"path":"`+encoded+`"`) {
		t.Fatalf("%s: %d, or the payload's path is not the encoded one", encoded, page.Code)
	}
	if raw := sitetest.Get(t, h, "/ar/blog/tag/"+tag); raw.Code != http.StatusOK || raw.Body.String() != page.Body.String() {
		t.Errorf("the unencoded form: %d", raw.Code)
	}
	api := sitetest.Get(t, h, "/api/page?path="+url.QueryEscape(encoded))
	var payload struct {
		Path string `json:"path"`
		Page string `json:"page"`
		Data struct {
			Tag        string `json:"tag"`
			TotalPosts int    `json:"totalPosts"`
			Posts      []struct {
				Slug string `json:"slug"`
			} `json:"posts"`
		} `json:"data"`
	}
	if err := json.Unmarshal(api.Body.Bytes(), &payload); err != nil || api.Code != http.StatusOK {
		t.Fatalf("/api/page: %d %v", api.Code, err)
	}
	if payload.Page != "BlogList" || payload.Path != encoded || payload.Data.Tag != tag || len(payload.Data.Posts) != payload.Data.TotalPosts || payload.Data.TotalPosts == 0 {
		t.Errorf("payload %+v", payload)
	}
}

// TestBlogPayloadForClientNavigation is what the browser fetches when a
// reader follows a link from one blog page to a post.
func TestBlogPayloadForClientNavigation(t *testing.T) {
	h := testHandler(t)
	s := sitetest.Site(t)
	other := sitetest.Other(t)
	p := s.Blog().Posts(other.Code)[1]
	rec := sitetest.Get(t, h, "/api/page?path="+other.LocalPath("/blog/"+p.Slug))
	var payload struct {
		Page       string                              `json:"page"`
		Lang       string                              `json:"lang"`
		Head       struct{ Title, Description string } `json:"head"`
		Alternates map[string]string                   `json:"alternates"`
		Data       struct {
			Title         string `json:"title"`
			HTML          string `json:"html"`
			PublishedText string `json:"publishedText"`
			Translations  []struct {
				Lang, Slug string
			} `json:"translations"`
			Newer *struct{ Slug string } `json:"newer"`
			Older *struct{ Slug string } `json:"older"`
		} `json:"data"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &payload); err != nil || rec.Code != http.StatusOK {
		t.Fatalf("%d %v", rec.Code, err)
	}
	if payload.Page != "BlogPost" || payload.Lang != other.Code || payload.Data.Title != p.Title || payload.Data.HTML != p.HTML() || payload.Head.Title != sitetest.PageTitle(s, other.Code, p.Title) {
		t.Errorf("payload: page %s lang %s title %q head %q", payload.Page, payload.Lang, payload.Data.Title, payload.Head.Title)
	}
	if !strings.Contains(payload.Data.PublishedText, " 2026") || payload.Data.Newer == nil {
		t.Errorf("publishedText %q, newer %v", payload.Data.PublishedText, payload.Data.Newer)
	}
	if len(payload.Alternates) != 1+len(payload.Data.Translations) {
		t.Errorf("alternates %v for translations %v", payload.Alternates, payload.Data.Translations)
	}
}

type feedLink struct {
	Rel  string `xml:"rel,attr"`
	Href string `xml:"href,attr"`
}

// atom is what a feed reader reads of the feed.
type atom struct {
	XMLName xml.Name   `xml:"http://www.w3.org/2005/Atom feed"`
	Lang    string     `xml:"http://www.w3.org/XML/1998/namespace lang,attr"`
	Title   string     `xml:"title"`
	Updated string     `xml:"updated"`
	Links   []feedLink `xml:"link"`
	Entries []struct {
		ID      string `xml:"id"`
		Title   string `xml:"title"`
		Updated string `xml:"updated"`
		Link    struct {
			Href string `xml:"href,attr"`
		} `xml:"link"`
		Content string `xml:"content"`
	} `xml:"entry"`
}

func TestBlogFeeds(t *testing.T) {
	h := testHandler(t)
	s := sitetest.Site(t)
	for _, lang := range s.Info.Languages {
		path := lang.LocalPath("/blog/feed.xml")
		rec := sitetest.Get(t, h, path, "Accept-Encoding", "gzip")
		if rec.Code != http.StatusOK {
			t.Fatalf("%s: %d", path, rec.Code)
		}
		if ct := rec.Header().Get("Content-Type"); ct != "application/atom+xml; charset=utf-8" {
			t.Errorf("%s: Content-Type %q", path, ct)
		}
		if cc := rec.Header().Get("Cache-Control"); !strings.Contains(cc, "max-age=") {
			t.Errorf("%s: Cache-Control %q", path, cc)
		}
		if again := sitetest.Get(t, h, path, "Accept-Encoding", "gzip", "If-None-Match", rec.Header().Get("ETag")); again.Code != http.StatusNotModified {
			t.Errorf("%s: revalidation gives %d", path, again.Code)
		}
		zr, err := gzip.NewReader(rec.Body)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		var feed atom
		if err := xml.NewDecoder(zr).Decode(&feed); err != nil {
			t.Fatalf("%s does not parse: %v", path, err)
		}
		posts := s.Blog().Posts(lang.Code)
		if feed.Lang != lang.Code || feed.Title != s.Locales.T(lang.Code, "meta.blog.feedTitle", "name", s.Info.Name) || feed.Updated == "" || len(feed.Entries) != len(posts) {
			t.Fatalf("%s: lang %q title %q updated %q, %d entries for %d posts", path, feed.Lang, feed.Title, feed.Updated, len(feed.Entries), len(posts))
		}
		if !slices.ContainsFunc(feed.Links, func(l feedLink) bool { return l.Rel == "self" && l.Href == "https://example.test"+path }) {
			t.Errorf("%s: no self link in %v", path, feed.Links)
		}
		for i, e := range feed.Entries {
			if e.Title != posts[i].Title || e.Content != posts[i].HTML() {
				t.Errorf("%s: entry %d is %q, want %q with its HTML", path, i, e.Title, posts[i].Title)
			}
			u, err := url.Parse(e.Link.Href)
			if err != nil || u.Host != "example.test" || e.ID != e.Link.Href {
				t.Errorf("%s: entry link %q id %q", path, e.Link.Href, e.ID)
				continue
			}
			if rec := sitetest.Get(t, h, u.Path); rec.Code != http.StatusOK {
				t.Errorf("%s: entry link %s gives %d", path, u.Path, rec.Code)
			}
		}
	}
	if rec := sitetest.Get(t, h, "/"); feedLinkTag.MatchString(rec.Body.String()) {
		t.Error("the home page links to the feed: only blog pages do")
	}
}

// TestHighlightCSSIsCurrent keeps frontend/styles/highlight.css equal to
// what internal/markdown's code highlighting needs. To regenerate it:
//
//	WRITE_HIGHLIGHT_CSS=1 go test ./handlers -run TestHighlightCSSIsCurrent
func TestHighlightCSSIsCurrent(t *testing.T) {
	file := filepath.Join(sitetest.Root(), "frontend", "styles", "highlight.css")
	want := markdown.HighlightCSS()
	if os.Getenv("WRITE_HIGHLIGHT_CSS") == "1" {
		if err := os.WriteFile(file, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Error("frontend/styles/highlight.css differs from markdown.HighlightCSS(): run WRITE_HIGHLIGHT_CSS=1 go test ./handlers -run TestHighlightCSSIsCurrent")
	}
}

// TestCSSBudget: all the site's CSS, blog and code highlighting included,
// stays within 10 KB gzip (docs/ARCHITECTURE.md, Budgets).
func TestCSSBudget(t *testing.T) {
	s := sitetest.Site(t)
	var all []byte
	for _, href := range s.Bundle.Manifest.CSS {
		all = append(all, s.Bundle.Client[strings.TrimPrefix(href, "/assets/")]...)
	}
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	_, _ = zw.Write(all)
	_ = zw.Close()
	if len(all) == 0 || !bytes.Contains(all, []byte(".chroma")) || !bytes.Contains(all, []byte(".post-card")) {
		t.Fatalf("the bundle's CSS (%d bytes) lacks the blog's or the highlighting's rules", len(all))
	}
	if buf.Len() > 10*1024 {
		t.Errorf("CSS is %d bytes gzip, over the 10 KB budget", buf.Len())
	}
	t.Logf("CSS: %d bytes, %d gzip", len(all), buf.Len())
}

// A site built from a small blog of its own: twelve English posts (a
// second page), one of them translated into French, and a draft.

// overlayFS serves the files of over, and those of base outside blog/.
type overlayFS struct {
	over fstest.MapFS
	base fs.FS
}

func (o overlayFS) Open(name string) (fs.File, error) {
	if name == "blog" || strings.HasPrefix(name, "blog/") {
		return o.over.Open(name)
	}
	if f, err := o.over.Open(name); err == nil {
		return f, nil
	}
	return o.base.Open(name)
}

// fixtureContent returns the shipped content with site.json cut down to
// English and French and the blog replaced by posts.
func fixtureContent(t testing.TB, posts map[string]string) fs.FS {
	t.Helper()
	base := sitetest.Content()
	raw, err := fs.ReadFile(base, "site.json")
	if err != nil {
		t.Fatal(err)
	}
	var info map[string]any
	if err := json.Unmarshal(raw, &info); err != nil {
		t.Fatal(err)
	}
	langs := info["languages"].([]any)
	info["languages"] = []any{langs[0], langs[1]} // en, fr
	raw, _ = json.Marshal(info)
	over := fstest.MapFS{"site.json": {Data: raw}}
	for name, src := range posts {
		over["blog/"+name] = &fstest.MapFile{Data: []byte(src)}
	}
	return overlayFS{over: over, base: base}
}

func fixturePost(title, date, key string, tags []string, draft bool) string {
	return fmt.Sprintf("---\ntitle: %s\ndescription: About %s.\npublished: %s\nauthor: Lena Hartmann\ntags: [%s]\ntranslationKey: %s\ndraft: %v\n---\n\nSome words about %s.\n",
		title, title, date, strings.Join(tags, ", "), key, draft, title)
}

func fixturePosts() map[string]string {
	posts := map[string]string{}
	for i := 1; i <= 12; i++ {
		tags := []string{"alpha"}
		if i%4 == 0 {
			tags = append(tags, "beta")
		}
		posts[fmt.Sprintf("en/post-%02d.md", i)] = fixturePost(fmt.Sprintf("Post %d", i), fmt.Sprintf("2026-03-%02d", i), fmt.Sprintf("key-%d", i), tags, false)
	}
	posts["en/draft-post.md"] = fixturePost("Draft", "2026-04-01", "draft", []string{"alpha"}, true)
	posts["fr/article-01.md"] = fixturePost("Article 1", "2026-03-01", "key-1", []string{"alpha"}, false)
	return posts
}

var fixtureSites sync.Map // dev bool -> func() (*sitebuild.Build, error)

// fixtureHandler serves the fixture blog, in development mode or not.
func fixtureHandler(t *testing.T, dev bool) http.Handler {
	t.Helper()
	return New(NewServer(fixtureSite(t, dev), Services{Log: sitetest.QuietLog()}))
}

// fixtureSite builds the site of the fixture blog once, in development
// mode or not.
func fixtureSite(t testing.TB, dev bool) *sitebuild.Build {
	t.Helper()
	real := sitetest.Site(t)
	content := fixtureContent(t, fixturePosts())
	build, _ := fixtureSites.LoadOrStore(dev, sync.OnceValues(func() (*sitebuild.Build, error) {
		return sitebuild.New(context.Background(), content, real.Bundle, real.Engine, sitebuild.Options{
			BaseURL: "https://example.test", ConsentHideFromBots: true, Dev: dev,
		})
	}))
	s, err := build.(func() (*sitebuild.Build, error))()
	if err != nil {
		t.Fatalf("building the fixture site: %v", err)
	}
	return s
}

func TestBlogPagination(t *testing.T) {
	h := fixtureHandler(t, false)
	posts := func(path string) []string {
		rec := sitetest.Get(t, h, path)
		if rec.Code != http.StatusOK {
			t.Fatalf("%s: %d", path, rec.Code)
		}
		var got []string
		for _, m := range postLinks.FindAllStringSubmatch(rec.Body.String(), -1) {
			got = append(got, strings.TrimPrefix(m[1], "/blog/"))
		}
		return got
	}
	want := []string{"post-12", "post-11", "post-10", "post-09", "post-08", "post-07", "post-06", "post-05", "post-04", "post-03"}
	if got := posts("/blog"); !slices.Equal(got, want) {
		t.Errorf("/blog: %v, want %v", got, want)
	}
	if got := posts("/blog/page/2"); !slices.Equal(got, []string{"post-02", "post-01"}) {
		t.Errorf("/blog/page/2: %v", got)
	}
	if got := posts("/blog/tag/alpha/page/2"); !slices.Equal(got, []string{"post-02", "post-01"}) {
		t.Errorf("/blog/tag/alpha/page/2: %v", got)
	}
	if got := posts("/blog/tag/beta"); !slices.Equal(got, []string{"post-12", "post-08", "post-04"}) {
		t.Errorf("/blog/tag/beta: %v", got)
	}
	for _, path := range []string{"/blog/page/3", "/blog/tag/beta/page/2", "/fr/blog/page/2"} {
		if rec := sitetest.Get(t, h, path); rec.Code != http.StatusNotFound {
			t.Errorf("%s: %d, want 404", path, rec.Code)
		}
	}

	// The pagination is a labelled nav; the current page is marked, and
	// the others are links to stable URLs.
	first := sitetest.Get(t, h, "/blog").Body.String()
	for _, want := range []string{
		`<nav class="pagination" aria-label="Blog pages">`,
		`<a aria-current="page" href="/blog"`,
		`<a href="/blog/page/2"`,
		`rel="next" class="pagination-next" href="/blog/page/2"`,
	} {
		if !strings.Contains(first, want) {
			t.Errorf("/blog lacks %s", want)
		}
	}
	second := sitetest.Get(t, h, "/blog/tag/alpha/page/2").Body.String()
	for _, want := range []string{
		`rel="prev" class="pagination-prev" href="/blog/tag/alpha"`,
		`<a aria-current="page" href="/blog/tag/alpha/page/2"`,
		`<a aria-current="true" href="/blog/tag/alpha"`, // the filter in use
		`<title>Posts tagged “alpha”, page 2 | Northbeam</title>`,
	} {
		if !strings.Contains(html.UnescapeString(second), want) {
			t.Errorf("/blog/tag/alpha/page/2 lacks %s", want)
		}
	}
}

func TestBlogHreflangOfAnUntranslatedPost(t *testing.T) {
	h := fixtureHandler(t, false)
	for path, want := range map[string][]string{
		"/blog/post-02":       {"en", "x-default"},
		"/blog/post-01":       {"en", "fr", "x-default"},
		"/fr/blog/article-01": {"en", "fr", "x-default"},
		"/blog/tag/alpha":     {"en", "fr", "x-default"}, // French has the tag too
		"/blog/tag/beta":      {"en", "x-default"},
		"/blog/page/2":        {"en", "x-default"},
	} {
		var got []string
		for _, a := range hreflangTags.FindAllStringSubmatch(sitetest.Get(t, h, path).Body.String(), -1) {
			got = append(got, a[1])
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: hreflang %v, want %v", path, got, want)
		}
	}
	// The language selector offers the same: nothing but the real
	// translations.
	rec := sitetest.Get(t, h, "/api/page?path=/blog/post-02")
	if !strings.Contains(rec.Body.String(), `"alternates":{"en":"/blog/post-02"}`) {
		t.Errorf("alternates of an untranslated post: %.300s", rec.Body.String())
	}
}

func TestBlogDraftsOnlyInDevelopment(t *testing.T) {
	for _, dev := range []bool{false, true} {
		h := fixtureHandler(t, dev)
		want := http.StatusNotFound
		if dev {
			want = http.StatusOK
		}
		if rec := sitetest.Get(t, h, "/blog/draft-post"); rec.Code != want {
			t.Errorf("dev=%v: the draft gives %d, want %d", dev, rec.Code, want)
		}
		listed := strings.Contains(sitetest.Get(t, h, "/blog").Body.String(), `href="/blog/draft-post"`)
		inFeed := strings.Contains(sitetest.Get(t, h, "/blog/feed.xml").Body.String(), "/blog/draft-post")
		if listed != dev || inFeed != dev {
			t.Errorf("dev=%v: the draft is listed %v, in the feed %v", dev, listed, inFeed)
		}
	}
}

// TestBlogFrontMatterErrorsStopTheBuild: a mistake in a post names its
// file and line, and the site does not start.
func TestBlogFrontMatterErrorsStopTheBuild(t *testing.T) {
	posts := fixturePosts()
	posts["en/broken.md"] = "---\ntitle: Broken\ndescription: A post with a bad date.\npublished: 2026-13-45\nauthor: Lena Hartmann\ntranslationKey: broken\n---\n\nText.\n"
	_, err := sitetest.Rebuild(t, fixtureContent(t, posts), sitebuild.Options{BaseURL: "https://example.test"})
	if err == nil || !strings.Contains(err.Error(), "blog/en/broken.md:4: published:") {
		t.Errorf("error %v, want one naming blog/en/broken.md:4 and the field", err)
	}
}
