package main

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"log/slog"
	"maps"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/northbeam/site/handlers"
	"github.com/northbeam/site/internal/assets"
	"github.com/northbeam/site/internal/config"
	"github.com/northbeam/site/internal/content"
	"github.com/northbeam/site/internal/jsonpos"
	"github.com/northbeam/site/internal/sitebuild"
	"github.com/northbeam/site/render"
)

// The -dev loop (docs/ARCHITECTURE.md, The dev loop): a change under
// frontend/ or content/ builds the bundles again through esbuild's build
// contexts, swaps in a new build whose pages render on request, renders
// the pages open in a browser, and tells them (handlers.DevLoop): they
// reload, swap their stylesheets, or show the error over the last good
// page. A build that fails leaves the previous one serving.

// watched are the parts of the project a change of which makes a build.
var watched = []string{"frontend", "content", "esbuild.config.mjs"}

// stringsFolder holds the visitors' strings, content/locales/<lang>.json:
// data that no bundle holds (the staff's, content/staff/locales, are in
// its bundle).
const stringsFolder = "content/locales/"

// configFiles are read when a Builder is made (assets.NewBuilder): a change
// to one of them makes a new one.
var configFiles = []string{"esbuild.config.mjs", "content/site.json", "frontend/lib/strings.json", "frontend/pages/table.ts"}

// devLoop rebuilds the site on change.
type devLoop struct {
	src  sources
	cfg  config.Config
	srv  *handlers.Server
	log  *slog.Logger
	memo *render.Memo // every render of the session, by bundle and payload
	// stopPrerender ends the start's rendering of every page, which a
	// new build makes useless.
	stopPrerender context.CancelFunc
	// copies makes the pictures' copies of the build served, and prunes
	// those it lacks (imageCopies).
	copies *imageCopies
	// broken is whether the last build of the bundles failed: the next
	// change, whatever it is, builds them again (their error shows until
	// it is fixed).
	broken bool
	// release gives the memory back to the system after the rebuilds
	// (releaseLater).
	releaseMu sync.Mutex
	release   *time.Timer
}

// run rebuilds on every change until ctx ends.
func (d *devLoop) run(ctx context.Context) {
	changes := make(chan []string)
	go d.src.watch(ctx, d.log, changes)
	for {
		select {
		case <-ctx.Done():
			d.src.builder.Dispose()
			return
		case changed := <-changes:
			d.rebuild(ctx, changed)
		}
	}
}

// rebuild builds the site from the sources as they are now, after the
// files changed (paths relative to the project) changed.
func (d *devLoop) rebuild(ctx context.Context, changed []string) {
	started := time.Now()
	d.log.Info("change detected; rebuilding", "files", strings.Join(changed, " "))
	// The start's rendering of every page is of no use now: the build it
	// renders is about to go.
	d.stopPrerender()
	old := d.srv.Build()
	// Strings are data, in no bundle: a change to them alone runs no
	// esbuild (unless a bundle imports one of their files as code, or the
	// last build failed).
	stringsOnly := !d.broken && !slices.ContainsFunc(changed, func(p string) bool { return !strings.HasPrefix(p, stringsFolder) }) &&
		!d.src.builder.Reads(changed...)
	var bundle *assets.Bundle
	var err error
	if stringsOnly {
		bundle, err = d.src.builder.WithStrings(old.Bundle)
	} else {
		if slices.ContainsFunc(changed, func(p string) bool { return slices.Contains(configFiles, p) }) {
			builder, err := assets.NewBuilder(d.src.root)
			if err != nil {
				d.broken = true
				d.failed(err)
				return
			}
			d.src.builder.Dispose()
			d.src.builder = builder
		}
		bundle, err = d.src.builder.Build(changed...)
		d.broken = err != nil
	}
	if err != nil {
		d.failed(err)
		return
	}
	bundled := time.Now()
	// A new server bundle's engine starts beside the content's loading: the
	// lazy build renders nothing before it is swapped in. New strings alone
	// go to the runtimes of the engine before (render.Engine.WithStrings).
	engine, engineErr := old.Engine, make(chan error, 1)
	switch {
	case !bytes.Equal(bundle.Server, old.Bundle.Server):
		// The strings missing are found again by the new bundle's renders.
		d.srv.Dev.ClearProblems("strings")
		go func() {
			var err error
			engine, err = newEngine(bundle, d.log, d.memo, d.src.missing.tell)
			engineErr <- err
		}()
	case !bytes.Equal(bundle.Strings, old.Bundle.Strings):
		// And by the new strings' renders.
		d.srv.Dev.ClearProblems("strings")
		engine = old.Engine.WithStrings(bundle.Strings)
		go func() { engineErr <- engine.Prepare() }()
	default:
		engineErr <- nil
	}
	content, err := d.src.content()
	var s *sitebuild.Build
	if err == nil {
		var same *sitebuild.Build
		if !slices.ContainsFunc(changed, touchesCollections) {
			same = old
		}
		s, err = siteWith(ctx, content, bundle, old.Engine, d.cfg, d.src.kept, nil, same, true)
	}
	if eerr := <-engineErr; err == nil {
		err = eerr
	}
	if err != nil {
		d.failed(err)
		return
	}
	s.Engine = engine
	planned := time.Now()
	s.KeepImageCopies(old)
	// A page of the previous build still finds its chunks until it reloads.
	s.KeepAssets(old)
	// What is gone (an editor's temporary file) does not count.
	cssOnly := !slices.ContainsFunc(changed, func(p string) bool {
		_, err := os.Stat(filepath.Join(d.src.root, p))
		return err == nil && !strings.HasSuffix(p, ".css")
	}) && sameScripts(old.Bundle, bundle)
	problems := d.renderOpenPages(ctx, s)
	d.copies.stopWarming() // no pruning with the copies of the build before
	d.srv.Swap(s)
	d.srv.Dev.Built(s, cssOnly, problems)
	d.log.Info("rebuilt", "in", time.Since(started).Round(time.Millisecond), "bundles", bundled.Sub(started).Round(time.Millisecond),
		"site", planned.Sub(bundled).Round(time.Millisecond), "open_pages", time.Since(planned).Round(time.Millisecond),
		"css_only", cssOnly, "esbuild", !stringsOnly, "render_errors", len(problems))
	// The renders of the bundles and strings before are of no use now (a
	// page whose document did not change is in the renders' cache on disk).
	d.memo.KeepOnly(engine)
	d.releaseLater()
	d.copies.start(ctx, s, d.log)
}

// releaseQuiet is how long after the last rebuild the memory the builds
// before held goes back to the system: not at once, when the open pages
// reload and the developer may save again.
const releaseQuiet = 2 * time.Second

// releaseLater gives the memory of the builds before (their pages, their
// engine, esbuild's garbage) back to the system once no rebuild came for
// releaseQuiet, so that a session's does not grow with every edit.
func (d *devLoop) releaseLater() {
	d.releaseMu.Lock()
	defer d.releaseMu.Unlock()
	if d.release == nil {
		d.release = time.AfterFunc(releaseQuiet, debug.FreeOSMemory)
		return
	}
	d.release.Reset(releaseQuiet)
}

// touchesCollections reports whether a change to the file at rel (relative
// to the project) may change the posts, case studies, team or pictures:
// any file of content/ but the strings.
func touchesCollections(rel string) bool {
	return strings.HasPrefix(rel, "content/") && !strings.HasPrefix(rel, "content/locales/") && !strings.HasPrefix(rel, "content/staff/")
}

// renderOpenPages renders the pages open in a browser with s, before they
// are told to reload: they find them ready, or see why they are not.
func (d *devLoop) renderOpenPages(ctx context.Context, s *sitebuild.Build) []handlers.DevProblem {
	var mu sync.Mutex
	var problems []handlers.DevProblem
	var wg sync.WaitGroup
	for _, p := range d.srv.Dev.OpenPages() {
		wg.Go(func() {
			if _, _, err := s.Page(ctx, p); err != nil {
				problem := handlers.RenderProblem(p, err)
				d.log.Error("render failed", "path", p, "problem", problem.String())
				mu.Lock()
				problems = append(problems, problem)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return problems
}

// failed logs why the sources could not be built, and shows it in the
// open pages.
func (d *devLoop) failed(err error) {
	problems := placedProblems(d.src.root, err)
	for _, p := range problems {
		d.log.Error("build failed; still serving the previous build", "problem", p.String(), "line", p.LineText)
	}
	d.srv.Dev.Failed(problems)
}

// warnIfExposed says loudly, as Vite does with --host, when -dev listens
// on more than loopback (DEV_PUBLIC): whoever reaches the port reads the
// build errors with the sources' text on /_dev/events. It names the
// addresses others reach it at.
func warnIfExposed(log *slog.Logger, addr net.Addr) {
	tcp, ok := addr.(*net.TCPAddr)
	if !ok || tcp.IP.IsLoopback() {
		return
	}
	port := strconv.Itoa(tcp.Port)
	var urls []string
	if tcp.IP.IsUnspecified() {
		ifaces, _ := net.InterfaceAddrs() // none listed: the warning stands without them
		for _, a := range ifaces {
			if ip, ok := a.(*net.IPNet); ok && !ip.IP.IsLoopback() && !ip.IP.IsLinkLocalUnicast() && (ip.IP.To4() != nil || tcp.IP.To4() == nil) {
				urls = append(urls, "http://"+net.JoinHostPort(ip.IP.String(), port))
			}
		}
	} else {
		urls = append(urls, "http://"+net.JoinHostPort(tcp.IP.String(), port))
	}
	log.Warn("DEV_PUBLIC: the -dev server is reachable from the network; whoever reaches it sees the build errors and the sources' text",
		"addr", addr.String(), "network_urls", strings.Join(urls, " "))
}

// placedProblems lists what err, a failed build's error, says went wrong,
// each mistake at its place when one is known: esbuild's messages, a
// content file's line (content.Error), a JSON file's line and column
// (jsonpos.Error), with the line's text read from the project at root.
// Mistakes joined (errors.Join) are each a problem.
func placedProblems(root string, err error) []handlers.DevProblem {
	var out []handlers.DevProblem
	var walk func(err error) bool // whether err held a mistake with a place
	walk = func(err error) bool {
		switch e := err.(type) {
		case *assets.BuildError:
			for _, m := range e.Messages {
				out = append(out, handlers.DevProblem{Kind: "build", Message: m.Text, File: m.File, Line: m.Line, Column: m.Column, LineText: m.LineText})
			}
			return true
		case *jsonpos.Error:
			out = append(out, placed(root, handlers.DevProblem{Kind: "build", Message: e.Err.Error(), File: e.File, Line: e.Line, Column: e.Column, LineText: e.LineText}))
			return true
		case *content.Error:
			msg := e.Err.Error()
			if e.Field != "" {
				msg = e.Field + ": " + msg
			}
			out = append(out, placed(root, handlers.DevProblem{Kind: "build", Message: msg, File: e.File, Line: e.Line}))
			return true
		}
		switch u := err.(type) {
		case interface{ Unwrap() []error }:
			for _, each := range u.Unwrap() {
				if !walk(each) {
					out = append(out, handlers.DevProblem{Kind: "build", Message: each.Error()})
				}
			}
			return true
		case interface{ Unwrap() error }:
			return walk(u.Unwrap())
		}
		return false
	}
	if !walk(err) {
		out = []handlers.DevProblem{{Kind: "build", Message: err.Error()}}
	}
	return out
}

// placed names p's file from the project's directory (a loader names it in
// the content folder) and adds the text of its line.
func placed(root string, p handlers.DevProblem) handlers.DevProblem {
	if p.File == "" {
		return p
	}
	if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(p.File))); err != nil {
		if _, err := os.Stat(filepath.Join(root, "content", filepath.FromSlash(p.File))); err == nil {
			p.File = "content/" + p.File
		}
	}
	if p.LineText == "" && p.Line > 0 {
		//nolint:gosec // G304: a file of the checkout -dev builds (ROOT), named by its own loader
		if data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(p.File))); err == nil {
			if lines := strings.Split(string(data), "\n"); p.Line <= len(lines) {
				p.LineText = strings.TrimRight(lines[p.Line-1], "\r")
			}
		}
	}
	return p
}

// missingSink tells the dev loop of the strings renders lack
// (render.Options.Missing): the start's engine is made before the loop,
// which takes them once it runs (to).
type missingSink struct {
	mu   sync.Mutex
	root string
	dev  *handlers.DevLoop
}

// to sends the strings missing to dev from now on.
func (m *missingSink) to(dev *handlers.DevLoop) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.dev = dev
}

// tell shows the strings a render lacked in the open pages, each at the
// TSX line that asked for it, with the line's text.
func (m *missingSink) tell(missing []render.MissingString) {
	if m == nil {
		return
	}
	m.mu.Lock()
	dev := m.dev
	m.mu.Unlock()
	if dev == nil {
		return
	}
	problems := make([]handlers.DevProblem, 0, len(missing))
	for _, ms := range missing {
		problems = append(problems, placed(m.root, handlers.DevProblem{
			Kind: "string", Message: fmt.Sprintf("no string %q in %s: the page shows the key", ms.Key, ms.Lang),
			File: ms.File, Line: ms.Line, Column: ms.Column,
		}))
	}
	dev.AddProblems("strings", problems)
}

// sameScripts reports whether two bundles hold the same scripts (their
// names hash their contents) and the same server bundle: whether what
// differs is stylesheets alone.
func sameScripts(a, b *assets.Bundle) bool {
	scripts := func(x *assets.Bundle) []string {
		var out []string
		for name := range maps.Keys(x.Client) {
			if !strings.HasSuffix(name, ".css") {
				out = append(out, name)
			}
		}
		slices.Sort(out)
		return out
	}
	return bytes.Equal(a.Server, b.Server) && slices.Equal(scripts(a), scripts(b))
}

// watch sends the files that changed under the watched parts of the
// project (relative paths), a batch at a time: file events, or polling
// where they fail.
func (s sources) watch(ctx context.Context, log *slog.Logger, changes chan<- []string) {
	w, err := fsnotify.NewWatcher()
	if err == nil {
		err = s.watchTree(w)
	}
	if err != nil {
		log.Warn("file events unavailable; polling for changes", "err", err)
		if w != nil {
			_ = w.Close() // polling instead: nothing to report
		}
		s.poll(ctx, changes)
		return
	}
	defer func() { _ = w.Close() }() // the loop is over: nothing to report
	// An editor's save is several events (a temporary file, a rename): a
	// batch is what came until a quiet moment.
	const quiet = 20 * time.Millisecond
	batch := map[string]bool{}
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case err := <-w.Errors:
			log.Warn("file events", "err", err)
		case ev := <-w.Events:
			rel, ok := s.relevant(ev.Name)
			if !ok {
				continue
			}
			if ev.Has(fsnotify.Create) {
				// A new directory is watched too.
				_ = s.addDirs(w, ev.Name) // not a directory, or gone again
			}
			batch[rel] = true
			timer.Reset(quiet)
		case <-timer.C:
			select {
			case changes <- slices.Sorted(maps.Keys(batch)):
				batch = map[string]bool{}
			case <-ctx.Done():
				return
			}
		}
	}
}

// watchTree watches every directory of the watched parts, and the project
// directory for esbuild.config.mjs.
func (s sources) watchTree(w *fsnotify.Watcher) error {
	if err := w.Add(s.root); err != nil {
		return err
	}
	for _, dir := range watched[:2] {
		if err := s.addDirs(w, filepath.Join(s.root, dir)); err != nil {
			return err
		}
	}
	return nil
}

// addDirs watches dir and the directories under it.
func (s sources) addDirs(w *fsnotify.Watcher, dir string) error {
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		if p != dir && editorFile(d.Name()) {
			return filepath.SkipDir
		}
		return w.Add(p)
	})
}

// relevant returns a changed file's path relative to the project, and
// false for what no build reads: other files of the project directory, an
// editor's temporary and backup files.
func (s sources) relevant(name string) (string, bool) {
	rel, err := filepath.Rel(s.root, name)
	if err != nil {
		return "", false
	}
	rel = filepath.ToSlash(rel)
	if slices.ContainsFunc(strings.Split(rel, "/"), editorFile) {
		return "", false
	}
	for _, w := range watched {
		if rel == w || strings.HasPrefix(rel, w+"/") {
			return rel, true
		}
	}
	return "", false
}

// editorTemporary matches the names of the files editors and tools write
// beside the one they save, and that no build reads: Emacs's autosave
// (#name#), Vim's test of the folder (4913, then 5036 and on), sed -i's
// temporary (sedXXXXXX), JetBrains' safe write (name___jb_tmp___), a
// temporary file (name.tmp).
var editorTemporary = regexp.MustCompile(`^(#.*#|[0-9]+|sed[A-Za-z0-9]{6}|.*___jb_(tmp|old)___|.*\.(tmp|swp|swo|swx|swn|bak|orig))$`)

// editorFile reports whether a file or folder named base is an editor's
// temporary or backup file, or hidden (Emacs's lock .#name, Vim's swap
// .name.swp, a save through .goutputstream-X, a .git folder): none is
// content, and none starts a build (docs/ARCHITECTURE.md, The dev loop).
func editorFile(base string) bool {
	return strings.HasPrefix(base, ".") || strings.HasSuffix(base, "~") || editorTemporary.MatchString(base)
}

// poll is the fallback of watch: it compares the files' sizes and
// modification times twice a second.
func (s sources) poll(ctx context.Context, changes chan<- []string) {
	fingerprint := func() map[string]string {
		out := map[string]string{}
		for _, dir := range watched {
			//nolint:gosec // G703: -dev watches the checkout its own configuration names (ROOT)
			_ = filepath.WalkDir(filepath.Join(s.root, dir), func(p string, d fs.DirEntry, err error) error {
				if err != nil {
					return nil
				}
				if info, err := d.Info(); err == nil && !d.IsDir() {
					if rel, ok := s.relevant(p); ok {
						out[rel] = fmt.Sprintf("%d %d", info.Size(), info.ModTime().UnixNano())
					}
				}
				return nil
			})
		}
		return out
	}
	last := fingerprint()
	tick := time.NewTicker(500 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			now := fingerprint()
			var changed []string
			for p, f := range now {
				if last[p] != f {
					changed = append(changed, p)
				}
			}
			for p := range last {
				if _, ok := now[p]; !ok {
					changed = append(changed, p)
				}
			}
			last = now
			if len(changed) > 0 {
				slices.Sort(changed)
				select {
				case changes <- changed:
				case <-ctx.Done():
					return
				}
			}
		}
	}
}
