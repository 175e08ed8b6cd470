// Package sitebuild builds the site: it loads the content, renders every
// page that depends only on its path, language and content once in goja,
// and makes what is served beside the pages (payloads, feeds, the sitemap,
// robots.txt, icons, share and content images). The HTTP surface
// (handlers) looks up what a Build made and answers with it; pages that
// differ per request (a contact form post's answer, the staff workspace's
// shell, a server error) are rendered here too, on its call.
package sitebuild

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"sync"
	"time"

	"github.com/northbeam/site/internal/assets"
	"github.com/northbeam/site/internal/blog"
	"github.com/northbeam/site/internal/intl"
	"github.com/northbeam/site/internal/legal"
	"github.com/northbeam/site/internal/site"
	"github.com/northbeam/site/internal/team"
	"github.com/northbeam/site/internal/work"
	"github.com/northbeam/site/render"
)

// Options are the parts of the configuration a build uses.
type Options struct {
	BaseURL             string // public URL without a trailing slash
	GAMeasurementID     string
	ConsentHideFromBots bool
	Dev                 bool // development mode: blog drafts are served
	// RetentionMonths is how long personal data is kept (RETENTION), as
	// the privacy policy states it; 0 means 12.
	RetentionMonths int
	// ImageCopies holds the WebP copies of the content's pictures that the
	// build wrote (internal/images); nil: each is encoded on first use.
	ImageCopies fs.FS
}

// Build is one build of the whole site: content, bundles, and every page
// that depends only on (path, language, content), rendered once. In -dev
// mode a new Build replaces the old one when a file changes.
type Build struct {
	Info    *site.Info
	Locales *site.Locales
	// Dates writes dates and times in the site's languages, from the
	// bundle's CLDR data.
	Dates  *intl.Formatter
	Bundle *assets.Bundle
	Engine *render.Engine
	opts   Options

	// StaffLocales are the staff workspace's strings (content/staff/locales),
	// apart from the visitors' so that no page of theirs carries them.
	StaffLocales *site.Locales

	legal map[string]map[string]legal.Doc
	blog  *blog.Library
	work  *work.Library
	team  *team.Team
	// images are the files of content/img/.
	images *contentImages
	// shareByPage is the path of the share image of a page that has its
	// own (by the page's path); shareImages the images, by their path.
	shareByPage map[string]string
	shareImages map[string]*shareImage
	mu          sync.Mutex                  // guards the maps below while the site is built
	index       []page                      // every prerendered page, for the sitemap
	files       map[string]*render.Resource // sitemap, robots.txt, manifest, icons
	pages       map[string]*render.Resource // canonical path -> HTML
	payloads    map[string]*render.Resource // canonical path -> payload JSON
	notFound    map[string]*render.Resource // language -> the 404 page
	assets      map[string]*render.Resource // name under /assets/ -> file
	feeds       map[string]*render.Resource // path -> Atom feed of a language's blog

	// notFoundData is the payload of the 404 page, by language, which
	// /api/page answers for any path that holds no page.
	notFoundData map[string]*render.Resource
	// contactAnswers are the home pages answering a contact form post
	// whose outcome shows nothing of the post, by language and status.
	contactAnswers map[string]map[int]*render.Resource
}

// New loads the content (the files of content/) and renders every static
// page in every language with engine.
func New(ctx context.Context, contentFS fs.FS, bundle *assets.Bundle, engine *render.Engine, opts Options) (*Build, error) {
	info, err := site.Load(contentFS, "site.json")
	if err != nil {
		return nil, err
	}
	locales, err := site.LoadLocales(contentFS, "locales", info)
	if err != nil {
		return nil, err
	}
	staffLocales, err := site.LoadLocales(contentFS, "staff/locales", info)
	if err != nil {
		return nil, err
	}
	dates, err := intl.Load(bundle.CLDR, info.Languages)
	if err != nil {
		return nil, err
	}
	docs, err := legal.Load(contentFS, "legal", info, legal.Settings{RetentionMonths: opts.RetentionMonths, Dates: dates, Texts: locales})
	if err != nil {
		return nil, err
	}
	contentImgs, err := loadImages(contentFS, opts.ImageCopies)
	if err != nil {
		return nil, err
	}
	posts, err := loadBlog(contentFS, opts, contentImgs, dates)
	if err != nil {
		return nil, err
	}
	studies, err := loadWork(contentFS, opts, contentImgs)
	if err != nil {
		return nil, err
	}
	people, err := loadTeam(contentFS, posts, contentImgs)
	if err != nil {
		return nil, err
	}
	s := &Build{
		Info: info, Locales: locales, StaffLocales: staffLocales, Dates: dates, Bundle: bundle, Engine: engine, opts: opts,
		legal:    docs,
		pages:    map[string]*render.Resource{},
		payloads: map[string]*render.Resource{},
		notFound: map[string]*render.Resource{},
		assets:   map[string]*render.Resource{},
		blog:     posts,
		work:     studies,
		team:     people,
		images:   contentImgs,
		feeds:    map[string]*render.Resource{},

		notFoundData:   map[string]*render.Resource{},
		contactAnswers: map[string]map[int]*render.Resource{},
	}
	s.planShareImages()
	var jobs []func() error
	for name, data := range bundle.Client {
		jobs = append(jobs, func() error {
			ctype := mime.TypeByExtension(path.Ext(name))
			if ctype == "" {
				ctype = "application/octet-stream"
			}
			r := render.NewResource(ctype, "public, max-age=31536000, immutable", http.StatusOK, data)
			s.mu.Lock()
			s.assets[name] = r
			s.mu.Unlock()
			return nil
		})
	}
	for _, lang := range info.Languages {
		for _, p := range s.staticPages(lang) {
			jobs = append(jobs, func() error { return s.prerender(ctx, p) })
		}
		jobs = append(jobs, s.blogJobs(ctx, lang)...)
		jobs = append(jobs, s.workJobs(ctx, lang)...)
		jobs = append(jobs, s.teamJobs(ctx, lang)...)
		jobs = append(jobs, s.contactAnswerJobs(ctx, lang)...)
		jobs = append(jobs, func() error {
			// A missing page's payload says so too: the client navigation
			// that fetches it shows the page for a 404.
			r, d, err := s.renderPage(ctx, s.notFoundPage(lang, lang.LocalPath("/404")), http.StatusNotFound)
			if err != nil {
				return err
			}
			s.mu.Lock()
			s.notFound[lang.Code] = r
			s.notFoundData[lang.Code] = d
			s.mu.Unlock()
			return nil
		})
	}
	var images map[string]*render.Resource
	jobs = append([]func() error{func() (err error) {
		images, err = s.brandImages()
		return err
	}}, jobs...)
	if err := parallel(engine.Size(), jobs); err != nil {
		return nil, err
	}
	if err := s.buildFiles(images); err != nil {
		return nil, err
	}
	return s, nil
}

func (s *Build) prerender(ctx context.Context, p page) error {
	page, data, err := s.renderPage(ctx, p, http.StatusOK)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pages[p.path] = page
	s.payloads[p.path] = data
	s.index = append(s.index, p)
	return nil
}

// renderPage renders p: its document, answered with p's status, and its
// payload, answered with payloadStatus.
func (s *Build) renderPage(ctx context.Context, p page, payloadStatus int) (doc, payload *render.Resource, err error) {
	html, err := s.document(ctx, p)
	if err != nil {
		return nil, nil, err
	}
	data, err := json.Marshal(s.payload(p))
	if err != nil {
		return nil, nil, fmt.Errorf("payload of %s: %w", p.path, err)
	}
	return render.NewResource("text/html; charset=utf-8", "no-cache", p.status, html),
		render.NewResource("application/json", "no-cache", payloadStatus, data), nil
}

// parallel runs jobs on n goroutines (the render pool's size: more would
// only wait for a runtime) and returns the first error.
func parallel(n int, jobs []func() error) error {
	work := make(chan func() error)
	errs := make(chan error, len(jobs))
	var wg sync.WaitGroup
	for range max(n, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for job := range work {
				errs <- job()
			}
		}()
	}
	for _, job := range jobs {
		work <- job
	}
	close(work)
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// document renders a page into its full HTML document.
func (s *Build) document(ctx context.Context, p page) ([]byte, error) {
	payload := s.payload(p)
	pj, err := json.Marshal(payload)
	if err != nil {
		return nil, fmt.Errorf("payload of %s: %w", p.path, err)
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	body, err := s.Engine.Render(ctx, pj)
	if err != nil {
		return nil, fmt.Errorf("rendering %s: %w", p.path, err)
	}
	m := s.Bundle.Manifest
	entry, preloads := m.Entry, m.Preloads(p.component, p.lang.Code)
	if p.noScript {
		entry, preloads = "", nil
	}
	doc := render.Document{
		Lang:        p.lang.Tag,
		Dir:         p.lang.Dir,
		Title:       p.title,
		Description: p.description,
		Canonical:   s.opts.BaseURL + p.path,
		Body:        body,
		Payload:     payload,
		Boot:        m.Boot,
		Entry:       entry,
		CSS:         m.CSS,
		Preloads:    preloads,
		Links:       p.links,
		NoIndex:     p.noIndex || p.status != http.StatusOK,
	}
	s.describeForSharing(&doc, p)
	if p.status == http.StatusOK {
		for _, l := range s.Info.Languages {
			if alt, ok := p.alternates[l.Code]; ok {
				doc.Alternates = append(doc.Alternates, render.Alternate{Hreflang: l.Tag, Href: s.opts.BaseURL + alt})
			}
		}
		if def, ok := p.alternates[s.Info.DefaultLanguage]; ok {
			doc.Alternates = append(doc.Alternates, render.Alternate{Hreflang: "x-default", Href: s.opts.BaseURL + def})
		}
	}
	return doc.HTML()
}

// payload is what the browser receives about a page: the same object is
// serialized into the HTML and served by /api/page.
type payload struct {
	Path       string            `json:"path"`
	Lang       string            `json:"lang"`
	Page       string            `json:"page"`
	Status     int               `json:"status"`
	Head       head              `json:"head"`
	Alternates map[string]string `json:"alternates"`
	Data       any               `json:"data"`
	Year       int               `json:"year"`
	Config     clientConfig      `json:"config"`
}

type head struct {
	Title       string `json:"title"`
	Description string `json:"description"`
}

type clientConfig struct {
	ConsentHideFromBots bool   `json:"consentHideFromBots"`
	GAMeasurementID     string `json:"gaMeasurementId"`
	ConsentCSS          string `json:"consentCSS"`
}

func (s *Build) payload(p page) payload {
	alternates := p.alternates
	if p.status != http.StatusOK {
		alternates = map[string]string{}
		for _, l := range s.Info.Languages {
			alternates[l.Code] = l.LocalPath("/")
		}
	}
	return payload{
		Path: p.path, Lang: p.lang.Code, Page: p.component, Status: p.status,
		Head:       head{Title: p.title, Description: p.description},
		Alternates: alternates,
		Data:       p.data,
		Year:       time.Now().Year(),
		Config: clientConfig{
			ConsentHideFromBots: s.opts.ConsentHideFromBots, GAMeasurementID: s.opts.GAMeasurementID,
			ConsentCSS: s.Bundle.Manifest.ConsentCSS,
		},
	}
}
