package handlers

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/northbeam/site/internal/sitetest"
	"github.com/northbeam/site/internal/testwait"
)

// TestRequestsBeforeTheSiteIsBuiltWaitForIt: a server that listens before
// its content is loaded (`go run .`) answers /healthz, fails /readyz, and
// answers a page asked for meanwhile with the page once the site is
// built; a request that waits longer than the bound gets 503 with
// Retry-After and the localized "try again", never a server error
// (docs/ARCHITECTURE.md, Starting).
func TestRequestsBeforeTheSiteIsBuiltWaitForIt(t *testing.T) {
	site := sitetest.Site(t)
	srv := NewServer(nil, Services{Log: sitetest.QuietLog()})
	starting := NewStarting(srv, site.Info, site.Locales, time.Hour)
	ts := httptest.NewServer(starting)
	defer ts.Close()
	get := func(path string) (*http.Response, string) {
		t.Helper()
		res, err := http.Get(ts.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		body, _ := io.ReadAll(res.Body)
		return res, string(body)
	}
	if res, body := get("/healthz"); res.StatusCode != http.StatusOK {
		t.Errorf("/healthz while loading: %d %q", res.StatusCode, body)
	}
	if res, body := get("/readyz"); res.StatusCode != http.StatusServiceUnavailable || !strings.Contains(body, "loading the content") {
		t.Errorf("/readyz while loading: %d %q, want 503 loading the content", res.StatusCode, body)
	}
	other := sitetest.Other(t)
	type answer struct {
		code int
		body string
	}
	answered := make(chan answer, 1)
	go func() {
		res, err := http.Get(ts.URL + other.LocalPath("/team"))
		if err != nil {
			answered <- answer{body: err.Error()}
			return
		}
		defer res.Body.Close()
		body, _ := io.ReadAll(res.Body)
		answered <- answer{res.StatusCode, string(body)}
	}()
	testwait.Until(t, "the page's request waits for the site", func() bool { return starting.waiting.Load() == 1 })
	starting.Serve(site)
	if a := <-answered; a.code != http.StatusOK || !strings.Contains(a.body, `lang="`+other.Tag+`"`) {
		t.Errorf("%s asked for while loading: %d, want the team page in %s", other.LocalPath("/team"), a.code, other.Code)
	}
	if res, body := get("/readyz"); res.StatusCode != http.StatusOK {
		t.Errorf("/readyz once built: %d %q", res.StatusCode, body)
	}

	// A site that takes longer than the wait: 503, never a 500.
	slow := NewStarting(NewServer(nil, Services{Log: sitetest.QuietLog()}), site.Info, site.Locales, time.Millisecond)
	rec := httptest.NewRecorder()
	slow.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, other.LocalPath("/blog"), nil))
	if rec.Code != http.StatusServiceUnavailable || rec.Header().Get("Retry-After") == "" {
		t.Errorf("a page not built within the wait: %d, Retry-After %q, want 503 with Retry-After", rec.Code, rec.Header().Get("Retry-After"))
	}
	if want := site.Locales.T(other.Code, "errors.unavailable"); !strings.Contains(rec.Body.String(), want) {
		t.Errorf("a page not built within the wait says %q, want %q", rec.Body.String(), want)
	}
}
