package handlers

import (
	"bytes"
	_ "embed" // the dev client script
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/northbeam/site/internal/sitebuild"
	"github.com/northbeam/site/render"
)

// The -dev loop's side of the HTTP surface (docs/ARCHITECTURE.md, The dev
// loop): every HTML answer carries the dev client script, which listens to
// the event stream of the builds and reloads the page, swaps its
// stylesheet, or shows a build or render error over it. Nothing of it is
// registered without -dev (Services.Dev nil): neither the paths, nor the
// script, nor anything in the answers.

const (
	devEventsPath = "/_dev/events"
	devClientPath = "/_dev/client.js"
)

//go:embed devclient.js
var devClientScript []byte

// DevProblem is a build or render error, as the dev overlay shows it, or
// what the dev loop found beside the build: a string missing, a type error,
// a Go change that does not compile.
type DevProblem struct {
	Kind     string `json:"kind"` // "build", "render", "go": the newest sources are not served; "string", "type": they are
	Message  string `json:"message"`
	File     string `json:"file,omitempty"` // the source file, from the project's directory
	Line     int    `json:"line,omitempty"`
	Column   int    `json:"column,omitempty"`
	LineText string `json:"lineText,omitempty"`
	Path     string `json:"path,omitempty"` // the page whose render failed
}

// String is the problem as the log shows it: file:line:column, message.
func (p DevProblem) String() string {
	switch {
	case p.File == "":
		return p.Message
	case p.Line == 0:
		return fmt.Sprintf("%s: %s", p.File, p.Message)
	case p.Column == 0:
		return fmt.Sprintf("%s:%d: %s", p.File, p.Line, p.Message)
	}
	return fmt.Sprintf("%s:%d:%d: %s", p.File, p.Line, p.Column, p.Message)
}

// devState is what an open page is told: the build being served, the
// last build that changed more than stylesheets, the stylesheets, and the
// problems that keep the newest sources from being served.
type devState struct {
	// Server names the process: a page that a process before it served (the
	// dev loop restarted it after a Go change) reloads.
	Server   string       `json:"server"`
	Build    int          `json:"build"`
	JS       int          `json:"js"`
	CSS      []string     `json:"css"`
	Problems []DevProblem `json:"problems"`
}

// DevLoop tells the open pages of a -dev server what changed.
type DevLoop struct {
	mu    sync.Mutex
	state devState
	// failed keeps the newest sources from being served (a build or a
	// render that failed); found is what the loop found beside the builds,
	// by who found it (AddProblems, SetProblems). The state's problems are
	// both.
	failed  []DevProblem
	found   map[string][]DevProblem
	builds  map[*sitebuild.Build]int    // the build number of each build served
	subs    map[chan devState]string    // open pages' streams -> their path
	good    map[string]*render.Resource // the last page served at each path, shown under a render error
	closed  bool
	onClose chan struct{}
}

// NewDevLoop returns the dev loop of a server serving b.
func NewDevLoop(b *sitebuild.Build) *DevLoop {
	d := &DevLoop{
		builds:  map[*sitebuild.Build]int{},
		subs:    map[chan devState]string{},
		good:    map[string]*render.Resource{},
		found:   map[string][]DevProblem{},
		onClose: make(chan struct{}),
	}
	d.state = devState{Server: strconv.FormatInt(time.Now().UnixNano(), 36), Build: 1, JS: 1, CSS: b.Bundle.Manifest.CSS}
	d.builds[b] = 1
	return d
}

// Built records that b is now served, and tells the open pages: they
// reload, or swap their stylesheets when cssOnly (nothing but stylesheets
// changed since the build before); or, when an open page's render failed
// with b (problems), they show why and stay as they are.
func (d *DevLoop) Built(b *sitebuild.Build, cssOnly bool, problems []DevProblem) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.state.Build++
	if !cssOnly {
		d.state.JS = d.state.Build
	}
	// The numbers of the build before and this one: an answer begun with
	// the build before is numbered as it (withDevClient).
	for earlier, n := range d.builds {
		if n < d.state.Build-1 {
			delete(d.builds, earlier)
		}
	}
	d.builds[b] = d.state.Build
	d.state.CSS = b.Bundle.Manifest.CSS
	d.failed = problems
	d.publish()
}

// Failed tells the open pages what keeps the newest sources from being
// served; they show it over the last good page until a build succeeds.
func (d *DevLoop) Failed(problems []DevProblem) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.failed = problems
	d.publish()
}

// SetProblems makes problems what by (a checker beside the build: "types",
// "go") finds now, and tells the open pages when it changed. They show
// them over the page, which still follows the builds.
func (d *DevLoop) SetProblems(by string, problems []DevProblem) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if slices.Equal(d.found[by], problems) {
		return
	}
	d.found[by] = problems
	d.publish()
}

// AddProblems adds to what by found (renders: "strings") those of problems
// it does not hold yet, and tells the open pages when there were any.
func (d *DevLoop) AddProblems(by string, problems []DevProblem) {
	d.mu.Lock()
	defer d.mu.Unlock()
	added := false
	for _, p := range problems {
		if !slices.Contains(d.found[by], p) {
			d.found[by] = append(d.found[by], p)
			added = true
		}
	}
	if added {
		d.publish()
	}
}

// ClearProblems forgets what by found, without telling the open pages: what
// comes next (a build, a render) tells them.
func (d *DevLoop) ClearProblems(by string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	delete(d.found, by)
}

// OpenPages lists the paths of the pages open in a browser.
func (d *DevLoop) OpenPages() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	seen := map[string]bool{}
	var out []string
	for _, p := range d.subs {
		if p != "" && !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}

// Close ends the event streams, as a stop begins.
func (d *DevLoop) Close() {
	d.mu.Lock()
	defer d.mu.Unlock()
	if !d.closed {
		d.closed = true
		close(d.onClose)
	}
}

func (d *DevLoop) publish() {
	d.state.Problems = slices.Clone(d.failed)
	for _, by := range slices.Sorted(maps.Keys(d.found)) {
		d.state.Problems = append(d.state.Problems, d.found[by]...)
	}
	for ch := range d.subs {
		select {
		case <-ch: // an older state not read yet: the newest replaces it
		default:
		}
		ch <- d.state
	}
}

func (d *DevLoop) subscribe(path string) (chan devState, func()) {
	ch := make(chan devState, 1)
	d.mu.Lock()
	defer d.mu.Unlock()
	ch <- d.state
	d.subs[ch] = path
	return ch, func() {
		d.mu.Lock()
		defer d.mu.Unlock()
		delete(d.subs, ch)
	}
}

func (d *DevLoop) buildOf(b *sitebuild.Build) (server string, build, js int) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.state.Server, d.builds[b], d.state.JS
}

// served remembers the page served at path, the last good one.
func (d *DevLoop) served(path string, r *render.Resource) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.good[path] = r
}

// renderFailed reports a page's render error to the open pages, and
// returns the last good page at path to show under it, if there is one.
func (d *DevLoop) renderFailed(path string, err error) (*render.Resource, bool) {
	d.Failed([]DevProblem{RenderProblem(path, err)})
	d.mu.Lock()
	defer d.mu.Unlock()
	r, ok := d.good[path]
	return r, ok
}

// RenderProblem describes a page's render error: the thrown error's
// message and the TSX file and line of the throw, when the render engine
// found them (render.Error).
func RenderProblem(path string, err error) DevProblem {
	p := DevProblem{Kind: "render", Path: path, Message: err.Error()}
	var re *render.Error
	if errors.As(err, &re) {
		p.Message, p.File, p.Line, p.Column = re.Message, re.File, re.Line, re.Column
	}
	return p
}

// registerDev serves the dev client script and the event stream.
func registerDev(e *echo.Echo, srv *Server) {
	e.GET(devClientPath, func(c echo.Context) error {
		c.Response().Header().Set("Cache-Control", "no-store")
		return c.Blob(http.StatusOK, "text/javascript; charset=utf-8", devClientScript)
	})
	e.GET(devEventsPath, srv.Dev.events)
}

// events streams the dev state to an open page (Server-Sent Events): the
// current one at once, then each change.
func (d *DevLoop) events(c echo.Context) error {
	res := c.Response()
	// A stream stays open past the server's write timeout.
	if err := http.NewResponseController(res).SetWriteDeadline(time.Time{}); err != nil {
		return err
	}
	h := res.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	res.WriteHeader(http.StatusOK)
	ch, cancel := d.subscribe(c.QueryParam("path"))
	defer cancel()
	// A stream that ends (the process stops: a Go change restarts it) is
	// opened again half a second later, not after the browser's 3 s.
	if _, err := res.Write([]byte("retry: 500\n\n")); err != nil {
		return nil // the page is gone
	}
	ping := time.NewTicker(15 * time.Second)
	defer ping.Stop()
	for {
		select {
		case <-c.Request().Context().Done():
			return nil
		case <-d.onClose:
			return nil
		case <-ping.C:
			if _, err := res.Write([]byte(": ping\n\n")); err != nil {
				return nil // the page is gone
			}
		case st := <-ch:
			data, err := json.Marshal(st)
			if err != nil {
				return err
			}
			if _, err := fmt.Fprintf(res, "event: state\ndata: %s\n\n", data); err != nil {
				return nil
			}
		}
		res.Flush()
	}
}

// withDevClient adds the dev client script to every HTML answer, with the
// number of the build that made it.
func (srv *Server) withDevClient(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		req := c.Request()
		p := req.URL.Path
		if req.Method != http.MethodGet || strings.HasPrefix(p, "/_dev/") || strings.HasPrefix(p, "/assets/") || isAPIPath(p) {
			return next(c)
		}
		// The page as it is now, whole: not compressed, not a 304.
		req.Header.Del("Accept-Encoding")
		req.Header.Del("If-None-Match")
		server, build, js := srv.Dev.buildOf(srv.Build())
		res := c.Response()
		buf := &htmlBuffer{ResponseWriter: res.Writer}
		res.Writer = buf
		err := next(c)
		if err != nil {
			c.Error(err)
		}
		res.Writer = buf.ResponseWriter
		if buf.html {
			tag := fmt.Sprintf(`<script src="%s" data-server="%s" data-build="%d" data-js="%d"></script>`, devClientPath, server, build, js)
			body := buf.body.Bytes()
			if i := bytes.Index(body, []byte("</head>")); i >= 0 {
				body = append(append(append([]byte{}, body[:i]...), tag...), body[i:]...)
			}
			hdr := res.Header()
			hdr.Del("ETag")
			hdr.Set("Cache-Control", "no-store")
			hdr.Set("Content-Length", fmt.Sprint(len(body)))
			res.Writer.WriteHeader(buf.status)
			_, _ = res.Writer.Write(body) // the page is gone: nothing to do
		}
		return nil
	}
}

// htmlBuffer holds back an HTML answer, and lets any other through.
type htmlBuffer struct {
	http.ResponseWriter
	status      int
	wroteHeader bool
	html        bool
	body        bytes.Buffer
}

func (b *htmlBuffer) WriteHeader(code int) {
	if b.wroteHeader {
		return
	}
	b.wroteHeader, b.status = true, code
	b.html = strings.HasPrefix(b.Header().Get("Content-Type"), "text/html")
	if !b.html {
		b.ResponseWriter.WriteHeader(code)
	}
}

func (b *htmlBuffer) Write(p []byte) (int, error) {
	if !b.wroteHeader {
		b.WriteHeader(http.StatusOK)
	}
	if b.html {
		return b.body.Write(p)
	}
	return b.ResponseWriter.Write(p)
}
