package markdown

import (
	"regexp"

	"github.com/yuin/goldmark/ast"
	extast "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// transformer adjusts the parsed document before rendering: heading ids,
// external links, image loading hints and sizes, table alignment classes and
// the direction of inline code.
type transformer struct {
	internalHosts map[string]bool // read only
}

// imageSize matches a title ending in "=<width>x<height>".
var imageSize = regexp.MustCompile(`^(.*?)\s*=([1-9][0-9]{0,4})x([1-9][0-9]{0,4})$`)

// Transform implements parser.ASTTransformer.
func (t *transformer) Transform(doc *ast.Document, reader text.Reader, pc parser.Context) {
	src := reader.Source()
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Heading:
			if _, ok := n.AttributeString("id"); !ok {
				n.SetAttributeString("id", pc.IDs().Generate([]byte(plainText(n, src, false)), ast.KindHeading))
			}
		case *ast.Link:
			if isExternal(n.Destination, t.internalHosts) {
				setExternal(n)
			}
		case *ast.AutoLink:
			if n.AutoLinkType == ast.AutoLinkURL && isExternal(n.URL(src), t.internalHosts) {
				setExternal(n)
			}
		case *ast.Image:
			n.SetAttributeString("loading", "lazy")
			n.SetAttributeString("decoding", "async")
			if m := imageSize.FindSubmatch(n.Title); m != nil {
				n.SetAttributeString("width", string(m[2]))
				n.SetAttributeString("height", string(m[3]))
				n.Title = m[1]
			}
			if len(n.Title) == 0 {
				n.Title = nil
			}
		case *ast.CodeSpan:
			// Keeps flags, paths and punctuation in order inside Arabic text.
			n.SetAttributeString("dir", "ltr")
		case *extast.TableCell:
			switch n.Alignment {
			case extast.AlignLeft:
				n.SetAttributeString("class", "align-start")
			case extast.AlignCenter:
				n.SetAttributeString("class", "align-center")
			case extast.AlignRight:
				n.SetAttributeString("class", "align-end")
			}
		}
		return ast.WalkContinue, nil
	})
}

func setExternal(n ast.Node) {
	n.SetAttributeString("rel", "noopener noreferrer")
	n.SetAttributeString("target", "_blank")
}
