package render

import (
	"compress/gzip"
	"crypto/sha256"
	"encoding/gob"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"sync"
)

// Memo holds page bodies already rendered, keyed by the server bundle, its
// strings and the page's payload: the same bundle, strings and payload
// always render the same HTML. The production build renders every static page once and ships the
// memo inside the binary, so that a start renders only the pages whose
// payload differs from the build's (another analytics ID, a new year)
// instead of all of them.
//
// A memo made by NewMemo records every render; one read back is read-only,
// so that pages rendered from visitors' input (a contact form posted
// without JavaScript) are never kept.
type Memo struct {
	mu     sync.RWMutex
	bodies map[[sha256.Size]byte]string
	// missing holds the strings each render lacked, told again when the
	// memo answers (Options.Missing); it is not written.
	missing   map[[sha256.Size]byte][]MissingString
	recording bool
	// earlier answers what this memo lacks (Seed); a body taken from it
	// is recorded here too.
	earlier *Memo
	// bundles is the server bundle and strings (Engine.sum) each body
	// recorded was rendered with, for KeepOnly.
	bundles map[[sha256.Size]byte][sha256.Size]byte
}

// NewMemo returns an empty memo that records renders.
func NewMemo() *Memo {
	return &Memo{bodies: map[[sha256.Size]byte]string{}, missing: map[[sha256.Size]byte][]MissingString{}, recording: true,
		bundles: map[[sha256.Size]byte][sha256.Size]byte{}}
}

// Len is the number of bodies held.
func (m *Memo) Len() int {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return len(m.bodies)
}

func memoKey(bundleSum [sha256.Size]byte, payloadJSON []byte) [sha256.Size]byte {
	h := sha256.New()
	h.Write(bundleSum[:])
	h.Write(payloadJSON)
	var k [sha256.Size]byte
	h.Sum(k[:0])
	return k
}

func (m *Memo) get(bundle, k [sha256.Size]byte) (string, []MissingString, bool) {
	m.mu.RLock()
	body, ok := m.bodies[k]
	missing := m.missing[k]
	m.mu.RUnlock()
	if ok || m.earlier == nil {
		return body, missing, ok
	}
	if body, missing, ok = m.earlier.get(bundle, k); ok {
		m.put(bundle, k, body, missing)
	}
	return body, missing, ok
}

// Seed lets a recording memo answer from earlier, a memo read back (the
// previous production build's): `go run . build` then renders only the
// pages whose bundle or payload changed since, and writes only the bodies
// of this build.
func (m *Memo) Seed(earlier *Memo) { m.earlier = earlier }

func (m *Memo) put(bundle, k [sha256.Size]byte, body string, missing []MissingString) {
	if !m.recording {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.bodies[k] = body
	m.bundles[k] = bundle
	if len(missing) > 0 {
		m.missing[k] = missing
	}
}

// Forget lets go of the bodies of a memo read back (a production build's),
// once the pages it answers for are rendered and kept: they would
// otherwise stay in memory beside the pages for the life of the process
// (docs/ARCHITECTURE.md, Rendering). A recording memo (-dev) is kept.
func (m *Memo) Forget() {
	if m == nil || m.recording {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.bodies = nil
}

// KeepOnly lets go of the bodies a recording memo holds (-dev) that were
// rendered by other engines than those given (another server bundle, or
// other strings): each edit makes new ones, and the renders of every one
// of a session would otherwise stay in memory until it ends.
func (m *Memo) KeepOnly(engines ...*Engine) {
	if m == nil || !m.recording {
		return
	}
	keep := map[[sha256.Size]byte]bool{}
	for _, e := range engines {
		keep[e.sum] = true
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	for k, bundle := range m.bundles {
		if !keep[bundle] {
			delete(m.bodies, k)
			delete(m.missing, k)
			delete(m.bundles, k)
		}
	}
}

// WriteTo writes the memo, gzip-compressed.
func (m *Memo) WriteTo(w io.Writer) (int64, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	cw := &countingWriter{w: w}
	zw, err := gzip.NewWriterLevel(cw, gzip.BestCompression)
	if err != nil {
		return 0, err
	}
	if err := gob.NewEncoder(zw).Encode(m.bodies); err != nil {
		return cw.n, fmt.Errorf("render: writing the memo: %w", err)
	}
	if err := zw.Close(); err != nil {
		return cw.n, fmt.Errorf("render: writing the memo: %w", err)
	}
	return cw.n, nil
}

// ReadMemo reads a memo written by WriteTo; it does not record.
func ReadMemo(r io.Reader) (*Memo, error) {
	zr, err := gzip.NewReader(r)
	if err != nil {
		return nil, fmt.Errorf("render: reading the memo: %w", err)
	}
	m := &Memo{}
	if err := gob.NewDecoder(zr).Decode(&m.bodies); err != nil {
		return nil, fmt.Errorf("render: reading the memo: %w", err)
	}
	return m, nil
}

// ReadMemoFS reads the memo at name in fsys; a missing file is an empty
// memo (a binary built without one renders every page at start).
func ReadMemoFS(fsys fs.FS, name string) (*Memo, error) {
	f, err := fsys.Open(name)
	if errors.Is(err, fs.ErrNotExist) {
		return &Memo{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("render: %w", err)
	}
	defer func() { _ = f.Close() }() // read only: closing it loses nothing
	return ReadMemo(f)
}

type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}
