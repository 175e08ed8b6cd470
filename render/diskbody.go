package render

import (
	"bytes"
	"net/http"
	"sync"
	"sync/atomic"
)

// diskBody is where a resource of the renders' cache keeps its bodies: its
// file, read on every request rather than held in the heap
// (docs/ARCHITECTURE.md, Rendering).
type diskBody struct {
	cpath cPath // the file's path, as readAt takes it
	size  int64
	// Where each body starts in the file, and its length (bodyLen 0: the
	// identity body is made from the gzip one).
	bodyOff, gzipOff, brotliOff int64
	bodyLen, gzipLen, brotliLen int64

	// hot keeps the bodies asked for often in memory (nil: none is);
	// slots are this file's identity, gzip and brotli bodies there.
	hot   *HotBodies
	slots [3]hotSlot

	// remake makes the resource again when its file is gone; again is what
	// it made, which serves every later request.
	remake func() (*Resource, error)
	mu     sync.Mutex
	again  atomic.Pointer[Resource]
}

// bodies are the buffers a request reads a body from its file into, and
// gives back once written: a request allocates nothing.
var bodies = sync.Pool{New: func() any { return new([]byte) }}

// read reads rep's body from the file into a buffer of bodies; ok is false
// when the file cannot be read (it is gone).
func (d *diskBody) read(rep *representation) (buf *[]byte, ok bool) {
	off, n := rep.off, rep.n
	if rep.fromGzip {
		off, n = d.gzipOff, d.gzipLen
	}
	buf = bodies.Get().(*[]byte)
	if int64(cap(*buf)) < n {
		*buf = make([]byte, n)
	}
	*buf = (*buf)[:n]
	if err := readAt(d.cpath, *buf, off); err != nil {
		bodies.Put(buf)
		return nil, false
	}
	if rep.fromGzip {
		// The rare client that accepts no encoding: the identity body,
		// made from the gzip one.
		*buf = gunzip(bytes.NewReader(*buf))
	}
	return buf, true
}

// bytes reads the identity body from the file.
func (d *diskBody) bytes() []byte {
	if again := d.again.Load(); again != nil {
		return again.Bytes()
	}
	rep := &representation{off: d.bodyOff, n: d.bodyLen, fromGzip: d.bodyLen == 0 && d.gzipLen > 0}
	buf, ok := d.read(rep)
	if !ok {
		if again := d.made(); again != nil {
			return again.Bytes()
		}
		return nil
	}
	return *buf // not given back: the caller keeps it
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
