// Package devserver runs the site's -dev server on a copy of the project,
// for what measures or tests the dev loop (bench devloop, the e2e tests):
// they edit the copy's files as a developer would, never the project's.
package devserver

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"
)

// copied are the parts of the project a -dev server builds from; the copy
// links node_modules rather than copying it.
var copied = []string{"frontend", "content", "esbuild.config.mjs", "tsconfig.json", "package.json"}

// CopyTree copies what the site builds from, from the project at root into
// dst, and links dst/node_modules to the project's.
func CopyTree(root, dst string) error {
	for _, part := range copied {
		src := filepath.Join(root, part)
		info, err := os.Stat(src)
		if err != nil {
			return err
		}
		if info.IsDir() {
			err = os.CopyFS(filepath.Join(dst, part), os.DirFS(src))
		} else {
			err = copyFile(src, filepath.Join(dst, part))
		}
		if err != nil {
			return err
		}
	}
	return os.Symlink(filepath.Join(root, "node_modules"), filepath.Join(dst, "node_modules"))
}

// CopyModule copies the whole project at root, its Go code included, into
// dst, as CopyTree does what the site builds from: what `go run . -dev`
// from dst would serve and build again on a Go change. Neither git's
// folder nor what builds and runs leave behind (data, bin) is copied.
func CopyModule(root, dst string) error {
	skip := []string{".git", "node_modules", "data", "bin", "dist", "bench/out", "internal/assets/dist"}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, p)
		if err != nil || rel == "." {
			return err
		}
		if slices.Contains(skip, filepath.ToSlash(rel)) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		target := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(target, 0o750)
		case d.Type().IsRegular():
			return copyFile(p, target)
		}
		return nil // a link or a socket: nothing the site builds from
	})
	if err != nil {
		return err
	}
	return os.Symlink(filepath.Join(root, "node_modules"), filepath.Join(dst, "node_modules"))
}

func copyFile(src, dst string) error {
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	return os.WriteFile(dst, data, 0o600) //nolint:gosec // G703: dst is in the copy the caller chose (a temporary directory)
}

// Build compiles the site's binary from the project at root into dir.
func Build(root, dir string) (string, error) {
	bin := filepath.Join(dir, "northbeam-site")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build: %w\n%s", err, out)
	}
	return bin, nil
}

// Server is a running -dev server and what it logged.
type Server struct {
	URL   string
	Root  string // the copy it serves
	Start time.Time
	cmd   *exec.Cmd

	mu    sync.Mutex
	lines []string
	added chan struct{} // a line was logged
}

var listening = regexp.MustCompile(`msg="listening; rendering the pages behind" addr=(\S+)`)

// Start starts bin -dev on a free loopback port, serving the project copy
// at root, and returns once it listens.
func Start(bin, root string, env ...string) (*Server, error) {
	data, err := os.MkdirTemp("", "devserver-data-")
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, "-dev")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), append([]string{"ROOT=" + root, "ADDR=127.0.0.1:0", "DATA_DIR=" + data, "SMTP_URL=", "GA_MEASUREMENT_ID="}, env...)...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	s := &Server{Root: root, Start: time.Now(), cmd: cmd, added: make(chan struct{}, 1)}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	go s.read(stderr, data)
	line, err := s.WaitLog(listening, 0, 5*time.Minute)
	if err != nil {
		s.Stop()
		return nil, err
	}
	s.URL = "http://" + listening.FindStringSubmatch(line)[1]
	return s, nil
}

func (s *Server) read(r io.Reader, data string) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		s.mu.Lock()
		s.lines = append(s.lines, sc.Text())
		s.mu.Unlock()
		select {
		case s.added <- struct{}{}:
		default:
		}
	}
	_ = os.RemoveAll(data) // a temporary directory: best effort
}

// Lines returns how many lines it logged so far.
func (s *Server) Lines() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.lines)
}

// Log returns what it logged.
func (s *Server) Log() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return strings.Join(s.lines, "\n")
}

// WaitLog waits for a line matching re among those logged from the
// from-th on, and returns it.
func (s *Server) WaitLog(re *regexp.Regexp, from int, within time.Duration) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), within)
	defer cancel()
	for {
		s.mu.Lock()
		for _, l := range s.lines[min(from, len(s.lines)):] {
			if re.MatchString(l) {
				s.mu.Unlock()
				return l, nil
			}
		}
		s.mu.Unlock()
		select {
		case <-s.added:
		case <-time.After(100 * time.Millisecond):
		case <-ctx.Done():
			return "", errors.New("no line matching " + re.String() + " within " + within.String() + "; the log:\n" + s.Log())
		}
	}
}

// Edit replaces old by new in the copy's file at rel (adds new at its end
// when old is empty), as an editor saves.
func (s *Server) Edit(rel, old, new string) error {
	p := filepath.Join(s.Root, filepath.FromSlash(rel))
	data, err := os.ReadFile(p)
	if err != nil {
		return err
	}
	text := string(data) + new
	if old != "" {
		if !strings.Contains(string(data), old) {
			return fmt.Errorf("%s holds no %q", rel, old)
		}
		text = strings.Replace(string(data), old, new, 1)
	}
	return os.WriteFile(p, []byte(text), 0o600) //nolint:gosec // G703: a file of the copy, named by the test or bench
}

// Stop ends the server.
func (s *Server) Stop() {
	if s.cmd.Process != nil {
		_ = s.cmd.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { _ = s.cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = s.cmd.Process.Kill()
			<-done
		}
	}
}
