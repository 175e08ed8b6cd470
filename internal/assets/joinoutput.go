package assets

import (
	"fmt"
	"strings"
)

// React's legacy server renderer (renderToString) appends each chunk of
// HTML it writes to one string: `result += chunk`. A JIT keeps such a
// string as a rope; goja's strings are flat, so each append copies the
// whole page so far, and a page of a few thousand chunks copies and
// collects megabytes: a third of a render's time in goja
// (docs/ARCHITECTURE.md, Rendering). The server bundle's joinRenderOutput
// option rewrites those statements of the legacy build to collect the
// chunks in an array and join them once: the same string, in one copy.
//
// The rewrite is of text: each statement must be found exactly once, or
// the build fails, so a React upgrade that changes them is noticed.
var joinOutputEdits = []struct{ from, to string }{
	{`result = "",`, `result = "", outputChunks = [],`},
	{`null !== chunk && (result += chunk);`, `null !== chunk && outputChunks.push(chunk);`},
	{`if (!readyToStream) throw Error(formatProdErrorMessage(426));
  return result;`, `if (!readyToStream) throw Error(formatProdErrorMessage(426));
  return outputChunks.join("");`},
}

// joinOutput rewrites the source of the legacy server build.
func joinOutput(src string) (string, error) {
	for _, e := range joinOutputEdits {
		if n := strings.Count(src, e.from); n != 1 {
			return "", fmt.Errorf("joinRenderOutput: %q occurs %d times, not once: React's renderToString changed", e.from, n)
		}
		src = strings.Replace(src, e.from, e.to, 1)
	}
	return src, nil
}
