package sitebuild

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/northbeam/site/internal/blog"
	"github.com/northbeam/site/internal/brand"
	"github.com/northbeam/site/internal/site"
	"github.com/northbeam/site/render"
)

// describeForSharing adds social preview tags and structured data.
func (s *Build) describeForSharing(doc *render.Document, p page) {
	doc.SiteName = s.Info.Name
	doc.OGType = "website"
	if p.article {
		doc.OGType = "article"
	}
	doc.Image = s.opts.BaseURL + "/og.png"
	doc.ImageAlt = s.Info.Name
	if p.share != "" {
		doc.Image = s.opts.BaseURL + p.share
		doc.ImageAlt = p.shareAlt
	}
	doc.OGLocale = p.lang.OpenGraph
	for code := range p.alternates {
		if l, ok := s.Info.Language(code); ok && code != p.lang.Code {
			doc.OGAlternates = append(doc.OGAlternates, l.OpenGraph)
		}
	}
	sort.Strings(doc.OGAlternates)
	doc.JSONLD = p.jsonLD
	if p.component == "Home" && p.path == p.lang.LocalPath("/") {
		doc.JSONLD = append(doc.JSONLD, s.organizationLD(p.lang))
	}
}

// The consultancy and the site are each one node of the structured data in
// every language: the same @id and url on every page that names them
// (docs/ARCHITECTURE.md, "Crawlers").
func (s *Build) organizationID() string { return s.opts.BaseURL + "/#organization" }

func (s *Build) websiteID() string { return s.opts.BaseURL + "/#website" }

// organizationRef names the consultancy where a page refers to it (as the
// author or publisher of an article).
func (s *Build) organizationRef() map[string]any {
	return map[string]any{"@type": "Organization", "@id": s.organizationID(), "name": s.Info.Name, "url": s.opts.BaseURL + "/",
		"logo": map[string]string{"@type": "ImageObject", "url": s.opts.BaseURL + "/icon-512.png"}}
}

// ldTime writes a date of the structured data with its time and zone, as
// the feeds write it.
func ldTime(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// organizationLD describes the site, the consultancy and its three
// services, for a home page in lang.
func (s *Build) organizationLD(lang site.Language) any {
	org := s.organizationID()
	var sameAs []string
	for _, u := range s.Info.Social {
		sameAs = append(sameAs, u)
	}
	sort.Strings(sameAs)
	graph := []any{map[string]any{
		"@type":        "ProfessionalService",
		"@id":          org,
		"name":         s.Info.Name,
		"legalName":    s.Info.LegalName,
		"url":          s.opts.BaseURL + "/",
		"logo":         s.opts.BaseURL + "/icon-512.png",
		"image":        s.opts.BaseURL + "/og.png",
		"email":        s.Info.Email,
		"telephone":    s.Info.Phone,
		"foundingDate": fmt.Sprint(s.Info.Founded),
		"address": map[string]any{
			"@type":           "PostalAddress",
			"streetAddress":   s.Info.Address.Street,
			"postalCode":      s.Info.Address.PostalCode,
			"addressLocality": s.Info.Address.City,
			"addressCountry":  s.Info.Address.Country,
		},
		"sameAs": sameAs,
	}}
	languages := make([]string, len(s.Info.Languages))
	for i, l := range s.Info.Languages {
		languages[i] = l.Tag
	}
	graph = append(graph, map[string]any{
		"@type":      "WebSite",
		"@id":        s.websiteID(),
		"name":       s.Info.Name,
		"url":        s.opts.BaseURL + "/",
		"inLanguage": languages,
		"publisher":  map[string]string{"@id": org},
	})
	for _, svc := range []struct{ slug, key string }{
		{"custom-software", "customSoftware"}, {"platform-engineering", "platformEngineering"}, {"strategic-consulting", "strategicConsulting"},
	} {
		graph = append(graph, map[string]any{
			"@type":       "Service",
			"name":        s.Locales.T(lang.Code, "services."+svc.key+".title"),
			"description": s.Locales.T(lang.Code, "services."+svc.key+".summary"),
			"url":         s.opts.BaseURL + lang.LocalPath("/services/"+svc.slug),
			"provider":    map[string]string{"@id": org},
			"areaServed":  "Europe",
		})
	}
	return map[string]any{"@context": "https://schema.org", "@graph": graph}
}

// postLD describes a post and where it sits (home, blog, post).
func (s *Build) postLD(lang site.Language, post *blog.Post, path, share string) []any {
	url := s.opts.BaseURL + path
	keywords := make([]string, len(post.Tags))
	for i, t := range post.Tags {
		keywords[i] = t.Name
	}
	posting := map[string]any{
		"@context":         "https://schema.org",
		"@type":            "BlogPosting",
		"headline":         post.Title,
		"description":      post.Description,
		"inLanguage":       lang.Tag,
		"datePublished":    ldTime(post.Published),
		"dateModified":     ldTime(post.LastModified()),
		"author":           s.authorLD(lang, post.Author),
		"publisher":        s.organizationRef(),
		"mainEntityOfPage": url,
		"url":              url,
		"image":            s.opts.BaseURL + "/og.png",
		"keywords":         strings.Join(keywords, ", "),
	}
	if share != "" {
		posting["image"] = s.opts.BaseURL + share
	}
	if post.Cover != nil {
		posting["image"] = s.opts.BaseURL + post.Cover.Src
	}
	return []any{posting, s.breadcrumbsLD(lang, "blog.title", "/blog", post.Title, url)}
}

// breadcrumbsLD says where a page sits: the home page, its list (named by
// the locale key listTitle, at listPath), then the page, at url.
func (s *Build) breadcrumbsLD(lang site.Language, listTitle, listPath, title, url string) map[string]any {
	return map[string]any{
		"@context": "https://schema.org",
		"@type":    "BreadcrumbList",
		"itemListElement": []any{
			map[string]any{"@type": "ListItem", "position": 1, "name": s.Info.Name, "item": s.opts.BaseURL + lang.LocalPath("/")},
			map[string]any{"@type": "ListItem", "position": 2, "name": s.Locales.T(lang.Code, listTitle), "item": s.opts.BaseURL + lang.LocalPath(listPath)},
			map[string]any{"@type": "ListItem", "position": 3, "name": title, "item": url},
		},
	}
}

// authorLD is a post's author, pointing to their page on the team.
func (s *Build) authorLD(lang site.Language, name string) map[string]string {
	author := map[string]string{"@type": "Person", "name": name}
	if u := s.personURL(lang, name); u != "" {
		author["@id"] = u + "#person"
		author["url"] = u
	}
	return author
}

// buildFiles makes the sitemap, robots.txt and the manifest (the icons
// are brandImages).
func (s *Build) buildFiles() error {
	s.files = map[string]*render.Resource{}
	sitemaps, err := s.sitemaps()
	if err != nil {
		return err
	}
	const day = "public, max-age=86400"
	for path, data := range sitemaps {
		// Compressed alone, as a page is: at a thousand posts a language
		// the sitemaps' text is 4 MB, which crawlers fetch compressed.
		s.files[path] = render.NewCompressed("application/xml; charset=utf-8", "no-cache", http.StatusOK, data)
	}
	// /sitemap.xml is the sitemap, or the index of its parts.
	s.files["/robots.txt"] = render.NewResource("text/plain; charset=utf-8", "no-cache", http.StatusOK, s.robots())
	manifest, err := json.Marshal(map[string]any{
		"name":             s.Info.Name,
		"short_name":       s.Info.Name,
		"description":      s.Locales.T(s.Info.DefaultLanguage, "footer.tagline"),
		"start_url":        "/",
		"scope":            "/",
		"display":          "browser",
		"background_color": "#ffffff",
		"theme_color":      "#1d4ed8",
		"icons": []map[string]string{
			{"src": "/icon-192.png", "sizes": "192x192", "type": "image/png"},
			{"src": "/icon-512.png", "sizes": "512x512", "type": "image/png"},
			{"src": "/favicon.svg", "sizes": "any", "type": "image/svg+xml"},
		},
	})
	if err != nil {
		return err
	}
	s.files["/manifest.webmanifest"] = render.NewResource("application/manifest+json", day, http.StatusOK, manifest)
	return nil
}

// brandPaths are the paths of brandImages, known before they are drawn:
// the routes are made from them.
var brandPaths = []string{"/apple-touch-icon.png", "/favicon.ico", "/favicon.svg", "/icon-192.png", "/icon-32.png", "/icon-512.png", "/og.png"}

// robots is robots.txt: the API and every page meant for one visitor (the
// static routes marked NoIndex: cancelling and moving a booking) in every
// language are kept from crawlers alike.
func (s *Build) robots() []byte {
	var b strings.Builder
	b.WriteString("User-agent: *\nAllow: /\nDisallow: /api/\n")
	for _, r := range staticRoutes {
		if !r.NoIndex {
			continue
		}
		for _, l := range s.Info.Languages {
			fmt.Fprintf(&b, "Disallow: %s\n", l.LocalPath(r.Path))
		}
	}
	fmt.Fprintf(&b, "\nSitemap: %s/sitemap.xml\n", s.opts.BaseURL)
	return []byte(b.String())
}

// brandImages draws the icons and the default share image: on their first
// request or by WarmFiles, behind a start, as drawing takes as long as
// several pages.
func (s *Build) brandImages() (map[string]*render.Resource, error) {
	const day = "public, max-age=86400"
	files := map[string]*render.Resource{}
	files["/favicon.svg"] = render.NewResource("image/svg+xml", day, http.StatusOK, []byte(brand.IconSVG))
	icon32 := brand.Icon(32)
	files["/icon-32.png"] = render.NewResource("image/png", day, http.StatusOK, icon32)
	files["/favicon.ico"] = render.NewResource("image/png", day, http.StatusOK, icon32)
	files["/icon-192.png"] = render.NewResource("image/png", day, http.StatusOK, brand.Icon(192))
	files["/icon-512.png"] = render.NewResource("image/png", day, http.StatusOK, brand.Icon(512))
	files["/apple-touch-icon.png"] = render.NewResource("image/png", day, http.StatusOK, brand.Icon(180))
	og, err := brand.ShareImage(s.Info.Name, s.Locales.T(s.Info.DefaultLanguage, "footer.tagline"))
	if err != nil {
		return nil, err
	}
	files["/og.png"] = render.NewResource("image/png", day, http.StatusOK, og)
	if drawn := slices.Sorted(maps.Keys(files)); !slices.Equal(drawn, brandPaths) {
		return nil, fmt.Errorf("sitebuild: the brand images drawn, %v, are not brandPaths, %v", drawn, brandPaths)
	}
	return files, nil
}

type sitemapURLSet struct {
	XMLName xml.Name     `xml:"urlset"`
	NS      string       `xml:"xmlns,attr"`
	XHTML   string       `xml:"xmlns:xhtml,attr"`
	URLs    []sitemapURL `xml:"url"`
}

type sitemapURL struct {
	Loc        string        `xml:"loc"`
	LastMod    string        `xml:"lastmod,omitempty"`
	Alternates []sitemapLink `xml:"xhtml:link"`
}

type sitemapLink struct {
	Rel      string `xml:"rel,attr"`
	Hreflang string `xml:"hreflang,attr"`
	Href     string `xml:"href,attr"`
}

// hreflangs are a page's language versions as both its HTML and the sitemap
// list them (docs/ARCHITECTURE.md, "Crawlers"): each language it exists in,
// then x-default, which is the default language's version or, for a page
// that has none (a tag used in one language only), the page itself.
func (s *Build) hreflangs(p page) []render.Alternate {
	var out []render.Alternate
	for _, l := range s.Info.Languages {
		if alt, ok := p.alternates[l.Code]; ok {
			out = append(out, render.Alternate{Hreflang: l.Tag, Href: s.opts.BaseURL + alt})
		}
	}
	def, ok := p.alternates[s.Info.DefaultLanguage]
	if !ok {
		def = p.path
	}
	return append(out, render.Alternate{Hreflang: "x-default", Href: s.opts.BaseURL + def})
}

// The sitemaps protocol's limits of one file: past either, /sitemap.xml
// is an index of parts (sitemaps.org/protocol.html).
const (
	sitemapMaxURLs  = 50_000
	sitemapMaxBytes = 50 << 20
)

// SitemapPartPrefix begins the path of each part of a sitemap split by an
// index: /sitemap-<language>-<n>.xml.
const SitemapPartPrefix = "/sitemap-"

// sitemaps returns the sitemap at /sitemap.xml; or, when its URLs pass the
// protocol's limits, an index there and the parts it names, a language's
// pages in parts of their own, each within the limits.
func (s *Build) sitemaps() (map[string][]byte, error) {
	urls, langs, err := s.sitemapURLs()
	if err != nil {
		return nil, err
	}
	return splitSitemap(s.opts.BaseURL, urls, langs, s.Info.Languages, sitemapMaxURLs, sitemapMaxBytes)
}

// splitSitemap is sitemaps for urls, the language of each in langs, with
// the limits of one file given.
func splitSitemap(baseURL string, urls []sitemapURL, langs []string, languages []site.Language, maxURLs, maxBytes int) (map[string][]byte, error) {
	whole, err := marshalURLSet(urls)
	if err != nil {
		return nil, err
	}
	if len(urls) <= maxURLs && len(whole) <= maxBytes {
		return map[string][]byte{"/sitemap.xml": whole}, nil
	}
	files := map[string][]byte{}
	index := sitemapIndex{NS: sitemapNS}
	for _, l := range languages {
		var mine []sitemapURL
		for i, u := range urls {
			if langs[i] == l.Code {
				mine = append(mine, u)
			}
		}
		parts, err := sitemapParts(mine, maxURLs, maxBytes)
		if err != nil {
			return nil, err
		}
		for n, part := range parts {
			path := fmt.Sprintf("%s%s-%d.xml", SitemapPartPrefix, l.Code, n+1)
			files[path] = part
			index.Sitemaps = append(index.Sitemaps, sitemapRef{Loc: baseURL + path})
		}
	}
	out, err := xml.MarshalIndent(index, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("sitemap index: %w", err)
	}
	files["/sitemap.xml"] = append([]byte(xml.Header), out...)
	return files, nil
}

// sitemapParts cuts urls into files within the limits: by count, then in
// halves while a file is too large.
func sitemapParts(urls []sitemapURL, maxURLs, maxBytes int) ([][]byte, error) {
	if len(urls) == 0 {
		return nil, nil
	}
	if len(urls) > maxURLs {
		first, err := sitemapParts(urls[:maxURLs], maxURLs, maxBytes)
		if err != nil {
			return nil, err
		}
		rest, err := sitemapParts(urls[maxURLs:], maxURLs, maxBytes)
		return append(first, rest...), err
	}
	out, err := marshalURLSet(urls)
	if err != nil {
		return nil, err
	}
	if len(out) <= maxBytes {
		return [][]byte{out}, nil
	}
	if len(urls) == 1 {
		return nil, fmt.Errorf("sitemap: %s alone passes %d bytes", urls[0].Loc, maxBytes)
	}
	half := len(urls) / 2
	first, err := sitemapParts(urls[:half], maxURLs, maxBytes)
	if err != nil {
		return nil, err
	}
	rest, err := sitemapParts(urls[half:], maxURLs, maxBytes)
	return append(first, rest...), err
}

const sitemapNS = "http://www.sitemaps.org/schemas/sitemap/0.9"

type sitemapIndex struct {
	XMLName  xml.Name     `xml:"sitemapindex"`
	NS       string       `xml:"xmlns,attr"`
	Sitemaps []sitemapRef `xml:"sitemap"`
}

type sitemapRef struct {
	Loc string `xml:"loc"`
}

func marshalURLSet(urls []sitemapURL) ([]byte, error) {
	out, err := xml.MarshalIndent(sitemapURLSet{NS: sitemapNS, XHTML: "http://www.w3.org/1999/xhtml", URLs: urls}, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("sitemap: %w", err)
	}
	return append([]byte(xml.Header), out...), nil
}

// sitemapURLs lists every indexable page in every language, with its
// language alternates and, for posts, the date of the last change, sorted;
// langs holds the language of each.
func (s *Build) sitemapURLs() (urls []sitemapURL, langs []string, err error) {
	type entry struct {
		u    sitemapURL
		lang string
	}
	var entries []entry
	seen := map[string]bool{}
	for _, lp := range s.index {
		p := lp.page()
		if p.status != http.StatusOK || p.noIndex || p.noScript || seen[p.path] {
			continue
		}
		seen[p.path] = true
		u := sitemapURL{Loc: s.opts.BaseURL + p.path}
		if !p.modified.IsZero() {
			u.LastMod = p.modified.Format(time.DateOnly)
		}
		for _, a := range s.hreflangs(p) {
			u.Alternates = append(u.Alternates, sitemapLink{"alternate", a.Hreflang, a.Href})
		}
		entries = append(entries, entry{u, p.lang.Code})
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].u.Loc < entries[j].u.Loc })
	for _, e := range entries {
		urls = append(urls, e.u)
		langs = append(langs, e.lang)
	}
	return urls, langs, nil
}
