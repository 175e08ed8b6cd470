package devloop

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/northbeam/site/e2e/internal/e2etest"
)

// TestDevLoop: a -dev server on a copy of the project, a page open in the
// browser, and edits as a developer saves them. A string edit shows by
// itself; a syntax error shows an overlay naming file:line over the page
// and fixing it clears it; a component that throws shows its message and
// its TSX file:line in the page and in the log, and fixing it clears it.
func TestDevLoop(t *testing.T) {
	parent, _ := e2etest.Browser(t)
	dev, root := startDev(t)
	edit := func(rel, old, new string) {
		t.Helper()
		if err := dev.Edit(rel, old, new); err != nil {
			t.Fatal(err)
		}
	}
	tb := e2etest.NewTab(t, parent)
	var h1 string
	tb.Run(t, chromedp.Navigate(dev.URL+"/team"), e2etest.WaitHydrated(), chromedp.Text("h1", &h1, chromedp.ByQuery))
	if h1 != "The people you will work with" {
		t.Fatalf("h1 %q", h1)
	}

	// A string: the open page shows it by itself (it reloads), rendered
	// by the server and hydrated with the same string (no mismatch: the
	// console stays clean), and no bundle was built for it: the client's
	// entry is the same file, and the log says esbuild did not run.
	entry := func() string {
		var src string
		tb.Run(t, chromedp.Evaluate(`document.querySelector("script[data-entry]")?.dataset.entry ?? ""`, &src))
		return src
	}
	entryBefore := entry()
	from := dev.Lines()
	edit("content/locales/en.json", `"title": "The people you will work with"`, `"title": "The people you will build with"`)
	tb.Run(t, e2etest.WaitTrue(`document.querySelector("h1")?.textContent === "The people you will build with"`), e2etest.WaitHydrated())
	if line, err := dev.WaitLog(regexp.MustCompile(`msg=rebuilt .*`), from, 30*time.Second); err != nil {
		t.Error(err)
	} else if !strings.Contains(line, "esbuild=false") {
		t.Errorf("a string edit ran esbuild: %s", line)
	}
	if after := entry(); entryBefore == "" || after != entryBefore {
		t.Errorf("the client's entry was %q, is %q after a string edit: want the same bundle", entryBefore, after)
	}
	var fetched bool
	tb.Run(t, chromedp.Evaluate(`performance.getEntriesByType("resource").some((e) => e.name.includes("/assets/strings/") && e.name.endsWith("/en-common.js"))`, &fetched))
	if !fetched {
		t.Error("the page loaded no strings from /assets/strings/")
	}
	if problems := tb.ConsoleProblems(); len(problems) > 0 {
		t.Errorf("console after the string edit: %q", problems)
	}

	// A syntax error: the overlay names the file and line, over the page.
	edit("frontend/pages/Team.tsx", `<p className="lead">{t("team.lead")}</p>`, `<p className="lead">{t("team.lead")}</p`)
	var overlay string
	tb.Run(t, chromedp.WaitVisible("#dev-overlay", chromedp.ByQuery), chromedp.Text("#dev-overlay", &overlay, chromedp.ByQuery))
	// esbuild's place: the file, line and column, and that line's text.
	m := regexp.MustCompile(`Build error\s+frontend/pages/Team\.tsx:(\d+):\d+\n`).FindStringSubmatch(overlay)
	if m == nil || strings.Count(overlay, "Build error") != 1 {
		t.Fatalf("the build error's overlay says %q, want one error naming frontend/pages/Team.tsx:line:column", overlay)
	}
	data, err := os.ReadFile(filepath.Join(root, "frontend/pages/Team.tsx"))
	if err != nil {
		t.Fatal(err)
	}
	n, _ := strconv.Atoi(m[1])
	if lines := strings.Split(string(data), "\n"); n < 1 || n > len(lines) || !strings.Contains(overlay, m[1]+" | "+lines[n-1]) {
		t.Errorf("the overlay does not show line %s: %q", m[1], overlay)
	}
	tb.Run(t, chromedp.Text("h1", &h1, chromedp.ByQuery))
	if h1 != "The people you will build with" {
		t.Errorf("under the overlay: h1 %q, want the last good page", h1)
	}
	edit("frontend/pages/Team.tsx", `<p className="lead">{t("team.lead")}</p`, `<p className="lead">{t("team.lead")}</p>`)
	tb.Run(t, chromedp.WaitNotPresent("#dev-overlay", chromedp.ByQuery))

	// A throw during the render: its message and TSX line, in the page and
	// in the log.
	from = dev.Lines()
	edit("frontend/pages/Team.tsx", "  const data = payload.data as TeamData;\n",
		"  const data = payload.data as TeamData;\n  if (data.people.length > 0) throw new Error(\"the team is on a break\");\n")
	tb.Run(t, chromedp.WaitVisible("#dev-overlay", chromedp.ByQuery), chromedp.Text("#dev-overlay", &overlay, chromedp.ByQuery))
	if !strings.Contains(overlay, "the team is on a break") || !regexp.MustCompile(`frontend/pages/Team\.tsx:16:`).MatchString(overlay) {
		t.Errorf("the render error's overlay says %q, want the message and frontend/pages/Team.tsx:16", overlay)
	}
	if _, err := dev.WaitLog(regexp.MustCompile(`render failed.*frontend/pages/Team\.tsx:16:\d+: .*the team is on a break`), from, 30*time.Second); err != nil {
		t.Error(err)
	}
	edit("frontend/pages/Team.tsx", "  if (data.people.length > 0) throw new Error(\"the team is on a break\");\n", "")
	tb.Run(t, chromedp.WaitNotPresent("#dev-overlay", chromedp.ByQuery), e2etest.WaitHydrated(), chromedp.Text("h1", &h1, chromedp.ByQuery))
	if h1 != "The people you will build with" {
		t.Errorf("after the fix: h1 %q", h1)
	}
	if problems := tb.ConsoleProblems(); len(problems) > 0 {
		t.Errorf("console: %q", problems)
	}
}

// TestProductionHasNoDevLoop: a server without -dev has no event stream,
// no dev client script in its pages and nothing of it in its policy, and
// a page in the browser opens no stream and shows no overlay.
func TestProductionHasNoDevLoop(t *testing.T) {
	parent, base := e2etest.Browser(t)
	for _, path := range []string{"/_dev/events", "/_dev/client.js"} {
		res, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusNotFound || strings.Contains(res.Header.Get("Content-Type"), "event-stream") {
			t.Errorf("%s: %d %s, want the 404 page", path, res.StatusCode, res.Header.Get("Content-Type"))
		}
		if strings.Contains(string(body), "_dev/") {
			t.Errorf("%s: the answer names the dev loop", path)
		}
	}
	res, err := http.Get(base + "/team")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if strings.Contains(string(body), "_dev") || strings.Contains(string(body), "EventSource") {
		t.Error("a production page carries the dev client")
	}
	if csp := res.Header.Get("Content-Security-Policy"); strings.Contains(csp, "_dev") || !strings.Contains(csp, "connect-src 'self';") {
		t.Errorf("policy %q: want connect-src 'self' alone, nothing for a dev stream", csp)
	}
	tb := e2etest.NewTab(t, parent)
	var streams, overlays int
	tb.Run(t, chromedp.Navigate(base+"/team"), e2etest.WaitHydrated(),
		chromedp.Evaluate(`performance.getEntriesByType("resource").filter((e) => e.name.includes("/_dev/")).length`, &streams),
		chromedp.Evaluate(`document.querySelectorAll("#dev-overlay, script[src*='_dev']").length`, &overlays))
	if streams != 0 || overlays != 0 {
		t.Errorf("the page asked for %d dev resources and has %d dev elements", streams, overlays)
	}
}
