package sitebuild

import (
	"crypto/sha256"
	"fmt"

	"github.com/northbeam/site/internal/blog"
	"github.com/northbeam/site/internal/team"
	"github.com/northbeam/site/internal/work"
)

// Parsed keeps what the builds of a -dev session parsed of the content's
// posts, case studies and people, each under its file and the file's
// bytes: a build after an edit parses and renders again only the files
// that changed, were added or renamed, and forgets those deleted
// (docs/ARCHITECTURE.md, The dev loop).
type Parsed struct {
	Posts   *blog.Parsed
	Studies *work.Parsed
	People  *team.Parsed
	// indexFile is where SaveIndex writes the posts for the next start,
	// under indexVersion (OpenParsed); "" writes nothing.
	indexFile, indexVersion string
}

// NewParsed returns an empty Parsed.
func NewParsed() *Parsed {
	return &Parsed{Posts: blog.NewParsed(), Studies: work.NewParsed(), People: team.NewParsed()}
}

// Parses counts the files of each kind parsed through p, rather than
// taken from it.
func (p *Parsed) Parses() (posts, studies, people int) {
	if p == nil {
		return 0, 0, 0
	}
	return p.Posts.Parses(), p.Studies.Parses(), p.People.Parses()
}

// salt forgets what p keeps when what a file's parse depends on beside
// the file changed: the site's address (a text's links) and the pictures
// (their hashed addresses, sizes).
func (p *Parsed) salt(opts Options, images *contentImages) {
	salt := textSalt(opts, images)
	p.Posts.Salt(salt)
	p.Studies.Salt(salt)
	p.People.Salt(salt)
}

// posts, studies and people are what p keeps of each kind; nil when p is.
func (p *Parsed) posts() *blog.Parsed {
	if p == nil {
		return nil
	}
	return p.Posts
}

func (p *Parsed) studies() *work.Parsed {
	if p == nil {
		return nil
	}
	return p.Studies
}

func (p *Parsed) people() *team.Parsed {
	if p == nil {
		return nil
	}
	return p.People
}

// textSalt names what the HTML of a post, a case study or a person depends
// on beside its file: the site's address (a text's links) and the pictures
// (their hashed addresses, sizes).
func textSalt(opts Options, images *contentImages) string {
	h := sha256.New()
	h.Write([]byte(opts.BaseURL))
	for _, src := range images.lib.Sources() {
		fmt.Fprintf(h, "\x00%s %s %d %d", src.Path, src.Hashed, src.Width, src.Height)
	}
	return string(h.Sum(nil))
}
