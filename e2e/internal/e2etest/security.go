package e2etest

import (
	"strings"
)

// GrepLines returns the lines of s that contain sub.
func GrepLines(s, sub string) string {
	var b strings.Builder
	for line := range strings.Lines(s) {
		if strings.Contains(line, sub) {
			b.WriteString(line)
		}
	}
	return b.String()
}
