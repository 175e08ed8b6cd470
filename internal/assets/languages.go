package assets

import (
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/evanw/esbuild/pkg/api"

	"github.com/northbeam/site/internal/intl"
	"github.com/northbeam/site/internal/site"
)

// The modules the bundles derive from content/site.json's languages, so
// that a language is declared there and nowhere in the code:
//   - languagesModule, the language table: each language of site.json (the
//     file the pages import already) with its locale, defaults filled in,
//     and the first day of its week (CLDR); the default language and the
//     storage key;
//   - localesModule, every language's strings (content/locales/<code>.json)
//     for the server bundle, which renders any page in any language at once;
//   - cldrModule, for each language a loader of the time step's CLDR data
//     in it (zone names and short weekday names, a chunk per file).
const (
	languagesModule = "virtual:languages"
	localesModule   = "virtual:locales"
	cldrModule      = "virtual:cldr"
)

// languageModules are the contents of the modules above for one project.
type languageModules struct {
	dir      string
	contents map[string]string // module name -> its JavaScript
}

// derived is what the client's table adds to a language of site.json.
type derived struct {
	Locale string `json:"locale"` // with its default, the tag
	// FirstDay is the first day of the week, 0 for Sunday.
	FirstDay int `json:"firstDay"`
}

// cldrNodeModules is where the CLDR packages are, under the project.
const cldrNodeModules = "node_modules"

// newLanguageModules writes the modules of the languages of siteFile (a
// path under dir), from its strings beside it (locales/<code>.json) and
// the CLDR packages of dir's node_modules.
func newLanguageModules(dir, siteFile string) (*languageModules, error) {
	info, err := site.Load(os.DirFS(dir), siteFile)
	if err != nil {
		return nil, fmt.Errorf("assets: %w", err)
	}
	cldr := os.DirFS(filepath.Join(dir, cldrNodeModules))
	localesDir := filepath.Join(dir, filepath.FromSlash(path.Dir(siteFile)), "locales")
	added := map[string]derived{}
	var locales, cldrLoaders strings.Builder
	locales.WriteString("export default {\n")
	cldrLoaders.WriteString("export default {\n")
	var imports strings.Builder
	for i, l := range info.Languages {
		first, err := intl.FirstDayOfWeek(cldr, l.Locale)
		if err != nil {
			return nil, fmt.Errorf("assets: language %s: %w", l.Code, err)
		}
		added[l.Code] = derived{Locale: l.Locale, FirstDay: int(first)}
		if _, err := os.Stat(filepath.Join(localesDir, l.Code+".json")); err != nil {
			return nil, fmt.Errorf("assets: language %s: %w", l.Code, err)
		}
		// Relative to the project (the modules' ResolveDir), so that no
		// path of the build machine reaches a bundle or its source map.
		stringsFile := "./" + path.Join(path.Dir(siteFile), "locales", l.Code+".json")
		fmt.Fprintf(&imports, "import strings%d from %s;\n", i, quote(stringsFile))
		fmt.Fprintf(&locales, "  %s: strings%d,\n", quote(l.Code), i)
		// The time step names zones in the page's language, as its tag
		// (<html lang>) names it.
		data, err := intl.DataLocale(cldr, l.Tag)
		if err != nil {
			return nil, fmt.Errorf("assets: language %s: %w", l.Code, err)
		}
		fmt.Fprintf(&cldrLoaders, "  %s: { locale: %s, load: () => Promise.all([import(%s), import(%s)]) },\n",
			quote(l.Code), quote(data),
			quote("cldr-dates-full/main/"+data+"/timeZoneNames.json"), quote("cldr-dates-full/main/"+data+"/ca-gregorian.json"))
	}
	locales.WriteString("};\n")
	cldrLoaders.WriteString("};\n")
	addedJSON, err := json.Marshal(added)
	if err != nil {
		return nil, fmt.Errorf("assets: %w", err)
	}
	table := "import site from " + quote("./"+path.Clean(siteFile)) + ";\n" +
		"const added = " + string(addedJSON) + ";\n" +
		"export default {\n" +
		"  languages: site.languages.map((l) => ({ ...l, ...added[l.code] })),\n" +
		"  defaultLanguage: site.defaultLanguage,\n" +
		"  storageKey: site.languageStorageKey,\n" +
		"};\n"
	return &languageModules{dir: dir, contents: map[string]string{
		languagesModule: table,
		localesModule:   imports.String() + locales.String(),
		cldrModule:      cldrLoaders.String(),
	}}, nil
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// plugin serves the modules to esbuild.
func (m *languageModules) plugin() api.Plugin {
	const namespace = "languages"
	return api.Plugin{
		Name: "languages",
		Setup: func(build api.PluginBuild) {
			filter := "^(" + regexp.QuoteMeta(languagesModule) + "|" + regexp.QuoteMeta(localesModule) + "|" + regexp.QuoteMeta(cldrModule) + ")$"
			build.OnResolve(api.OnResolveOptions{Filter: filter}, func(args api.OnResolveArgs) (api.OnResolveResult, error) {
				return api.OnResolveResult{Path: args.Path, Namespace: namespace}, nil
			})
			build.OnLoad(api.OnLoadOptions{Filter: `.*`, Namespace: namespace}, func(args api.OnLoadArgs) (api.OnLoadResult, error) {
				contents := m.contents[args.Path]
				// The CLDR packages resolve from the project's node_modules.
				return api.OnLoadResult{Contents: &contents, ResolveDir: m.dir, Loader: api.LoaderJS}, nil
			})
		},
	}
}
