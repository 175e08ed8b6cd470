package render

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"math"
	"os"
	goruntime "runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/northbeam/site/internal/packed"
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
	// spill, when not nil, holds the bodies recorded instead of bodies
	// (SpillTo).
	spill *memoFile
	// shipped, in a memo read back (ReadMemo), is where its bodies are.
	shipped *shippedMemo
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
	n := len(m.bodies)
	if m.spill != nil {
		n += len(m.spill.at)
	}
	if m.shipped != nil {
		n += len(m.shipped.at)
	}
	return n
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
	if !ok && m.spill != nil {
		body, ok = m.spill.get(k)
	}
	if !ok && m.shipped != nil {
		body, ok = m.shipped.get(k)
	}
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
	var stored []byte
	if m.spill != nil {
		stored = packed.Pack(body) // outside the lock: renders record at once
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if stored != nil && m.spill.put(k, stored) {
		delete(m.bodies, k)
	} else {
		m.bodies[k] = body
	}
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
	if m.shipped != nil && m.shipped.file != nil {
		_ = m.shipped.file.Close() // read only
	}
	m.shipped = nil
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
			if m.spill != nil {
				m.spill.drop(k)
			}
		}
	}
	if m.spill != nil {
		m.spill.compact()
	}
}

// memoMagic begins a memo written by WriteTo. After it: the number of
// bodies (uint32), then for each, by key, its key, where its bytes begin
// after the index (uint64), their length (uint32) and the body's CRC-32
// (IEEE), all little-endian;
// then the bodies, each DEFLATE-compressed on its own (internal/packed),
// so that a memo read back takes one body at a time and holds only its
// index: a production binary at 1,000 posts a language ships 117 MB of
// bodies, which a start held whole in the heap, and decompressed, before
// (docs/ARCHITECTURE.md, Rendering).
const memoMagic = "northbeam renders 2\n"

const memoEntry = sha256.Size + 8 + 4 + 4

// maxMemoBodies bounds the index a memo read back allocates.
const maxMemoBodies = 1 << 24

// WriteTo writes the memo, each body compressed on its own, keys in order
// (the same memo writes the same bytes).
func (m *Memo) WriteTo(w io.Writer) (int64, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	keys := make([][sha256.Size]byte, 0, len(m.bodies))
	for k := range m.bodies {
		keys = append(keys, k)
	}
	if m.spill != nil {
		for k := range m.spill.at {
			if _, ok := m.bodies[k]; !ok {
				keys = append(keys, k)
			}
		}
	}
	slices.SortFunc(keys, func(a, b [sha256.Size]byte) int { return bytes.Compare(a[:], b[:]) })
	// Each body compressed, with the CRC-32 of what it holds.
	type packedBody struct {
		data []byte
		crc  uint32
	}
	stored := make([]packedBody, len(keys))
	var failed atomic.Bool
	var wg sync.WaitGroup
	next := atomic.Int64{}
	for range goruntime.GOMAXPROCS(0) {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < len(keys); i = int(next.Add(1) - 1) {
				body, ok := m.bodies[keys[i]]
				if !ok {
					if body, ok = m.spill.get(keys[i]); !ok {
						failed.Store(true)
						continue
					}
				}
				stored[i] = packedBody{packed.PackSmall(body), crc32.ChecksumIEEE([]byte(body))}
			}
		})
	}
	wg.Wait()
	if failed.Load() {
		return 0, errors.New("render: writing the memo: a body kept on disk could not be read back")
	}
	if len(keys) > maxMemoBodies || slices.ContainsFunc(stored, func(b packedBody) bool { return uint64(len(b.data)) > math.MaxUint32 }) {
		return 0, errors.New("render: writing the memo: more bodies, or a larger one, than its index holds")
	}
	index := make([]byte, 0, len(memoMagic)+4+len(keys)*memoEntry)
	index = append(index, memoMagic...)
	index = binary.LittleEndian.AppendUint32(index, uint32(len(keys))) //nolint:gosec // G115: at most maxMemoBodies, checked above
	var off uint64
	for i, k := range keys {
		index = append(index, k[:]...)
		index = binary.LittleEndian.AppendUint64(index, off)
		index = binary.LittleEndian.AppendUint32(index, uint32(len(stored[i].data))) //nolint:gosec // G115: at most MaxUint32, checked above
		index = binary.LittleEndian.AppendUint32(index, stored[i].crc)
		off += uint64(len(stored[i].data))
	}
	cw := &countingWriter{w: w}
	if _, err := cw.Write(index); err != nil {
		return cw.n, fmt.Errorf("render: writing the memo: %w", err)
	}
	for _, b := range stored {
		if _, err := cw.Write(b.data); err != nil {
			return cw.n, fmt.Errorf("render: writing the memo: %w", err)
		}
	}
	return cw.n, nil
}

// ReadMemo reads the index of a memo written by WriteTo; each body is read
// from r when a render asks for it, until Forget. It does not record.
func ReadMemo(r io.ReaderAt) (*Memo, error) {
	head := make([]byte, len(memoMagic)+4)
	if _, err := r.ReadAt(head, 0); err != nil || string(head[:len(memoMagic)]) != memoMagic {
		return nil, errors.New("render: reading the memo: not a memo of this version")
	}
	n := int64(binary.LittleEndian.Uint32(head[len(memoMagic):]))
	if n > maxMemoBodies {
		return nil, errors.New("render: reading the memo: its index is damaged")
	}
	index := make([]byte, n*memoEntry)
	if _, err := r.ReadAt(index, int64(len(head))); err != nil {
		return nil, fmt.Errorf("render: reading the memo: %w", err)
	}
	base := int64(len(head)) + int64(len(index))
	sh := &shippedMemo{r: r, at: make(map[[sha256.Size]byte]shippedSpan, n)}
	for e := range slices.Chunk(index, memoEntry) {
		k := [sha256.Size]byte(e[:sha256.Size])
		off := binary.LittleEndian.Uint64(e[sha256.Size:])
		size := binary.LittleEndian.Uint32(e[sha256.Size+8:])
		if off > 1<<40 {
			return nil, errors.New("render: reading the memo: its index is damaged")
		}
		sh.at[k] = shippedSpan{memoSpan{off: base + int64(off), n: int64(size)}, binary.LittleEndian.Uint32(e[sha256.Size+12:])}
	}
	return &Memo{shipped: sh}, nil
}

// ReadMemoFS reads the memo at name in fsys (see ReadMemo), taking its
// bodies from the open file; a missing file is an empty memo (a binary
// built without one renders every page at start).
func ReadMemoFS(fsys fs.FS, name string) (*Memo, error) {
	f, err := fsys.Open(name)
	if errors.Is(err, fs.ErrNotExist) {
		return &Memo{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("render: %w", err)
	}
	r, ok := f.(io.ReaderAt) // an embedded file or a file on disk
	if !ok {
		data, err := io.ReadAll(f)
		_ = f.Close() // read only: closing it loses nothing
		if err != nil {
			return nil, fmt.Errorf("render: reading the memo: %w", err)
		}
		r, f = bytes.NewReader(data), nil
	}
	m, err := ReadMemo(r)
	if err != nil {
		if f != nil {
			_ = f.Close() // read only
		}
		return nil, err
	}
	m.shipped.file = f
	return m, nil
}

// shippedMemo is a memo read back: where each body is in r.
type shippedMemo struct {
	r    io.ReaderAt
	file io.Closer // r's file, closed by Forget; nil when none
	at   map[[sha256.Size]byte]shippedSpan
}

// shippedSpan is where a body is, and its CRC-32.
type shippedSpan struct {
	memoSpan
	crc uint32
}

// get reads the body of k; false when the memo holds none, or when its
// bytes cannot be read (the page renders).
func (s *shippedMemo) get(k [sha256.Size]byte) (string, bool) {
	span, ok := s.at[k]
	if !ok {
		return "", false
	}
	body, ok := span.unpack(s.r)
	if !ok || crc32.ChecksumIEEE(body) != span.crc {
		return "", false
	}
	return string(body), true
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

// SpillTo makes a recording memo (-dev) keep the bodies it records from
// now on in a file of dir, compressed, rather than in the heap: a session
// renders every page of the site once, and their bodies held in memory
// were most of its heap (docs/ARCHITECTURE.md, The dev loop). The file is
// removed at once and lives while the process holds it open, so that no
// session leaves one behind. A body that cannot be written stays in
// memory, and one that cannot be read back is rendered again.
func (m *Memo) SpillTo(dir string) error {
	if m == nil || !m.recording {
		return nil
	}
	f, err := newMemoFile(dir)
	if err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.spill = f
	return nil
}

// memoFile holds a memo's bodies, DEFLATE-compressed, one after another
// in an unlinked file; at is where each is. Its callers hold the memo's
// lock (put, drop and compact the write lock).
type memoFile struct {
	dir  string
	f    *os.File
	at   map[[sha256.Size]byte]memoSpan
	end  int64 // where the next body goes
	live int64 // the bytes of the bodies in at
}

type memoSpan struct{ off, n int64 }

// unpack reads the body packed at the span of r; false when its bytes
// cannot be read whole, or were not packed there.
func (span memoSpan) unpack(r io.ReaderAt) ([]byte, bool) {
	stored := make([]byte, span.n)
	if _, err := r.ReadAt(stored, span.off); err != nil {
		return nil, false
	}
	body, err := packed.Unpack(stored)
	return body, err == nil
}

func newMemoFile(dir string) (*memoFile, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("render: the memo's file: %w", err)
	}
	f, err := os.CreateTemp(dir, "memo-*")
	if err != nil {
		return nil, fmt.Errorf("render: the memo's file: %w", err)
	}
	if err := os.Remove(f.Name()); err != nil {
		_ = f.Close() // never written
		return nil, fmt.Errorf("render: the memo's file: %w", err)
	}
	return &memoFile{dir: dir, f: f, at: map[[sha256.Size]byte]memoSpan{}}, nil
}

// put appends stored, the body of k as packed.Pack made it; false when it cannot be written.
func (f *memoFile) put(k [sha256.Size]byte, stored []byte) bool {
	if old, ok := f.at[k]; ok {
		f.live -= old.n
	}
	if _, err := f.f.WriteAt(stored, f.end); err != nil {
		delete(f.at, k)
		return false
	}
	n := int64(len(stored))
	f.at[k] = memoSpan{f.end, n}
	f.end += n
	f.live += n
	return true
}

// get reads the body of k back; false when it holds none (or its bytes
// cannot be read).
func (f *memoFile) get(k [sha256.Size]byte) (string, bool) {
	span, ok := f.at[k]
	if !ok {
		return "", false
	}
	body, ok := span.unpack(f.f)
	return string(body), ok
}

func (f *memoFile) drop(k [sha256.Size]byte) {
	if span, ok := f.at[k]; ok {
		f.live -= span.n
		delete(f.at, k)
	}
}

// compactAbove is the room the bodies let go may take in the file before
// compact copies the others into a new one.
const compactAbove = 32 << 20

// compact gives the disk back the bodies let go took: at once when none
// is left, otherwise once they take more than the others and compactAbove.
func (f *memoFile) compact() {
	dead := f.end - f.live
	switch {
	case len(f.at) == 0:
		if f.f.Truncate(0) == nil {
			f.end, f.live = 0, 0
		}
	case dead > f.live && dead > compactAbove:
		next, err := newMemoFile(f.dir)
		if err != nil {
			return // the file keeps growing until the next time
		}
		for k, span := range f.at {
			stored := make([]byte, span.n)
			if _, err := f.f.ReadAt(stored, span.off); err != nil || !next.put(k, stored) {
				_ = next.f.Close() // unlinked: nothing to clean
				return
			}
		}
		_ = f.f.Close() // unlinked: closing it frees its room
		*f = *next
	}
}
