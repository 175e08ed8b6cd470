package render

import (
	"crypto/sha256"
	"debug/elf"
	"encoding/binary"
	"encoding/gob"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
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
}

// Key names one cached resource.
type Key [sha256.Size]byte

// OpenDiskCache opens (and creates) the cache folder dir, its keys salted
// with salt.
func OpenDiskCache(dir string, salt []byte) (*DiskCache, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("render: the renders' cache: %w", err)
	}
	return &DiskCache{dir: dir, salt: sha256.Sum256(salt), used: map[Key]bool{}}, nil
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

// cachedResource is a Resource as written on disk.
type cachedResource struct {
	ContentType, CacheControl  string
	Status                     int
	Body, Gzip, Brotli         []byte
	ETag, GzipETag, BrotliETag string
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

// Get returns the resource stored under k; ok is false when there is none
// (or it does not read: it is made again).
func (c *DiskCache) Get(k Key) (r *Resource, ok bool) {
	f, err := os.Open(c.path(k))
	if err != nil {
		c.misses.Add(1)
		return nil, false
	}
	defer func() { _ = f.Close() }() // read only
	var cr cachedResource
	if err := gob.NewDecoder(f).Decode(&cr); err != nil {
		c.misses.Add(1)
		return nil, false
	}
	c.mark(k)
	c.hits.Add(1)
	r = &Resource{
		ContentType: cr.ContentType, CacheControl: cr.CacheControl, Status: cr.Status,
		Body: cr.Body, Gzip: cr.Gzip, Brotli: cr.Brotli,
		ETag: cr.ETag, GzipETag: cr.GzipETag, BrotliETag: cr.BrotliETag,
	}
	r.prepare()
	return r, true
}

// Put stores r under k, whole or not at all (written beside, then renamed).
func (c *DiskCache) Put(k Key, r *Resource) error {
	c.mark(k)
	p := c.path(k)
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return fmt.Errorf("render: the renders' cache: %w", err)
	}
	f, err := os.CreateTemp(filepath.Dir(p), ".put-*")
	if err != nil {
		return fmt.Errorf("render: the renders' cache: %w", err)
	}
	err = gob.NewEncoder(f).Encode(cachedResource{
		ContentType: r.ContentType, CacheControl: r.CacheControl, Status: r.Status,
		Body: r.Body, Gzip: r.Gzip, Brotli: r.Brotli,
		ETag: r.ETag, GzipETag: r.GzipETag, BrotliETag: r.BrotliETag,
	})
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), p)
	}
	if err != nil {
		_ = os.Remove(f.Name()) // a half-written file: best effort
		return fmt.Errorf("render: the renders' cache: %w", err)
	}
	return nil
}

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
