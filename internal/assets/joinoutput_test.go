package assets

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestJoinOutputFitsTheInstalledReact: the rewrite finds each statement
// once in the installed legacy server build, and refuses a file without
// them rather than leaving renderToString quadratic unnoticed.
func TestJoinOutputFitsTheInstalledReact(t *testing.T) {
	root, _ := projectConfig(t)
	src, err := os.ReadFile(filepath.Join(root, "node_modules/react-dom/cjs/react-dom-server-legacy.browser.production.js"))
	if err != nil {
		t.Fatal(err)
	}
	out, err := joinOutput(string(src))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out, "result += chunk") || !strings.Contains(out, `return outputChunks.join("");`) {
		t.Error("the rewritten build still appends to a string")
	}
	if _, err := joinOutput(strings.Replace(string(src), "result += chunk", "result = result + chunk", 1)); err == nil {
		t.Error("a build whose statements changed was rewritten without an error")
	}
}
