package e2e

import (
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/evanw/esbuild/pkg/api"

	"github.com/northbeam/site/internal/assets"
	"github.com/northbeam/site/internal/goldentest"
	"github.com/northbeam/site/internal/sitetest"
)

// clientFormats writes, in the browser, what the client's own formatting
// shows in every language: the booking flow's dates, times, week and zone
// names (with the CLDR data it loads), and the staff workspace's dates.
const clientFormats = `
import { languages } from "./lib/languages";
import { loadCldr } from "./components/schedule/cldr";
import { zoneCatalog } from "./components/schedule/zones";
import * as t from "./components/schedule/time";
import * as staff from "./staff/format";

const instants = ["2026-11-20T14:30:00Z", "2026-03-01T08:05:00Z", "2026-05-03T23:00:00Z", "2026-08-12T11:00:00Z"];
const zones = ["America/New_York", "Europe/Berlin", "Asia/Kolkata", "Africa/Cairo", "America/St_Johns", "Europe/London", "Etc/UTC"];

(window as unknown as { golden: () => Promise<string> }).golden = async () => {
  const out: string[] = [];
  for (const { code: lang } of languages) {
    const line = (what: string, value: unknown) => out.push(lang + "\t" + what + "\t" + JSON.stringify(value));
    line("locale", t.localeOf(lang));
    line("first day of the week", t.firstDayOfWeek(lang));
    line("night", t.nightBounds(lang));
    for (const at of instants) {
      line("time " + at, t.formatTime(lang, at, "Europe/Berlin"));
      line("date and time " + at, t.formatDateTime(lang, at, "Pacific/Auckland"));
      line("staff date and time " + at, staff.dateTime(lang, at, "Europe/Berlin"));
      line("staff time " + at, staff.time(lang, at, "America/New_York"));
    }
    for (const d of ["2026-11-20", "2026-03-01"]) {
      line("day " + d, t.formatDay(lang, d));
      line("full day " + d, t.formatFullDay(lang, d));
      line("month " + d, t.formatMonth(lang, t.monthOf(d)));
      line("staff day " + d, staff.day(lang, d));
    }
    const cldr = await loadCldr(lang);
    line("weekdays", t.weekdayNames(lang, cldr.weekdaysShort));
    const catalog = zoneCatalog(cldr);
    line("zones", catalog.all().length);
    for (const z of zones) line("zone " + z, catalog.zone(z).label);
  }
  return out.join("\n") + "\n";
};
`

// TestClientFormatsInEveryLanguage holds what the client writes in every
// language (dates, times, the week, zone names) to what
// testdata/client-formats.golden recorded. Intl's output is Chromium's:
// after an upgrade of the browser that changes it, read the difference and
// run the test again with UPDATE_GOLDEN=1.
func TestClientFormatsInEveryLanguage(t *testing.T) {
	b, _ := browser(t)
	cfg, err := assets.LoadConfig(filepath.Join(sitetest.Root(), "esbuild.config.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	opts, err := cfg.ClientOptions(sitetest.Root())
	if err != nil {
		t.Fatal(err)
	}
	opts.EntryPoints = nil
	opts.Stdin = &api.StdinOptions{Contents: clientFormats, ResolveDir: filepath.Join(sitetest.Root(), "frontend"), Sourcefile: "golden.ts", Loader: api.LoaderTS}
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
	tb := newTab(t, b)
	var got string
	tb.run(t,
		chromedp.Navigate(srv.URL),
		chromedp.Evaluate(`golden()`, &got, func(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) }),
	)
	goldentest.Check(t, filepath.Join("testdata", "client-formats.golden"), got)
}
