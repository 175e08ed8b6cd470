package assets

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/northbeam/site/internal/devserver"
)

// TestAStringEditBuildsNoBundle: strings are data, in no bundle. A saved
// string read again without esbuild (WithStrings) changes neither the
// server bundle nor any client file but the strings' own, which move to a
// new version; the server's strings and the new files hold the new text;
// and esbuild, asked to build again, makes the same bundles.
func TestAStringEditBuildsNoBundle(t *testing.T) {
	root := t.TempDir()
	project, _ := filepath.Abs("../..")
	if err := devserver.CopyTree(project, root); err != nil {
		t.Fatal(err)
	}
	b, err := NewBuilder(root)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Dispose()
	before, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	const file = "content/locales/en.json"
	if b.Reads(file) {
		t.Fatalf("a bundle reads %s: the strings are compiled into it", file)
	}
	data, err := os.ReadFile(filepath.Join(root, file))
	if err != nil {
		t.Fatal(err)
	}
	const old, edited = `"title": "The people you will work with"`, `"title": "The people you will build with"`
	if !bytes.Contains(data, []byte(old)) {
		t.Fatalf("%s holds no %s", file, old)
	}
	if err := os.WriteFile(filepath.Join(root, file), bytes.Replace(data, []byte(old), []byte(edited), 1), 0o600); err != nil {
		t.Fatal(err)
	}
	after, err := b.WithStrings(before)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(after.Server, before.Server) || !bytes.Equal(after.ServerMap, before.ServerMap) {
		t.Error("the server bundle changed")
	}
	if !bytes.Contains(after.Strings, []byte("The people you will build with")) || bytes.Contains(after.Strings, []byte("The people you will work with")) {
		t.Error("the server's strings are not the file's")
	}
	if after.Manifest.StringsBase == before.Manifest.StringsBase || !strings.HasPrefix(after.Manifest.StringsBase, URLPrefix+stringsDir) {
		t.Errorf("the strings' place %q, before %q: want a new version", after.Manifest.StringsBase, before.Manifest.StringsBase)
	}
	for name, data := range before.Client {
		if strings.HasPrefix(name, stringsDir) {
			continue
		}
		if !bytes.Equal(after.Client[name], data) {
			t.Errorf("client file %s changed", name)
		}
	}
	found := false
	for lang, groups := range after.Manifest.Strings {
		for group, url := range groups {
			if !strings.HasPrefix(url, after.Manifest.StringsBase) {
				t.Errorf("%s %s at %s, not under %s", lang, group, url, after.Manifest.StringsBase)
			}
			data, ok := after.Client[strings.TrimPrefix(url, URLPrefix)]
			if !ok {
				t.Errorf("%s %s: no file at %s", lang, group, url)
			}
			found = found || bytes.Contains(data, []byte("The people you will build with"))
		}
	}
	if !found {
		t.Error("no string file holds the new string")
	}
	rebuilt, err := b.Build(file)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(rebuilt.Server, before.Server) || rebuilt.Manifest.Entry != before.Manifest.Entry || rebuilt.Manifest.StringsBase != after.Manifest.StringsBase {
		t.Error("esbuild's build after the edit differs from WithStrings's")
	}
}
