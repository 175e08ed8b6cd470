// Package images holds the content's pictures, the files under
// content/img/, and the smaller copies in a modern format that pages offer
// beside them.
//
// Every file is served at its stable address, /img/<file>, and at
// /img/<hash>/<file>, where the hash changes with the file, so that a page
// can tell browsers to keep it for good. A picture that can be resized
// (PNG, JPEG or WebP) also gets WebP copies at a few widths, never wider
// than the file itself, each at its own hashed address
// (/img/<hash>/work/cover-800.webp): the page lists them in a srcset, with
// the original as the fallback.
//
// The copies are made at build time (Library.WriteVariants, called by
// `go run . build`) and embedded in the production binary; elsewhere
// (go run ., tests) each is encoded the first time it is asked for, or
// ahead of time by Library.Warm, and kept in memory, and in a folder that
// later starts read them back from (Library.KeepCopiesIn: DATA_DIR's for
// go run ., one the test processes share), which Library.PruneCopies rids
// of the copies the content no longer has.
//
// A Library is safe for concurrent use.
package images

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"image"
	_ "image/gif" // sizes of GIF files
	_ "image/jpeg"
	_ "image/png"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	_ "golang.org/x/image/webp" // sizes and pixels of WebP files
)

// Widths are the widths, in pixels, of the copies made of each picture;
// those wider than the picture are left out, and the picture's own width
// is added. They cover a portrait in a card on a phone (200) up to a cover
// across a wide screen at twice the pixel density (1600).
var Widths = []int{200, 400, 800, 1200, 1600}

// recipe names how copies are made. It is part of their hash, so that a
// change in how they are made gives them new addresses and no browser
// keeps an old copy. Change it when the encoder, its settings or the
// resizing change.
const recipe = "webp q80 m4, Catmull-Rom, v1"

// types are the files a page can show, by extension; resizable ones get
// WebP copies (a GIF may be animated, and nothing here decodes AVIF).
var types = map[string]struct {
	contentType string
	resizable   bool
}{
	".png":  {"image/png", true},
	".jpg":  {"image/jpeg", true},
	".jpeg": {"image/jpeg", true},
	".webp": {"image/webp", true},
	".gif":  {"image/gif", false},
	".avif": {"image/avif", false},
}

// Source is one file under content/img/.
type Source struct {
	// Path is its stable address, "/img/work/cover.png".
	Path string
	// Hashed is its address that changes with the file,
	// "/img/3f9a0c1d2e4b/work/cover.png".
	Hashed      string
	ContentType string
	Data        []byte
	// Width and Height are its size in pixels; 0 when it cannot be read
	// here (AVIF).
	Width, Height int
	// Variants are its WebP copies, narrowest first.
	Variants []*Variant
}

// Variant is a WebP copy of a source at one width.
type Variant struct {
	// Path is its address, "/img/<hash>/work/cover-800.webp".
	Path          string
	Width, Height int
	source        *Source
	lib           *Library

	once sync.Once
	data []byte
	err  error
	made atomic.Bool // data is set
}

// Library is the content's pictures.
type Library struct {
	sources  map[string]*Source  // by stable address
	files    map[string]*Source  // by stable and hashed address
	variants map[string]*Variant // by address
	order    []*Source           // by stable address
	// prebuilt holds the copies written by WriteVariants, laid out as
	// their addresses without the leading "/img/"; nil when there are none.
	prebuilt fs.FS
	// keep is a folder where the copies encoded here are written, laid out
	// as prebuilt, and read back before encoding one (KeepCopiesIn); ""
	// for none.
	keep string
}

// KeepCopiesIn makes l read each copy it would encode from dir, and write
// there each copy it encodes, so that other processes (the test binaries)
// and later runs encode none again. A copy's address names its file and
// recipe, so a file there under that address is that copy. A folder that
// cannot be read or written costs an encoding, never a picture. Call it
// before the first copy is asked for.
func (l *Library) KeepCopiesIn(dir string) { l.keep = dir }

// Load reads the files under root ("img") in content. prebuilt, when not
// nil, holds the copies WriteVariants wrote at build time: each copy is
// then read from it instead of encoded, and one missing from it is an
// error (the build is older than the content).
func Load(content fs.FS, root string, prebuilt fs.FS) (*Library, error) {
	l := &Library{sources: map[string]*Source{}, files: map[string]*Source{}, variants: map[string]*Variant{}, prebuilt: prebuilt}
	var errs []error
	err := fs.WalkDir(content, root, func(name string, d fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) && name == root {
			return fs.SkipDir
		}
		if err != nil || d.IsDir() {
			return err
		}
		if strings.HasPrefix(d.Name(), ".") {
			return nil
		}
		ext := strings.ToLower(path.Ext(name))
		t, ok := types[ext]
		if !ok {
			errs = append(errs, fmt.Errorf("images: %s: not a picture a page can show (.png, .jpg, .webp, .gif or .avif)", name))
			return nil
		}
		data, err := fs.ReadFile(content, name)
		if err != nil {
			return fmt.Errorf("images: %w", err)
		}
		rel := strings.TrimPrefix(name, root+"/")
		sum := sha256.Sum256(data)
		src := &Source{
			Path:        "/img/" + rel,
			Hashed:      "/img/" + hex.EncodeToString(sum[:6]) + "/" + rel,
			ContentType: t.contentType,
			Data:        data,
		}
		if ext != ".avif" {
			cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
			if err != nil {
				errs = append(errs, fmt.Errorf("images: %s: %w", name, err))
				return nil
			}
			src.Width, src.Height = cfg.Width, cfg.Height
		}
		if t.resizable {
			if err := l.plan(src, sum[:]); err != nil {
				errs = append(errs, err)
				return nil
			}
		}
		l.sources[src.Path] = src
		l.files[src.Path] = src
		l.files[src.Hashed] = src
		l.order = append(l.order, src)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return l, nil
}

// plan lists the copies of src; with prebuilt copies, each must be there.
func (l *Library) plan(src *Source, fileSum []byte) error {
	h := sha256.New()
	h.Write(fileSum)
	h.Write([]byte(recipe))
	hash := hex.EncodeToString(h.Sum(nil)[:6])
	rel := strings.TrimPrefix(src.Path, "/img/")
	stem := strings.TrimSuffix(rel, path.Ext(rel))
	var widths []int
	for _, w := range Widths {
		if w < src.Width {
			widths = append(widths, w)
		}
	}
	widths = append(widths, src.Width)
	for _, w := range widths {
		v := &Variant{
			Path:   "/img/" + hash + "/" + stem + "-" + strconv.Itoa(w) + ".webp",
			Width:  w,
			Height: max(1, (src.Height*w+src.Width/2)/src.Width),
			source: src,
			lib:    l,
		}
		if l.prebuilt != nil {
			if _, err := fs.Stat(l.prebuilt, strings.TrimPrefix(v.Path, "/img/")); err != nil {
				return fmt.Errorf("images: %s: the copy %s is not in the build (build again: npm run build:binary)", src.Path, v.Path)
			}
		}
		src.Variants = append(src.Variants, v)
		l.variants[v.Path] = v
	}
	return nil
}

// Source returns the file at its stable address ("/img/work/cover.png").
func (l *Library) Source(stable string) (*Source, bool) {
	s, ok := l.sources[stable]
	return s, ok
}

// Sources returns every file, by stable address.
func (l *Library) Sources() []*Source {
	out := slices.Clone(l.order)
	slices.SortFunc(out, func(a, b *Source) int { return strings.Compare(a.Path, b.Path) })
	return out
}

// File returns the source served at p, a stable or hashed address.
func (l *Library) File(p string) (*Source, bool) {
	s, ok := l.files[p]
	return s, ok
}

// Variant returns the copy served at p.
func (l *Library) Variant(p string) (*Variant, bool) {
	v, ok := l.variants[p]
	return v, ok
}

// Data returns the copy's bytes: read from the build, or encoded on first
// use and kept.
func (v *Variant) Data() ([]byte, error) {
	v.once.Do(func() {
		if v.lib.prebuilt != nil {
			v.data, v.err = fs.ReadFile(v.lib.prebuilt, strings.TrimPrefix(v.Path, "/img/"))
			v.made.Store(v.err == nil)
			return
		}
		if v.lib.keep != "" {
			if data, err := os.ReadFile(v.keptFile()); err == nil {
				v.data = data
				v.made.Store(true)
				return
			}
		}
		v.data, v.err = encodeVariant(v.source, v.Width, v.Height)
		v.made.Store(v.err == nil)
		if v.err == nil && v.lib.keep != "" {
			v.keepCopy()
		}
	})
	return v.data, v.err
}

// keptFile is where the copy is kept under the library's folder.
func (v *Variant) keptFile() string {
	return filepath.Join(v.lib.keep, filepath.FromSlash(strings.TrimPrefix(v.Path, "/img/")))
}

// keepCopy writes the copy under the library's folder, whole or not at all
// (written beside, then renamed), for another process to read.
func (v *Variant) keepCopy() {
	file := v.keptFile()
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		return // not kept: encoded again next time
	}
	f, err := os.CreateTemp(filepath.Dir(file), ".put-*")
	if err != nil {
		return
	}
	_, err = f.Write(v.data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), file)
	}
	if err != nil {
		_ = os.Remove(f.Name()) // a half-written file: best effort
	}
}

// staleWrite is how old a half-written copy (".put-*", keepCopy) must be
// for PruneCopies to remove it: a write takes milliseconds, so one older
// than this died with its process.
const staleWrite = time.Hour

// PruneCopies removes from the folder l keeps its copies in (KeepCopiesIn)
// every copy l does not have: the copies of a picture changed or deleted
// since they were made, of a width no longer made, of another recipe. A
// copy is a file "<hash>/<path>-<width>.webp" (the hash, 12 hexadecimal
// digits, its first folder): only those are removed, with the folders
// under a hash that they leave empty, and the half-written copies of a
// write that died (".put-*", older than staleWrite); any other file there
// is left as it is. Call it once l has made every copy (Warm): what it
// removes is then what no build of l's content reads. A process that used
// a copy removed here (another start on the same folder) encodes it again,
// and keeps it again: removing one costs an encoding, never a picture.
// Without a folder it removes nothing.
func (l *Library) PruneCopies() (removed int, err error) {
	if l.keep == "" || l.prebuilt != nil {
		return 0, nil
	}
	root, err := os.OpenRoot(l.keep)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("images: the pictures' copies: %w", err)
	}
	defer func() { _ = root.Close() }() // a directory, read
	var dirs []string                   // under a hash, parents first
	err = fs.WalkDir(root.FS(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		first, rest, _ := strings.Cut(p, "/")
		switch {
		case p == ".":
			return nil
		case !isCopyHash(first):
			if d.IsDir() {
				return fs.SkipDir // not ours
			}
			return nil
		case d.IsDir():
			dirs = append(dirs, p)
			return nil
		}
		name := d.Name()
		switch {
		case strings.HasPrefix(name, ".put-"):
			info, err := d.Info()
			if err != nil || time.Since(info.ModTime()) < staleWrite {
				return nil // gone meanwhile, or a write under way
			}
		case !isCopyName(rest):
			return nil // not ours
		case l.variants["/img/"+p] != nil:
			return nil
		}
		if err := root.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		if !strings.HasPrefix(name, ".put-") {
			removed++
		}
		return nil
	})
	// The folders left empty, children before their parents; one that is
	// not empty stays.
	for _, d := range slices.Backward(dirs) {
		_ = root.Remove(d)
	}
	if err != nil {
		return removed, fmt.Errorf("images: the pictures' copies: %w", err)
	}
	return removed, nil
}

// isCopyHash reports whether name is a copy's hash, the first folder of
// its address (plan).
func isCopyHash(name string) bool {
	if len(name) != 12 {
		return false
	}
	for _, c := range name {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// isCopyName reports whether rel, a path under a copy's hash, names a
// copy: "<path>-<width>.webp".
func isCopyName(rel string) bool {
	stem, ok := strings.CutSuffix(rel, ".webp")
	if !ok {
		return false
	}
	i := strings.LastIndexByte(stem, '-')
	if i <= 0 || i == len(stem)-1 {
		return false
	}
	for _, c := range stem[i+1:] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// Adopt takes over the copies earlier has made that l has too (the same
// address is the same file and recipe, so the same bytes), as -dev mode
// does when it loads the content again after a change.
func (l *Library) Adopt(earlier *Library) {
	if earlier == nil {
		return
	}
	for p, v := range l.variants {
		if old, ok := earlier.variants[p]; ok && old.made.Load() {
			v.once.Do(func() {
				v.data = old.data
				v.made.Store(true)
			})
		}
	}
}

// ContentType is the type of every copy.
const ContentType = "image/webp"

// Srcset returns the srcset of src's copies ("<path> 200w, <path> 400w"),
// or "" when it has none.
func (s *Source) Srcset() string {
	var b strings.Builder
	for i, v := range s.Variants {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(v.Path + " " + strconv.Itoa(v.Width) + "w")
	}
	return b.String()
}
