package render

import (
	"io"
	"net/http"
	"os"
	"sync"
	"sync/atomic"
)

// diskBody is where a resource of the renders' cache keeps its bodies: its
// file, read on every request rather than held in the heap
// (docs/ARCHITECTURE.md, Rendering).
type diskBody struct {
	path string
	size int64
	// Where each body starts in the file, and its length (bodyLen 0: the
	// identity body is made from the gzip one).
	bodyOff, gzipOff, brotliOff int64
	bodyLen, gzipLen, brotliLen int64

	// remake makes the resource again when its file is gone; again is what
	// it made, which serves every later request.
	remake func() (*Resource, error)
	mu     sync.Mutex
	again  atomic.Pointer[Resource]
}

// copy writes rep's body from f (the resource's file, open).
func (d *diskBody) copy(w io.Writer, f *os.File, rep *representation) {
	if rep.fromGzip {
		zr := io.NewSectionReader(f, d.gzipOff, d.gzipLen)
		_, _ = w.Write(gunzip(zr)) // the client is gone: nothing to do
		return
	}
	_, _ = io.Copy(w, io.NewSectionReader(f, rep.off, rep.n)) // as above
}

// bytes reads the identity body from the file.
func (d *diskBody) bytes() []byte {
	if again := d.again.Load(); again != nil {
		return again.Bytes()
	}
	f, err := os.Open(d.path)
	if err != nil {
		if again := d.made(); again != nil {
			return again.Bytes()
		}
		return nil
	}
	defer func() { _ = f.Close() }() // read only
	if d.bodyLen == 0 && d.gzipLen > 0 {
		return gunzip(io.NewSectionReader(f, d.gzipOff, d.gzipLen))
	}
	b := make([]byte, d.bodyLen)
	if _, err := f.ReadAt(b, d.bodyOff); err != nil {
		return nil
	}
	return b
}

// made is the resource made again (remake) once its file is gone; nil when
// it cannot be.
func (d *diskBody) made() *Resource {
	d.mu.Lock()
	defer d.mu.Unlock()
	if again := d.again.Load(); again != nil {
		return again
	}
	if d.remake == nil {
		return nil
	}
	r, err := d.remake()
	if err != nil || r == nil {
		return nil // tried again by the next request
	}
	d.again.Store(r)
	return r
}

// serveAgain answers with the resource made again, its file being gone;
// or, when it cannot be made now (a render that timed out on a busy
// machine), with 503 and a Retry-After: the page is there, not yet.
func (d *diskBody) serveAgain(w http.ResponseWriter, req *http.Request) {
	if again := d.made(); again != nil {
		again.ServeHTTP(w, req)
		return
	}
	w.Header().Set("Retry-After", "1")
	w.Header().Set("Cache-Control", "no-store")
	http.Error(w, http.StatusText(http.StatusServiceUnavailable), http.StatusServiceUnavailable)
}
