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
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/northbeam/site/internal/assets"
	"github.com/northbeam/site/internal/blog"
	"github.com/northbeam/site/internal/contact"
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
	// KeepImageCopies, without ImageCopies, is a folder where each copy
	// encoded is kept, and read back by later builds and other processes
	// (images.Library.KeepCopiesIn); "" keeps them in memory only.
	KeepImageCopies string
	// Lazy makes New return before any page is rendered: each renders on
	// its first request, or when Prerender reaches it. Otherwise New
	// renders every page and fails when one fails.
	Lazy bool
	// Renders keeps the finished pages between starts (render.DiskCache):
	// a page whose inputs did not change is read back, not rendered and
	// compressed again; nil renders every page.
	Renders *render.DiskCache
	// Parsed keeps the posts, case studies and people parsed by earlier
	// builds (-dev): a build after an edit parses and renders again only
	// the files that changed; nil parses every file.
	Parsed *Parsed
	// Collections is an earlier build whose posts, case studies, team,
	// pictures and dates are still true (-dev: no file of theirs changed),
	// taken rather than loaded again; nil loads them.
	Collections *Build
}

// Build is one build of the whole site: content, bundles, and every page
// that depends only on (path, language, content), each rendered once, on
// its first request or by Prerender. In -dev mode a new Build replaces the
// old one when a file changes.
type Build struct {
	Info    *site.Info
	Locales *site.Locales
	// Dates writes dates and times in the site's languages, from the
	// bundle's CLDR data.
	Dates  *intl.Formatter
	Bundle *assets.Bundle
	Engine *render.Engine
	opts   Options
	// serverSum is the SHA-256 of the server bundle and its strings, part
	// of a cached document's key (Options.Renders).
	serverSum [sha256.Size]byte
	// textSalt is what the posts' HTML depends on beside their text, part
	// of a cached page's key, where a post's text is its digest (keyOf).
	textSalt []byte

	// StaffLocales are the staff workspace's strings (content/staff/locales),
	// apart from the visitors' so that no page of theirs carries them.
	StaffLocales *site.Locales

	legal map[string]map[string]legal.Doc
	blog  *blog.Library
	work  *work.Library
	team  *team.Team
	// hosts are the slugs of the people who take consultations
	// (hosts.go).
	hosts map[string][]string
	// choice are the services whose visitors choose their host.
	choice []string
	// images are the files of content/img/.
	images *contentImages
	// shareImages are the share images of the pages that have their own,
	// by their path, listed on first use (planShareImages).
	shareImages map[string]*shareImage
	shareOnce   sync.Once
	mu          sync.Mutex                  // guards the maps below while the site is built
	index       []*lazyPage                 // every page with a path, for the sitemap
	files       map[string]*render.Resource // sitemap, robots.txt, manifest, made by filesOnce
	filesOnce   once
	brand       map[string]*render.Resource // icons and the default share image (brandPaths), drawn by brandOnce
	brandOnce   once
	pages       map[string]*lazyPage        // canonical path (and decoded) -> document and payload
	notFound    map[string]*lazyPage        // language -> the 404 page, whose payload /api/page answers for any path that holds no page
	assets      map[string]*lazyAsset       // name under /assets/ -> file
	feeds       map[string]*render.Resource // path -> Atom feed of a language's blog, made by feedsOnce
	feedsOnce   once

	// contactAnswers are the home pages answering a contact form post
	// whose outcome shows nothing of the post, by language and status.
	contactAnswers map[string]map[int]*lazyAnswers
	// contactShells answer invalid contact form posts (contactshell.go).
	contactShells contactShells
}

// New loads the content (the files of content/) and plans every page in
// every language, rendered with engine: at once, or on demand with
// opts.Lazy, when engine may be nil until Engine is set, before any page
// is asked for.
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
	c, err := loadCollections(contentFS, bundle.CLDR, info, opts)
	if err != nil {
		return nil, err
	}
	opts.Collections = nil // not kept: a chain of builds
	dates, contentImgs, posts, studies, people := c.Dates, c.images, c.blog, c.work, c.team
	docs, err := legal.Load(contentFS, "legal", info, legal.Settings{
		RetentionMonths: opts.RetentionMonths, Dates: dates, Texts: locales,
		SpamRetentionDays: int(contact.SpamRetention / (24 * time.Hour)),
		// The policies follow the configuration as the banner does
		// (docs/ARCHITECTURE.md, "Consent").
		Analytics: opts.GAMeasurementID != "",
	})
	if err != nil {
		return nil, err
	}
	hosts, choice, err := loadHosts(contentFS, people, info.Default().Code)
	if err != nil {
		return nil, err
	}
	s := &Build{
		Info: info, Locales: locales, StaffLocales: staffLocales, Dates: dates, Bundle: bundle, Engine: engine, opts: opts,
		hosts:    hosts,
		choice:   choice,
		legal:    docs,
		pages:    map[string]*lazyPage{},
		notFound: map[string]*lazyPage{},
		assets:   map[string]*lazyAsset{},
		blog:     posts,
		work:     studies,
		team:     people,
		images:   contentImgs,
		feeds:    map[string]*render.Resource{},

		contactAnswers: map[string]map[int]*lazyAnswers{},
	}
	if opts.Renders != nil {
		h := sha256.New()
		h.Write(bundle.Server)
		h.Write([]byte("\x00strings\x00"))
		h.Write(bundle.Strings)
		h.Sum(s.serverSum[:0])
		s.textSalt = []byte(textSalt(opts, contentImgs))
	}
	for name, data := range bundle.Client {
		s.assets[name] = s.newLazyAsset(name, data)
	}
	s.filesOnce.fill = func(context.Context) error { return s.buildFiles() }
	s.brandOnce.fill = func(context.Context) (err error) {
		s.brand, err = s.brandImages()
		return err
	}
	s.feedsOnce.fill = func(context.Context) error {
		var jobs []func() error
		for _, lang := range info.Languages {
			jobs = append(jobs, func() error { return s.buildFeed(lang) })
		}
		return parallel(s.Engine.Size(), jobs)
	}
	for _, lang := range info.Languages {
		for _, p := range s.staticPages(lang) {
			s.addPage(p)
		}
		s.planBlog(lang)
		if err := s.planWork(lang); err != nil {
			return nil, err
		}
		if err := s.planTeam(lang); err != nil {
			return nil, err
		}
		s.addContactAnswers(lang)
		// A missing page's payload says so too: the client navigation
		// that fetches it shows the page for a 404.
		s.notFound[lang.Code] = s.newLazyPage(s.notFoundPage(lang, lang.LocalPath("/404")), http.StatusNotFound)
	}
	if !opts.Lazy {
		if err := s.Prerender(ctx, 0); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// LoadCollections loads the posts, case studies, team, pictures and dates
// of contentFS, as New does with the same opts, to be given to New as
// opts.Collections: they need the CLDR data (laid out as node_modules) and
// not the bundles, so a start loads them while the bundles build
// (docs/ARCHITECTURE.md, Starting).
func LoadCollections(contentFS, cldr fs.FS, opts Options) (*Build, error) {
	info, err := site.Load(contentFS, "site.json")
	if err != nil {
		return nil, err
	}
	opts.Collections = nil
	return loadCollections(contentFS, cldr, info, opts)
}

// loadCollections loads the posts, case studies, team, pictures and dates,
// or takes those of opts.Collections.
func loadCollections(contentFS, cldr fs.FS, info *site.Info, opts Options) (*Build, error) {
	if opts.Collections != nil {
		return opts.Collections, nil
	}
	dates, err := intl.Load(cldr, info.Languages)
	if err != nil {
		return nil, err
	}
	c := &Build{Dates: dates}
	if c.images, err = loadImages(contentFS, opts.ImageCopies); err != nil {
		return nil, err
	}
	if opts.ImageCopies == nil && opts.KeepImageCopies != "" {
		c.images.lib.KeepCopiesIn(opts.KeepImageCopies)
	}
	if opts.Parsed != nil {
		opts.Parsed.salt(opts, c.images)
	}
	if c.blog, err = loadBlog(contentFS, opts, c.images, dates); err != nil {
		return nil, err
	}
	if c.work, err = loadWork(contentFS, opts, c.images); err != nil {
		return nil, err
	}
	if c.team, err = loadTeam(contentFS, opts, c.blog, c.images); err != nil {
		return nil, err
	}
	return c, nil
}

// payloadResource is p's payload, answered with status.
func (s *Build) payloadResource(p page, status int) (*render.Resource, error) {
	var key [][]byte
	if s.opts.Renders != nil {
		keyed, err := json.Marshal(s.payload(keyOf(p)))
		if err != nil {
			return nil, fmt.Errorf("payload of %s: %w", p.path, err)
		}
		key = [][]byte{[]byte("payload"), strconv.AppendInt(nil, int64(status), 10), keyed, s.textSalt}
	}
	return s.finished(key, func() (*render.Resource, error) {
		data, err := json.Marshal(s.payload(p))
		if err != nil {
			return nil, fmt.Errorf("payload of %s: %w", p.path, err)
		}
		return render.NewCompressed("application/json", "no-cache", status, data), nil
	}, func() (*render.Resource, error) { return s.payloadResource(p, status) })
}

// keyOf is p as a renders' key sees it: a post's text as the digest of
// its Markdown rather than its HTML (blog.Body.Digest), so that a start
// finds the post's page and payload in the renders' cache without
// rendering its text (docs/ARCHITECTURE.md, Starting).
func keyOf(p page) page {
	if made, ok := p.data.(lazyData); ok {
		p.data = made()
	}
	if d, ok := p.data.(blogPostData); ok {
		d.HTML = d.HTML.Digest()
		p.data = d
	}
	return p
}

// pageResource is p's HTML document, rendered, or read back from the
// renders' cache when nothing that makes it changed: the server bundle,
// and the document's every other part, payload included.
func (s *Build) pageResource(ctx context.Context, p page) (*render.Resource, error) {
	var key [][]byte
	if s.opts.Renders != nil {
		doc, _, err := s.shell(keyOf(p))
		if err != nil {
			return nil, err
		}
		shell, err := json.Marshal(doc)
		if err != nil {
			return nil, fmt.Errorf("document of %s: %w", p.path, err)
		}
		key = [][]byte{[]byte("document"), s.serverSum[:], strconv.AppendInt(nil, int64(p.status), 10), shell, s.textSalt}
	}
	return s.finished(key, func() (*render.Resource, error) {
		doc, pj, err := s.shell(p)
		if err != nil {
			return nil, err
		}
		html, err := s.renderDocument(ctx, doc, pj, p)
		if err != nil {
			return nil, err
		}
		return render.NewCompressed("text/html; charset=utf-8", "no-cache", p.status, html), nil
	}, func() (*render.Resource, error) { return s.pageResource(context.Background(), p) })
}

// finished returns what make makes, or what the renders' cache holds under
// the key of parts (and then keeps what make made there), served from its
// file there: the heap holds no page's bytes (docs/ARCHITECTURE.md,
// Rendering). again is the whole of it done again, which a resource whose
// file is gone when it is served calls (it holds nothing of what make
// holds); a cache that cannot be written keeps the resource in memory.
func (s *Build) finished(parts [][]byte, make, again func() (*render.Resource, error)) (*render.Resource, error) {
	c := s.opts.Renders
	if c == nil {
		return make()
	}
	k := c.Key(parts...)
	if r, ok := c.Get(k, again); ok {
		return r, nil
	}
	r, err := make()
	if err != nil {
		return nil, err
	}
	// A cache that cannot be written costs memory, and a render at the
	// next start; the cache's log says it once.
	r, _ = c.Put(k, r, again)
	return r, nil
}

// document renders a page into its full HTML document.
func (s *Build) document(ctx context.Context, p page) ([]byte, error) {
	doc, pj, err := s.shell(p)
	if err != nil {
		return nil, err
	}
	return s.renderDocument(ctx, doc, pj, p)
}

// renderDocument renders the body of p from its payload pj into doc.
func (s *Build) renderDocument(ctx context.Context, doc render.Document, pj []byte, p page) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	body, err := s.Engine.Render(ctx, pj)
	if err != nil {
		return nil, fmt.Errorf("rendering %s: %w", p.path, err)
	}
	doc.Body = body
	return doc.HTML()
}

// shell is p's document without its body, and its payload as JSON.
func (s *Build) shell(p page) (render.Document, []byte, error) {
	payload := s.payload(p)
	pj, err := json.Marshal(payload)
	if err != nil {
		return render.Document{}, nil, fmt.Errorf("payload of %s: %w", p.path, err)
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
		doc.Alternates = s.hreflangs(p)
	} else {
		// An error page is no page of its own to point crawlers to
		// (docs/ARCHITECTURE.md, "Crawlers").
		doc.Canonical = ""
	}
	return doc, pj, nil
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
	// Strings is where the string groups' modules are (the manifest's
	// StringsBase): the client finds them through the page, not a bundle.
	Strings string `json:"strings"`
}

func (s *Build) payload(p page) payload {
	data := p.data
	if made, ok := data.(lazyData); ok {
		data = made()
	}
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
		Data:       data,
		Year:       time.Now().Year(),
		Config: clientConfig{
			ConsentHideFromBots: s.opts.ConsentHideFromBots, GAMeasurementID: s.opts.GAMeasurementID,
			ConsentCSS: s.Bundle.Manifest.ConsentCSS, Strings: s.Bundle.Manifest.StringsBase,
		},
	}
}
