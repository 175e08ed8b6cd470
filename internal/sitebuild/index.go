package sitebuild

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// indexFormat names the layout of the content's index file; a file of
// another layout is ignored.
const (
	indexName   = "northbeam content index "
	indexFormat = indexName + "1"
)

// OpenParsed returns a Parsed holding the posts of the content's index
// file (docs/ARCHITECTURE.md, Starting), which an earlier
// start of the same program (version: what makes its parse, such as the
// executable's build ID) wrote with SaveIndex; a start then parses only
// the posts whose file changed since. A file missing, of another program,
// cut short or otherwise unreadable gives an empty Parsed (every post is
// parsed, and SaveIndex writes the file anew) and, unless it is missing,
// an error saying why, for the log: never a failed start.
func OpenParsed(file, version string) (*Parsed, error) {
	p := NewParsed()
	p.indexFile, p.indexVersion = file, version
	f, err := os.Open(file)
	if errors.Is(err, os.ErrNotExist) {
		return p, nil
	}
	if err != nil {
		return p, err
	}
	defer func() { _ = f.Close() }()
	r := bufio.NewReaderSize(f, 1<<16)
	header, err := r.ReadString('\n')
	if err != nil {
		return p, fmt.Errorf("content index %s: no header: %w", file, err)
	}
	if !strings.HasPrefix(header, indexName) {
		return p, fmt.Errorf("content index %s: not an index", file)
	}
	if strings.TrimSuffix(header, "\n") != indexFormat+" "+version {
		// Another program's, or another layout: not an error, its posts
		// are parsed again.
		return p, nil
	}
	if err := p.Posts.ReadIndex(r); err != nil {
		return p, fmt.Errorf("content index %s: %w", file, err)
	}
	return p, nil
}

// SaveIndex writes the posts p keeps to the index file OpenParsed read,
// when they changed since; a Parsed that NewParsed made has no file and
// writes nothing. The file is replaced whole (written beside it, then
// renamed), so a start stopped midway leaves the old one or the new one.
func (p *Parsed) SaveIndex() error {
	if p == nil || p.indexFile == "" || !p.Posts.Changed() {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(p.indexFile), 0o750); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(p.indexFile), filepath.Base(p.indexFile)+".*.tmp")
	if err != nil {
		return err
	}
	defer func() { _ = os.Remove(tmp.Name()) }()
	w := bufio.NewWriterSize(tmp, 1<<16)
	_, err = w.WriteString(indexFormat + " " + p.indexVersion + "\n")
	if err == nil {
		err = p.Posts.WriteIndex(w)
	}
	if err == nil {
		err = w.Flush()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("content index: %w", err)
	}
	return os.Rename(tmp.Name(), p.indexFile)
}
