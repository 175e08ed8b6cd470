package assets

import (
	"fmt"
	"os"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
)

// keepRenderErrors rewrites React's legacy server build to keep the errors
// it catches in a Suspense boundary during a render: renderToString answers
// such an error with the boundary's fallback alone and drops the error (its
// onError does nothing). The render engine reads the first one kept from
// globalThis.__renderErrors, with its stack, to say what was thrown and
// where (render, Error). The statement must be found exactly once, or the
// build fails: a React upgrade that changes it is noticed.
func keepRenderErrors(src string) (string, error) {
	const noop = "function onError() {}"
	const keep = "function onError(error) { (globalThis.__renderErrors || (globalThis.__renderErrors = [])).push(error); }"
	if n := strings.Count(src, noop); n != 1 {
		return "", fmt.Errorf("keeping render errors: %q occurs %d times, not once: React's renderToString changed", noop, n)
	}
	return strings.Replace(src, noop, keep, 1), nil
}

// legacyServerPlugin rewrites React's legacy server build, which only the
// server bundle loads: it keeps render errors (keepRenderErrors), and with
// join collects renderToString's output in one copy (joinOutput). One
// plugin does both: esbuild gives a file to the first plugin that loads it.
func legacyServerPlugin(join bool) api.Plugin {
	return api.Plugin{
		Name: "legacy-server-build",
		Setup: func(build api.PluginBuild) {
			filter := `[\\/]react-dom-server-legacy\.browser\.production\.js$`
			build.OnLoad(api.OnLoadOptions{Filter: filter}, func(args api.OnLoadArgs) (api.OnLoadResult, error) {
				data, err := os.ReadFile(args.Path)
				if err != nil {
					return api.OnLoadResult{}, err
				}
				src, err := keepRenderErrors(string(data))
				if err == nil && join {
					src, err = joinOutput(src)
				}
				if err != nil {
					return api.OnLoadResult{}, fmt.Errorf("%s: %w", args.Path, err)
				}
				return api.OnLoadResult{Contents: &src, Loader: api.LoaderJS}, nil
			})
		},
	}
}
