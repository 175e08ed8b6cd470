package sitebuild

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"mime"
	"net/http"
	"net/url"
	"path"
	"sync"
	"sync/atomic"

	"github.com/northbeam/site/internal/site"
	"github.com/northbeam/site/render"
)

// A Build knows every page it serves as soon as it is made, and renders
// each on its first request (or when Prerender reaches it), once: a start
// or a -dev rebuild does not wait for goja to render the whole site
// (docs/ARCHITECTURE.md, Rendering).

// once runs fill the first time it is asked, and answers its error to
// every later asker; but a render that timed out (the machine was busy) is
// tried again by the next. The render runs without the first asker's
// cancellation: a visitor who leaves does not spoil the page for the next.
type once struct {
	mu   sync.Mutex
	fill func(ctx context.Context) error
	err  error
	done atomic.Bool
}

func (l *once) do(ctx context.Context) error {
	if l.done.Load() {
		return l.err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.done.Load() {
		return l.err
	}
	err := l.fill(context.WithoutCancel(ctx))
	if errors.Is(err, render.ErrTimeout) {
		return err
	}
	l.err = err
	l.done.Store(true)
	return err
}

// lazyPage is a page with its document and payload, each made on first
// use: a client navigation needs only the payload, which takes no render.
// A page made from a collection's entry (a post, a page of a list) is
// itself planned on first use (make): what New knows of it up front is
// what a lookup and Pages need (its path, language, component, status), so
// that a -dev rebuild does not grow with the number of posts
// (docs/ARCHITECTURE.md, Rendering).
type lazyPage struct {
	path      string
	lang      site.Language
	component string
	status    int
	noIndex   bool

	plan sync.Once
	make func() page // nil once planned
	p    page

	doc, data once
	html      *render.Resource
	payload   *render.Resource
}

// page is the page planned, made now if this is its first use.
func (lp *lazyPage) page() page {
	lp.plan.Do(func() {
		if lp.make != nil {
			lp.p = lp.make()
			lp.p.jsonLD = compactLD(lp.p.jsonLD)
			lp.make = nil
		}
	})
	return lp.p
}

func (s *Build) newLazyPage(p page, payloadStatus int) *lazyPage {
	lp := &lazyPage{path: p.path, lang: p.lang, component: p.component, status: p.status, noIndex: p.noIndex, p: p}
	s.fillLazyPage(lp, payloadStatus)
	return lp
}

func (s *Build) fillLazyPage(lp *lazyPage, payloadStatus int) {
	lp.doc.fill = func(ctx context.Context) error {
		html, err := s.pageResource(ctx, lp.page())
		if err != nil {
			return err
		}
		lp.html = html
		return nil
	}
	lp.data.fill = func(context.Context) error {
		r, err := s.payloadResource(lp.page(), payloadStatus)
		lp.payload = r
		return err
	}
}

// addPage plans a page served at its path (and at its decoded path, for a
// path with escapes: a request's path arrives decoded).
func (s *Build) addPage(p page) {
	p.jsonLD = compactLD(p.jsonLD)
	s.register(s.newLazyPage(p, http.StatusOK))
}

// addPlannedPage serves at path the page of lang and component that make
// makes on its first use (a 200, for search engines): make is called at
// most once, and its page's path, language, component and status are
// these.
func (s *Build) addPlannedPage(lang site.Language, path, component string, make func() page) {
	lp := &lazyPage{path: path, lang: lang, component: component, status: http.StatusOK, make: make}
	s.fillLazyPage(lp, http.StatusOK)
	s.register(lp)
}

func (s *Build) register(lp *lazyPage) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pages[lp.path] = lp
	if decoded, err := url.PathUnescape(lp.path); err == nil && decoded != lp.path {
		s.pages[decoded] = lp
	}
	s.index = append(s.index, lp)
}

// compactLD holds each value of a page's structured data as the JSON it is
// written as: the same bytes in the document and in its key in the renders'
// cache (encoding/json writes a json.RawMessage compacted and escaped, as
// it writes the maps), in a fraction of the memory of the maps, which every
// page of the plan keeps for the life of the build (at a thousand posts a
// language, 19 MB).
func compactLD(values []any) []any {
	for i, v := range values {
		if _, ok := v.(json.RawMessage); ok {
			continue
		}
		if b, err := json.Marshal(v); err == nil {
			values[i] = json.RawMessage(b)
		}
	}
	return values
}

// lazyAnswers are the pages answering a contact form post with the outcomes
// of one group of answeredAtStart, rendered once.
type lazyAnswers struct {
	once
	answers map[int]*render.Resource
}

func (s *Build) addContactAnswers(lang site.Language) {
	for _, statuses := range answeredAtStart() {
		la := &lazyAnswers{}
		la.fill = func(ctx context.Context) error {
			r, err := s.pageResource(ctx, s.contactFormPage(lang.Code, ContactOutcome{Status: statuses[0]}.form()))
			if err != nil {
				return err
			}
			html := r.Bytes()
			answers := make(map[int]*render.Resource, len(statuses))
			for _, status := range statuses {
				answers[status] = render.NewAnswer("text/html; charset=utf-8", status, html)
			}
			la.answers = answers
			return nil
		}
		if s.contactAnswers[lang.Code] == nil {
			s.contactAnswers[lang.Code] = map[int]*lazyAnswers{}
		}
		for _, status := range statuses {
			s.contactAnswers[lang.Code][status] = la
		}
	}
}

// lazyAsset is a client file, compressed on its first request or by
// WarmFiles: at start, the compression of every file would delay the
// first page.
type lazyAsset struct {
	o    sync.Once
	r    *render.Resource
	make func() *render.Resource
}

func (s *Build) newLazyAsset(name string, data []byte) *lazyAsset {
	return &lazyAsset{make: func() *render.Resource {
		ctype := mime.TypeByExtension(path.Ext(name))
		if ctype == "" {
			ctype = "application/octet-stream"
		}
		return render.NewResource(ctype, "public, max-age=31536000, immutable", http.StatusOK, data)
	}}
}

func (a *lazyAsset) resource() *render.Resource {
	a.o.Do(func() { a.r = a.make() })
	return a.r
}

// Page returns the HTML document of the page at path, rendering it if this
// is its first request; ok is false when path holds no page, and err says
// why a page could not be rendered.
func (s *Build) Page(ctx context.Context, path string) (r *render.Resource, ok bool, err error) {
	lp, ok := s.pages[path]
	if !ok {
		return nil, false, nil
	}
	if err := lp.doc.do(ctx); err != nil {
		return nil, true, err
	}
	return lp.html, true, nil
}

// HasPage reports whether a page is served at path.
func (s *Build) HasPage(path string) bool {
	_, ok := s.pages[path]
	return ok
}

// Payload returns the payload of the page at path: the JSON its document
// carries, which a client navigation fetches.
func (s *Build) Payload(path string) (*render.Resource, bool) {
	lp, ok := s.pages[path]
	if !ok || lp.data.do(context.Background()) != nil {
		return nil, false
	}
	return lp.payload, true
}

// NotFound returns the not-found page of the language with code lang,
// served with status 404; the default language's for a code the site
// does not have.
func (s *Build) NotFound(ctx context.Context, lang string) (*render.Resource, error) {
	lp, ok := s.notFound[lang]
	if !ok {
		lp = s.notFound[s.Info.DefaultLanguage]
	}
	if err := lp.doc.do(ctx); err != nil {
		return nil, err
	}
	return lp.html, nil
}

// NotFoundPayload returns the payload of the not-found page in lang (as
// NotFound), which names no path: the client knows which it asked for.
func (s *Build) NotFoundPayload(lang string) *render.Resource {
	lp, ok := s.notFound[lang]
	if !ok {
		lp = s.notFound[s.Info.DefaultLanguage]
	}
	_ = lp.data.do(context.Background()) // a payload is JSON written by Go: it does not fail
	return lp.payload
}

// ContactAnswer returns the page answering a contact form post whose
// outcome has status, in the language with code lang, when it is one of
// the outcomes whose page shows nothing of the post.
func (s *Build) ContactAnswer(ctx context.Context, lang string, status int) (*render.Resource, bool, error) {
	la, ok := s.contactAnswers[lang][status]
	if !ok {
		return nil, false, nil
	}
	if err := la.do(ctx); err != nil {
		return nil, true, err
	}
	return la.answers[status], true, nil
}

// KeepAssets serves, beside the build's own client files, those of the
// build before it (not of any earlier one) that it lacks: a page of the
// build before still finds its chunks until it reloads (-dev), and never
// mixes in the new build's.
func (s *Build) KeepAssets(before *Build) {
	for name := range before.Bundle.Client {
		if _, ok := s.assets[name]; !ok {
			s.assets[name] = before.assets[name]
		}
	}
}

// Prerender renders every page not rendered yet, workers at once (0: as
// many as the engine has runtimes), until ctx ends. A page that fails does
// not stop the others: the error names each that failed, and the page
// answers its requests with it.
func (s *Build) Prerender(ctx context.Context, workers int) error {
	jobs := []func() error{func() error { return s.feedsOnce.do(ctx) }}
	seen := map[*lazyPage]bool{}
	add := func(lp *lazyPage) {
		if seen[lp] {
			return
		}
		seen[lp] = true
		jobs = append(jobs, func() error {
			if ctx.Err() != nil {
				return nil // stopped: the page renders on its request
			}
			// A page a request made before (-dev: one open in a browser,
			// whose next edit renders it again) keeps its post's HTML.
			// Its payload, which only a client navigation asks for, is made
			// on that request: a start does not wait for thousands of them
			// (docs/ARCHITECTURE.md, Rendering).
			asked := lp.doc.done.Load()
			err := lp.doc.do(ctx)
			if !s.opts.Dev || !asked {
				// The page is made: its post's HTML goes now, rather than
				// after the whole site, so that a start never holds every
				// post's HTML at once (docs/ARCHITECTURE.md, Rendering). A
				// feed or a page that asks for it later renders it again.
				lp.page().text.Forget()
			}
			return err
		})
	}
	for _, lp := range s.pages {
		add(lp)
	}
	for _, lp := range s.notFound {
		add(lp)
	}
	// Every page is planned before any renders: what the plan keeps for
	// the build's life is then made side by side, not among the renders'
	// garbage, whose spans it would keep resident (at 1,000 posts a
	// language, about 40 MB of a first start's memory once ready).
	for lp := range seen {
		if ctx.Err() != nil {
			break
		}
		lp.page()
	}
	// So are the sitemaps, made from the plan: the garbage of their making
	// (a brotli window of megabytes) goes back with the renders' once the
	// prerender ends, rather than behind a ready start.
	filesErr := s.filesOnce.do(ctx)
	for _, byStatus := range s.contactAnswers {
		for _, la := range byStatus {
			jobs = append(jobs, func() error { return la.do(ctx) })
		}
	}
	if workers <= 0 {
		workers = s.Engine.Size()
	}
	err := errors.Join(filesErr, parallel(workers, jobs))
	if ctx.Err() == nil && !s.opts.Dev {
		// Every page that holds a post's text is rendered: the texts'
		// HTML goes (a page rendered again renders its post's text again).
		// -dev has let go of those of the pages no request asked for, and
		// keeps the others' (the pages open in a browser), for the
		// payloads of the builds after an edit.
		s.blog.ForgetTexts()
	}
	return err
}

// WarmFiles makes what a start is ready without, as it is no page, until
// ctx ends: the sitemap, robots.txt and the manifest if no route asked for
// them yet, the icons and the default share image (drawn), then the client
// files no request has compressed yet, workers at once.
// Each is otherwise made on its first request; a start warms them behind,
// so that its time to ready goes to the pages.
func (s *Build) WarmFiles(ctx context.Context, workers int) error {
	if err := errors.Join(s.filesOnce.do(ctx), s.brandOnce.do(ctx)); err != nil {
		return err
	}
	jobs := make([]func() error, 0, len(s.assets))
	for _, a := range s.assets {
		jobs = append(jobs, func() error {
			if ctx.Err() == nil {
				a.resource()
			}
			return nil
		})
	}
	return parallel(workers, jobs) // compressing does not fail
}

// Rendered counts the documents rendered so far and those planned.
func (s *Build) Rendered() (done, planned int) {
	seen := map[*lazyPage]bool{}
	for lp := range maps.Values(s.pages) {
		if !seen[lp] {
			seen[lp] = true
			planned++
			if lp.doc.done.Load() {
				done++
			}
		}
	}
	return done, planned
}

// parallel runs jobs on n goroutines (the render pool's size: more would
// only wait for a runtime) and returns every error, joined.
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
	var all []error
	for err := range errs {
		if err != nil {
			all = append(all, err)
		}
	}
	if len(all) > 0 {
		return fmt.Errorf("%d of %d renders failed: %w", len(all), len(jobs), errors.Join(all...))
	}
	return nil
}
