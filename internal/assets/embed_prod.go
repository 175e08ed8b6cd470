//go:build prod

package assets

import (
	"embed"
	"io/fs"
)

// dist is written by `go run . build -out internal/assets/dist` before `go build -tags prod`.
//
//go:embed all:dist
var dist embed.FS

// Embedded returns the bundle compiled into a production binary.
func Embedded() fs.FS {
	sub, err := fs.Sub(dist, "dist")
	if err != nil {
		panic(err)
	}
	return sub
}
