package sitetest

import (
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/northbeam/site/render"
)

// Renders is the renders' cache (render.DiskCache) that the test binaries
// of this module share, so that the site's pages are rendered in goja once
// for a whole `go test ./...` rather than once per package: the first
// package to build the site renders each page and keeps it; every other
// one, and every later run, reads it back. A page's key holds everything
// of the page that the site's build knows (its server bundle, content,
// payload and options); the folder and the keys' salt hold the rest
// (CodeSum): the module's Go code, its dependencies' versions, the Go
// release and the day. A change to any of them renders again.
//
// It is nil, and every page renders, when no folder can be made.
func Renders() *render.DiskCache { return renders() }

var renders = sync.OnceValue(func() *render.DiskCache {
	salt, err := CodeSum(Root())
	if err != nil {
		return nil
	}
	base := filepath.Join(testCacheDir(), "renders")
	dir := filepath.Join(base, hex.EncodeToString(salt[:8]))
	pruneStale(base, dir)
	c, err := render.OpenDiskCache(dir, salt)
	if err != nil {
		return nil
	}
	return c
})

// ImageCopies is the folder where the test binaries keep the WebP copies
// of the content's pictures they encode, for one another
// (sitebuild.Options.KeepImageCopies): a copy's address names its file and
// how it is made, so a copy there is the one a test would encode.
// The folder is named by go.sum, which pins the encoder.
func ImageCopies() string { return imageCopies() }

var imageCopies = sync.OnceValue(func() string {
	sum, err := os.ReadFile(filepath.Join(Root(), "go.sum"))
	if err != nil {
		return "" // copies kept in memory only
	}
	h := sha256.Sum256(sum)
	return filepath.Join(testCacheDir(), "img", hex.EncodeToString(h[:8]))
})

// testCacheDir is where the tests keep what one test binary makes for the
// others: under the user's cache folder (as Go keeps its build cache), or
// the temporary one.
func testCacheDir() string {
	dir, err := os.UserCacheDir()
	if err != nil {
		dir = os.TempDir()
	}
	return filepath.Join(dir, "northbeam-site-tests")
}

// CodeSum is the SHA-256 of what, besides its key, makes a render: every
// Go file of the module under root that is not a test (the render engine's
// shims, the document's shell, the payload), go.mod and go.sum (the
// dependencies' versions), the Go release, and today's date in UTC, so that
// nothing a page could take from the clock outlives the day.
func CodeSum(root string) ([]byte, error) {
	dir, err := os.OpenRoot(root)
	if err != nil {
		return nil, err
	}
	defer func() { _ = dir.Close() }() // read only
	module := dir.FS()
	h := sha256.New()
	h.Write([]byte(runtime.Version() + "\x00" + time.Now().UTC().Format(time.DateOnly) + "\x00"))
	err = fs.WalkDir(module, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if p != "." && (name == "node_modules" || strings.HasPrefix(name, ".") || name == "testdata") {
				return fs.SkipDir
			}
			return nil
		}
		if (!strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go")) && name != "go.mod" && name != "go.sum" {
			return nil
		}
		data, err := fs.ReadFile(module, p)
		if err != nil {
			return err
		}
		h.Write([]byte(p + "\x00"))
		sum := sha256.Sum256(data)
		h.Write(sum[:])
		return nil
	})
	if err != nil {
		return nil, err
	}
	return h.Sum(nil), nil
}

// pruneStale removes the folders beside keep that no run has written to
// for a day: those of code that has changed since.
func pruneStale(base, keep string) {
	entries, err := os.ReadDir(base)
	if err != nil {
		return
	}
	for _, e := range entries {
		p := filepath.Join(base, e.Name())
		if p == keep {
			continue
		}
		if info, err := e.Info(); err == nil && time.Since(info.ModTime()) > 24*time.Hour {
			_ = os.RemoveAll(p) // another run's cache: best effort
		}
	}
}
