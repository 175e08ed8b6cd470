package sitebuild

import (
	"bytes"
	"encoding/json"
	"html/template"

	"github.com/northbeam/site/internal/site"
)

// The staff workspace's pages are one shell, rendered in the browser from
// the JSON API (see README, "Staff workspace"): the server writes the
// document its script renders in, per request, in the answer's language.

// StaffBoot is what every workspace page holds for its script.
type StaffBoot struct {
	Lang string       `json:"lang"`
	Name string       `json:"name"`
	Zone string       `json:"zone"`
	Me   *StaffMember `json:"me"`
	Link string       `json:"link,omitempty"` // the state of the link the page was opened with
}

// StaffMember is the signed-in member a workspace page is for.
type StaffMember struct {
	Email string `json:"email"`
	Lang  string `json:"lang"`
}

var staffShell = template.Must(template.New("staff").Parse(`<!doctype html>
<html lang="{{.Tag}}" dir="{{.Dir}}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<meta name="referrer" content="same-origin">
<title>{{.Title}}</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
{{range .CSS}}<link rel="stylesheet" href="{{.}}">
{{end}}<script type="module" src="{{.Entry}}"></script>
{{if .Strings}}<link rel="modulepreload" href="{{.Strings}}">
{{end}}</head>
<body>
<div id="root"><noscript><p>{{.NoScript}}</p></noscript></div>
<script type="application/json" id="staff-data">{{.Boot}}</script>
</body>
</html>
`))

// StaffPage renders a workspace page in lang holding boot.
func (s *Build) StaffPage(lang site.Language, boot StaffBoot) ([]byte, error) {
	data, err := json.Marshal(boot)
	if err != nil {
		return nil, err
	}
	m := s.Bundle.Manifest.Staff
	var b bytes.Buffer
	err = staffShell.Execute(&b, map[string]any{
		"Tag": lang.Tag, "Dir": lang.Dir,
		"Title":    s.StaffLocales.T(lang.Code, "app.name", "name", s.Info.Name),
		"NoScript": s.StaffLocales.T(lang.Code, "app.noScript"),
		"CSS":      m.CSS, "Entry": m.Entry, "Strings": m.Locales[lang.Code],
		// encoding/json escapes <, > and &: nothing closes the element.
		"Boot": template.JS(data), //nolint:gosec // G203: JSON, escaped as said above
	})
	if err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
