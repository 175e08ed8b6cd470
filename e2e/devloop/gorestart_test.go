package devloop

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
// stopped.
func TestGoChangesRestartTheDevServer(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary, twice more on changes")
	}
	dev, root := startDevOn(t, devserver.CopyModule, "")
	within := 5 * time.Minute
	if d, ok := t.Deadline(); ok {
		within = time.Until(d) / 3
	}
	// Each request on a connection of its own, as a page that reloads
	// opens: the old process closes its own as it stops.
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	healthz := func() string {
		t.Helper()
		res, err := client.Get(dev.URL + "/healthz")
		if err != nil {
			return err.Error()
		}
		defer res.Body.Close()
		body, _ := io.ReadAll(res.Body)
		return string(body)
	}
	// state reads the dev state the event stream gives an open page first.
	type devState struct {
		Server   string                `json:"server"`
		Problems []handlers.DevProblem `json:"problems"`
	}
	state := func() (st devState) {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), within)
		defer cancel()
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, dev.URL+"/_dev/events?path=/", nil)
		res, err := client.Do(req)
		if err != nil {
			return devState{Server: err.Error()}
		}
		defer res.Body.Close()
		sc := bufio.NewScanner(res.Body)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			if data, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
				if err := json.Unmarshal([]byte(data), &st); err != nil {
					t.Fatal(err)
				}
				return st
			}
		}
		return devState{Server: "the stream ended"}
	}
	// eventually waits for ok within the test's time, as the old process
	// may answer until it has stopped.
	eventually := func(ok func() bool) bool {
		deadline := time.Now().Add(within)
		for !ok() {
			if time.Now().After(deadline) {
				return false
			}
			time.Sleep(100 * time.Millisecond)
		}
		return true
	}
	if _, err := dev.WaitLog(regexp.MustCompile(`msg="watching the Go code" folders=[1-9]`), 0, within); err != nil {
		t.Fatal(err)
	}
	if got := healthz(); got != "ok\n" {
		t.Fatalf("/healthz says %q", got)
	}
	first := state().Server

	// A change that compiles: the same address serves it, from a new process.
	from := dev.Lines()
	if err := dev.Edit("handlers/health.go", `c.String(http.StatusOK, "ok\n")`, `c.String(http.StatusOK, "ok, changed\n")`); err != nil {
		t.Fatal(err)
	}
	if _, err := dev.WaitLog(regexp.MustCompile(`msg="restarted with the Go change"`), from, within); err != nil {
		t.Fatal(err)
	}
	if !eventually(func() bool { return healthz() == "ok, changed\n" }) {
		t.Errorf("after the change /healthz says %q", healthz())
	}
	var second string
	if !eventually(func() bool { st := state(); second = st.Server; return second != first && len(st.Problems) == 0 }) {
		t.Errorf("the dev state names the process %q (before: %q); want another process and no problem", second, first)
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
	shown := func(st devState) bool {
		return st.Server == second && len(st.Problems) == 1 && st.Problems[0].Kind == "go" && st.Problems[0].File == "handlers/health.go" &&
			strconv.Itoa(st.Problems[0].Line) == line && st.Problems[0].LineText == strings.TrimSuffix(broken, "\n")
	}
	if !eventually(func() bool { return shown(state()) }) {
		t.Errorf("with the compile error the dev state is %+v; want the last good process and the error at handlers/health.go:%s", state(), line)
	}
}
