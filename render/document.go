package render

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html/template"
	"strings"
)

// Alternate is a language version of a page, for hreflang links.
type Alternate struct {
	Hreflang string // a BCP 47 tag, or x-default
	Href     string // absolute URL
}

// Link is any other <link> of the head (feeds, for example).
type Link struct {
	Rel, Type, Title, Href string
}

// Document is everything the HTML shell of a page holds.
type Document struct {
	Lang        string // BCP 47 tag of the page's language
	Dir         string // ltr or rtl
	Title       string
	Description string
	Canonical   string // absolute URL; empty for an error page, which has none
	Alternates  []Alternate
	Links       []Link
	Body        string // the server-rendered React tree
	Payload     any    // serialized for hydration
	Entry       string // URL of the client entry module; empty for a page without the client app
	// Boot is the page's one script tag (frontend/boot.ts): it starts the
	// entry, and preloads the page's chunks and strings, after the first
	// paint, so that neither takes the bandwidth or the main thread the
	// first paint needs; hydration still never waits on a chunk.
	Boot     string
	CSS      []string
	Preloads []string // the modules to preload: the page's chunks and strings
	NoIndex  bool     // keep the page out of search engines

	// Social previews (Open Graph, and Twitter's card, which reads them).
	SiteName     string
	OGType       string // "website" or "article"
	Image        string // absolute URL of the share image
	ImageAlt     string
	OGLocale     string   // the page's locale, as fr_FR
	OGAlternates []string // the locales of the other languages
	// JSONLD holds structured data (schema.org), each serialized as JSON.
	JSONLD []any
}

// shell is the HTML document around the React tree. The payload is JSON in
// a non-executed script element; encoding/json escapes <, > and &, so no
// content can close the element early.
// shell is the document around a page. Its first paint waits until <main>
// is parsed whole (link rel=expect): a paint of a half-received header,
// whose flex rows then grow as the rest arrives, was a layout shift on
// phones (CLS 0.007 to 0.04 in Lighthouse and under throttling), and so
// was a paint of half a card grid, whose columns (auto-fit) change as the
// other cards arrive (CLS 0.03 to 0.1 on the case studies and the team,
// seen first on the longer Arabic pages). The element it waits for is the
// footer, which follows <main>: Chromium lets the page paint once the
// expected element is in the document, not once it is parsed whole, so
// expecting #main itself let a half-parsed main content paint.
var shell = template.Must(template.New("shell").Parse(`<!doctype html>
<html lang="{{.Lang}}" dir="{{.Dir}}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="expect" href="#site-footer" blocking="render">
<title>{{.Title}}</title>
<meta name="description" content="{{.Description}}">
{{if .NoIndex}}<meta name="robots" content="noindex">
{{end}}{{if .Canonical}}<link rel="canonical" href="{{.Canonical}}">
{{end}}{{range .Alternates}}<link rel="alternate" hreflang="{{.Hreflang}}" href="{{.Href}}">
{{end}}{{range .Links}}<link rel="{{.Rel}}"{{if .Type}} type="{{.Type}}"{{end}}{{if .Title}} title="{{.Title}}"{{end}} href="{{.Href}}">
{{end}}<meta name="theme-color" content="#ffffff" media="(prefers-color-scheme: light)">
<meta name="theme-color" content="#0d1220" media="(prefers-color-scheme: dark)">
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="icon" href="/icon-32.png" sizes="32x32" type="image/png">
<link rel="apple-touch-icon" href="/apple-touch-icon.png">
<link rel="manifest" href="/manifest.webmanifest">
{{if .SiteName}}<meta property="og:site_name" content="{{.SiteName}}">
<meta property="og:type" content="{{.OGType}}">
<meta property="og:title" content="{{.Title}}">
<meta property="og:description" content="{{.Description}}">
{{if .Canonical}}<meta property="og:url" content="{{.Canonical}}">
{{end}}<meta property="og:image" content="{{.Image}}">
<meta property="og:image:width" content="1200">
<meta property="og:image:height" content="630">
<meta property="og:image:alt" content="{{.ImageAlt}}">
<meta property="og:locale" content="{{.OGLocale}}">
{{range .OGAlternates}}<meta property="og:locale:alternate" content="{{.}}">
{{end}}<meta name="twitter:card" content="summary_large_image">
{{end}}{{range .JSONLDScripts}}<script type="application/ld+json">{{.}}</script>
{{end}}{{range .CSS}}<link rel="stylesheet" href="{{.}}">
{{end}}{{if .Entry}}<script type="module" src="{{.Boot}}" data-entry="{{.Entry}}" data-preload="{{.PreloadList}}"></script>
{{end}}</head>
<body>
<div id="root">{{.BodyHTML}}</div>
<script type="application/json" id="page-data">{{.PayloadJSON}}</script>
</body>
</html>
`))

// HTML writes the document.
func (d *Document) HTML() ([]byte, error) {
	payload, err := json.Marshal(d.Payload)
	if err != nil {
		return nil, fmt.Errorf("render: payload: %w", err)
	}
	// encoding/json escapes <, > and &: no value can close the script.
	var ld []template.JS
	for _, v := range d.JSONLD {
		b, err := json.Marshal(v)
		if err != nil {
			return nil, fmt.Errorf("render: structured data: %w", err)
		}
		ld = append(ld, template.JS(b)) //nolint:gosec // G203: JSON, escaped as said above
	}
	var buf bytes.Buffer
	err = shell.Execute(&buf, struct {
		*Document
		BodyHTML      template.HTML
		PayloadJSON   template.JS
		JSONLDScripts []template.JS
		PreloadList   string
	}{d, template.HTML(d.Body), template.JS(payload), ld, strings.Join(d.Preloads, " ")}) //nolint:gosec // G203: React's own escaped output, and JSON as above
	if err != nil {
		return nil, fmt.Errorf("render: document: %w", err)
	}
	// A copy of the exact size: the buffer's spare room (up to half of it)
	// would otherwise stay in memory with every cached page.
	return bytes.Clone(buf.Bytes()), nil
}
