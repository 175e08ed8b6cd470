package assets

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/evanw/esbuild/pkg/api"

	"github.com/northbeam/site/internal/intl"
	"github.com/northbeam/site/internal/jsonpos"
	"github.com/northbeam/site/internal/site"
)

// The modules the bundles derive from content/site.json's languages, so
// that a language is declared there and nowhere in the code:
//   - languagesModule, the language table: each language of site.json (the
//     file the pages import already) with its locale, defaults filled in,
//     and the first day of its week (CLDR); the default language and the
//     storage key;
//   - cldrModule, for each language a loader of the time step's CLDR data
//     in it (zone names and short weekday names, a chunk per file).
const (
	languagesModule = "virtual:languages"
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
	var cldrLoaders strings.Builder
	cldrLoaders.WriteString("export default {\n")
	for _, l := range info.Languages {
		first, err := intl.FirstDayOfWeek(cldr, l.Locale)
		if err != nil {
			return nil, fmt.Errorf("assets: language %s: %w", l.Code, err)
		}
		added[l.Code] = derived{Locale: l.Locale, FirstDay: int(first)}
		if _, err := os.Stat(filepath.Join(localesDir, l.Code+".json")); err != nil {
			return nil, fmt.Errorf("assets: language %s: %w", l.Code, err)
		}
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
			filter := "^(" + regexp.QuoteMeta(languagesModule) + "|" + regexp.QuoteMeta(cldrModule) + ")$"
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

// serverStrings returns every language's strings, for the server bundle,
// which renders any page in any language: a JSON object of the languages
// of siteFile (a path under dir) by code, each its file beside it
// (locales/<code>.json) as it is. They are data the render engine gives
// the bundle (render.Options.Strings), not part of it, so that a saved
// string builds no bundle (docs/ARCHITECTURE.md, The dev loop).
func serverStrings(dir, siteFile string) ([]byte, error) {
	info, err := site.Load(os.DirFS(dir), siteFile)
	if err != nil {
		return nil, fmt.Errorf("assets: %w", err)
	}
	var out bytes.Buffer
	out.WriteString("{")
	for i, l := range info.Languages {
		rel := path.Join(path.Dir(siteFile), "locales", l.Code+".json")
		data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel)))
		if err != nil {
			return nil, fmt.Errorf("assets: language %s: %w", l.Code, err)
		}
		var tree map[string]any
		if err := json.Unmarshal(data, &tree); err != nil {
			// Named from the project's directory, where the developer finds it.
			return nil, jsonpos.Wrap(rel, data, err)
		}
		if i > 0 {
			out.WriteString(",")
		}
		out.WriteString(quote(l.Code) + ":")
		if err := json.Compact(&out, data); err != nil {
			return nil, fmt.Errorf("assets: %s: %w", rel, err)
		}
	}
	out.WriteString("}")
	return out.Bytes(), nil
}
