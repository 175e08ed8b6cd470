package handlers

import (
	"bytes"
	"html/template"
	"net/http"

	"github.com/labstack/echo/v4"
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

// serverErrorPage answers a page request that failed on our side.
func (srv *Server) serverErrorPage(c echo.Context, status int) {
	h := c.Response().Header()
	h.Set("Cache-Control", "no-store")
	s := srv.Site()
	if s == nil {
		_ = c.String(status, http.StatusText(status)+"\n")
		return
	}
	lang := s.languageOf(c.Request().URL.Path)
	_, key := errorCode(status)
	data := errorPageData{
		Lang: lang.Tag, Dir: lang.Dir, Name: s.Info.Name,
		Message:   s.Locales.T(lang.Code, key),
		Home:      lang.LocalPath("/"),
		HomeLabel: s.Locales.T(lang.Code, "notFound.home"),
	}
	if s.Bundle != nil {
		data.CSS = s.Bundle.Manifest.CSS
	}
	var b bytes.Buffer
	if err := errorPageTemplate.Execute(&b, data); err != nil {
		_ = c.String(status, data.Message+"\n")
		return
	}
	_ = c.HTMLBlob(status, b.Bytes())
}
