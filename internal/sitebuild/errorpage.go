package sitebuild

import (
	"bytes"
	"html/template"

	"github.com/northbeam/site/internal/site"
)

// errorPageTemplate is the page answering a server error: rendered by Go
// alone, since the error may be the render engine's, in the language of the
// path with the site's stylesheet, and without a word about the cause.
var errorPageTemplate = template.Must(template.New("error").Parse(`<!doctype html>
<html lang="{{.Lang}}" dir="{{.Dir}}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>{{.Name}}</title>
{{range .CSS}}<link rel="stylesheet" href="{{.}}">
{{end}}</head>
<body>
<main id="main" class="container">
<h1>{{.Message}}</h1>
<p><a href="{{.Home}}">{{.HomeLabel}}</a></p>
</main>
</body>
</html>
`))

type errorPageData struct {
	Lang, Dir, Name, Message, Home, HomeLabel string
	CSS                                       []string
}

// ErrorPage renders the page answering a page request that failed on the
// server's side, in lang, saying message.
func (s *Build) ErrorPage(lang site.Language, message string) ([]byte, error) {
	data := errorPageData{
		Lang: lang.Tag, Dir: lang.Dir, Name: s.Info.Name,
		Message:   message,
		Home:      lang.LocalPath("/"),
		HomeLabel: s.Locales.T(lang.Code, "notFound.home"),
	}
	if s.Bundle != nil {
		data.CSS = s.Bundle.Manifest.CSS
	}
	var b bytes.Buffer
	if err := errorPageTemplate.Execute(&b, data); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
