package markdown

import (
	"strconv"
	"strings"
	"unicode"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
)

// headingIDs hands out unique element ids for one document. It implements
// parser.IDs and lives only as long as one parse.
type headingIDs struct {
	used map[string]bool
}

var _ parser.IDs = (*headingIDs)(nil)

func newHeadingIDs(reserved []string) *headingIDs {
	ids := &headingIDs{used: map[string]bool{}}
	for _, id := range reserved {
		ids.used[id] = true
	}
	return ids
}

// Generate returns Slug(value), made unique with a "-1", "-2"… suffix.
func (s *headingIDs) Generate(value []byte, kind ast.NodeKind) []byte {
	id := Slug(string(value))
	if id == "" {
		id = "section"
	}
	if !s.used[id] {
		s.used[id] = true
		return []byte(id)
	}
	for i := 1; ; i++ {
		candidate := id + "-" + strconv.Itoa(i)
		if !s.used[candidate] {
			s.used[candidate] = true
			return []byte(candidate)
		}
	}
}

// Put implements parser.IDs.
func (s *headingIDs) Put(value []byte) { s.used[string(value)] = true }

// Slug turns text into an id fragment: lower case, letters, digits and
// combining marks of any script kept, every run of other characters turned
// into a single hyphen. "Qu'est-ce qu'un MVP ?" → "qu-est-ce-qu-un-mvp",
// "Étape 2 : décider" → "étape-2-décider", "ما الذي نسلّمه؟" → "ما-الذي-نسلّمه".
// It returns "" when text has no letter or digit.
func Slug(text string) string {
	var b strings.Builder
	pendingHyphen := false
	for _, r := range text {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Mc, r):
			if r == 'ـ' { // Arabic tatweel only stretches a word on screen.
				continue
			}
			if pendingHyphen && b.Len() > 0 {
				b.WriteByte('-')
			}
			pendingHyphen = false
			b.WriteRune(unicode.ToLower(r))
		default:
			pendingHyphen = true
		}
	}
	return b.String()
}
