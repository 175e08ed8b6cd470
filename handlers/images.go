package handlers

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/northbeam/site/internal/markdown"
	"github.com/northbeam/site/render"
)

// Images of the content live under content/img/ and are written in
// Markdown as /img/<file>, the way the README shows. Each is served at that
// stable address (revalidated daily) and at /img/<hash>/<file>, which pages
// use and browsers keep for good: the hash changes with the file. An image
// without alternative text or size, or whose file does not exist, stops
// the start with the Markdown file named.

// imageTypes are the image formats served from content/img/.
var imageTypes = map[string]bool{".png": true, ".jpg": true, ".jpeg": true, ".webp": true, ".avif": true, ".gif": true}

// contentImages are the files of content/img/, by the paths they are
// served at, and the hashed path of each stable one.
type contentImages struct {
	files  map[string]*render.Resource
	hashed map[string]string // /img/<file> -> /img/<hash>/<file>
}

// loadImages reads content/img/, if there is one.
func loadImages(content fs.FS) (*contentImages, error) {
	ci := &contentImages{files: map[string]*render.Resource{}, hashed: map[string]string{}}
	err := fs.WalkDir(content, "img", func(name string, d fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) && name == "img" {
			return fs.SkipDir
		}
		if err != nil || d.IsDir() {
			return err
		}
		ext := strings.ToLower(path.Ext(name))
		if !imageTypes[ext] {
			return fmt.Errorf("images: %s: not an image a page can show (%s)", name, ".png, .jpg, .webp, .avif or .gif")
		}
		data, err := fs.ReadFile(content, name)
		if err != nil {
			return fmt.Errorf("images: %w", err)
		}
		sum := sha256.Sum256(data)
		rel := strings.TrimPrefix(name, "img/")
		stable, hashed := "/img/"+rel, "/img/"+hex.EncodeToString(sum[:6])+"/"+rel
		ctype := mime.TypeByExtension(ext)
		ci.files[stable] = render.NewResource(ctype, "public, max-age=86400", http.StatusOK, data)
		ci.files[hashed] = render.NewResource(ctype, "public, max-age=31536000, immutable", http.StatusOK, data)
		ci.hashed[stable] = hashed
		return nil
	})
	if err != nil {
		return nil, err
	}
	return ci, nil
}

// markdownOption checks the images of a Markdown file against content/img/
// and points them to their hashed address.
func (ci *contentImages) markdownOption() markdown.Option {
	return markdown.WithImages(func(src string) (string, error) {
		if h, ok := ci.hashed[src]; ok {
			return h, nil
		}
		return "", fmt.Errorf("no such image: write /img/<file> for a file under content/img/")
	})
}

// registerImages serves the content's images.
func registerImages(e *echo.Echo, srv *Server) {
	e.Match([]string{http.MethodGet, http.MethodHead}, "/img/*", func(c echo.Context) error {
		r, ok := srv.Site().images.files[c.Request().URL.Path]
		if !ok {
			return echo.NewHTTPError(http.StatusNotFound)
		}
		r.ServeHTTP(c.Response(), c.Request())
		return nil
	})
}
