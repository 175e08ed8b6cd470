package assets

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPageTableGuessesThePageOfAPath: a client navigation loads the chunk
// and strings of the page the table's lookup names, before the payload
// says which page it is. A literal pattern wins over a segment of any
// name, and a path no pattern holds is the not-found page.
func TestPageTableGuessesThePageOfAPath(t *testing.T) {
	root, cfg := projectConfig(t)
	table, err := cfg.PageTable(root)
	if err != nil {
		t.Fatal(err)
	}
	for rest, want := range map[string]string{
		"/":                         "Home",
		"/services/custom-software": "Home",
		"/schedule/discovery":       "Schedule",
		"/schedule/cancel":          "CancelBooking",
		"/blog/page/2":              "BlogList",
		"/blog/tag/devops/page/2":   "BlogList",
		"/blog/boring-technology":   "BlogPost",
		"/team/lena-hartmann":       "Person",
		"/team/lena-hartmann/more":  "NotFound",
		"/nothing-here":             "NotFound",
	} {
		r, err := table.Route(rest)
		if err != nil {
			t.Fatal(err)
		}
		if r.Page != want {
			t.Errorf("%s: %s (%q), want %s", rest, r.Page, r.Pattern, want)
		}
	}
	if got := table.StringGroups("CancelBooking"); strings.Join(got, " ") != "common schedule booking" {
		t.Errorf("the strings of CancelBooking: %v", got)
	}
}

// TestPageTableRefusesWhatItCannotBuild: a page without its module, a
// pattern the client would not match as written, two pages holding the
// same paths, no page for the paths no other holds, and a string group
// that is not declared stop the build, naming the page.
func TestPageTableRefusesWhatItCannotBuild(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"Home.tsx", "Post.tsx", "NotFound.tsx"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("export default function Page() { return null; }\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	root, _ := filepath.Abs("../..")
	real, err := os.ReadFile(filepath.Join(root, "frontend/pages/table.ts"))
	if err != nil {
		t.Fatal(err)
	}
	// Each case's table, then the real table's lookup.
	at := strings.Index(string(real), "export type PageName")
	if at < 0 {
		t.Fatal("frontend/pages/table.ts: no PageName after the table")
	}
	lookup := string(real[at:])
	load := func(pages string) (*PageTable, error) {
		src := "export const pageTable = {\n" + pages + "\n};\n" + lookup
		path := filepath.Join(dir, "table.ts")
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return LoadPageTable(path)
	}
	good := `Home: { paths: ["/"], strings: ["home"] },
  Post: { paths: ["/blog/:slug"], strings: ["blog"] },
  NotFound: { paths: ["*"], strings: [] },`
	table, err := load(good)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(table.Names, " ") != "Home Post NotFound" {
		t.Errorf("names %v, want the table's order", table.Names)
	}
	groups := &StringGroups{Groups: map[string][]string{"common": {"nav"}, "home": {"home"}}}
	if err := table.checkStrings(groups); err == nil || !strings.Contains(err.Error(), `Post shows the string group "blog"`) {
		t.Errorf("an undeclared string group: %v", err)
	}

	for _, c := range []struct{ name, pages, want string }{
		{"no module", good + `Careers: { paths: ["/careers"], strings: [] },`, "page Careers: its module"},
		{"not a module's name", good + `"my-page": { paths: ["/mine"], strings: [] },`, `page name "my-page"`},
		{"a trailing slash", strings.Replace(good, `"/blog/:slug"`, `"/blog/"`, 1), `pattern "/blog/"`},
		{"a capital letter", strings.Replace(good, `"/blog/:slug"`, `"/Blog/:slug"`, 1), `pattern "/Blog/:slug"`},
		{"no path", strings.Replace(good, `["/blog/:slug"]`, `[]`, 1), "page Post holds no path"},
		{"the same paths twice", strings.Replace(good, `["/"]`, `["/", "/blog/:id"]`, 1), "pages Home and Post both hold /blog/:slug"},
		{"no page for other paths", strings.Replace(good, `["*"]`, `["/404"]`, 1), `no page holds "*"`},
		{"an unknown key", strings.Replace(good, `strings: ["home"]`, `strings: ["home"], title: "Home"`, 1), `unknown field "title"`},
	} {
		if _, err := load(c.pages); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error with %q", c.name, err, c.want)
		}
	}
}
