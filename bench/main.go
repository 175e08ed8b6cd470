// Command bench measures the site against its budgets (docs/ARCHITECTURE.md,
// Budgets) and prints the figures in one run:
//
//	go run ./bench
//
// It builds the production binary, then measures start to ready, the gzip
// size of each page type's HTML, first-load JavaScript and CSS, cached-page
// requests per second and p99 latency with the server pinned to one core
// beside a bare net/http server writing the same bytes and headers and
// nginx serving them from disk, then the same on two cores (needs wrk,
// nginx and taskset: apt-get install wrk nginx-light util-linux), the resident memory
// after the load, contact and booking POST throughput and p99 on SQLite
// and on PostgreSQL (PG_TEST_URL, default the machines' server), and the
// render time of each page type in goja beside Node's on the same server
// bundle and payload, which alone is
//
//	go run ./bench render
//
// the -dev loop, from a saved change to the change on screen:
//
//	go run ./bench devloop
//
// and the resident memory a calendar feed of 100,000 events costs, after
// its first fetch and after 20 more (about 11 minutes, mostly waiting),
// alone with
//
//	go run ./bench calendar
//
// the site with N posts a language (copies of the real posts) as `go run
// .`, `-dev` and the production binary: start, memory, a restart, edits
// on screen, the build (docs/ARCHITECTURE.md, Budgets):
//
//	go run ./bench content -posts N
//
// what GET /api/slots costs for a month of a service with three hosts and
// their own calendar feeds, beside today's single calendar, on each engine:
//
//	go run ./bench slots
//
// the cached-page throughput rows alone (the production binary pinned to
// one core beside the bare net/http servers and nginx, then on two) with
//
//	go run ./bench load
//
// start to ready and the pages' weights alone (no load runs) with
//
//	go run ./bench weight
//
// and the contact and booking POST rows alone with
//
//	go run ./bench posts
//
// and the staff workspace at 100,000 messages and 50,000 bookings on each
// engine (each request's median, p95 and size; a start with the retention
// job due, and contact posts during its first run) with
//
//	go run ./bench staff
//
// Beside the budgets it prints two floors, so that a miss can be told from
// what the stack itself costs: a bare net/http handler writing the same
// bytes and headers as the site (what any Echo server could reach), and
// the gzip size of the libraries the stack fixes, bundled alone.
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

var (
	duration = flag.Duration("d", 5*time.Second, "length of each load run")
	rounds   = flag.Int("rounds", 3, "load runs of each server, taken in turns; the best counts")
	conns    = flag.Int("c", 32, "concurrent connections of each load run")
	skipLoad = flag.Bool("noload", false, "skip the load runs (no wrk or nginx here)")

	// serveFloor is how the bench starts its bare net/http server on a
	// pinned core: it runs itself again with this flag.
	serveFloor = flag.String("serve-floor", "", "internal: serve the captured page from this folder with bare net/http (-floor-addr)")
	floorAddr  = flag.String("floor-addr", "", "internal: the address of -serve-floor")
	floorTimes = flag.Bool("floor-timeouts", false, "internal: -serve-floor in the site's http.Server, with its timeouts")

	renderWarmup  = flag.Int("render-warmup", 10, "renders of every page type before any is measured (render bench)")
	renderSamples = flag.Int("render-samples", 40, "measured renders of each page type (render bench)")
	contentPosts  = flag.Int("posts", 100, "posts a language (content bench)")
	contentModes  = flag.String("modes", "run,dev,binary", "what the content bench measures: run (go run .), dev (-dev), binary")
	contentKeep   = flag.String("keep", "", "make the content bench's copy of the project in this folder and keep it, to profile by hand")
	renderKeep    = flag.String("render-keep", "", "keep the server bundle, the payloads and the Node script in this folder (render bench)")
)

// pages are the page types measured, one URL each.
var pages = []struct{ name, path string }{
	{"home", "/"},
	{"home (ar)", "/ar"},
	{"service", "/fr/services/platform-engineering"},
	{"blog list", "/de/blog"},
	{"blog post", "/blog/boring-technology-for-reliable-saas"},
	{"schedule", "/schedule/discovery"},
	{"privacy", "/ar/privacy"},
	{"imprint", "/de/imprint"},
	{"case studies", "/work"},
	{"case study", "/ar/work/fintech-platform-thirty-deploys-a-day"},
	{"team", "/fr/team"},
	{"person", "/team/lena-hartmann"},
	{"not found", "/nope"},
}

func main() {
	flag.Parse()
	if *serveFloor != "" {
		if err := floorServer(*serveFloor, *floorAddr, *floorTimes); err != nil {
			fmt.Fprintln(os.Stderr, "bench: floor server:", err)
			os.Exit(1)
		}
		return
	}
	run := run
	switch flag.Arg(0) {
	case "devloop":
		run = func() error {
			root, _ := filepath.Abs(".")
			return devloopBench(root)
		}
	case "render":
		run = func() error {
			root, _ := filepath.Abs(".")
			return renderBench(root, *renderWarmup, *renderSamples)
		}
	case "calendar":
		run = calendarOnly
	case "slots":
		run = func() error {
			root, _ := filepath.Abs(".")
			return slotsBench(root)
		}
	case "content":
		// Its flags follow the word: go run ./bench content -posts 1000.
		_ = flag.CommandLine.Parse(flag.Args()[1:]) // ExitOnError: a bad flag exits
		run = func() error {
			root, _ := filepath.Abs(".")
			return contentBench(root, *contentPosts, *contentModes, *contentKeep)
		}
	case "staff":
		run = func() error {
			return withBinary(func(_, bin, tmp string) error { return staffBench(bin, tmp) })
		}
	case "weight":
		run = func() error { return withBinary(weightOnly) }
	case "posts":
		run = func() error {
			return withBinary(func(_, bin, tmp string) error { return postLoad(bin, tmp) })
		}
	case "load":
		run = func() error {
			return withBinary(func(_, bin, tmp string) error {
				base, stop, err := startSite(bin, filepath.Join(tmp, "one-core"), placement{server: "0", workers: 1})
				if err != nil {
					return err
				}
				defer stop()
				return load(base, bin, tmp)
			})
		}
	}
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

// withBinary builds the site and its production binary in a temporary
// folder, runs fn with them, and removes the folder.
func withBinary(fn func(root, bin, tmp string) error) error {
	root, _ := filepath.Abs(".")
	tmp, err := os.MkdirTemp("", "site-bench-")
	if err != nil {
		return err
	}
	defer func() { _ = os.RemoveAll(tmp) }()
	fmt.Println("building the production binary...")
	bin := filepath.Join(tmp, "northbeam-site")
	if err := sh(root, "go", "run", ".", "build", "-out", "internal/assets/dist"); err != nil {
		return err
	}
	if err := sh(root, "go", "build", "-tags", "prod", "-trimpath", "-o", bin, "."); err != nil {
		return err
	}
	return fn(root, bin, tmp)
}

func run() error { return withBinary(runAll) }

func runAll(root, bin, tmp string) error { return measure(root, bin, tmp, true) }

// weightOnly is start to ready and the pages' weights, without the load,
// memory and render runs: go run ./bench weight.
func weightOnly(root, bin, tmp string) error { return measure(root, bin, tmp, false) }

// measure starts the binary, times its start to ready and prints each page
// type's weight; all adds the load runs, the memory and the render bench.
func measure(root, bin, tmp string, all bool) error {
	addr := freeAddr()
	base := "http://" + addr
	cmd := exec.Command("taskset", "-c", "0", bin, "-addr", addr, "-data_dir", filepath.Join(tmp, "data"), "-base_url", base)
	if _, err := exec.LookPath("taskset"); err != nil {
		cmd = exec.Command(bin, "-addr", addr, "-data_dir", filepath.Join(tmp, "data"), "-base_url", base)
	}
	cmd.Dir = tmp // nothing beside the binary
	// Its log goes to a file, as in production. (Not a pipe: the bench
	// would copy it on wrk's core, and the site would wait on the pipe.)
	logFile, err := os.Create(filepath.Join(tmp, "site.log"))
	if err != nil {
		return err
	}
	// The child writes the log through a descriptor of its own: closing
	// this one loses nothing.
	defer func() { _ = logFile.Close() }()
	cmd.Stderr = logFile
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return err
	}
	defer func() { _ = cmd.Process.Kill(); _, _ = cmd.Process.Wait() }()
	if err := waitReady(base + "/readyz"); err != nil {
		return err
	}
	ready := time.Since(start)
	serverPID[base+"/de/blog"] = cmd.Process.Pid
	fmt.Printf("\nstart to ready (binary, all static pages rendered): %v   budget 1s  %s\n", ready.Round(time.Millisecond), verdict(ready <= time.Second))

	fmt.Printf("\n%-12s %9s %9s %9s %9s   budgets: HTML 14 KB, JS first visit 130 KB (consent included), returning visitor 120 KB, CSS 10 KB\n",
		"page", "HTML gz", "JS first", "JS again", "CSS gz")
	for _, p := range pages {
		html, htmlGz, err := fetchGzip(base + p.path)
		if err != nil {
			return err
		}
		l, err := firstLoad(base, html)
		if err != nil {
			return err
		}
		returning := l.js
		// A first visit also loads the consent chunk (and what it imports)
		// once the page is built; a visitor whose decision is stored does not.
		consent, err := l.consentChunk(base, html)
		if err != nil {
			return err
		}
		first := returning + consent
		ok := htmlGz <= 14*1024 && l.css <= 10*1024 && first <= 130*1024 && returning <= 120*1024
		fmt.Printf("%-12s %8.1fK %8.1fK %8.1fK %8.1fK   %s\n", p.name, kb(htmlGz), kb(first), kb(returning), kb(l.css), verdict(ok))
	}
	fmt.Println("(JS again: boot, the entry, its static imports and the page's preloads with their strings; JS first adds the consent chunk and its strings, fetched after hydration when no decision is stored)")
	libs, err := libraryFloor(root)
	if err != nil {
		return err
	}
	fmt.Printf("floor: the libraries alone (react-dom, react, react-router, i18next, react-i18next, vanilla-cookieconsent), bundled and minified: %.1fK gzip\n", kb(libs))
	if !all {
		return nil
	}

	if !*skipLoad {
		if err := load(base, bin, tmp); err != nil {
			return err
		}
	}
	if rss, err := residentMB(cmd.Process.Pid); err == nil {
		fmt.Printf("\nresident memory after the load: %.0f MB   budget 120 MB  %s\n", rss, verdict(rss <= 120))
	}
	if !*skipLoad {
		if err := postLoad(bin, tmp); err != nil {
			return err
		}
	}

	if err := calendarMemory(bin, tmp); err != nil {
		return err
	}
	return renderBench(root, *renderWarmup, *renderSamples)
}

func waitReady(url string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for ctx.Err() == nil {
		if res, err := http.Get(url); err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return nil
			}
		}
		time.Sleep(5 * time.Millisecond)
	}
	return fmt.Errorf("%s never became ready", url)
}

func residentMB(pid int) (float64, error) { return statusMB(pid, "VmRSS:") }

// statusMB reads a memory line of /proc/PID/status ("VmRSS:", "VmHWM:").
func statusMB(pid int, key string) (float64, error) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	defer func() { _ = f.Close() }()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), key); ok {
			kbs, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
			return kbs / 1024, nil
		}
	}
	return 0, fmt.Errorf("no %s", key)
}

func freeAddr() string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

func sh(dir, name string, args ...string) error {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	return cmd.Run()
}

func kb(n int) float64 { return float64(n) / 1024 }

func verdict(ok bool) string {
	if ok {
		return "ok"
	}
	return "OVER"
}
