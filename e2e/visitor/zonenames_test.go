package visitor

import (
	"github.com/northbeam/site/e2e/internal/e2etest"

	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/evanw/esbuild/pkg/api"

	"github.com/northbeam/site/internal/assets"
	"github.com/northbeam/site/internal/sitetest"
)

// zoneNamesScript names zones in every language as the booking page does.
const zoneNamesScript = `
import { languages } from "./lib/languages";
import { loadCldr } from "./components/schedule/cldr";
import { zoneCatalog } from "./components/schedule/zones";

(window as unknown as { zoneNames: (zones: string[]) => Promise<Record<string, Record<string, string>>> }).zoneNames = async (zones) => {
  const out: Record<string, Record<string, string>> = {};
  for (const { code } of languages) {
    const catalog = zoneCatalog(await loadCldr(code));
    out[code] = {};
    for (const z of zones) out[code][z] = catalog.zone(z).label;
  }
  return out;
};
`

// runClientScript builds source with the client's options, loads it in a
// page of its own and returns what the expression call evaluates to.
func runClientScript(t *testing.T, source, call string, dst any) {
	t.Helper()
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
	opts.Stdin = &api.StdinOptions{Contents: source, ResolveDir: filepath.Join(sitetest.Root(), "frontend"), Sourcefile: "probe.ts", Loader: api.LoaderTS}
	opts.Splitting = false
	opts.Format = api.FormatIIFE
	opts.Outdir = "dist/probe"
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
		if r.URL.Path == "/probe.js" {
			w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
			_, _ = w.Write(script)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(`<!doctype html><html><head><meta charset="utf-8"><script src="/probe.js"></script></head><body></body></html>`))
	}))
	defer srv.Close()
	tb := e2etest.NewTab(t, b)
	tb.Run(t,
		chromedp.Navigate(srv.URL),
		chromedp.Evaluate(call, dst, func(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) }),
	)
}

// TestZoneNamesAgreeWithTheBookingPage: the server (mails, notices, the
// workspace) names a zone in every language exactly as the booking page
// names it in the browser, for zones that keep standard time all year
// (Riyadh, Tokyo, Phoenix, Brisbane) and zones that change it.
func TestZoneNamesAgreeWithTheBookingPage(t *testing.T) {
	zones := []string{
		"Asia/Riyadh", "Asia/Tokyo", "America/Phoenix", "Australia/Brisbane", "Pacific/Honolulu", "Asia/Dubai", "Asia/Kolkata",
		"America/Sao_Paulo", "Europe/Berlin", "America/New_York", "Africa/Cairo", "Europe/Moscow", "Australia/Sydney", "Etc/UTC",
	}
	list, err := json.Marshal(zones)
	if err != nil {
		t.Fatal(err)
	}
	var page map[string]map[string]string
	runClientScript(t, zoneNamesScript, "zoneNames("+string(list)+")", &page)
	s := sitetest.Site(t)
	now := time.Now()
	for _, lang := range s.Info.Languages {
		for _, z := range zones {
			if got, want := s.Dates.ZoneName(lang.Code, z, now), page[lang.Code][z]; got != want {
				t.Errorf("%s, %s: the server says %q, the booking page %q", lang.Code, z, got, want)
			}
		}
	}
}
