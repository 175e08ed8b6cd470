package markdown

import (
	"math"
	"strings"
	"unicode"

	"github.com/yuin/goldmark/ast"
)

// WordsPerMinute is the reading speed ReadingMinutes assumes.
const WordsPerMinute = 220

// ReadingMinutes returns the minutes needed to read words words at
// WordsPerMinute, rounded up, and at least 1.
func ReadingMinutes(words int) int {
	return max(1, int(math.Ceil(float64(words)/WordsPerMinute)))
}

// plainText returns the text a reader sees in n: inline text, code spans,
// link labels and, when blocks is true, code blocks, with line breaks and
// block boundaries as white space. Image descriptions are left out (they
// are read by nobody who sees the image).
func plainText(n ast.Node, src []byte, blocks bool) string {
	var b strings.Builder
	_ = ast.Walk(n, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			if n.Type() == ast.TypeBlock && blocks {
				b.WriteByte('\n')
			}
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Text:
			b.Write(n.Segment.Value(src))
			if n.SoftLineBreak() || n.HardLineBreak() {
				b.WriteByte(' ')
			}
		case *ast.String:
			b.Write(n.Value)
		case *ast.AutoLink:
			b.Write(n.Label(src))
		case *ast.Image:
			return ast.WalkSkipChildren, nil
		case *ast.RawHTML:
			for i := range n.Segments.Len() {
				seg := n.Segments.At(i)
				b.Write(seg.Value(src))
			}
		case *ast.FencedCodeBlock, *ast.CodeBlock, *ast.HTMLBlock:
			if blocks {
				lines := n.Lines()
				for i := range lines.Len() {
					seg := lines.At(i)
					b.Write(seg.Value(src))
				}
			}
		}
		return ast.WalkContinue, nil
	})
	return b.String()
}

// countWords counts the runs of non-space characters that hold at least one
// letter or digit. That works for Latin and Arabic scripts alike, where
// words are separated by spaces; a lone dash or bullet is not a word, and an
// em or en dash between two words separates them. Scripts written without
// spaces (Chinese, Japanese, Thai) would need a segmenter.
func countWords(s string) int {
	words, inWord, hasLetter := 0, false, false
	for _, r := range s {
		if unicode.IsSpace(r) || r == '—' || r == '–' {
			if inWord && hasLetter {
				words++
			}
			inWord, hasLetter = false, false
			continue
		}
		inWord = true
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			hasLetter = true
		}
	}
	if inWord && hasLetter {
		words++
	}
	return words
}
