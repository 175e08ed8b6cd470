// Package sitetest is what the tests of the HTTP surface (handlers) and the
// browser tests (e2e) share: the real site, built once per test binary, the
// domain services on a fresh database, and helpers to ask a handler and
// read its answers. Only tests import it.
package sitetest

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/northbeam/site/internal/assets"
	"github.com/northbeam/site/internal/sitebuild"
	"github.com/northbeam/site/render"
)

// Root returns the project directory, where frontend/, content/ and
// node_modules/ are.
func Root() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

// Content returns the shipped content (content/).
func Content() fs.FS { return os.DirFS(filepath.Join(Root(), "content")) }

// BaseURL is the public URL of the sites the tests build.
const BaseURL = "https://example.test"

// QuietLog returns a logger that writes nowhere.
func QuietLog() *slog.Logger {
	return slog.New(slog.NewTextHandler(io.Discard, nil))
}

// builds are the sites of a test binary, each built once: the bundles, the
// render engine and the site from the shipped content, with bot hiding on
// (the shipped default), and with bot hiding off per analytics ID.
var builds = struct {
	once    sync.Once
	site    *sitebuild.Build
	err     error
	mu      sync.Mutex
	consent map[string]func() (*sitebuild.Build, error)
}{consent: map[string]func() (*sitebuild.Build, error){}}

// Site returns the real site: the shipped content, the real bundles, the
// real render engine, built once for the test binary, its pages read from
// the renders the other test binaries made when nothing that makes them
// changed (Renders), its pictures' WebP copies from those they encoded
// (ImageCopies).
func Site(t testing.TB) *sitebuild.Build {
	t.Helper()
	builds.once.Do(func() {
		var bundle *assets.Bundle
		if bundle, builds.err = assets.Build(Root()); builds.err != nil {
			return
		}
		var engine *render.Engine
		if engine, builds.err = render.NewEngine(bundle.Server, render.Options{Logger: QuietLog(), Strings: bundle.Strings}); builds.err != nil {
			return
		}
		builds.site, builds.err = sitebuild.New(context.Background(), Content(), bundle, engine, sitebuild.Options{
			BaseURL:             BaseURL,
			ConsentHideFromBots: true,
			Renders:             Renders(),
			KeepImageCopies:     ImageCopies(),
		})
	})
	if builds.err != nil {
		t.Fatalf("building the site: %v", builds.err)
	}
	return builds.site
}

// Rebuild builds the site again from content with opts, with the bundles
// and render engine of Site.
func Rebuild(t testing.TB, content fs.FS, opts sitebuild.Options) (*sitebuild.Build, error) {
	t.Helper()
	shared := Site(t)
	return sitebuild.New(context.Background(), content, shared.Bundle, shared.Engine, opts)
}

// ConsentSite returns the site built with bot hiding off and the given
// Google Analytics measurement ID ("" for none), the configuration that
// lets the cookie banner show in a headless browser; it is built once per
// ID for the test binary.
func ConsentSite(t testing.TB, measurementID string) *sitebuild.Build {
	t.Helper()
	shared := Site(t)
	builds.mu.Lock()
	build, ok := builds.consent[measurementID]
	if !ok {
		build = sync.OnceValues(func() (*sitebuild.Build, error) {
			return sitebuild.New(context.Background(), Content(), shared.Bundle, shared.Engine, sitebuild.Options{
				BaseURL:             BaseURL,
				GAMeasurementID:     measurementID,
				ConsentHideFromBots: false,
				Renders:             Renders(),
				KeepImageCopies:     ImageCopies(),
			})
		})
		builds.consent[measurementID] = build
	}
	builds.mu.Unlock()
	s, err := build()
	if err != nil {
		t.Fatalf("building the site with bot hiding off: %v", err)
	}
	return s
}

// ConsentChunk returns the file name of the client chunk that holds
// vanilla-cookieconsent.
func ConsentChunk(t testing.TB, s *sitebuild.Build) string {
	t.Helper()
	var found []string
	for name, data := range s.Bundle.Client {
		// A class name of the library's preferences dialog: the entry, which reads the record itself, has none.
		if strings.HasSuffix(name, ".js") && strings.Contains(string(data), "cm-wrapper") {
			found = append(found, name)
		}
	}
	if len(found) != 1 {
		t.Fatalf("the consent library is in %d files (%v), want 1 chunk", len(found), found)
	}
	return found[0]
}

// PageTitle is the title of a page of s in lang whose own title is
// pageTitle, as a browser's tab shows it.
func PageTitle(s *sitebuild.Build, lang, pageTitle string) string {
	return s.Locales.T(lang, "meta.siteTitle", "page", pageTitle, "name", s.Info.Name)
}

// Do sends a request to h with a body of contentType and header pairs, and
// records the answer.
func Do(t testing.TB, h http.Handler, method, target, contentType string, body []byte, header ...string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(method, target, bytes.NewReader(body))
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// Get performs a GET against h with header pairs.
func Get(t testing.TB, h http.Handler, target string, header ...string) *httptest.ResponseRecorder {
	t.Helper()
	return Do(t, h, http.MethodGet, target, "", nil, header...)
}

// PostJSON posts body as JSON to h.
func PostJSON(t testing.TB, h http.Handler, target string, body any, header ...string) *httptest.ResponseRecorder {
	t.Helper()
	b, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	return Do(t, h, http.MethodPost, target, "application/json", b, header...)
}

// DecodeJSON reads a JSON answer.
func DecodeJSON[T any](t testing.TB, rec *httptest.ResponseRecorder) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(rec.Body.Bytes(), &v); err != nil {
		t.Fatalf("decode %d %q: %v", rec.Code, rec.Body.String(), err)
	}
	return v
}

// OffSiteRedirects are paths whose canonical redirect once sent the decoded
// path back as Location, which a browser read as another host.
func OffSiteRedirects() []string {
	return []string{
		"//evil.com/", "/en//evil.com", "/%2Fevil.com/", "///evil.com/", "/\\evil.com/", "/%5Cevil.com/",
		"/%2F%5Cevil.com/", "/%09/evil.com/", "/en/%5C%5Cevil.com/", "/%0A/evil.com/", "//evil.com/?next=/",
	}
}
