// Package markdown turns the site's Markdown (blog posts, legal pages) into
// safe HTML with one configured goldmark instance.
//
// What the output looks like:
//
//   - GitHub-flavoured Markdown: tables, strikethrough, task lists and bare
//     URLs as links.
//   - Every heading gets a unique id derived from its text that keeps letters
//     of any script ("## Pourquoi ça marche" → "pourquoi-ça-marche",
//     "## لماذا" → "لماذا"), and its text is wrapped in a link to itself
//     (<a class="anchor" href="#id">), unless the heading already contains a
//     link. Level 2 and 3 headings form the table of contents.
//   - Code blocks are highlighted by chroma with CSS classes, never inline
//     styles, inside <pre class="chroma" dir="ltr" tabindex="0">: they stay
//     left to right in Arabic and can be scrolled with the keyboard. Inline
//     code gets dir="ltr" too. HighlightCSS returns the matching stylesheet.
//   - Links to an absolute http(s) URL on another host open in a new tab with
//     rel="noopener noreferrer" (see WithInternalHosts).
//   - Images get loading="lazy" decoding="async", and width and height when
//     the title ends with "=<width>x<height>": ![A chart](/img/c.png "=800x450")
//     or ![A chart](/img/c.png "Caption =800x450"). The size is removed from
//     the title, and an empty title is dropped. With WithImages, an image
//     whose file has WebP copies becomes a <picture> offering them, with
//     the file as the fallback.
//   - Table cell alignment becomes a class (align-start, align-center,
//     align-end) instead of a style attribute; left and right in Markdown
//     mean start and end, so the same table reads naturally in Arabic.
//   - Raw HTML is not interpreted: it is shown as text, escaped. Dangerous
//     link schemes (javascript: and the like) are dropped.
package markdown

import (
	"bytes"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"sync"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// Heading is an entry of a document's table of contents.
type Heading struct {
	ID    string `json:"id"`
	Text  string `json:"text"`
	Level int    `json:"level"`
}

// Document is the result of converting one Markdown source.
type Document struct {
	// HTML is the rendered body.
	HTML string
	// TOC lists the level 2 and 3 headings in document order.
	TOC []Heading
	// Words is the number of words a reader reads, code included; see
	// CountWords.
	Words int
}

// Option configures a Renderer.
type Option func(*config)

type config struct {
	internalHosts map[string]bool
	reservedIDs   []string
	resolveImage  ImageResolver
}

// ImageFile is where an image is served from.
type ImageFile struct {
	// Src is the address of the file.
	Src string
	// WebP is the srcset of its WebP copies ("<address> 400w, ..."), or
	// "" when it has none; Sizes is the sizes attribute that goes with it.
	WebP, Sizes string
}

// ImageResolver returns where the image written src, shown at
// width×height pixels, is served from, or an error when there is no such
// image or the size does not suit it.
type ImageResolver func(src string, width, height int) (ImageFile, error)

// WithImages checks every image of a document: it must have alternative
// text and a size ("=<width>x<height>" in its title), and resolve must
// know it. Convert then fails, naming each image at fault.
func WithImages(resolve ImageResolver) Option {
	return func(c *config) { c.resolveImage = resolve }
}

// WithInternalHosts declares hosts (such as "northbeam.dev") whose absolute
// links are the site's own and so open in the same tab. Comparison ignores
// case and a leading "www.".
func WithInternalHosts(hosts ...string) Option {
	return func(c *config) {
		for _, h := range hosts {
			c.internalHosts[normalizeHost(h)] = true
		}
	}
}

// WithReservedIDs declares element ids the page around the Markdown already
// uses (for example "main" for a skip link target); headings then get
// another id ("main-1").
func WithReservedIDs(ids ...string) Option {
	return func(c *config) { c.reservedIDs = append(c.reservedIDs, ids...) }
}

// Renderer converts Markdown to HTML. It is immutable and safe for
// concurrent use.
type Renderer struct {
	md           goldmark.Markdown
	reservedIDs  []string
	resolveImage ImageResolver
}

// New returns a Renderer configured as the package documentation describes.
func New(opts ...Option) *Renderer {
	cfg := config{internalHosts: map[string]bool{}}
	for _, o := range opts {
		o(&cfg)
	}
	md := goldmark.New(
		goldmark.WithExtensions(
			extension.GFM, // tables, strikethrough, task lists, linkify
		),
		goldmark.WithParserOptions(
			parser.WithASTTransformers(util.Prioritized(&transformer{internalHosts: cfg.internalHosts}, 100)),
		),
		goldmark.WithRendererOptions(
			// Lower values win over goldmark's own renderers (1000) and the
			// table extension's (500).
			renderer.WithNodeRenderers(util.Prioritized(&nodeRenderer{}, 100)),
			// Alignment becomes a class, set by the transformer.
			extension.WithTableCellAlignMethod(extension.TableCellAlignNone),
		),
	)
	return &Renderer{md: md, reservedIDs: cfg.reservedIDs, resolveImage: cfg.resolveImage}
}

// defaultRenderer is built on first use and never changes afterwards.
var defaultRenderer = sync.OnceValue(func() *Renderer { return New() })

// Render converts src with the default Renderer (New without options) and
// returns the HTML and the table of contents.
func Render(src []byte) (html string, toc []Heading, err error) {
	return defaultRenderer().Render(src)
}

// CountWords counts the words of src with the default Renderer; see
// (*Renderer).CountWords.
func CountWords(src []byte) int {
	return defaultRenderer().CountWords(src)
}

// Render converts src and returns the HTML and the table of contents.
func (r *Renderer) Render(src []byte) (html string, toc []Heading, err error) {
	doc, err := r.Convert(src)
	if err != nil {
		return "", nil, err
	}
	return doc.HTML, doc.TOC, nil
}

// Convert converts src into a Document: HTML, table of contents and word
// count from a single parse.
func (r *Renderer) Convert(src []byte) (Document, error) {
	root, err := r.checked(src)
	if err != nil {
		return Document{}, err
	}
	html, err := r.render(root, src)
	if err != nil {
		return Document{}, err
	}
	return Document{HTML: html, TOC: tableOfContents(root, src), Words: countWords(plainText(root, src, true))}, nil
}

// Outline is Convert without the HTML: the same mistakes, the table of
// contents and the word count, at a fraction of the cost (the code
// blocks are not highlighted). HTML renders the HTML later, on demand.
func (r *Renderer) Outline(src []byte) (Document, error) {
	root, err := r.checked(src)
	if err != nil {
		return Document{}, err
	}
	return Document{TOC: tableOfContents(root, src), Words: countWords(plainText(root, src, true))}, nil
}

// HTML renders src, as Convert does, into HTML alone.
func (r *Renderer) HTML(src []byte) (string, error) {
	root, err := r.checked(src)
	if err != nil {
		return "", err
	}
	return r.render(root, src)
}

// checked parses src and checks its images (WithImages).
func (r *Renderer) checked(src []byte) (ast.Node, error) {
	root := r.parse(src)
	if r.resolveImage != nil {
		if err := r.checkImages(root, src); err != nil {
			return nil, err
		}
	}
	return root, nil
}

func (r *Renderer) render(root ast.Node, src []byte) (string, error) {
	var buf bytes.Buffer
	if err := r.md.Renderer().Render(&buf, src, root); err != nil {
		return "", fmt.Errorf("markdown: render: %w", err)
	}
	return buf.String(), nil
}

// checkImages applies WithImages to every image of root.
func (r *Renderer) checkImages(root ast.Node, src []byte) error {
	var errs []error
	_ = ast.Walk(root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		img, ok := n.(*ast.Image)
		if !entering || !ok {
			return ast.WalkContinue, nil
		}
		dest := string(img.Destination)
		var alt strings.Builder
		for c := img.FirstChild(); c != nil; c = c.NextSibling() {
			alt.WriteString(plainText(c, src, false))
		}
		if strings.TrimSpace(alt.String()) == "" {
			errs = append(errs, fmt.Errorf("image %q: no alternative text (![what it shows](%s))", dest, dest))
		}
		width, height := sizeAttribute(img, "width"), sizeAttribute(img, "height")
		if width == 0 {
			errs = append(errs, fmt.Errorf("image %q: no size (a title ending in \"=<width>x<height>\")", dest))
		}
		resolved, err := r.resolveImage(dest, width, height)
		if err != nil {
			errs = append(errs, fmt.Errorf("image %q: %w", dest, err))
		} else {
			img.Destination = []byte(resolved.Src)
			if resolved.WebP != "" {
				img.SetAttributeString(webpAttribute, resolved.WebP)
				img.SetAttributeString(sizesAttribute, resolved.Sizes)
			}
		}
		return ast.WalkContinue, nil
	})
	return errors.Join(errs...)
}

// sizeAttribute returns the image's width or height set by the
// transformer, or 0.
func sizeAttribute(img *ast.Image, name string) int {
	v, ok := img.AttributeString(name)
	if !ok {
		return 0
	}
	s, _ := v.(string)
	n, _ := strconv.Atoi(s)
	return n
}

// CountWords counts the words of src as a reader meets them: the text of
// paragraphs, headings, lists, tables and code, without the Markdown syntax
// and link targets. See ReadingMinutes.
func (r *Renderer) CountWords(src []byte) int {
	return countWords(plainText(r.parse(src), src, true))
}

func (r *Renderer) parse(src []byte) ast.Node {
	ids := newHeadingIDs(r.reservedIDs)
	pc := parser.NewContext(parser.WithIDs(ids))
	return r.md.Parser().Parse(text.NewReader(src), parser.WithContext(pc))
}

// tableOfContents lists the level 2 and 3 headings of root.
func tableOfContents(root ast.Node, src []byte) []Heading {
	var toc []Heading
	_ = ast.Walk(root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		h, ok := n.(*ast.Heading)
		if !entering || !ok {
			return ast.WalkContinue, nil
		}
		if h.Level == 2 || h.Level == 3 {
			id, _ := h.AttributeString("id")
			idBytes, _ := id.([]byte)
			toc = append(toc, Heading{
				ID:    string(idBytes),
				Text:  strings.TrimSpace(plainText(h, src, false)),
				Level: h.Level,
			})
		}
		return ast.WalkSkipChildren, nil
	})
	return toc
}

// isExternal reports whether dest is an absolute http(s) URL whose host is
// not one of internal.
func isExternal(dest []byte, internal map[string]bool) bool {
	u, err := url.Parse(string(dest))
	if err != nil || u.Host == "" {
		return false
	}
	if s := strings.ToLower(u.Scheme); s != "http" && s != "https" {
		return false
	}
	return !internal[normalizeHost(u.Hostname())]
}

func normalizeHost(h string) string {
	return strings.TrimPrefix(strings.ToLower(h), "www.")
}
