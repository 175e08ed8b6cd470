package assets

import (
	"fmt"
	"os"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
)

// renderErrorsPlugin keeps, in the server bundle, the errors React catches
// in a Suspense boundary during a render. renderToString answers such an
// error with the boundary's fallback alone and drops the error (its onError
// does nothing); the render engine reads the first one kept from
// globalThis.__renderErrors, with its stack, to say what was thrown and
// where (render, Error).
func renderErrorsPlugin() api.Plugin {
	const noop = "function onError() {}"
	const keep = "function onError(error) { (globalThis.__renderErrors || (globalThis.__renderErrors = [])).push(error); }"
	return api.Plugin{
		Name: "render-errors",
		Setup: func(build api.PluginBuild) {
			build.OnLoad(api.OnLoadOptions{Filter: `react-dom-server-legacy\.browser\.production\.js$`}, func(args api.OnLoadArgs) (api.OnLoadResult, error) {
				src, err := os.ReadFile(args.Path)
				if err != nil {
					return api.OnLoadResult{}, err
				}
				if strings.Count(string(src), noop) != 1 {
					return api.OnLoadResult{}, fmt.Errorf("%s: no one %q to keep render errors with (has React changed?)", args.Path, noop)
				}
				contents := strings.Replace(string(src), noop, keep, 1)
				return api.OnLoadResult{Contents: &contents, Loader: api.LoaderJS}, nil
			})
		},
	}
}
