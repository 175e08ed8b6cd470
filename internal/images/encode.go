//go:build !prod

package images

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/gen2brain/webp"
	"golang.org/x/image/draw"
)

// webpOptions are libwebp's settings for the copies: lossy at quality 80,
// which keeps the drawings' flat colours and edges clean at a fifth of the
// bytes of lossless, and method 4, libwebp's default balance of speed and
// size. See recipe.
var webpOptions = webp.Options{Quality: 80, Method: 4}

// encodeVariant resizes src to width×height and encodes it as WebP.
func encodeVariant(src *Source, width, height int) ([]byte, error) {
	img, _, err := image.Decode(bytes.NewReader(src.Data))
	if err != nil {
		return nil, fmt.Errorf("images: decoding %s: %w", src.Path, err)
	}
	if b := img.Bounds(); b.Dx() != width || b.Dy() != height {
		dst := image.NewNRGBA(image.Rect(0, 0, width, height))
		draw.CatmullRom.Scale(dst, dst.Bounds(), img, b, draw.Src, nil)
		img = dst
	}
	var buf bytes.Buffer
	if err := webp.Encode(&buf, img, webpOptions); err != nil {
		return nil, fmt.Errorf("images: encoding %s at %d px: %w", src.Path, width, err)
	}
	return buf.Bytes(), nil
}

// Warm encodes every copy not yet made, one at a time, until ctx ends: run
// it in the background after start, so that a page's pictures are ready
// before a browser asks for them without the start waiting for them.
func (l *Library) Warm(ctx context.Context) error {
	for _, src := range l.Sources() {
		for _, v := range src.Variants {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			if _, err := v.Data(); err != nil {
				return err
			}
		}
	}
	return nil
}

// Written is one copy WriteVariants wrote, and what it cost.
type Written struct {
	Path    string
	Bytes   int
	Encode  time.Duration
	Variant *Variant
}

// WriteVariants encodes every copy on workers goroutines and writes each
// under dir at its address without the leading "/img/", for a production
// binary to embed (Load's prebuilt).
func (l *Library) WriteVariants(dir string, workers int) ([]Written, error) {
	var all []*Variant
	for _, src := range l.Sources() {
		all = append(all, src.Variants...)
	}
	out := make([]Written, len(all))
	errs := make([]error, len(all))
	next := make(chan int)
	var wg sync.WaitGroup
	for range max(workers, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				v := all[i]
				start := time.Now()
				data, err := v.Data()
				if err != nil {
					errs[i] = err
					continue
				}
				took := time.Since(start)
				file := filepath.Join(dir, filepath.FromSlash(strings.TrimPrefix(v.Path, "/img/")))
				// Copies of the pictures the site shows to every visitor.
				if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil { //nolint:gosec // G301: public files
					errs[i] = err
					continue
				}
				if err := os.WriteFile(file, data, 0o644); err != nil { //nolint:gosec // G306: public files
					errs[i] = err
					continue
				}
				out[i] = Written{Path: v.Path, Bytes: len(data), Encode: took, Variant: v}
			}
		}()
	}
	for i := range all {
		next <- i
	}
	close(next)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}
