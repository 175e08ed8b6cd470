package sitebuild

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"sync"

	"github.com/northbeam/site/internal/brand"
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

// planShareImages decides the share image of every post, case study and
// person, before the pages that name them are rendered.
func (s *Build) planShareImages() {
	s.shareByPage = map[string]string{}
	s.shareImages = map[string]*shareImage{}
	for _, lang := range s.Info.Languages {
		add := func(pagePath, kind, title string) {
			if !brand.CanDraw(s.Info.Name, kind, title) {
				return
			}
			sum := sha256.Sum256([]byte(s.Info.Name + "\x00" + kind + "\x00" + title + "\x00" + lang.Dir + "\x00" + lang.Tag))
			path := "/og/" + hex.EncodeToString(sum[:8]) + ".png"
			s.shareByPage[pagePath] = path
			s.shareImages[path] = &shareImage{name: s.Info.Name, kind: kind, title: title, dir: lang.Dir, lang: lang.Tag}
		}
		for _, post := range s.blog.Posts(lang.Code) {
			add(postPath(lang, post.Slug), s.Locales.T(lang.Code, "blog.title"), post.Title)
		}
		for _, st := range s.work.Studies(lang.Code) {
			add(studyPath(lang, st.Slug), s.Locales.T(lang.Code, "work.kind"), st.Title)
		}
		for _, p := range s.team.People(lang.Code) {
			add(personPath(lang, p.Slug), p.Role, p.Name)
		}
	}
}

// shareImageURL is the absolute address of the share image of the page
// at path: its own, or the site's.
func (s *Build) shareImageURL(path string) string {
	if img, ok := s.shareByPage[path]; ok {
		return s.opts.BaseURL + img
	}
	return s.opts.BaseURL + "/og.png"
}
