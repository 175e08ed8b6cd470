//go:build !prod

package assets

import "io/fs"

// Embedded returns nil: without the prod build tag the bundles are built
// from frontend/ at start.
func Embedded() fs.FS { return nil }
