package render

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html/template"
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
	Canonical   string // absolute URL
	Alternates  []Alternate
	Links       []Link
	Body        string // the server-rendered React tree
	Payload     any    // serialized for hydration
	Entry       string // URL of the client entry module; empty for a page without the client app
	CSS         []string
	Preloads    []string // modules to preload: the page's chunks and strings
	ThemeColor  string
}

// shell is the HTML document around the React tree. The payload is JSON in
// a non-executed script element; encoding/json escapes <, > and &, so no
// content can close the element early.
var shell = template.Must(template.New("shell").Parse(`<!doctype html>
<html lang="{{.Lang}}" dir="{{.Dir}}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<meta name="description" content="{{.Description}}">
<link rel="canonical" href="{{.Canonical}}">
{{range .Alternates}}<link rel="alternate" hreflang="{{.Hreflang}}" href="{{.Href}}">
{{end}}{{range .Links}}<link rel="{{.Rel}}"{{if .Type}} type="{{.Type}}"{{end}}{{if .Title}} title="{{.Title}}"{{end}} href="{{.Href}}">
{{end}}{{if .ThemeColor}}<meta name="theme-color" content="{{.ThemeColor}}">
{{end}}{{range .CSS}}<link rel="stylesheet" href="{{.}}">
{{end}}{{if .Entry}}<script type="module" src="{{.Entry}}"></script>
{{end}}{{range .Preloads}}<link rel="modulepreload" href="{{.}}">
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
	var buf bytes.Buffer
	err = shell.Execute(&buf, struct {
		*Document
		BodyHTML    template.HTML
		PayloadJSON template.JS
	}{d, template.HTML(d.Body), template.JS(payload)})
	if err != nil {
		return nil, fmt.Errorf("render: document: %w", err)
	}
	return buf.Bytes(), nil
}
