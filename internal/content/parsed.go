package content

import (
	"crypto/sha256"
	"sync"
)

// Parsed keeps the items loads parsed from content files, each under its
// file and the SHA-256 of its bytes, so that a load after an edit (-dev)
// parses and renders again only the files that changed, were added or
// renamed (docs/ARCHITECTURE.md, The dev loop); a file deleted or renamed
// is forgotten by the load that no longer finds it. Its salt names
// everything else a parse depends on (the Markdown options' inputs, the
// pictures): a load with another salt parses every file again.
//
// The items kept are shared between loads: a loader keeps in it only
// items that nothing changes after their parse. A nil *Parsed keeps
// nothing: every load parses every file.
type Parsed[T any] struct {
	mu     sync.Mutex
	salt   string
	items  map[string]parsedItem[T] // by file
	seen   map[string]bool          // the files of the load under way
	parses int                      // files parsed through it
}

type parsedItem[T any] struct {
	sum  [sha256.Size]byte
	item T
}

// NewParsed returns an empty Parsed.
func NewParsed[T any]() *Parsed[T] {
	return &Parsed[T]{items: map[string]parsedItem[T]{}}
}

// Salt forgets every item kept when salt is not the salt they were parsed
// with.
func (p *Parsed[T]) Salt(salt string) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.salt != salt {
		p.salt, p.items = salt, map[string]parsedItem[T]{}
	}
}

// Parses counts the files parsed through p, rather than taken from it.
func (p *Parsed[T]) Parses() int {
	if p == nil {
		return 0
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.parses
}

// parse returns the item kept for file when src is what it was parsed
// from, else what parse makes of src, kept when it found no mistake.
func (p *Parsed[T]) parse(file string, src []byte, parse func() (T, []error)) (T, []error) {
	if p == nil {
		return parse()
	}
	sum := sha256.Sum256(src)
	p.mu.Lock()
	if p.seen == nil {
		p.seen = map[string]bool{}
	}
	p.seen[file] = true
	kept, ok := p.items[file]
	if ok && kept.sum == sum {
		p.mu.Unlock()
		return kept.item, nil
	}
	p.parses++
	p.mu.Unlock()
	item, errs := parse()
	if len(errs) == 0 {
		p.mu.Lock()
		p.items[file] = parsedItem[T]{sum: sum, item: item}
		p.mu.Unlock()
	}
	return item, errs
}

// begin starts a load: the files it parses or takes are noted.
func (p *Parsed[T]) begin() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.seen = map[string]bool{}
}

// end finishes a load that read every file: the items of files it did not
// find (deleted, renamed) are forgotten.
func (p *Parsed[T]) end() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	for f := range p.items {
		if !p.seen[f] {
			delete(p.items, f)
		}
	}
	p.seen = nil
}
