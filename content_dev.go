//go:build !prod

package main

import "embed"

// embeddedContent is empty outside a production binary: `go run .` reads
// content/ from disk, so that -dev sees edits, and embeds none of it. An
// embedded file is an input of the program's build, so a post in the
// program would make every edit to it a new program: a new Go build ID,
// which salts the renders' cache and names the content's index, so that a
// restart after one post changed would render and parse the whole site
// again, and `go run .` would link megabytes of posts first
// (docs/ARCHITECTURE.md, Starting).
var embeddedContent embed.FS
