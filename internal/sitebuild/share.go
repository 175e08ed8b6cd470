package sitebuild

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"sync"

	"github.com/northbeam/site/internal/brand"
	"github.com/northbeam/site/internal/site"
	"github.com/northbeam/site/render"
)

// A post, a case study and a person get a share image of their own: the
// page's title and what it is, drawn by internal/brand in its language and
// direction (Arabic shaped, set right to left, the layout mirrored). It is
// drawn on its first request rather than at start (forty images would take
// longer than the whole start), and its address holds a hash of what it
// shows, so it is cached for good. A page whose title has letters the
// image fonts do not hold (neither Latin nor Arabic) keeps the site's image.

// shareImage is one page's share image.
type shareImage struct {
	name, kind, title string
	dir, lang         string // the page's language: its direction and tag

	once sync.Once
	res  *render.Resource
	err  error
}

// resource draws the image once, and returns it.
func (im *shareImage) resource() (*render.Resource, error) {
	im.once.Do(func() {
		png, err := brand.PageImage(im.name, im.kind, im.title, im.dir, im.lang)
		if err != nil {
			im.err = err
			return
		}
		im.res = render.NewResource("image/png", "public, max-age=31536000, immutable", http.StatusOK, png)
	})
	return im.res, im.err
}

// sharePath is the address of the share image of a page of lang showing
// kind and title (a post, a case study, a person), or "" when the image
// fonts cannot draw it: the page keeps the site's image.
func (s *Build) sharePath(lang site.Language, kind, title string) string {
	if !brand.CanDraw(s.Info.Name, kind, title) {
		return ""
	}
	sum := sha256.Sum256([]byte(s.Info.Name + "\x00" + kind + "\x00" + title + "\x00" + lang.Dir + "\x00" + lang.Tag))
	return "/og/" + hex.EncodeToString(sum[:8]) + ".png"
}

// Each page's share image is decided with the page (sharePath); the images
// by their address are listed on the first request of one (ShareImage), so
// that a -dev rebuild does not measure every post's title.

// planShareImages lists the share image of every post, case study and
// person by its address, once.
func (s *Build) planShareImages() {
	s.shareOnce.Do(func() {
		s.shareImages = map[string]*shareImage{}
		for _, lang := range s.Info.Languages {
			add := func(kind, title string) {
				if path := s.sharePath(lang, kind, title); path != "" {
					s.shareImages[path] = &shareImage{name: s.Info.Name, kind: kind, title: title, dir: lang.Dir, lang: lang.Tag}
				}
			}
			for _, post := range s.blog.Posts(lang.Code) {
				add(s.Locales.T(lang.Code, "blog.title"), post.Title)
			}
			for _, st := range s.work.Studies(lang.Code) {
				add(s.Locales.T(lang.Code, "work.kind"), st.Title)
			}
			for _, p := range s.team.People(lang.Code) {
				add(p.Role, p.Name)
			}
		}
	})
}

// shareImageURL is the absolute address of a share image at path (from
// sharePath), or of the site's when path is "".
func (s *Build) shareImageURL(path string) string {
	if path != "" {
		return s.opts.BaseURL + path
	}
	return s.opts.BaseURL + "/og.png"
}
