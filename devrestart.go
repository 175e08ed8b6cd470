package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/northbeam/site/handlers"
	"github.com/northbeam/site/internal/config"
)

// Go changes under -dev (docs/ARCHITECTURE.md, The dev loop): `go run .
// -dev` is a watcher that holds the listening socket and runs the server
// as its child, handing it the socket. A saved .go file is built again
// with go build; a build that succeeds starts a new child on the same
// socket and, once it serves, stops the old one, and the open pages reload
// (the process's name in the dev state changed); a build that fails leaves
// the old child serving and shows the compiler's messages in the log and
// over its open pages.

// devChildEnv marks a child of the watcher: it serves on the socket at
// file descriptor 3, reads the Go build's problems on 4 and says on 5 that
// it serves.
const devChildEnv = "NORTHBEAM_DEV_CHILD"

// devChild reports whether this process is a child of the Go watcher.
func devChild() bool { return os.Getenv(devChildEnv) == "1" }

// goWatchable says why the Go sources cannot be watched from cfg's project
// directory, or "" when they can: a production binary carries no sources,
// and a project without go.mod (a copy of the content alone) or a machine
// without go has nothing to build them.
func goWatchable(cfg config.Config, embedded bool) string {
	switch {
	case embedded:
		return "a production binary"
	case devChild():
		return "a child of the watcher"
	}
	if _, err := os.Stat(filepath.Join(cfg.Root, "go.mod")); err != nil {
		return "ROOT holds no go.mod"
	}
	if _, err := exec.LookPath("go"); err != nil {
		return "go is not installed"
	}
	return ""
}

// childListener returns the socket the watcher hands its child.
func childListener() (net.Listener, error) {
	f := os.NewFile(3, "listener")
	defer func() { _ = f.Close() }() // FileListener holds its own copy
	return net.FileListener(f)
}

// childServes tells the watcher that the child serves, and shows what it
// says of the Go build in dev until it goes.
func childServes(dev *handlers.DevLoop, log *slog.Logger) {
	if w := os.NewFile(5, "serving"); w != nil {
		_, _ = w.WriteString("serving\n") // a watcher gone has nothing to wait for
		_ = w.Close()
	}
	r := os.NewFile(4, "go-problems")
	if r == nil {
		return
	}
	go func() {
		defer func() { _ = r.Close() }()
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 64<<10), 4<<20)
		for sc.Scan() {
			var problems []handlers.DevProblem
			if err := json.Unmarshal(sc.Bytes(), &problems); err != nil {
				log.Warn("the Go watcher's message", "err", err)
				continue
			}
			dev.SetProblems("go", problems)
		}
	}()
}

// child is a server the watcher started.
type child struct {
	cmd     *exec.Cmd
	tell    *os.File      // its problems' pipe
	serving chan struct{} // closed when it serves
	exited  chan error    // its end
}

// startChild starts bin as the server, on the socket ln.
func startChild(bin string, args []string, ln *os.File) (*child, error) {
	problemsR, problemsW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	servingR, servingW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	//nolint:gosec // G204: the binary the watcher itself built from the project
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), devChildEnv+"=1")
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	cmd.ExtraFiles = []*os.File{ln, problemsR, servingW}
	err = cmd.Start()
	_ = problemsR.Close() // the child's copies
	_ = servingW.Close()
	if err != nil {
		_ = problemsW.Close()
		_ = servingR.Close()
		return nil, err
	}
	c := &child{cmd: cmd, tell: problemsW, serving: make(chan struct{}), exited: make(chan error, 1)}
	go func() {
		defer func() { _ = servingR.Close() }()
		if line, _ := bufio.NewReader(servingR).ReadString('\n'); line == "serving\n" {
			close(c.serving)
		}
	}()
	go func() { c.exited <- cmd.Wait() }()
	return c, nil
}

// show tells the child what keeps the Go change from being served.
func (c *child) show(problems []handlers.DevProblem) {
	data, err := json.Marshal(problems)
	if err == nil {
		_, _ = c.tell.Write(append(data, '\n')) // a child gone shows nothing
	}
}

// stop ends the child gracefully (SIGTERM, as a deployment does) and waits
// for it; 20 s later it is killed.
func (c *child) stop() error {
	_ = c.cmd.Process.Signal(syscall.SIGTERM) // gone already: Wait says so
	_ = c.tell.Close()
	select {
	case err := <-c.exited:
		return err
	case <-time.After(20 * time.Second):
		_ = c.cmd.Process.Kill()
		return <-c.exited
	}
}

// superviseGo is `go run . -dev`: it listens on cfg's address, runs the
// server as its child on that socket, and builds and restarts it on every
// Go change, until SIGINT or SIGTERM stops the child and itself.
func superviseGo(cfg config.Config, args []string, log *slog.Logger) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	module, err := filepath.Abs(cfg.Root)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	defer func() { _ = ln.Close() }() // the children's copies close with them
	lnFile, err := ln.(*net.TCPListener).File()
	if err != nil {
		return err
	}
	defer func() { _ = lnFile.Close() }()
	bins, err := os.MkdirTemp("", "northbeam-dev-")
	if err != nil {
		return err
	}
	defer func() { _ = os.RemoveAll(bins) }() // temporary binaries
	self, err := os.Executable()
	if err != nil {
		return err
	}
	cur, err := startChild(self, args, lnFile)
	if err != nil {
		return err
	}
	// The watcher runs no site: the executable's read-only data and code
	// its start read (the packages' tables and initialization) are of no
	// use to it, and were most of its resident memory (docs/ARCHITECTURE.md,
	// The dev loop). Once now, and again when the child serves, after the
	// watch of the Go code has started (which reads as much again).
	releaseReadOnlyPages()
	go func() {
		select {
		case <-cur.serving:
			releaseReadOnlyPages()
		case <-ctx.Done():
		}
	}()
	changes := make(chan []string)
	go watchGo(ctx, module, log, changes)
	for n := 1; ; n++ {
		select {
		case <-ctx.Done():
			return childEnd(cur.stop())
		case err := <-cur.exited:
			return childEnd(err)
		case files := <-changes:
			started := time.Now()
			log.Info("Go change; building", "files", strings.Join(files, " "))
			bin := filepath.Join(bins, "northbeam-site-"+strconv.Itoa(n))
			//nolint:gosec // G204: go build of the project -dev serves
			build := exec.CommandContext(ctx, "go", "build", "-o", bin, ".")
			build.Dir = module
			if out, err := build.CombinedOutput(); err != nil {
				if ctx.Err() != nil {
					continue
				}
				problems := goProblems(module, string(out))
				for _, p := range problems {
					log.Error("Go build failed; still serving the previous build", "problem", p.String(), "line", p.LineText)
				}
				cur.show(problems)
				continue
			}
			next, err := startChild(bin, args, lnFile)
			if err != nil {
				cur.show([]handlers.DevProblem{{Kind: "go", Message: "the new server did not start: " + err.Error()}})
				continue
			}
			select {
			case <-next.serving:
			case err := <-next.exited:
				log.Error("the new server stopped at its start; still serving the previous one", "err", err)
				cur.show([]handlers.DevProblem{{Kind: "go", Message: "the new server stopped at its start (the log says why): " + fmt.Sprint(err)}})
				continue
			case <-ctx.Done():
				_ = next.stop()
				continue
			}
			old := cur
			cur = next
			go func() { _ = old.stop() }() // it said why in the log, if anything
			log.Info("restarted with the Go change", "in", time.Since(started).Round(time.Millisecond))
			if prev := filepath.Join(bins, "northbeam-site-"+strconv.Itoa(n-1)); n > 1 {
				_ = os.Remove(prev) // the old child runs it until it stops: unlinking is safe
			}
		}
	}
}

// childEnd is the watcher's end for its child's: a child that stopped
// cleanly is a clean stop; any other has said why in the log.
func childEnd(err error) error {
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return fmt.Errorf("the server stopped (%s)", exit.ProcessState)
	}
	return err
}

// goMessage is a line of the Go compiler: file:line:column: message.
var goMessage = regexp.MustCompile(`^(\S+\.go):(\d+):(\d+): (.*)$`)

// goProblems turns go build's output into problems at their places, each
// with the text of its line.
func goProblems(module, out string) []handlers.DevProblem {
	var problems []handlers.DevProblem
	for _, line := range strings.Split(out, "\n") {
		if m := goMessage.FindStringSubmatch(line); m != nil {
			n, _ := strconv.Atoi(m[2])
			col, _ := strconv.Atoi(m[3])
			problems = append(problems, placed(module, handlers.DevProblem{Kind: "go", Message: m[4], File: filepath.ToSlash(filepath.Clean(m[1])), Line: n, Column: col}))
		} else if strings.HasPrefix(line, "\t") && len(problems) > 0 {
			problems[len(problems)-1].Message += "\n" + strings.TrimSpace(line)
		}
	}
	if len(problems) == 0 {
		problems = []handlers.DevProblem{{Kind: "go", Message: strings.TrimSpace(out)}}
	}
	return problems
}

// goInput reports whether the file at rel (from the module's folder), in
// a folder of the site's packages, is what a Go build reads: a .go file
// (not a test's), the module's files, and what a //go:embed takes
// (handlers/devclient.js, internal/brand's fonts).
func goInput(rel string) bool {
	base := filepath.Base(rel)
	if editorFile(base) {
		return false
	}
	switch filepath.Ext(base) {
	case ".go":
		return !strings.HasSuffix(base, "_test.go")
	case ".js", ".ttf":
		return true
	}
	return rel == "go.mod" || rel == "go.sum"
}

// watchGo sends the Go inputs that changed (paths relative to module), a
// batch at a time, watching the folders of the packages the site is built
// from (go list).
func watchGo(ctx context.Context, module string, log *slog.Logger, changes chan<- []string) {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		log.Warn("Go changes are not watched", "err", err)
		return
	}
	defer func() { _ = w.Close() }() // the loop is over: nothing to report
	list := exec.CommandContext(ctx, "go", "list", "-deps", "-f", "{{if not .Standard}}{{.Dir}}{{end}}", ".")
	list.Dir = module
	out, err := list.Output()
	if err != nil {
		log.Warn("Go changes are not watched", "err", err)
		return
	}
	watching := 0
	for _, dir := range strings.Fields(string(out)) {
		if rel, err := filepath.Rel(module, dir); err == nil && !strings.HasPrefix(rel, "..") {
			if err := w.Add(dir); err != nil {
				log.Warn("Go changes are not watched in a folder", "dir", rel, "err", err)
				continue
			}
			watching++
		}
	}
	log.Info("watching the Go code", "folders", watching)
	const quiet = 100 * time.Millisecond
	batch := map[string]bool{}
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case err := <-w.Errors:
			log.Warn("Go file events", "err", err)
		case ev := <-w.Events:
			rel, err := filepath.Rel(module, ev.Name)
			if err != nil || !goInput(filepath.ToSlash(rel)) || ev.Has(fsnotify.Chmod) && !ev.Has(fsnotify.Write) {
				continue
			}
			batch[filepath.ToSlash(rel)] = true
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
