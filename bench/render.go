package main

import (
	"context"
	_ "embed" // the Node half of the render bench
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/northbeam/site/internal/assets"
	"github.com/northbeam/site/internal/sitebuild"
	"github.com/northbeam/site/render"
)

//go:embed render_node.mjs
var renderNode []byte

// renderSample is one page type's payload, rendered by both engines.
type renderSample struct {
	Name    string `json:"name"`
	Payload string `json:"payload"`
}

// renderTimes is what one engine measured of one page type: the wall time
// of each render, the process's CPU time per render, and the HTML.
type renderTimes struct {
	MS   []float64 `json:"ms"`
	CPU  float64   `json:"cpu"`
	HTML string    `json:"html"`
}

// renderBench times one render of each page type in goja, through the
// render engine the site uses, and in Node, which evaluates the same
// server bundle and calls its renderPage with the same payload, and prints
// both side by side with their ratio: the gap that goja's interpreter
// costs against a JIT on the same JavaScript.
//
// The ratio is taken on CPU time per render, each process's own (all its
// threads, so Go's and V8's collectors count): on a machine that other
// work loads, wall time measures the waiting too, CPU time what the render
// cost. The wall time's median is printed beside it.
func renderBench(root string, warmup, samples int) error {
	fmt.Println("building the bundles and the site's payloads...")
	bundle, err := assets.Build(root)
	if err != nil {
		return err
	}
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	engine, err := render.NewEngine(bundle.Server, render.Options{Runtimes: 1, Logger: quiet, Strings: bundle.Strings})
	if err != nil {
		return err
	}
	site, err := sitebuild.New(context.Background(), os.DirFS(filepath.Join(root, "content")), bundle, engine,
		sitebuild.Options{BaseURL: "https://example.test"})
	if err != nil {
		return err
	}
	var samplesIn []renderSample
	for _, p := range pages {
		r, ok := site.Payload(p.path)
		if !ok {
			r = site.NotFoundPayload(site.Info.DefaultLanguage)
		}
		samplesIn = append(samplesIn, renderSample{p.name, string(r.Bytes())})
	}

	rows, err := compareRenders(bundle.Server, bundle.Strings, engine, samplesIn, warmup, samples)
	if err != nil {
		return err
	}
	fmt.Printf("\nrender time per page type: CPU time per render over %d renders (after %d unmeasured of every page type), and the median wall time\n", samples, warmup)
	fmt.Printf("  %-12s %9s %9s %7s   %9s %9s  %9s %9s  %s\n", "page", "goja CPU", "Node CPU", "ratio", "goja wall", "Node wall", "no JIT", "ratio", "same HTML")
	var worst float64
	var differ []string
	for _, r := range rows {
		worst = max(worst, r.ratio())
		same := "yes"
		if !r.sameHTML() {
			same = "NO"
			differ = append(differ, r.name)
		}
		fmt.Printf("  %-12s %6.2f ms %6.2f ms %6.1f×   %6.2f ms %6.2f ms  %6.2f ms %8.1f×  %s\n", r.name, r.goja.CPU, r.node.CPU, r.ratio(),
			median(r.goja.MS), median(r.node.MS), r.nodeNoJIT.CPU, r.goja.CPU/r.nodeNoJIT.CPU, same)
	}
	fmt.Printf("  worst ratio %.1f×   goal: goja at most 8× Node  %s\n", worst, verdict(worst <= 8))
	fmt.Printf("  same HTML in goja and Node (with and without JIT): %d of %d page types  %s\n", len(rows)-len(differ), len(rows), sameVerdict(differ))
	fmt.Println("  (no JIT: Node with --jitless, V8's interpreter alone, CPU time per render, and goja's ratio to it)")
	if err := keepDifferent(rows); err != nil {
		return err
	}
	if err := collectorShare(engine, samplesIn[0], samples); err != nil {
		return err
	}
	if err := renderFloors(root, warmup, samples); err != nil {
		return err
	}
	if len(differ) > 0 {
		// The times above compare different pages: a run that measured
		// them is no measure, so it fails.
		return fmt.Errorf("render: Node's HTML differs from goja's for %s", strings.Join(differ, ", "))
	}
	return nil
}

// sameVerdict is the same-HTML line's verdict: ok, or the page types whose
// HTML differs.
func sameVerdict(differ []string) string {
	if len(differ) == 0 {
		return "ok"
	}
	return "DIFFERENT: " + strings.Join(differ, ", ")
}

// keepDifferent writes, with -render-keep, the HTML of each page type that
// differs, goja's and Node's, to diff them: <n>.goja.html, <n>.node.html
// and <n>.node-jitless.html, n the page type's row from 1.
func keepDifferent(rows []renderRow) error {
	if *renderKeep == "" {
		return nil
	}
	for i, r := range rows {
		if r.sameHTML() {
			continue
		}
		for suffix, html := range map[string]string{"goja": r.goja.HTML, "node": r.node.HTML, "node-jitless": r.nodeNoJIT.HTML} {
			name := filepath.Join(*renderKeep, fmt.Sprintf("%d.%s.html", i+1, suffix))
			if err := os.WriteFile(name, []byte(html), 0o600); err != nil {
				return err
			}
		}
	}
	return nil
}

// collectorShare renders one page type again with Go's garbage collector
// off and at GOGC=400, and prints what the collector costs a render at the
// default GOGC=100 (allocation itself stays in both).
func collectorShare(engine *render.Engine, s renderSample, samples int) error {
	base, err := gojaRenders(engine, s.Payload, samples)
	if err != nil {
		return err
	}
	var cpu [2]float64
	for i, percent := range []int{400, -1} {
		old := debug.SetGCPercent(percent)
		t, err := gojaRenders(engine, s.Payload, samples)
		debug.SetGCPercent(old)
		runtime.GC()
		if err != nil {
			return err
		}
		cpu[i] = t.CPU
	}
	fmt.Printf("  %s in goja with Go's collector at GOGC=100 (the default): %.2f ms, at 400: %.2f ms, off: %.2f ms (the collector's share at 100: %.0f%%)\n",
		s.Name, base.CPU, cpu[0], cpu[1], 100*(1-cpu[1]/base.CPU))
	return nil
}

// renderRow is one payload's times in both engines, and in Node without
// its JIT compilers (--jitless: V8's interpreter alone), the engine most
// like goja's.
type renderRow struct {
	name                  string
	goja, node, nodeNoJIT renderTimes
}

func (r renderRow) ratio() float64 { return r.goja.CPU / r.node.CPU }

// sameHTML tells whether Node, with its JIT and without, rendered the HTML
// goja did.
func (r renderRow) sameHTML() bool {
	return r.goja.HTML == r.node.HTML && r.goja.HTML == r.nodeNoJIT.HTML
}

// compareRenders renders each sample with engine, which runs bundle with
// strings (render.Options.Strings), and with Node on the same bundle and
// strings. In each engine every sample is rendered warmup times before any
// is measured.
func compareRenders(bundle, siteStrings []byte, engine *render.Engine, in []renderSample, warmup, samples int) ([]renderRow, error) {
	node, err := nodeRenders(bundle, siteStrings, in, warmup, samples)
	if err != nil {
		return nil, err
	}
	noJIT, err := nodeRenders(bundle, siteStrings, in, warmup, samples, "--jitless", "--no-expose-wasm")
	if err != nil {
		return nil, err
	}
	for range warmup {
		for _, s := range in {
			if _, err := engine.Render(context.Background(), []byte(s.Payload)); err != nil {
				return nil, fmt.Errorf("%s: %w", s.Name, err)
			}
		}
	}
	var rows []renderRow
	for _, s := range in {
		g, err := gojaRenders(engine, s.Payload, samples)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", s.Name, err)
		}
		rows = append(rows, renderRow{s.Name, g, node[s.Name], noJIT[s.Name]})
	}
	return rows, nil
}

// gojaRenders times renders of one payload by the engine.
func gojaRenders(e *render.Engine, payload string, samples int) (renderTimes, error) {
	var t renderTimes
	pj := []byte(payload)
	cpu0 := cpuTime()
	for range samples {
		start := time.Now()
		html, err := e.Render(context.Background(), pj)
		if err != nil {
			return t, err
		}
		t.MS = append(t.MS, float64(time.Since(start).Nanoseconds())/1e6)
		t.HTML = html
	}
	t.CPU = float64((cpuTime() - cpu0).Nanoseconds()) / 1e6 / float64(samples)
	return t, nil
}

// cpuTime is the CPU time the process has used, all its threads.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// nodeRenders runs render_node.mjs on the server bundle and the payloads.
// siteStrings, when not nil, are every language's strings as the render engine
// gives them (render.Options.Strings): the script sets them as the global
// __siteStrings before it evaluates the bundle, as the engine does.
func nodeRenders(serverBundle, siteStrings []byte, in []renderSample, warmup, samples int, nodeFlags ...string) (map[string]renderTimes, error) {
	dir := *renderKeep
	if dir == "" {
		tmp, err := os.MkdirTemp("", "render-bench-")
		if err != nil {
			return nil, err
		}
		defer func() { _ = os.RemoveAll(tmp) }()
		dir = tmp
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	pj, err := json.Marshal(in)
	if err != nil {
		return nil, err
	}
	files := map[string][]byte{"server.js": serverBundle, "payloads.json": pj, "render.mjs": renderNode}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o600); err != nil {
			return nil, err
		}
	}
	args := append(nodeFlags, "render.mjs", "server.js", "payloads.json", fmt.Sprint(warmup), fmt.Sprint(samples))
	if siteStrings != nil {
		if err := os.WriteFile(filepath.Join(dir, "strings.json"), siteStrings, 0o600); err != nil {
			return nil, err
		}
		args = append(args, "strings.json")
	} else if err := os.Remove(filepath.Join(dir, "strings.json")); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	cmd := exec.Command("node", args...)
	cmd.Dir = dir
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("node: %w", err)
	}
	var times map[string]renderTimes
	if err := json.Unmarshal(out, &times); err != nil {
		return nil, fmt.Errorf("node's answer: %w", err)
	}
	return times, nil
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s) == 0 {
		return 0
	}
	return s[len(s)/2]
}
