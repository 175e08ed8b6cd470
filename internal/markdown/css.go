package markdown

import (
	"fmt"
	"slices"
	"strings"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/styles"
)

// Theme is a colour scheme for highlighted code.
type Theme struct {
	style *chroma.Style
}

// LightTheme returns the light theme: chroma's "github" with GitHub's code
// background and the few colours that fell short of WCAG AA contrast (4.5:1)
// darkened.
func LightTheme() Theme {
	b := styles.Get("github").Builder()
	b.Add(chroma.Background, "#1f2328 bg:#f6f8fa")
	b.Add(chroma.NameBuiltinPseudo, "#59636e")
	return mustTheme(b)
}

// DarkTheme returns the dark theme: chroma's "github-dark".
func DarkTheme() Theme {
	return mustTheme(styles.Get("github-dark").Builder())
}

func mustTheme(b *chroma.StyleBuilder) Theme {
	s, err := b.Build()
	if err != nil {
		panic(fmt.Sprintf("markdown: building a chroma style: %v", err)) // the entries are constants
	}
	return Theme{style: s}
}

// HighlightCSS returns the stylesheet for code blocks rendered by this
// package: LightTheme's rules, then DarkTheme's inside
// "@media (prefers-color-scheme: dark)". Both themes style the same set of
// classes, so whichever applies never inherits a colour from the other.
// Selectors start with ".chroma", the class of every code block's <pre>.
func HighlightCSS() string {
	return ThemeCSS(LightTheme(), DarkTheme(), "@media (prefers-color-scheme: dark)")
}

// ThemeCSS returns the rules of light, then the rules of dark wrapped in the
// block opened by darkWrapper (a media query such as
// "@media (prefers-color-scheme: dark)", or a selector such as
// "[data-theme=dark]" with CSS nesting). Use it to switch themes another way
// than HighlightCSS does.
func ThemeCSS(light, dark Theme, darkWrapper string) string {
	lightRules, darkRules := light.rules(), dark.rules()
	var classes []string
	for class := range lightRules {
		classes = append(classes, class)
	}
	for class := range darkRules {
		if _, ok := lightRules[class]; !ok {
			classes = append(classes, class)
		}
	}
	slices.Sort(classes)

	var b strings.Builder
	writeTheme(&b, light, lightRules, nil, classes)
	b.WriteString(darkWrapper + " {\n")
	writeTheme(&b, dark, darkRules, lightRules, classes)
	b.WriteString("}\n")
	return b.String()
}

// declarations is a token class's look in one theme; zero values mean
// "as the surrounding code".
type declarations struct {
	color, background       string
	bold, italic, underline bool
}

// rules returns the look of every token class this theme styles differently
// from its plain text.
func (t Theme) rules() map[string]declarations {
	bg := t.style.Get(chroma.Background)
	out := map[string]declarations{}
	for tt, class := range chroma.StandardTypes {
		if class == "" || skipToken(tt) {
			continue
		}
		e := t.style.Get(tt).Sub(bg)
		d := declarations{
			bold:      e.Bold == chroma.Yes,
			italic:    e.Italic == chroma.Yes,
			underline: e.Underline == chroma.Yes,
		}
		if e.Colour.IsSet() {
			d.color = e.Colour.String()
		}
		if e.Background.IsSet() {
			d.background = e.Background.String()
		}
		if d != (declarations{}) {
			out[class] = d
		}
	}
	return out
}

// skipToken leaves out the wrapper and line-number classes (the site does
// not number lines), white space (no glyphs) and lexer errors (a red box
// around a character the lexer did not expect helps no reader).
func skipToken(tt chroma.TokenType) bool {
	switch tt {
	case chroma.Background, chroma.PreWrapper, chroma.Line, chroma.CodeLine, chroma.LineNumbers,
		chroma.LineNumbersTable, chroma.LineHighlight, chroma.LineTable, chroma.LineTableTD,
		chroma.LineLink, chroma.TextWhitespace, chroma.Error:
		return true
	}
	return false
}

// writeTheme writes the rules of one theme for the classes it styles. When
// earlier is not nil, a property the earlier theme sets and this one does
// not is reset, so this block fully overrides the earlier one.
func writeTheme(b *strings.Builder, t Theme, own, earlier map[string]declarations, classes []string) {
	bg := t.style.Get(chroma.Background)
	fmt.Fprintf(b, ".chroma { color: %s; background-color: %s; }\n", bg.Colour, bg.Background)

	// Classes with the same declarations share one rule.
	var order []string
	selectors := map[string][]string{}
	for _, class := range classes {
		d, o := own[class], earlier[class]
		var decl []string
		switch {
		case d.color != "":
			decl = append(decl, "color: "+d.color)
		case o.color != "":
			decl = append(decl, "color: inherit")
		}
		switch {
		case d.background != "":
			decl = append(decl, "background-color: "+d.background)
		case o.background != "":
			decl = append(decl, "background-color: transparent")
		}
		switch {
		case d.bold:
			decl = append(decl, "font-weight: bold")
		case o.bold:
			decl = append(decl, "font-weight: normal")
		}
		switch {
		case d.italic:
			decl = append(decl, "font-style: italic")
		case o.italic:
			decl = append(decl, "font-style: normal")
		}
		switch {
		case d.underline:
			decl = append(decl, "text-decoration: underline")
		case o.underline:
			decl = append(decl, "text-decoration: none")
		}
		if len(decl) == 0 {
			continue
		}
		key := strings.Join(decl, "; ")
		if _, ok := selectors[key]; !ok {
			order = append(order, key)
		}
		selectors[key] = append(selectors[key], ".chroma ."+class)
	}
	for _, key := range order {
		fmt.Fprintf(b, "%s { %s; }\n", strings.Join(selectors[key], ", "), key)
	}
}
