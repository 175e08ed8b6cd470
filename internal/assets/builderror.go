package assets

import (
	"fmt"
	"slices"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
)

// BuildError is a build that failed: esbuild's messages, each at its
// place in the source.
type BuildError struct {
	Messages []Message
}

// Message is one of esbuild's errors: its text, and where it is (File is
// empty when esbuild names no place).
type Message struct {
	Text     string `json:"text"`
	File     string `json:"file"`
	Line     int    `json:"line"`
	Column   int    `json:"column"`
	LineText string `json:"lineText"`
}

// newBuildError keeps each message once: a file in two bundles fails both.
func newBuildError(msgs []api.Message) *BuildError {
	e := &BuildError{}
	for _, m := range msgs {
		out := Message{Text: m.Text}
		if m.Location != nil {
			out.File, out.Line, out.Column, out.LineText = m.Location.File, m.Location.Line, m.Location.Column, m.Location.LineText
		}
		if !slices.Contains(e.Messages, out) {
			e.Messages = append(e.Messages, out)
		}
	}
	return e
}

// Error says every message as esbuild does: file:line:column, the text, and
// the line it is about.
func (e *BuildError) Error() string {
	var b strings.Builder
	b.WriteString("assets: build:")
	for _, m := range e.Messages {
		b.WriteString("\n")
		if m.File != "" {
			fmt.Fprintf(&b, "%s:%d:%d: ", m.File, m.Line, m.Column)
		}
		b.WriteString(m.Text)
		if m.LineText != "" {
			fmt.Fprintf(&b, "\n    %d | %s", m.Line, m.LineText)
		}
	}
	return b.String()
}
