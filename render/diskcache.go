package render

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"debug/elf"
	"encoding/binary"
	"encoding/gob"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
)

// DiskCache keeps finished pages (documents and payloads, compressed) in
// a folder between starts, each under a key of everything that made it,
// so that a start with nothing changed serves the renders of the last one
// and a change renders again only the pages whose inputs it changed
// (docs/ARCHITECTURE.md, Rendering).
//
// The keys are salted with the program itself (ExecutableSum): a change
// to the Go code that writes a document (its shell, its payload) makes
// every key new.
type DiskCache struct {
	dir  string
	salt [sha256.Size]byte

	mu   sync.Mutex
	used map[Key]bool // read or written by this process: kept by Prune

	hits, misses atomic.Int64

	// hot keeps the bodies of its pages asked for often in memory
	// (HotBodies, DefaultHotBytes).
	hot *HotBodies

	// Log, when set, is told once that a page could not be written, and
	// is kept in memory instead.
	Log        *slog.Logger
	warnedOnce sync.Once
}

// Key names one cached resource.
type Key [sha256.Size]byte

// OpenDiskCache opens (and creates) the cache folder dir, its keys salted
// with salt.
func OpenDiskCache(dir string, salt []byte) (*DiskCache, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("render: the renders' cache: %w", err)
	}
	return &DiskCache{dir: dir, salt: sha256.Sum256(salt), used: map[Key]bool{}, hot: NewHotBodies(DefaultHotBytes)}, nil
}

// ExecutableSum identifies the running program: the Go build ID its ELF
// note holds (a hash of everything it was built from, so it changes with
// any change to the code, and a `go run` of the same code has the same
// one), or where there is none the SHA-256 of the whole file, which takes
// seconds to read on a loaded machine.
func ExecutableSum() ([]byte, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	if ef, err := elf.Open(exe); err == nil {
		defer func() { _ = ef.Close() }() // read only
		if note := ef.Section(".note.go.buildid"); note != nil {
			if id, err := note.Data(); err == nil && len(id) > 16 {
				return id, nil
			}
		}
	}
	f, err := os.Open(exe)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }() // read only
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return nil, err
	}
	return h.Sum(nil), nil
}

// Key returns the key of the resource made from parts, each taken whole
// (its length written before it, so that no two lists of parts collide).
func (c *DiskCache) Key(parts ...[]byte) Key {
	h := sha256.New()
	h.Write(c.salt[:])
	var n [8]byte
	for _, p := range parts {
		binary.BigEndian.PutUint64(n[:], uint64(len(p)))
		h.Write(n[:])
		h.Write(p)
	}
	var k Key
	h.Sum(k[:0])
	return k
}

// A resource's file is its header, then its bodies as they are served:
//
//	"NBR2", the header's length (4 bytes, big-endian), the header (gob),
//	then the stored identity body (only when nothing compresses it), the
//	gzip body and the brotli body, back to back.
//
// Get reads the header alone: the bodies stay on disk, where every request
// reads them (the operating system's page cache keeps the pages asked for
// often in memory, and gives the memory back when it is needed), so that
// the heap holds each page's header fields, not its bytes.
const fileMagic = "NBR2"

// fileHeader is a Resource's fields as written on disk.
type fileHeader struct {
	ContentType, CacheControl  string
	Status                     int
	ETag, GzipETag, BrotliETag string
	// Length is the identity body's; BodyLen that of the identity body
	// stored (0 when made from the gzip one).
	Length, BodyLen, GzipLen, BrotliLen int64
}

func (c *DiskCache) path(k Key) string {
	name := hex.EncodeToString(k[:])
	return filepath.Join(c.dir, name[:2], name[2:])
}

func (c *DiskCache) mark(k Key) {
	c.mu.Lock()
	c.used[k] = true
	c.mu.Unlock()
}

// Get returns the resource stored under k, served from its file; ok is
// false when there is none (or it does not read: it is made again).
// remake makes it again when its file is gone by the time it is served
// (another process pruned it, someone deleted it); nil answers 503 then.
func (c *DiskCache) Get(k Key, remake func() (*Resource, error)) (r *Resource, ok bool) {
	r, err := openResource(c.path(k), c.hot, remake)
	if err != nil {
		c.misses.Add(1)
		return nil, false
	}
	c.mark(k)
	c.hits.Add(1)
	return r, true
}

// openResource reads the header of the resource file at p; hot keeps its
// bodies once they are hot.
func openResource(p string, hot *HotBodies, remake func() (*Resource, error)) (*Resource, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }() // read only
	var pre [len(fileMagic) + 4]byte
	if _, err := io.ReadFull(f, pre[:]); err != nil {
		return nil, err
	}
	if string(pre[:len(fileMagic)]) != fileMagic {
		return nil, errors.New("render: not a resource file")
	}
	n := int64(binary.BigEndian.Uint32(pre[len(fileMagic):]))
	var h fileHeader
	if err := gob.NewDecoder(io.LimitReader(f, n)).Decode(&h); err != nil {
		return nil, err
	}
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	d := &diskBody{cpath: newCPath(p), size: info.Size(), remake: remake, hot: hot}
	d.bodyOff = int64(len(pre)) + n
	d.gzipOff = d.bodyOff + h.BodyLen
	d.brotliOff = d.gzipOff + h.GzipLen
	if h.BodyLen < 0 || h.GzipLen < 0 || h.BrotliLen < 0 || d.brotliOff+h.BrotliLen != d.size {
		return nil, errors.New("render: a resource file of the wrong size")
	}
	// The three tags in one string, which the resource keeps for its life
	// (see prepare).
	tags := h.ETag + h.GzipETag + h.BrotliETag
	gzipAt, brotliAt := len(h.ETag), len(h.ETag)+len(h.GzipETag)
	r := &Resource{
		ContentType: known(h.ContentType), CacheControl: known(h.CacheControl), Status: h.Status,
		ETag: tags[:gzipAt], GzipETag: tags[gzipAt:brotliAt], BrotliETag: tags[brotliAt:],
		length: int(h.Length), disk: d,
	}
	d.bodyLen, d.gzipLen, d.brotliLen = h.BodyLen, h.GzipLen, h.BrotliLen
	r.prepare()
	return r, nil
}

// Put stores r under k, whole or not at all (written beside, then
// renamed), and returns it served from its file (see Get, and remake
// there); on an error, r as it was.
func (c *DiskCache) Put(k Key, r *Resource, remake func() (*Resource, error)) (*Resource, error) {
	c.mark(k)
	p := c.path(k)
	onDisk, err := (*Resource)(nil), writeResource(p, r)
	if err == nil {
		onDisk, err = openResource(p, c.hot, remake)
	}
	if err != nil {
		err = fmt.Errorf("render: the renders' cache: %w", err)
		if c.Log != nil {
			c.warnedOnce.Do(func() { c.Log.Warn("the renders' cache cannot be written: pages are kept in memory", "err", err) })
		}
		return r, err
	}
	return onDisk, nil
}

func writeResource(p string, r *Resource) error {
	if r.disk != nil {
		return errors.New("render: a resource already on disk")
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(p), ".put-*")
	if err != nil {
		return err
	}
	body := r.Body
	if r.Gzip != nil {
		body = nil // made from the gzip body
	}
	var h bytes.Buffer
	err = gob.NewEncoder(&h).Encode(fileHeader{
		ContentType: r.ContentType, CacheControl: r.CacheControl, Status: r.Status,
		ETag: r.ETag, GzipETag: r.GzipETag, BrotliETag: r.BrotliETag,
		Length: int64(r.identityLen()), BodyLen: int64(len(body)), GzipLen: int64(len(r.Gzip)), BrotliLen: int64(len(r.Brotli)),
	})
	if err == nil && int64(h.Len()) > math.MaxUint32 {
		err = errors.New("render: a resource header too large")
	}
	w := bufio.NewWriter(f)
	if err == nil {
		var n [4]byte
		binary.BigEndian.PutUint32(n[:], uint32(h.Len())) //nolint:gosec // G115: at most MaxUint32, checked above
		for _, part := range [][]byte{[]byte(fileMagic), n[:], h.Bytes(), body, r.Gzip, r.Brotli} {
			if _, err = w.Write(part); err != nil {
				break
			}
		}
	}
	if err == nil {
		err = w.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), p)
	}
	if err != nil {
		_ = os.Remove(f.Name()) // a half-written file: best effort
	}
	return err
}

// Hot is what keeps the bodies of its pages asked for often in memory.
func (c *DiskCache) Hot() *HotBodies { return c.hot }

// Counts returns how many resources Get found, and how many it did not.
func (c *DiskCache) Counts() (hits, misses int64) { return c.hits.Load(), c.misses.Load() }

// Prune removes what this process neither read nor wrote: the renders of
// pages that changed or are gone. Call it once every page was asked for.
func (c *DiskCache) Prune() (removed int, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	root, err := os.OpenRoot(c.dir)
	if err != nil {
		return 0, fmt.Errorf("render: the renders' cache: %w", err)
	}
	defer func() { _ = root.Close() }() // a directory, read
	err = fs.WalkDir(root.FS(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		var k Key
		if b, derr := hex.DecodeString(strings.ReplaceAll(p, "/", "")); derr == nil && len(b) == len(k) {
			copy(k[:], b)
			if c.used[k] {
				return nil
			}
		}
		if rerr := root.Remove(p); rerr != nil && !errors.Is(rerr, fs.ErrNotExist) {
			return rerr
		}
		removed++
		return nil
	})
	return removed, err
}
