package assets

import (
	"bytes"
	"encoding/json"
	"path"
	"path/filepath"
	"strings"
	"testing"
)

// TestBundlesHoldNoPathOfTheBuildMachine: the server bundle's source map,
// which a production binary embeds, names its sources relative to the
// project and holds no absolute path of the machine that built it, in its
// sources or in their content (the generated modules import the site's
// files relative to the project); nor does any bundle.
func TestBundlesHoldNoPathOfTheBuildMachine(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	b, err := Build(root)
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Sources        []string `json:"sources"`
		SourcesContent []string `json:"sourcesContent"`
	}
	if err := json.Unmarshal(b.ServerMap, &m); err != nil || len(m.Sources) == 0 {
		t.Fatalf("the server's source map: %v, %d sources", err, len(m.Sources))
	}
	for _, s := range m.Sources {
		if path.IsAbs(s) || filepath.IsAbs(s) || strings.Contains(s, root) {
			t.Errorf("a source named by an absolute path: %s", s)
		}
	}
	for i, c := range m.SourcesContent {
		if strings.Contains(c, root) {
			t.Errorf("the content of %s names %s", m.Sources[i], root)
		}
	}
	if bytes.Contains(b.ServerMap, []byte(root)) || bytes.Contains(b.Server, []byte(root)) {
		t.Errorf("the server bundle or its map holds %s", root)
	}
	for name, data := range b.Client {
		if bytes.Contains(data, []byte(root)) {
			t.Errorf("%s holds %s", name, root)
		}
	}
}
