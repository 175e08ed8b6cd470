package markdown

import (
	"bytes"
	"html"
	"strings"

	"github.com/alecthomas/chroma/v2"
	chromahtml "github.com/alecthomas/chroma/v2/formatters/html"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/alecthomas/chroma/v2/styles"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	extast "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/renderer"
	gmhtml "github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/util"
)

// nodeRenderer replaces goldmark's HTML for headings (self links), code
// blocks (chroma, left to right), tables (in a box that scrolls sideways
// when a phone is narrower than the table) and raw HTML (escaped).
type nodeRenderer struct{}

// RegisterFuncs implements renderer.NodeRenderer.
func (r *nodeRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindHeading, r.renderHeading)
	reg.Register(ast.KindFencedCodeBlock, r.renderCodeBlock)
	reg.Register(ast.KindCodeBlock, r.renderCodeBlock)
	reg.Register(ast.KindRawHTML, r.renderRawHTML)
	reg.Register(ast.KindHTMLBlock, r.renderHTMLBlock)
	reg.Register(extast.KindTable, r.renderTable)
	reg.Register(ast.KindImage, r.renderImage)
}

// The attributes by which WithImages hands an image's WebP copies to
// renderImage; not HTML attributes, so never written on the <img>.
const (
	webpAttribute  = "x-webp-srcset"
	sizesAttribute = "x-sizes"
)

// renderImage writes an image as goldmark does, inside a <picture> that
// offers its WebP copies first when it has some.
func (r *nodeRenderer) renderImage(w util.BufWriter, src []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	n := node.(*ast.Image)
	webp, hasWebP := n.AttributeString(webpAttribute)
	if hasWebP {
		sizes, _ := n.AttributeString(sizesAttribute)
		_, _ = w.WriteString(`<picture><source type="image/webp" srcset="`)
		_, _ = w.Write(util.EscapeHTML([]byte(webp.(string))))
		if s, _ := sizes.(string); s != "" {
			_, _ = w.WriteString(`" sizes="`)
			_, _ = w.Write(util.EscapeHTML([]byte(s)))
		}
		_, _ = w.WriteString(`">`)
	}
	_, _ = w.WriteString(`<img src="`)
	dest := util.URLEscape(n.Destination, true)
	if !gmhtml.IsDangerousURL(dest) {
		_, _ = w.Write(util.EscapeHTML(dest))
	}
	_, _ = w.WriteString(`" alt="`)
	var alt strings.Builder
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		alt.WriteString(plainText(c, src, false))
	}
	_, _ = w.Write(util.EscapeHTML([]byte(alt.String())))
	_ = w.WriteByte('"')
	if n.Title != nil {
		_, _ = w.WriteString(` title="`)
		_, _ = w.Write(util.EscapeHTML(n.Title))
		_ = w.WriteByte('"')
	}
	gmhtml.RenderAttributes(w, n, gmhtml.ImageAttributeFilter)
	_ = w.WriteByte('>')
	if hasWebP {
		_, _ = w.WriteString(`</picture>`)
	}
	return ast.WalkSkipChildren, nil
}

// renderTable writes the table element inside its scroll box; the table
// extension still writes the rows and cells. The box is in the tab order,
// so that it can be scrolled with the keyboard, and is a region named by
// the heading the table sits under (the pattern of Adrian Roselli's
// "Under-Engineered Responsive Tables").
func (r *nodeRenderer) renderTable(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if entering {
		_, _ = w.WriteString(`<div class="table-scroll" tabindex="0"`)
		if id := headingAbove(node); id != nil {
			_, _ = w.WriteString(` role="region" aria-labelledby="`)
			_, _ = w.Write(util.EscapeHTML(id))
			_ = w.WriteByte('"')
		}
		_, _ = w.WriteString(`><table`)
		gmhtml.RenderAttributes(w, node, extension.TableAttributeFilter)
		_, _ = w.WriteString(">\n")
		return ast.WalkContinue, nil
	}
	_, _ = w.WriteString("</table></div>\n")
	return ast.WalkContinue, nil
}

// headingAbove returns the id of the nearest heading before n among its
// siblings, or nil.
func headingAbove(n ast.Node) []byte {
	for s := n.PreviousSibling(); s != nil; s = s.PreviousSibling() {
		if h, ok := s.(*ast.Heading); ok {
			if id, ok := h.AttributeString("id"); ok {
				if b, ok := id.([]byte); ok {
					return b
				}
			}
			return nil
		}
	}
	return nil
}

func (r *nodeRenderer) renderHeading(w util.BufWriter, src []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	n := node.(*ast.Heading)
	tag := "h" + string("0123456"[n.Level])
	id, _ := n.AttributeString("id")
	idBytes, _ := id.([]byte)
	selfLink := len(idBytes) > 0 && !containsLink(n)
	if entering {
		_, _ = w.WriteString("<" + tag)
		gmhtml.RenderAttributes(w, n, gmhtml.HeadingAttributeFilter)
		_ = w.WriteByte('>')
		if selfLink {
			_, _ = w.WriteString(`<a class="anchor" href="#`)
			_, _ = w.Write(util.EscapeHTML(idBytes))
			_, _ = w.WriteString(`">`)
		}
		return ast.WalkContinue, nil
	}
	if selfLink {
		_, _ = w.WriteString("</a>")
	}
	_, _ = w.WriteString("</" + tag + ">\n")
	return ast.WalkContinue, nil
}

// containsLink reports whether n has a link among its descendants; a link
// cannot be nested in the heading's self link.
func containsLink(n ast.Node) bool {
	found := false
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering && (c.Kind() == ast.KindLink || c.Kind() == ast.KindAutoLink) {
			found = true
			return ast.WalkStop, nil
		}
		return ast.WalkContinue, nil
	})
	return found
}

func (r *nodeRenderer) renderCodeBlock(w util.BufWriter, src []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	var lang string
	if n, ok := node.(*ast.FencedCodeBlock); ok {
		lang = codeLanguage(n.Language(src))
	}
	var code bytes.Buffer
	lines := node.Lines()
	for i := range lines.Len() {
		seg := lines.At(i)
		code.Write(seg.Value(src))
	}

	var lexer chroma.Lexer
	if lang != "" {
		lexer = lexers.Get(lang)
	}
	if lexer == nil {
		lexer = lexers.Fallback // plain text, so every block has the same markup
	}
	tokens, err := chroma.Coalesce(lexer).Tokenise(nil, code.String())
	if err == nil {
		formatter := chromahtml.New(
			chromahtml.WithClasses(true),
			chromahtml.WithPreWrapper(preWrapper{lang: lang}),
		)
		// With classes the style only names the classes; the colours live
		// in HighlightCSS.
		var out bytes.Buffer
		if err = formatter.Format(&out, styles.Fallback, tokens); err == nil {
			_, _ = w.Write(out.Bytes())
			_ = w.WriteByte('\n')
			return ast.WalkSkipChildren, nil
		}
	}
	// Chroma could not tokenise: the same wrapper around escaped text.
	p := preWrapper{lang: lang}
	_, _ = w.WriteString(p.Start(true, ` class="chroma"`))
	_, _ = w.WriteString(html.EscapeString(code.String()))
	_, _ = w.WriteString(p.End(true) + "\n")
	return ast.WalkSkipChildren, nil
}

// codeLanguage keeps the characters a language name can hold ("c++",
// "objective-c", "c#"), so the info string cannot break out of the class
// attribute.
func codeLanguage(info []byte) string {
	lang := strings.ToLower(string(info))
	if strings.IndexFunc(lang, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || strings.ContainsRune("+#._-", r))
	}) >= 0 {
		return ""
	}
	return lang
}

// preWrapper writes the <pre> around highlighted code: left to right
// whatever the page direction, and focusable so a keyboard can scroll it.
type preWrapper struct{ lang string }

// Start implements chromahtml.PreWrapper.
func (p preWrapper) Start(code bool, classAttr string) string {
	var b strings.Builder
	b.WriteString(`<pre` + classAttr + ` dir="ltr" tabindex="0"`)
	if p.lang != "" {
		b.WriteString(` data-lang="` + p.lang + `"`)
	}
	b.WriteString(`>`)
	if code {
		if p.lang != "" {
			b.WriteString(`<code class="language-` + p.lang + `">`)
		} else {
			b.WriteString(`<code>`)
		}
	}
	return b.String()
}

// End implements chromahtml.PreWrapper.
func (p preWrapper) End(code bool) string {
	if code {
		return `</code></pre>`
	}
	return `</pre>`
}

// renderRawHTML shows inline HTML as the text the author typed; comments
// are dropped.
func (r *nodeRenderer) renderRawHTML(w util.BufWriter, src []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkSkipChildren, nil
	}
	n := node.(*ast.RawHTML)
	var raw []byte
	for i := range n.Segments.Len() {
		seg := n.Segments.At(i)
		raw = append(raw, seg.Value(src)...)
	}
	if !bytes.HasPrefix(raw, []byte("<!--")) {
		_, _ = w.Write(util.EscapeHTML(raw))
	}
	return ast.WalkSkipChildren, nil
}

// renderHTMLBlock shows a block of HTML as an escaped paragraph; comment
// blocks are dropped.
func (r *nodeRenderer) renderHTMLBlock(w util.BufWriter, src []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	n := node.(*ast.HTMLBlock)
	if !entering || n.HTMLBlockType == ast.HTMLBlockType2 {
		return ast.WalkSkipChildren, nil
	}
	var raw []byte
	lines := n.Lines()
	for i := range lines.Len() {
		seg := lines.At(i)
		raw = append(raw, seg.Value(src)...)
	}
	if n.HasClosure() {
		raw = append(raw, n.ClosureLine.Value(src)...)
	}
	_, _ = w.WriteString("<p>")
	_, _ = w.Write(util.EscapeHTML(bytes.TrimRight(raw, "\n")))
	_, _ = w.WriteString("</p>\n")
	return ast.WalkSkipChildren, nil
}
