package visitor

import (
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/evanw/esbuild/pkg/api"

	"github.com/northbeam/site/e2e/internal/e2etest"
	"github.com/northbeam/site/internal/assets"
	"github.com/northbeam/site/internal/goldentest"
	"github.com/northbeam/site/internal/sitetest"
)

// TestClientFormatsInEveryLanguage holds what the client writes in every
// language (dates, times, the week, zone names) to what
// testdata/client-formats.golden recorded. Intl's output is Chromium's:
// after an upgrade of the browser that changes it, read the difference and
// run the test again with UPDATE_GOLDEN=1.
func TestClientFormatsInEveryLanguage(t *testing.T) {
	b, _ := e2etest.Browser(t)
	cfg, err := assets.LoadConfig(filepath.Join(sitetest.Root(), "esbuild.config.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	opts, err := cfg.ClientOptions(sitetest.Root())
	if err != nil {
		t.Fatal(err)
	}
	opts.EntryPoints = nil
	opts.Stdin = &api.StdinOptions{Contents: e2etest.ClientFormats, ResolveDir: filepath.Join(sitetest.Root(), "frontend"), Sourcefile: "golden.ts", Loader: api.LoaderTS}
	opts.Splitting = false
	opts.Format = api.FormatIIFE
	opts.Outdir = "dist/golden"
	res := api.Build(opts)
	if len(res.Errors) > 0 {
		t.Fatalf("building the page: %v", res.Errors)
	}
	var script []byte
	for _, f := range res.OutputFiles {
		if strings.HasSuffix(f.Path, ".js") {
			script = f.Contents
		}
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/golden.js" {
			w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
			_, _ = w.Write(script)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(`<!doctype html><html><head><meta charset="utf-8"><script src="/golden.js"></script></head><body></body></html>`))
	}))
	defer srv.Close()
	tb := e2etest.NewTab(t, b)
	var got string
	tb.Run(t,
		chromedp.Navigate(srv.URL),
		chromedp.Evaluate(`golden()`, &got, func(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) }),
	)
	goldentest.Check(t, filepath.Join("testdata", "client-formats.golden"), got)
}
