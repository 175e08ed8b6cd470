//go:build prod

package main

import "embed"

// embeddedContent is the content a production binary serves (content_dev.go
// says why only it embeds it).
//
//go:embed all:content
var embeddedContent embed.FS
