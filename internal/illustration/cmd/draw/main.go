// Command draw draws the pictures that ship with the content (package
// illustration) and writes them under content/:
//
//	go run ./internal/illustration/cmd/draw [-content content]
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/northbeam/site/internal/illustration"
)

func main() {
	content := flag.String("content", "content", "the content directory")
	flag.Parse()
	for _, p := range illustration.Pictures() {
		data, err := p.PNG()
		if err != nil {
			fmt.Fprintln(os.Stderr, "draw:", err)
			os.Exit(1)
		}
		file := filepath.Join(*content, filepath.FromSlash(p.Path))
		// Pictures committed under content/, published on the site.
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil { //nolint:gosec // G301: public files
			fmt.Fprintln(os.Stderr, "draw:", err)
			os.Exit(1)
		}
		if err := os.WriteFile(file, data, 0o644); err != nil { //nolint:gosec // G306: public files
			fmt.Fprintln(os.Stderr, "draw:", err)
			os.Exit(1)
		}
		fmt.Printf("%s  %d×%d  %d bytes\n", file, p.Width, p.Height, len(data))
	}
}
