package main

import (
	"bufio"
	"io"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/northbeam/site/internal/sitetest"
)

var listeningLine = regexp.MustCompile(`msg="listening; rendering the pages behind" addr=(\S+)`)

// TestStartListensBeforeRendering: a start from the project's sources (as
// `go run .` does, here this test binary run as the program) listens before
// the content is loaded and any page is rendered; a page asked for then
// answers once the content is loaded, on its first request, while /readyz
// fails until the rest are rendered; the
// production binary's start is TestCrashAndLoad's.
func TestStartListensBeforeRendering(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	root, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	// This test binary, run as the program (asProgram): the package's code
	// as `go run .` builds it, without a build of its own.
	bin, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin)
	cmd.Dir = t.TempDir()
	cmd.Env = append(os.Environ(), asProgram+"=1", "ROOT="+root, "ADDR=127.0.0.1:0", "DATA_DIR="+t.TempDir(), "SMTP_URL=", "DEV=false")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	lines := make(chan string, 100)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	var addr string
	var log []string
	timeout := time.After(240 * time.Second)
	for addr == "" {
		select {
		case line, ok := <-lines:
			if !ok {
				t.Fatalf("the server stopped:\n%s", strings.Join(log, "\n"))
			}
			log = append(log, line)
			if m := listeningLine.FindStringSubmatch(line); m != nil {
				addr = m[1]
			}
		case <-timeout:
			t.Fatalf("the server did not listen within 240 s:\n%s", strings.Join(log, "\n"))
		}
	}
	get := func(path string) (int, string) {
		res, err := http.Get("http://" + addr + path)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		body, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(body)
	}
	// Loading the content and rendering the site's pages take seconds; the
	// first answers come first, a page's once the content is loaded.
	if code, body := get("/readyz"); code != http.StatusServiceUnavailable ||
		!strings.Contains(body, "loading the content") && !strings.Contains(body, "rendering the pages") {
		t.Errorf("/readyz at start: %d %q, want 503 while the content is loaded and the pages rendered", code, body)
	}
	other := sitetest.Other(t)
	if code, body := get(other.LocalPath("/team")); code != http.StatusOK || !strings.Contains(body, `lang="`+other.Tag+`"`) {
		t.Errorf("%s at start: %d, want the team page in %s", other.LocalPath("/team"), code, other.Code)
	}
	ready := regexp.MustCompile(`msg=ready .*pages_rendered=(\d+)`)
	for {
		select {
		case line, ok := <-lines:
			if !ok {
				t.Fatalf("the server stopped:\n%s", strings.Join(log, "\n"))
			}
			log = append(log, line)
			if m := ready.FindStringSubmatch(line); m != nil {
				if code, body := get("/readyz"); code != http.StatusOK {
					t.Errorf("/readyz after the ready line: %d %q", code, body)
				}
				return
			}
		case <-timeout:
			t.Fatalf("the pages were not rendered within 240 s:\n%s", strings.Join(log, "\n"))
		}
	}
}

// TestAnEditedPostLeavesTheProgramTheSame: `go run .` embeds none of
// content/, and a production build all of it. A file a build embeds is one
// of its inputs, so a post embedded in `go run .`'s program would make each
// edit of it a new program, with a new Go build ID: the salt of the renders'
// cache and the name of the content's index, so that a restart after one
// post changed would render every page and parse every post again
// (content_dev.go).
func TestAnEditedPostLeavesTheProgramTheSame(t *testing.T) {
	embedded := func(tags string) []string {
		t.Helper()
		out, err := exec.Command("go", "list", "-tags="+tags, "-f", `{{join .EmbedFiles "\n"}}`, ".").CombinedOutput() //nolint:gosec // G204: go list of this package, with a tag of this test's
		if err != nil {
			t.Fatalf("go list -tags=%s: %v\n%s", tags, err, out)
		}
		return strings.Fields(string(out))
	}
	if files := embedded(""); len(files) > 0 {
		t.Errorf("`go run .` embeds %d files (%s ...): an edit to one is a new program, and a restart renders the whole site", len(files), files[0])
	}
	prod := strings.Join(embedded("prod"), "\n")
	for _, want := range []string{"content/site.json", "content/locales/ar.json", "content/blog/en/"} {
		if !strings.Contains(prod, want) {
			t.Errorf("the production binary does not embed %s", want)
		}
	}
}

// TestHelpListsTheFlags: `go run . -h` prints how to run the program and
// every flag with its meaning, and exits 0, rather than refusing -h as a
// mistake in the configuration.
func TestHelpListsTheFlags(t *testing.T) {
	bin, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-h")
	cmd.Env = append(os.Environ(), asProgram+"=1")
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("-h: %v\n%s", err, stderr.String())
	}
	for _, want := range []string{"Usage: " + program, "-data_dir", "data directory", "-database_url", "DATA_DIR"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("-h does not say %q:\n%s", want, stdout.String())
		}
	}
}
