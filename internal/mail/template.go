package mail

import (
	"bytes"
	"fmt"
	"io/fs"
	"path"
	"strings"
	"text/template"
	"unicode"
)

// ParseTemplate reads the mail template at name in content. A template
// writes a first line "Subject: ...", a blank line, then the text; a
// missing key is an error, not "<no value>".
func ParseTemplate(content fs.FS, name string) (*template.Template, error) {
	src, err := fs.ReadFile(content, name)
	if err != nil {
		return nil, fmt.Errorf("mail: template: %w", err)
	}
	t, err := template.New(path.Base(name)).Option("missingkey=error").Parse(string(src))
	if err != nil {
		return nil, fmt.Errorf("mail: template %s: %w", name, err)
	}
	return t, nil
}

// Render executes t with data and splits the result into subject and text.
func Render(t *template.Template, data any) (Message, error) {
	var buf bytes.Buffer
	if err := t.Execute(&buf, data); err != nil {
		return Message{}, fmt.Errorf("mail: template %s: %w", t.Name(), err)
	}
	out := strings.ReplaceAll(buf.String(), "\r\n", "\n")
	head, body, ok := strings.Cut(out, "\n\n")
	subject, isSubject := strings.CutPrefix(head, "Subject:")
	if !ok || !isSubject || strings.Contains(head, "\n") {
		return Message{}, fmt.Errorf("mail: template %s: want a first line \"Subject: ...\" and a blank line", t.Name())
	}
	subject = strings.TrimSpace(subject)
	if subject == "" {
		return Message{}, fmt.Errorf("mail: template %s: empty subject", t.Name())
	}
	return Message{Subject: subject, Text: strings.TrimSpace(body) + "\n"}, nil
}

// OneLine replaces control characters and Unicode's line and paragraph
// separators (line breaks, all of them) by spaces, so that a value placed in
// a subject or a header line stays on its line.
func OneLine(s string) string {
	return strings.Join(strings.FieldsFunc(s, func(r rune) bool {
		return unicode.IsControl(r) || r == '\u2028' || r == '\u2029'
	}), " ")
}

// QuoteMark begins every line of a quoted block (Quote), as mail programs
// mark a quotation (RFC 3676).
const QuoteMark = ">"

// Quote returns text that a visitor typed (a booking's topic, the reason
// of a cancellation, a contact message) as a quoted block: each of its
// lines begins with "> ", an empty one with ">", so that none can pass
// for a line of the template around it, such as "Call them at: …", a
// "Video call:" link or a "--" signature (docs/ARCHITECTURE.md, Data, "A
// visitor's mail in two parts"). Line breaks in any form (CR LF, CR,
// Unicode's line and paragraph separators) become "\n"; the other
// control characters, and the bidirectional embeddings, overrides and
// isolates that could reorder what the reader sees, are removed. An empty
// text stays empty.
func Quote(s string) string {
	s = strings.NewReplacer("\r\n", "\n", "\r", "\n", "\u2028", "\n", "\u2029", "\n").Replace(s)
	s = strings.Map(func(r rune) rune {
		switch {
		case r == '\n' || r == '\t':
			return r
		case unicode.IsControl(r), r >= '\u202A' && r <= '\u202E', r >= '\u2066' && r <= '\u2069':
			return -1
		}
		return r
	}, s)
	s = strings.Trim(s, "\n")
	if strings.TrimSpace(s) == "" {
		return ""
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		l = strings.TrimRight(l, " \t")
		if l == "" {
			lines[i] = QuoteMark
		} else {
			lines[i] = QuoteMark + " " + l
		}
	}
	return strings.Join(lines, "\n")
}
