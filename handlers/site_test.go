package handlers

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/northbeam/site/internal/assets"
	"github.com/northbeam/site/internal/sitebuild"
	"github.com/northbeam/site/render"
)

// projectRoot is where frontend/, content/ and node_modules/ are.
var projectRoot, _ = filepath.Abs("..")

var (
	builtOnce sync.Once
	built     *sitebuild.Build
	buildErr  error
)

// testSite builds the real site from the project once for the package's
// tests: the shipped content, the real bundles, the real render engine.
func testSite(t testing.TB) *sitebuild.Build {
	t.Helper()
	builtOnce.Do(func() {
		var bundle *assets.Bundle
		if bundle, buildErr = assets.Build(projectRoot); buildErr != nil {
			return
		}
		var engine *render.Engine
		if engine, buildErr = render.NewEngine(bundle.Server, render.Options{Logger: quietLog()}); buildErr != nil {
			return
		}
		built, buildErr = sitebuild.New(context.Background(), os.DirFS(filepath.Join(projectRoot, "content")), bundle, engine, sitebuild.Options{
			BaseURL:             "https://example.test",
			ConsentHideFromBots: true,
		})
	})
	if buildErr != nil {
		t.Fatalf("building the site: %v", buildErr)
	}
	return built
}

func quietLog() *slog.Logger {
	return slog.New(slog.NewTextHandler(io.Discard, nil))
}

// testHandler returns the whole HTTP surface over the built site.
func testHandler(t testing.TB) http.Handler {
	return New(NewServer(testSite(t), Services{Log: quietLog()}))
}

// get performs a request against h and returns the recorded response.
func get(t testing.TB, h http.Handler, target string, header ...string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, target, nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}
