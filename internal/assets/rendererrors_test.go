package assets

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestKeepRenderErrorsFitsTheInstalledReact: the rewrite finds React's
// no-op onError once in the installed legacy server build, and refuses a
// file without it rather than losing render errors unnoticed.
func TestKeepRenderErrorsFitsTheInstalledReact(t *testing.T) {
	root, _ := projectConfig(t)
	src, err := os.ReadFile(filepath.Join(root, "node_modules/react-dom/cjs/react-dom-server-legacy.browser.production.js"))
	if err != nil {
		t.Fatal(err)
	}
	out, err := keepRenderErrors(string(src))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "globalThis.__renderErrors") {
		t.Error("the rewritten build keeps no error")
	}
	if _, err := keepRenderErrors(strings.Replace(string(src), "function onError() {}", "function onError(e) {}", 1)); err == nil {
		t.Error("a build whose onError changed was rewritten without an error")
	}
}
