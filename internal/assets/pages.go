package assets

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/dop251/goja"
	"github.com/evanw/esbuild/pkg/api"
)

// PageTable is the page table (frontend/pages/table.ts, which the "pages"
// option of esbuild.config.mjs names), evaluated: every page type of the
// site, declared once, with the patterns of the paths it holds and the
// string groups it shows. A page named Home is the module Home.tsx beside
// the table. The build makes the client's and the server's page lists from
// it (the modules "virtual:pages/lazy" and "virtual:pages/eager"), and the
// manifest's strings of each page.
//
// A PageTable runs the table's own code (Route): it is not safe for
// concurrent use.
type PageTable struct {
	// Names lists the pages in the table's order.
	Names []string
	// Pages holds each page's type, by name.
	Pages map[string]PageType

	dir     string // the table's directory, which holds the pages' modules
	vm      *goja.Runtime
	routeOf goja.Callable
}

// PageType is one page type of the table.
type PageType struct {
	// Paths are the patterns of the paths it holds, without the language
	// prefix: "/blog" is that path, ":slug" any one segment, "*" any path
	// no other pattern holds.
	Paths []string `json:"paths"`
	// Strings are the string groups it shows beside CommonGroup.
	Strings []string `json:"strings"`
}

// Route is the page a path holds, and the pattern of the table that says so.
type Route struct {
	Page, Pattern string
}

// anyPath is the pattern of the page shown at every path that no other
// pattern holds: the not-found page.
const anyPath = "*"

var (
	pageName     = regexp.MustCompile(`^[A-Z][A-Za-z0-9]*$`)
	pathPattern  = regexp.MustCompile(`^/$|^(/([a-z0-9-]+|:[a-zA-Z]+))+$`)
	patternParam = regexp.MustCompile(`:[a-zA-Z]+`)
)

// LoadPageTable evaluates a page table and checks it: each page's module
// is there, its patterns have the form the client matches, no two pages
// hold the same pattern, and one holds anyPath.
func LoadPageTable(path string) (*PageTable, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("assets: %w", err)
	}
	vm, exports, err := evalModule(path, src, api.LoaderTS)
	if err != nil {
		return nil, err
	}
	routeOf, ok := goja.AssertFunction(exports.Get("routeOf"))
	if !ok {
		return nil, fmt.Errorf("assets: %s exports no routeOf function", path)
	}
	dir, err := filepath.Abs(filepath.Dir(path))
	if err != nil {
		return nil, fmt.Errorf("assets: %w", err)
	}
	t := &PageTable{dir: dir, vm: vm, routeOf: routeOf}
	if err := decodeExport(exports, "pageTable", &t.Pages); err != nil {
		return nil, fmt.Errorf("assets: %s: %w", path, err)
	}
	// The table's order, which a Go map forgets.
	names, err := vm.RunString(`Object.keys(module.exports.pageTable)`)
	if err != nil {
		return nil, fmt.Errorf("assets: %s: %w", path, err)
	}
	if err := vm.ExportTo(names, &t.Names); err != nil {
		return nil, fmt.Errorf("assets: %s: %w", path, err)
	}
	if err := t.check(); err != nil {
		return nil, fmt.Errorf("assets: %s: %w", path, err)
	}
	return t, nil
}

// check refuses a page without its module, and what the client could not
// route, or would route by chance.
func (t *PageTable) check() error {
	owner := map[string]string{}
	for _, name := range t.Names {
		if !pageName.MatchString(name) {
			return fmt.Errorf("page name %q: a module's name, a capital letter then letters and digits", name)
		}
		if _, err := os.Stat(filepath.Join(t.dir, name+".tsx")); err != nil {
			return fmt.Errorf("page %s: its module: %w", name, err)
		}
		if len(t.Pages[name].Paths) == 0 {
			return fmt.Errorf("page %s holds no path", name)
		}
		for _, p := range t.Pages[name].Paths {
			if p != anyPath && !pathPattern.MatchString(p) {
				return fmt.Errorf("page %s: pattern %q: %q, or / and segments of lower-case letters, digits and hyphens or :name", name, p, anyPath)
			}
			// "/blog/:slug" and "/blog/:id" hold the same paths.
			shape := patternParam.ReplaceAllString(p, ":")
			if other, dup := owner[shape]; dup {
				return fmt.Errorf("pages %s and %s both hold %s", other, name, p)
			}
			owner[shape] = name
		}
	}
	if _, ok := owner[anyPath]; !ok {
		return fmt.Errorf("no page holds %q, the paths no other page holds", anyPath)
	}
	return nil
}

// checkStrings refuses a page whose string groups are not declared.
func (t *PageTable) checkStrings(g *StringGroups) error {
	for _, name := range t.Names {
		for _, group := range t.Pages[name].Strings {
			if _, ok := g.Groups[group]; !ok {
				return fmt.Errorf("assets: the page table's %s shows the string group %q, which is not declared", name, group)
			}
		}
	}
	return nil
}

// StringGroups returns the string groups a page loads, CommonGroup first.
func (t *PageTable) StringGroups(page string) []string {
	return append([]string{CommonGroup}, t.Pages[page].Strings...)
}

// Route answers as a client navigation guesses which page a path (without
// its language prefix) holds: it runs the table's own routeOf.
func (t *PageTable) Route(rest string) (Route, error) {
	v, err := t.routeOf(goja.Undefined(), t.vm.ToValue(rest))
	if err != nil {
		return Route{}, fmt.Errorf("assets: routeOf(%q): %w", rest, err)
	}
	route := v.ToObject(t.vm)
	return Route{Page: route.Get("page").String(), Pattern: route.Get("pattern").String()}, nil
}

// The page lists the build makes from the table.
const (
	lazyPagesModule  = "virtual:pages/lazy"
	eagerPagesModule = "virtual:pages/eager"
)

// pagesPlugin serves the page lists: a function that makes a record of
// every page from its module, imported on demand (lazy: each a chunk of
// its own) or at once (eager: for the server, whose render must never
// suspend).
func pagesPlugin(t *PageTable) api.Plugin {
	var lazy, eager, eagerRecord strings.Builder
	for _, name := range t.Names {
		module := strconv.Quote("./" + name + ".tsx")
		fmt.Fprintf(&lazy, "  %s: page(() => import(%s)),\n", name, module)
		fmt.Fprintf(&eager, "import %s from %s;\n", name, module)
		fmt.Fprintf(&eagerRecord, "  %s: page(%s),\n", name, name)
	}
	sources := map[string]string{
		lazyPagesModule:  "export default (page) => ({\n" + lazy.String() + "});\n",
		eagerPagesModule: eager.String() + "export default (page) => ({\n" + eagerRecord.String() + "});\n",
	}
	return api.Plugin{
		Name: "pages",
		Setup: func(build api.PluginBuild) {
			filter := "^(" + regexp.QuoteMeta(lazyPagesModule) + "|" + regexp.QuoteMeta(eagerPagesModule) + ")$"
			build.OnResolve(api.OnResolveOptions{Filter: filter}, func(args api.OnResolveArgs) (api.OnResolveResult, error) {
				return api.OnResolveResult{Path: args.Path, Namespace: "pages"}, nil
			})
			build.OnLoad(api.OnLoadOptions{Filter: `.*`, Namespace: "pages"}, func(args api.OnLoadArgs) (api.OnLoadResult, error) {
				contents := sources[args.Path]
				return api.OnLoadResult{Contents: &contents, ResolveDir: t.dir, Loader: api.LoaderJS}, nil
			})
		},
	}
}
