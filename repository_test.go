package main

import (
	"bytes"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// maxTrackedBytes is the largest file the repository may hold: every clone
// downloads each version of every file, so build outputs, databases and
// binaries stay out (.gitignore), and so does anything this large.
const maxTrackedBytes = 5 << 20

// TestRepositoryHoldsNoBinaryOrHugeFile fails when git tracks a compiled
// program, an executable file that is not a script, a file over 5 MB, or a
// merge's or an editor's leftover copy of a file.
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
		if leftover(path) {
			t.Errorf("%s: a merge's or an editor's leftover copy is tracked; remove it", path)
		}
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

// leftover reports whether path is the copy a merge tool or an editor
// leaves beside a file (git mergetool's .orig, patch's .rej, a backup).
func leftover(path string) bool {
	for _, suffix := range []string{".orig", ".rej", ".bak", "~", ".swp"} {
		if strings.HasSuffix(path, suffix) {
			return true
		}
	}
	return false
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

// TestCommentsCiteOnlyTheRepository holds every citation of the
// architecture to docs/ARCHITECTURE.md: a comment that cites a document
// this repository does not hold sends its reader nowhere, and one that
// names a section of the architecture must name a section it has.
func TestCommentsCiteOnlyTheRepository(t *testing.T) {
	doc, err := os.ReadFile("docs/ARCHITECTURE.md")
	if err != nil {
		t.Fatalf("the project's own architecture: %v", err)
	}
	sections := map[string]bool{}
	for _, line := range strings.Split(string(doc), "\n") {
		if title, ok := strings.CutPrefix(line, "## "); ok {
			sections[strings.ToLower(title)] = true
		}
	}
	out, err := exec.Command("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard").Output()
	if err != nil {
		t.Skipf("not a git checkout (%v): nothing to check", err)
	}
	// "docs/ARCHITECTURE.md, Budgets" or "(docs/ARCHITECTURE.md,\n// Consent)".
	citation := regexp.MustCompile(`docs/ARCHITECTURE\.md, ([A-Z][A-Za-z' -]*[a-z])`)
	continuation := regexp.MustCompile(`\s*\n\s*(?://|\*)?\s*`)
	for _, path := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		if !strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, ".ts") && !strings.HasSuffix(path, ".tsx") &&
			!strings.HasSuffix(path, ".mjs") && !strings.HasSuffix(path, ".css") && !strings.HasSuffix(path, ".sh") {
			continue
		}
		src, err := os.ReadFile(path)
		if err != nil {
			continue // deleted in the working tree
		}
		for _, outside := range []string{"DESIGN.md", "SPEC.md"} {
			if bytes.Contains(src, []byte(outside)) && path != "repository_test.go" {
				t.Errorf("%s cites %s, which is not in this repository: cite docs/ARCHITECTURE.md", path, outside)
			}
		}
		// A citation may wrap onto the comment's next line.
		joined := continuation.ReplaceAllString(string(src), " ")
		for _, m := range citation.FindAllStringSubmatch(joined, -1) {
			if !sections[strings.ToLower(m[1])] {
				t.Errorf("%s cites the section %q of docs/ARCHITECTURE.md, which has no such section", path, m[1])
			}
		}
	}
}
