package main

import (
	"bytes"
	"encoding/hex"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"

	"github.com/northbeam/site/render"
)

// TestABinaryReadsTheRendersOfItsBuilder: a production binary salts its
// renders' cache and its content index with the Go build ID of the program
// that built its bundles (`go run . build`, which writes it beside them),
// not with its own, which changes with every post it embeds: a new version
// with one post changed takes the last version's renders of every other
// page from DATA_DIR rather than compress them all again. Two binaries
// built by the same program share them; one built by another does not,
// nor does `go run .`; a build that wrote no ID leaves the binary its own.
func TestABinaryReadsTheRendersOfItsBuilder(t *testing.T) {
	own, err := render.ExecutableSum()
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	if err := writeProgramID(out); err != nil {
		t.Fatal(err)
	}
	written, err := os.ReadFile(filepath.Join(out, programFile))
	if err != nil || string(bytes.TrimSpace(written)) != hex.EncodeToString(own) {
		t.Fatalf("the build wrote %q (%v), want its own build ID %x", written, err, own)
	}
	salt := func(embedded fs.FS) string {
		t.Helper()
		s, err := programSalt(embedded)
		if err != nil {
			t.Fatal(err)
		}
		return string(s)
	}
	built := func(id []byte) fstest.MapFS {
		return fstest.MapFS{programFile: {Data: id}, "manifest.json": {Data: []byte("{}")}}
	}
	oneVersion, nextVersion := salt(built(written)), salt(built(append([]byte(nil), written...)))
	if oneVersion != nextVersion {
		t.Errorf("two binaries of one builder: salts %q and %q", oneVersion, nextVersion)
	}
	if other := salt(built([]byte("0123abcd\n"))); other == oneVersion {
		t.Errorf("a binary of another builder has the same salt %q", other)
	}
	goRun := salt(nil)
	if goRun != string(own) || goRun == oneVersion {
		t.Errorf("go run . salts with %q, want its own build ID, apart from a binary's %q", goRun, oneVersion)
	}
	if noID := salt(fstest.MapFS{"manifest.json": {Data: []byte("{}")}}); noID != string(own) {
		t.Errorf("a binary whose build wrote no ID salts with %q, want its own build ID", noID)
	}
}
