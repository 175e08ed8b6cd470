//go:build prod

package images

import (
	"context"
	"errors"
	"time"
)

// A production binary serves the copies its build wrote and embeds no
// encoder: Load refuses to start without every copy, so none is ever
// encoded here.

var errNoEncoder = errors.New("images: a production binary encodes no picture: build it with npm run build:binary")

func encodeVariant(*Source, int, int) ([]byte, error) { return nil, errNoEncoder }

// Warm does nothing: every copy comes with the binary.
func (l *Library) Warm(context.Context) error { return nil }

// Written is one copy WriteVariants wrote, and what it cost.
type Written struct {
	Path    string
	Bytes   int
	Encode  time.Duration
	Variant *Variant
}

// WriteVariants is for the build, not for a production binary.
func (l *Library) WriteVariants(string, int) ([]Written, error) { return nil, errNoEncoder }
