package handlers

import (
	"net/http"
	"testing"

	"github.com/northbeam/site/internal/sitetest"
)

// testHandler returns the whole HTTP surface over the built site.
func testHandler(t testing.TB) http.Handler {
	return New(NewServer(sitetest.Site(t), Services{Log: sitetest.QuietLog()}))
}
