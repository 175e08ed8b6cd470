package main

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// maxTrackedBytes is the largest file the repository may hold: every clone
// downloads each version of every file, so build outputs, databases and
// binaries stay out (.gitignore), and so does anything this large.
const maxTrackedBytes = 5 << 20

// TestRepositoryHoldsNoBinaryOrHugeFile fails when git tracks a compiled
// program, an executable file that is not a script, or a file over 5 MB.
func TestRepositoryHoldsNoBinaryOrHugeFile(t *testing.T) {
	out, err := exec.Command("git", "ls-files", "-s", "-z").Output()
	if err != nil {
		t.Skipf("not a git checkout (%v): nothing to check", err)
	}
	// Read git's index through os, so that go test's cache knows this
	// result depends on it: what git tracks changes with no Go file.
	if index, err := exec.Command("git", "rev-parse", "--git-path", "index").Output(); err == nil {
		_, _ = os.ReadFile(strings.TrimSpace(string(index)))
	}
	checked := 0
	for _, entry := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		// "<mode> <object> <stage>\t<path>"
		meta, path, ok := strings.Cut(entry, "\t")
		if !ok {
			continue
		}
		mode := strings.Fields(meta)[0]
		if mode == "120000" || mode == "160000" { // a symbolic link, a submodule
			continue
		}
		info, err := os.Stat(path)
		if err != nil { // deleted in the working tree, not yet committed
			continue
		}
		checked++
		if info.Size() > maxTrackedBytes {
			t.Errorf("%s: %d MB is tracked; keep build outputs and data out of git", path, info.Size()>>20)
		}
		head := make([]byte, 4)
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		n, _ := f.Read(head)
		_ = f.Close() // read only
		head = head[:n]
		if kind := programKind(head); kind != "" {
			t.Errorf("%s: a compiled program (%s) is tracked; build it, do not commit it", path, kind)
		}
		if mode == "100755" && !bytes.HasPrefix(head, []byte("#!")) {
			t.Errorf("%s: executable but not a script", path)
		}
	}
	if checked == 0 {
		t.Fatal("git ls-files listed nothing")
	}
}

// programKind names the executable format a file starts with, or "".
func programKind(head []byte) string {
	switch {
	case bytes.HasPrefix(head, []byte("\x7fELF")):
		return "ELF"
	case bytes.HasPrefix(head, []byte("MZ")):
		return "PE"
	case bytes.HasPrefix(head, []byte{0xcf, 0xfa, 0xed, 0xfe}), bytes.HasPrefix(head, []byte{0xce, 0xfa, 0xed, 0xfe}),
		bytes.HasPrefix(head, []byte{0xca, 0xfe, 0xba, 0xbe}):
		return "Mach-O"
	case bytes.HasPrefix(head, []byte("\x00asm")):
		return "WebAssembly"
	}
	return ""
}
