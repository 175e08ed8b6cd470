package blog

import (
	"io/fs"
	"sync/atomic"
	"testing"
	"testing/fstest"
	"time"
)

// readCounting counts the files opened in its MapFS.
type readCounting struct {
	fstest.MapFS
	opened atomic.Int64
}

func (r *readCounting) Open(name string) (fs.File, error) {
	f, err := r.MapFS.Open(name)
	if err == nil {
		if info, _ := f.Stat(); info != nil && !info.IsDir() {
			r.opened.Add(1)
		}
	}
	return f, err
}

func (r *readCounting) ReadFile(name string) ([]byte, error) {
	r.opened.Add(1)
	return r.MapFS.ReadFile(name)
}

// TestALoadAgainReadsOnlyTheFilesThatChanged: a load after an edit (-dev)
// reads only the posts whose file's size or modification time changed, or
// that were read too soon after their last change to trust their metadata,
// and shows each edit as a fresh load would.
func TestALoadAgainReadsOnlyTheFilesThatChanged(t *testing.T) {
	old := time.Now().Add(-time.Hour)
	fsys := &readCounting{MapFS: fstest.MapFS{
		"content/blog/en/one.md": file(minimal("2026-01-02", "one"), body),
		"content/blog/en/two.md": file(minimal("2026-01-03", "two"), body),
	}}
	for _, f := range fsys.MapFS {
		f.ModTime = old
	}
	parsed := NewParsed()
	loadAgain := func(wantRead int) *Library {
		t.Helper()
		fsys.opened.Store(0)
		lib, err := LoadAgain(fsys, "content/blog", false, writeDate(t), parsed)
		if err != nil {
			t.Fatal(err)
		}
		if got := fsys.opened.Load(); got != int64(wantRead) {
			t.Errorf("%d files read, want %d", got, wantRead)
		}
		return lib
	}
	title := func(lib *Library) string {
		t.Helper()
		p, err := lib.Post("en", "one")
		if err != nil {
			t.Fatal(err)
		}
		return p.Title
	}
	loadAgain(2)
	loadAgain(0) // nothing changed

	// An edit of the same size, an hour later.
	f := fsys.MapFS["content/blog/en/one.md"]
	f.Data = file(minimal("2026-01-02", "one"), body).Data
	f.Data[len("---\ntitle: ")] = 'X' // "Post one" -> "Xost one"
	f.ModTime = old.Add(30 * time.Minute)
	if got := title(loadAgain(1)); got != "Xost one" {
		t.Errorf("title %q after the edit, want %q", got, "Xost one")
	}
	loadAgain(0)

	// An edit just now: its metadata is not trusted until the racy window
	// passed, so the file is read at each load, and an edit within the
	// same tick of the clock (the same modification time) is seen.
	now := time.Now()
	f.Data[len("---\ntitle: ")] = 'Y'
	f.ModTime = now
	if got := title(loadAgain(1)); got != "Yost one" {
		t.Errorf("title %q after the edit, want %q", got, "Yost one")
	}
	f.Data[len("---\ntitle: ")] = 'Z'
	if got := title(loadAgain(1)); got != "Zost one" {
		t.Errorf("title %q after an edit keeping the modification time, want %q", got, "Zost one")
	}
}
