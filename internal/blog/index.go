package blog

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/northbeam/site/internal/content"
	"github.com/northbeam/site/internal/markdown"
)

// The posts a Parsed keeps, written to a file and read back by the next
// start (docs/ARCHITECTURE.md, Starting): each post as its
// parse made it, under its file and the SHA-256 of the file's bytes. Its
// text is not written: the file holds it, and a load that takes a post
// from the index has read the file to know it did not change.

// indexedPost is what the index holds of a post: everything parsePost
// makes but its text.
type indexedPost struct {
	File           string             `json:"file"`
	Sum            []byte             `json:"sum"`
	Lang           string             `json:"lang"`
	Slug           string             `json:"slug"`
	Title          string             `json:"title"`
	Description    string             `json:"description"`
	Author         string             `json:"author"`
	Published      time.Time          `json:"published"`
	Updated        time.Time          `json:"updated"`
	Tags           []Tag              `json:"tags"`
	Cover          *Cover             `json:"cover,omitempty"`
	TranslationKey string             `json:"translationKey"`
	Draft          bool               `json:"draft,omitempty"`
	TOC            []markdown.Heading `json:"toc"`
	Words          int                `json:"words"`
	ReadingMinutes int                `json:"readingMinutes"`
	KeyLine        int                `json:"keyLine"`
	TagsLine       int                `json:"tagsLine"`
}

type index struct {
	Salt  []byte        `json:"salt"`
	Posts []indexedPost `json:"posts"`
}

// WriteIndex writes the posts parsed keeps, and its salt, to w.
func (parsed *Parsed) WriteIndex(w io.Writer) error {
	parsed.mu.Lock()
	ix := index{Salt: []byte(parsed.salt), Posts: make([]indexedPost, 0, len(parsed.posts))}
	for file, pp := range parsed.posts {
		p := &pp.post
		ix.Posts = append(ix.Posts, indexedPost{
			File: file, Sum: pp.sum[:], Lang: p.Lang, Slug: p.Slug, Title: p.Title, Description: p.Description,
			Author: p.Author, Published: p.Published, Updated: p.Updated, Tags: p.Tags, Cover: p.Cover,
			TranslationKey: p.TranslationKey, Draft: p.Draft, TOC: p.TOC, Words: p.Words, ReadingMinutes: p.ReadingMinutes,
			KeyLine: p.keyLine, TagsLine: p.tagsLine,
		})
	}
	parsed.changed = false
	parsed.mu.Unlock()
	return json.NewEncoder(w).Encode(ix)
}

// ReadIndex replaces what parsed keeps with the posts and salt WriteIndex
// wrote to r. On an error (a file cut short, not an index) parsed keeps
// nothing: every file is parsed again.
func (parsed *Parsed) ReadIndex(r io.Reader) error {
	var ix index
	err := json.NewDecoder(r).Decode(&ix)
	posts := map[string]parsedPost{}
	for i := range ix.Posts {
		if err != nil {
			break
		}
		ip := &ix.Posts[i]
		pp := parsedPost{post: Post{
			Lang: ip.Lang, Slug: ip.Slug, File: ip.File, Title: ip.Title, Description: ip.Description, Author: ip.Author,
			Published: ip.Published, Updated: ip.Updated, Tags: ip.Tags, Cover: ip.Cover, TranslationKey: ip.TranslationKey,
			Draft: ip.Draft, TOC: ip.TOC, Words: ip.Words, ReadingMinutes: ip.ReadingMinutes, keyLine: ip.KeyLine, tagsLine: ip.TagsLine,
		}}
		if len(ip.Sum) != len(pp.sum) || ip.File == "" {
			err = fmt.Errorf("post %d of the index: no file or sum", i)
			break
		}
		copy(pp.sum[:], ip.Sum)
		if pp.post.Tags == nil {
			pp.post.Tags = []Tag{}
		}
		posts[ip.File] = pp
	}
	parsed.mu.Lock()
	defer parsed.mu.Unlock()
	if err != nil {
		parsed.salt, parsed.posts = "", map[string]parsedPost{}
		return fmt.Errorf("blog index: %w", err)
	}
	parsed.salt, parsed.posts, parsed.changed = string(ix.Salt), posts, false
	return nil
}

// Changed reports whether parsed keeps other posts than it last wrote or
// read: a post parsed, forgotten, or a new salt.
func (parsed *Parsed) Changed() bool {
	parsed.mu.Lock()
	defer parsed.mu.Unlock()
	return parsed.changed
}

// postText is the Markdown text of the post file src, as parsePost takes it.
func postText(src []byte) ([]byte, error) {
	src = bytes.TrimPrefix(src, []byte("\uFEFF"))
	src = bytes.ReplaceAll(src, []byte("\r\n"), []byte("\n"))
	_, body, err := content.SplitFrontMatter(src)
	if err == nil && len(bytes.TrimSpace(body)) == 0 {
		err = errors.New("the post has no text after the front matter")
	}
	return body, err
}
