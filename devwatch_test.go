package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/northbeam/site/internal/sitetest"
)

// TestWatchReportsChangedFiles: a saved file under frontend/ or content/
// is reported by its path in the project, through file events and through
// the polling that replaces them where they fail; so is a file in a
// directory made after the watch began.
func TestWatchReportsChangedFiles(t *testing.T) {
	for _, mode := range []string{"events", "polling"} {
		t.Run(mode, func(t *testing.T) {
			root := t.TempDir()
			for _, dir := range []string{"frontend/styles", "content"} {
				if err := os.MkdirAll(filepath.Join(root, dir), 0o750); err != nil {
					t.Fatal(err)
				}
			}
			src := sources{root: root}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			changes := make(chan []string)
			if mode == "events" {
				go src.watch(ctx, sitetest.QuietLog(), changes)
			} else {
				go src.poll(ctx, changes)
			}
			for _, rel := range []string{"frontend/styles/site.css", "content/new/strings.json"} {
				if !savedUntilReported(t, filepath.Join(root, rel), rel, changes) {
					t.Fatalf("%s was not reported", rel)
				}
			}
		})
	}
}

// savedUntilReported saves the file at p again and again until a batch of
// changes names it as rel (the watch starts behind), for 10 s at most.
func savedUntilReported(t *testing.T, p, rel string, changes <-chan []string) bool {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o750); err != nil {
		t.Fatal(err)
	}
	for n := range 14 {
		if err := os.WriteFile(p, fmt.Appendf(nil, "/* save %d */", n), 0o600); err != nil {
			t.Fatal(err)
		}
		select {
		case got := <-changes:
			if slices.Contains(got, rel) {
				return true
			}
		case <-time.After(700 * time.Millisecond):
		}
	}
	return false
}
