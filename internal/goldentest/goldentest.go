// Package goldentest holds a test's output to a file that recorded it: a
// golden file under the test's testdata/, which a change that means to
// alter the output rewrites with UPDATE_GOLDEN=1 (and the diff shows).
// Every golden file of the project goes through Check, so that one
// command renews them all (docs/ARCHITECTURE.md, Where code lives):
//
//	UPDATE_GOLDEN=1 go test ./... -run 'Golden|ClientFormats'
package goldentest

import (
	"os"
	"strings"
	"testing"
)

// Update is the environment variable that makes Check write the golden
// files instead of comparing with them.
const Update = "UPDATE_GOLDEN"

// Check compares got with the file at path, naming the first line that
// differs and how to renew the file; with UPDATE_GOLDEN=1 in the
// environment it writes got there instead.
func Check(t testing.TB, path, got string) {
	t.Helper()
	if os.Getenv(Update) == "1" {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil { //nolint:gosec // G306: a committed file, as git checks it out
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (%s=1 writes it)", err, Update)
	}
	if got == string(want) {
		return
	}
	gotLines, wantLines := strings.Split(got, "\n"), strings.Split(string(want), "\n")
	for i := range max(len(gotLines), len(wantLines)) {
		var g, w string
		if i < len(gotLines) {
			g = gotLines[i]
		}
		if i < len(wantLines) {
			w = wantLines[i]
		}
		if g != w {
			t.Errorf("%s, line %d:\n got %q\nwant %q\n(a change meant to alter it renews the file: %s=1 go test -run '^%s$', then read the diff)",
				path, i+1, g, w, Update, t.Name())
			return
		}
	}
}
