package sitebuild

import (
	"context"
	"errors"
	"io/fs"
	"net/http"
	"sync"

	"github.com/northbeam/site/internal/blog"
	"github.com/northbeam/site/internal/content"
	"github.com/northbeam/site/internal/images"
	"github.com/northbeam/site/internal/markdown"
	"github.com/northbeam/site/render"
)

// Images of the content live under content/img/ and are written in
// Markdown as /img/<file>, the way the README shows, and in front matter
// as a cover or photo (images.Ref). Each file is served at that stable
// address (revalidated daily) and at /img/<hash>/<file>, which pages use
// and browsers keep for good, and its WebP copies at their own hashed
// addresses, also kept for good (internal/images). An image without
// alternative text or size, or whose file does not exist, stops the start
// with the content file named.

// Where content pictures sit on a page, as sizes attributes: the width a
// picture takes at each viewport width (frontend/styles), for the browser
// to pick a copy before it lays the page out.
const (
	// sizesProse is an image in the text of a post, a case study or a
	// person's page: the column's width (blog.css .container.post), else
	// the screen less its margins; frontend/components/picture.tsx
	// proseSizes says the same.
	sizesProse = "(min-width: 46rem) 44rem, 92vw"
)

// contentImages serves the files of content/img/ and their copies.
type contentImages struct {
	lib *images.Library

	mu        sync.Mutex
	resources map[string]*render.Resource // by address, made on first request
}

// loadImages reads content/img/, if there is one; prebuilt holds the
// copies the build wrote (nil: they are encoded on first use).
func loadImages(content, prebuilt fs.FS) (*contentImages, error) {
	lib, err := images.Load(content, "img", prebuilt)
	if err != nil {
		return nil, err
	}
	return &contentImages{lib: lib, resources: map[string]*render.Resource{}}, nil
}

// markdownOption checks the images of a Markdown file against content/img/
// and points them to their hashed address and copies.
func (ci *contentImages) markdownOption() markdown.Option {
	return markdown.WithImages(func(src string, width, height int) (markdown.ImageFile, error) {
		s, err := ci.lib.Check(src, width, height)
		if err != nil {
			return markdown.ImageFile{}, err
		}
		f := markdown.ImageFile{Src: s.Hashed}
		if webp := s.Srcset(); webp != "" {
			f.WebP, f.Sizes = webp, sizesProse
		}
		return f, nil
	})
}

// covers checks the posts' covers against content/img/ and points each
// to its hashed address and WebP copies; a cover without its file, or
// whose size does not suit the file, stops the start with the post named.
func (ci *contentImages) covers(posts *blog.Library) error {
	var errs []error
	for _, lang := range posts.Languages() {
		for _, p := range posts.Posts(lang) {
			c := p.Cover
			if c == nil {
				continue
			}
			pic, err := ci.lib.Picture(images.Ref{Src: c.Src, Alt: c.Alt, Width: c.Width, Height: c.Height})
			if err != nil {
				errs = append(errs, &content.Error{File: p.File, Field: "cover", Err: err})
				continue
			}
			c.Src, c.WebP = pic.Src, pic.WebP
		}
	}
	return errors.Join(errs...)
}

// resource returns what is served at p: a file at its stable or hashed
// address, or a copy (encoded now when it has not been yet).
func (ci *contentImages) resource(p string) (*render.Resource, error) {
	ci.mu.Lock()
	r, ok := ci.resources[p]
	ci.mu.Unlock()
	if ok {
		return r, nil
	}
	switch src, isFile := ci.lib.File(p); {
	case isFile && p == src.Path:
		r = render.NewResource(src.ContentType, "public, max-age=86400", http.StatusOK, src.Data)
	case isFile:
		r = render.NewResource(src.ContentType, "public, max-age=31536000, immutable", http.StatusOK, src.Data)
	default:
		v, ok := ci.lib.Variant(p)
		if !ok {
			return nil, nil
		}
		data, err := v.Data() // outside the lock: another copy may be asked for meanwhile
		if err != nil {
			return nil, err
		}
		r = render.NewResource(images.ContentType, "public, max-age=31536000, immutable", http.StatusOK, data)
	}
	ci.mu.Lock()
	defer ci.mu.Unlock()
	if earlier, ok := ci.resources[p]; ok {
		return earlier, nil
	}
	ci.resources[p] = r
	return r, nil
}

// WarmImages encodes the WebP copies of the content's pictures that are
// not made yet, one at a time, until ctx ends (see images.Library.Warm).
func (s *Build) WarmImages(ctx context.Context) error { return s.images.lib.Warm(ctx) }

// PruneImageCopies removes from the folder the build keeps its WebP copies
// in (Options.KeepImageCopies) those of pictures it does not have, or not
// at those widths, and returns how many it removed: call it once the
// build has made every copy (WarmImages). See images.Library.PruneCopies.
func (s *Build) PruneImageCopies() (removed int, err error) { return s.images.lib.PruneCopies() }

// KeepImageCopies takes over the WebP copies earlier made that s has too,
// so that -dev mode does not encode them again after a change.
func (s *Build) KeepImageCopies(earlier *Build) { s.images.lib.Adopt(earlier.images.lib) }

// KeepImageCopiesIn makes the build take each WebP copy of the content's
// pictures from dir when it is there, and keep there each it encodes
// (images.Library.KeepCopiesIn). Call it before the first copy is asked
// for.
func (s *Build) KeepImageCopiesIn(dir string) { s.images.lib.KeepCopiesIn(dir) }

// WriteImageCopies writes every WebP copy of the content's pictures under
// dir for a production binary to embed (Options.ImageCopies).
func (s *Build) WriteImageCopies(dir string, workers int) ([]images.Written, error) {
	return s.images.lib.WriteVariants(dir, workers)
}
