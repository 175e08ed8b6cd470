package handlers

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/northbeam/site/internal/sitebuild"
	"github.com/northbeam/site/internal/sitetest"
	"github.com/northbeam/site/render"
)

// TestPagesRenderOnFirstRequest: a build made without rendering answers a
// page by rendering it on its first request, once; /readyz fails while the
// rest are rendered behind, and answers once they are.
func TestPagesRenderOnFirstRequest(t *testing.T) {
	shared := sitetest.Site(t)
	engine, err := render.NewEngine(shared.Bundle.Server, render.Options{Logger: sitetest.QuietLog(), Strings: shared.Bundle.Strings})
	if err != nil {
		t.Fatal(err)
	}
	s, err := sitebuild.New(context.Background(), sitetest.Content(), shared.Bundle, engine, sitebuild.Options{BaseURL: sitetest.BaseURL, Lazy: true})
	if err != nil {
		t.Fatal(err)
	}
	if rendered, _ := engine.Counts(); rendered != 0 {
		t.Fatalf("a lazy build rendered %d pages, want none", rendered)
	}
	srv := NewServer(s, Services{Log: sitetest.QuietLog()})
	h := New(srv)
	done := srv.Prerendering()
	if res := sitetest.Get(t, h, "/readyz"); res.Code != http.StatusServiceUnavailable || !strings.Contains(res.Body.String(), "rendering the pages") {
		t.Errorf("/readyz while rendering: %d %q, want 503 naming the rendering", res.Code, res.Body.String())
	}
	other := sitetest.Other(t)
	team := other.LocalPath("/team")
	for range 2 {
		res := sitetest.Get(t, h, team)
		if res.Code != http.StatusOK || !strings.Contains(res.Body.String(), `lang="`+other.Tag+`"`) {
			t.Fatalf("%s: %d, want the team page in %s", team, res.Code, other.Code)
		}
		if rendered, _ := engine.Counts(); rendered != 1 {
			t.Errorf("after asking for %s: %d renders, want 1 (rendered once, then cached)", team, rendered)
		}
	}
	// A client navigation takes no render: the payload is written by Go.
	if res := sitetest.Get(t, h, "/api/page?path=/de/team"); res.Code != http.StatusOK {
		t.Errorf("/api/page for /de/team: %d", res.Code)
	}
	if rendered, _ := engine.Counts(); rendered != 1 {
		t.Errorf("a payload rendered a page: %d renders", rendered)
	}
	if err := s.Prerender(context.Background(), 0); err != nil {
		t.Fatal(err)
	}
	done()
	if got, planned := s.Rendered(); got != planned || planned < 100 {
		t.Errorf("after Prerender: %d of %d pages rendered", got, planned)
	}
	if res := sitetest.Get(t, h, "/readyz"); res.Code != http.StatusOK {
		t.Errorf("/readyz after rendering: %d %q", res.Code, res.Body.String())
	}
	// Ready without what is no page (the icons, the client files): each
	// is made on its first request, or by WarmFiles behind the start.
	for path, ctype := range map[string]string{"/og.png": "image/png", "/favicon.ico": "image/png", shared.Bundle.Manifest.Entry: "text/javascript"} {
		if res := sitetest.Get(t, h, path); res.Code != http.StatusOK || !strings.HasPrefix(res.Header().Get("Content-Type"), ctype) {
			t.Errorf("%s once ready: %d %q, want %s", path, res.Code, res.Header().Get("Content-Type"), ctype)
		}
	}
	if err := s.WarmFiles(context.Background(), 1); err != nil {
		t.Errorf("WarmFiles: %v", err)
	}
	if res := sitetest.Get(t, h, "/icon-192.png"); res.Code != http.StatusOK || res.Body.Len() == 0 {
		t.Errorf("/icon-192.png after WarmFiles: %d, %d bytes", res.Code, res.Body.Len())
	}
}
