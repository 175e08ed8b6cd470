package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/northbeam/site/handlers"
	"github.com/northbeam/site/internal/devserver"
)

// TestGoChangesRestartTheDevServer: `-dev` from the project's sources
// (a copy with its Go code) builds a saved .go file again and serves it on
// the same address, with a new process name in the dev state, so that open
// pages reload; a change that does not compile leaves the last good server
// answering, and the log and its open pages say where the compiler
// stopped; the fix is served in turn.
func TestGoChangesRestartTheDevServer(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary, twice more on changes")
	}
	repo, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	if err := devserver.CopyModule(repo, root); err != nil {
		t.Fatal(err)
	}
	bin, err := devserver.Build(root, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	dev, err := devserver.Start(bin, root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("the dev server's log:\n%s", dev.Log())
		}
		dev.Stop()
	})
	within := 5 * time.Minute
	if d, ok := t.Deadline(); ok {
		within = time.Until(d) / 3
	}
	healthz := func() string {
		t.Helper()
		res, err := http.Get(dev.URL + "/healthz")
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		body, _ := io.ReadAll(res.Body)
		return string(body)
	}
	// state reads the dev state the event stream gives an open page first.
	state := func() (server string, problems []handlers.DevProblem) {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), within)
		defer cancel()
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, dev.URL+"/_dev/events?path=/", nil)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		sc := bufio.NewScanner(res.Body)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			if data, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
				var st struct {
					Server   string                `json:"server"`
					Problems []handlers.DevProblem `json:"problems"`
				}
				if err := json.Unmarshal([]byte(data), &st); err != nil {
					t.Fatal(err)
				}
				return st.Server, st.Problems
			}
		}
		t.Fatalf("the event stream ended: %v", sc.Err())
		return "", nil
	}
	if got := healthz(); got != "ok\n" {
		t.Fatalf("/healthz says %q", got)
	}
	first, _ := state()

	// A change that compiles: the same address serves it, from a new process.
	from := dev.Lines()
	if err := dev.Edit("handlers/health.go", `c.String(http.StatusOK, "ok\n")`, `c.String(http.StatusOK, "ok, changed\n")`); err != nil {
		t.Fatal(err)
	}
	if _, err := dev.WaitLog(regexp.MustCompile(`msg="restarted with the Go change"`), from, within); err != nil {
		t.Fatal(err)
	}
	if got := healthz(); got != "ok, changed\n" {
		t.Errorf("after the change /healthz says %q", got)
	}
	second, problems := state()
	if second == first || len(problems) != 0 {
		t.Errorf("the dev state names the process %q (before: %q), problems %+v; want another process and none", second, first, problems)
	}

	// A change that does not compile: the log and the open pages say where;
	// the last good server answers.
	from = dev.Lines()
	const broken = "var devxBroken int = \"not a number\"\n"
	if err := dev.Edit("handlers/health.go", "", broken); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(root, "handlers/health.go"))
	if err != nil {
		t.Fatal(err)
	}
	line := strconv.Itoa(strings.Count(string(data), "\n"))
	if _, err := dev.WaitLog(regexp.MustCompile(`level=ERROR msg="Go build failed; still serving the previous build" problem="handlers/health\.go:`+line+`:\d+: cannot use`), from, within); err != nil {
		t.Fatal(err)
	}
	if got := healthz(); got != "ok, changed\n" {
		t.Errorf("with the compile error /healthz says %q, want the last good server's answer", got)
	}
	server, problems := state()
	if server != second || len(problems) != 1 || problems[0].Kind != "go" || problems[0].File != "handlers/health.go" ||
		strconv.Itoa(problems[0].Line) != line || problems[0].LineText != strings.TrimSuffix(broken, "\n") {
		t.Errorf("with the compile error the dev state is %q %+v; want the last good process and the error at handlers/health.go:%s", server, problems, line)
	}

	// The fix is served in turn.
	from = dev.Lines()
	if err := dev.Edit("handlers/health.go", broken, ""); err != nil {
		t.Fatal(err)
	}
	if _, err := dev.WaitLog(regexp.MustCompile(`msg="restarted with the Go change"`), from, within); err != nil {
		t.Fatal(err)
	}
	if third, problems := state(); third == second || len(problems) != 0 {
		t.Errorf("after the fix the dev state is %q %+v; want a new process and no problem", third, problems)
	}
}
