package devloop

import (
	"github.com/northbeam/site/e2e/internal/e2etest"

	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/northbeam/site/internal/testwait"
)

// TestDevLoopShowsMistakesBesideTheBuild: under -dev, what esbuild does
// not see shows over the open page at its source, in the log too, and goes
// when it is fixed: a type error (tsc, beside the build, while the page
// still follows the builds), a string no language defines (the TSX line
// of its t call), and a JSON mistake in the strings (line, column and the
// line's text).
func TestDevLoopShowsMistakesBesideTheBuild(t *testing.T) {
	parent, _ := e2etest.Browser(t)
	dev, root := startDev(t)
	within := time.Until(testwait.Deadline(t))
	// The checker's first pass over the project, before anything changes.
	checked := regexp.MustCompile(`msg="types checked" errors=0`)
	if _, err := dev.WaitLog(checked, 0, within); err != nil {
		t.Fatal(err)
	}
	edit := func(rel, old, new string) {
		t.Helper()
		if err := dev.Edit(rel, old, new); err != nil {
			t.Fatal(err)
		}
	}
	lineOf := func(rel, text string) int {
		t.Helper()
		data, err := os.ReadFile(filepath.Join(root, rel))
		if err != nil {
			t.Fatal(err)
		}
		i := strings.Index(string(data), text)
		if i < 0 {
			t.Fatalf("%s holds no %q", rel, text)
		}
		return strings.Count(string(data)[:i], "\n") + 1
	}
	overlay := func(tb *e2etest.Tab, wants ...string) string {
		t.Helper()
		var text string
		expr := `(() => { const o = document.getElementById("dev-overlay"); return !!o`
		for _, w := range wants {
			expr += " && o.innerText.includes(" + strconv.Quote(w) + ")"
		}
		// Read in one evaluation, not through a node: the dev client may
		// draw the overlay anew between a wait and a read by node id
		// ("No node with given id found", seen on a loaded CI run).
		tb.Run(t, e2etest.WaitTrue(expr+"; })()"),
			chromedp.Evaluate(`document.getElementById("dev-overlay")?.innerText ?? ""`, &text))
		return text
	}
	open := func() *e2etest.Tab {
		t.Helper()
		t.Logf("opening /team at %s", time.Now().Format(time.TimeOnly))
		tb := e2etest.NewTab(t, parent)
		tb.Run(t, chromedp.Navigate(dev.URL+"/team"), e2etest.WaitHydrated())
		return tb
	}

	// A type error: the overlay names its place and shows its line; the
	// page follows the build (it reloads, the new heading shows) under it.
	tb := open()
	from := dev.Lines()
	edit("frontend/pages/Team.tsx", "  const data = payload.data as TeamData;\n",
		"  const data = payload.data as TeamData;\n  const devxTypeError: number = \"a\";\n  void devxTypeError;\n")
	n := lineOf("frontend/pages/Team.tsx", "const devxTypeError")
	text := overlay(tb, "Type error", "frontend/pages/Team.tsx:"+strconv.Itoa(n)+":9", "TS2322", strconv.Itoa(n)+` |   const devxTypeError: number = "a";`)
	if strings.Contains(text, "Build error") {
		t.Errorf("a type error is e2etest.Shown as a build error: %q", text)
	}
	if _, err := dev.WaitLog(regexp.MustCompile(`level=ERROR msg="type error" problem="frontend/pages/Team\.tsx:`+strconv.Itoa(n)+`:9: TS2322`), from, within); err != nil {
		t.Error(err)
	}
	edit("content/locales/en.json", `"title": "The people you will work with"`, `"title": "The people you work with"`)
	tb.Run(t, e2etest.WaitTrue(`document.querySelector("h1")?.textContent === "The people you work with"`))
	overlay(tb, "Type error")
	edit("frontend/pages/Team.tsx", "  const devxTypeError: number = \"a\";\n  void devxTypeError;\n", "")
	tb.Run(t, chromedp.WaitNotPresent("#dev-overlay", chromedp.ByQuery))

	// A string no language defines: the page shows its key, the overlay
	// and the log the TSX line that asked for it.
	tb = open()
	from = dev.Lines()
	edit("frontend/components/Footer.tsx", "          <p>{t(\"footer.tagline\")}</p>\n",
		"          <p>{t(\"footer.tagline\")}</p>\n          <p>{t(\"footer.devxMissingKey\")}</p>\n")
	n = lineOf("frontend/components/Footer.tsx", "footer.devxMissingKey")
	overlay(tb, "Missing string", "frontend/components/Footer.tsx:"+strconv.Itoa(n)+":16", `"footer.devxMissingKey"`)
	tb.Run(t, e2etest.WaitTrue(`document.querySelector("footer")?.innerText.includes("footer.devxMissingKey")`))
	if _, err := dev.WaitLog(regexp.MustCompile(`missing="frontend/components/Footer\.tsx:`+strconv.Itoa(n)+`:16: no string \\"footer\.devxMissingKey\\"`), from, within); err != nil {
		t.Error(err)
	}
	edit("frontend/components/Footer.tsx", "          <p>{t(\"footer.devxMissingKey\")}</p>\n", "")
	tb.Run(t, chromedp.WaitNotPresent("#dev-overlay", chromedp.ByQuery))

	// A string taken out of its language (a string edit alone, which
	// builds no bundle): the page shows its key, the overlay and the log
	// the TSX line that asks for it; putting it back clears them.
	tb = open()
	from = dev.Lines()
	edit("content/locales/en.json", `"tagline": "Custom software`, `"devxTagline": "Custom software`)
	n = lineOf("frontend/components/Footer.tsx", `t("footer.tagline")`)
	overlay(tb, "Missing string", "frontend/components/Footer.tsx:"+strconv.Itoa(n)+":16", `"footer.tagline"`)
	tb.Run(t, e2etest.WaitTrue(`document.querySelector("footer")?.innerText.includes("footer.tagline")`))
	if _, err := dev.WaitLog(regexp.MustCompile(`missing="frontend/components/Footer\.tsx:`+strconv.Itoa(n)+`:16: no string \\"footer\.tagline\\" in en`), from, within); err != nil {
		t.Error(err)
	}
	edit("content/locales/en.json", `"devxTagline": "Custom software`, `"tagline": "Custom software`)
	tb.Run(t, chromedp.WaitNotPresent("#dev-overlay", chromedp.ByQuery),
		e2etest.WaitTrue(`document.querySelector("footer")?.innerText.includes("Custom software")`))

	// A JSON mistake in the strings: line, column and the line's text.
	tb = open()
	edit("content/locales/en.json", `"title": "The people you work with"`, `"title": "The people you work with",,`)
	n = lineOf("content/locales/en.json", `"The people you work with",,`)
	data, err := os.ReadFile(filepath.Join(root, "content/locales/en.json"))
	if err != nil {
		t.Fatal(err)
	}
	lineText := strings.Split(string(data), "\n")[n-1]
	col := len([]rune(lineText[:strings.Index(lineText, ",,")])) + 2
	overlay(tb, "Build error", "content/locales/en.json:"+strconv.Itoa(n)+":"+strconv.Itoa(col), strconv.Itoa(n)+" | "+lineText)
	edit("content/locales/en.json", `"title": "The people you work with",,`, `"title": "The people you work with"`)
	tb.Run(t, chromedp.WaitNotPresent("#dev-overlay", chromedp.ByQuery))
	if problems := tb.ConsoleProblems(); len(problems) > 0 {
		t.Errorf("console: %q", problems)
	}
}
