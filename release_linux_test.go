package main

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/json"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"testing"
)

// residentKB is the process's resident memory mapped from its own
// executable's read-only data, in kB.
func residentKB(t *testing.T) int {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	smaps, err := os.ReadFile("/proc/self/smaps")
	if err != nil {
		t.Skip("no /proc/self/smaps here:", err)
	}
	total, ours := 0, false
	for _, line := range strings.Split(string(smaps), "\n") {
		fields := strings.Fields(line)
		if len(fields) >= 6 && strings.Contains(fields[0], "-") && len(fields[1]) == 4 {
			ours = fields[1] == "r--p" && strings.Join(fields[5:], " ") == exe
			continue
		}
		if ours && len(fields) >= 2 && fields[0] == "Rss:" {
			kb, _ := strconv.Atoi(fields[1])
			total += kb
		}
	}
	return total
}

// testContent is the project's content, embedded in the test binary as a
// production binary embeds it (content_prod.go).
//
//go:embed all:content
var testContent embed.FS

// TestReleasedReadOnlyDataReadsTheSame: once the start has let go of the
// executable's read-only pages it read (a production binary's embedded
// content, bundles and renders), the process's resident memory is smaller
// and every embedded file still reads the same, from the page cache.
func TestReleasedReadOnlyDataReadsTheSame(t *testing.T) {
	before := map[string][]byte{}
	err := fs.WalkDir(testContent, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(testContent, path)
		before[path] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	read := residentKB(t)
	releaseReadOnlyData()
	released := residentKB(t)
	if released >= read {
		t.Errorf("read-only data resident: %d kB after the release, %d kB before", released, read)
	}
	for path, want := range before {
		got, err := fs.ReadFile(testContent, path)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s after the release: %d bytes (%v), want the %d it had", path, len(got), err, len(want))
		}
	}
	t.Logf("read-only data resident: %d kB once the content was read, %d kB after the release; %d files read the same", read, released, len(before))
}

// TestReleasedCodeRunsTheSame: the -dev watcher releases the executable's
// code as well as its data (releaseReadOnlyPages); the process keeps
// running it, mapped again from the page cache, and computes the same.
func TestReleasedCodeRunsTheSame(t *testing.T) {
	want := sha256.Sum256([]byte(strings.Repeat("northbeam", 1000)))
	releaseReadOnlyPages()
	if got := sha256.Sum256([]byte(strings.Repeat("northbeam", 1000))); got != want {
		t.Fatalf("after the release the same hash is %x, was %x", got, want)
	}
	if data, err := json.Marshal(map[string]int{"pages": 5804}); err != nil || string(data) != `{"pages":5804}` {
		t.Fatalf("after the release: %s, %v", data, err)
	}
}
