package handlers

import (
	"net/http"
	"strings"

	"github.com/northbeam/site/internal/site"
	"golang.org/x/text/language"
)

// requestLanguage picks the language of an API answer: the request's own
// lang field, else Accept-Language, else the default language.
func requestLanguage(info *site.Info, field string, req *http.Request) string {
	if _, ok := info.Language(field); ok {
		return field
	}
	tags, _, err := language.ParseAcceptLanguage(req.Header.Get("Accept-Language"))
	if err == nil {
		for _, t := range tags {
			base, _ := t.Base()
			if _, ok := info.Language(strings.ToLower(base.String())); ok {
				return base.String()
			}
		}
	}
	return info.DefaultLanguage
}
