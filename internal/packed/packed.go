// Package packed keeps bytes held for long, or spilled to a file,
// compressed: DEFLATE at its fastest, a fraction of the time it took to
// make them (docs/ARCHITECTURE.md, Rendering: a post's text once its pages
// are rendered, -dev's memo of render bodies).
package packed

import (
	"bytes"
	"compress/flate"
	"io"
	"sync"
)

// Pack returns src compressed, in a slice of its own exact size.
func Pack[T string | []byte](src T) []byte { return pack(&writers, src) }

// PackSmall is Pack at DEFLATE's best compression, several times slower:
// for bytes written once and shipped (a production build's memo of
// renders); Unpack reads both.
func PackSmall[T string | []byte](src T) []byte { return pack(&smallWriters, src) }

func pack[T string | []byte](pool *sync.Pool, src T) []byte {
	zw := pool.Get().(*flate.Writer)
	defer pool.Put(zw)
	var buf bytes.Buffer
	zw.Reset(&buf)
	switch s := any(src).(type) {
	case string:
		_, _ = io.WriteString(zw, s) // into memory: no error
	case []byte:
		_, _ = zw.Write(s) // into memory: no error
	}
	_ = zw.Close()
	return bytes.Clone(buf.Bytes())
}

// Unpack returns what Pack packed; an error only for bytes Pack did not
// make (a file read back short or overwritten).
func Unpack(p []byte) ([]byte, error) {
	return io.ReadAll(flate.NewReader(bytes.NewReader(p)))
}

// writers are Pack's compressors: each allocates most of a megabyte, so
// thousands of packs share a few.
var writers = sync.Pool{New: func() any {
	zw, _ := flate.NewWriter(nil, flate.BestSpeed) // a valid level: no error
	return zw
}}

var smallWriters = sync.Pool{New: func() any {
	zw, _ := flate.NewWriter(nil, flate.BestCompression) // a valid level: no error
	return zw
}}
