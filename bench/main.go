// Command bench measures the site against the budgets of DESIGN.md and
// prints the figures in one run:
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
// goja render time per page type (go test -bench).
//
// Beside the budgets it prints two floors, so that a miss can be told from
// what the stack itself costs: a bare net/http handler writing the same
// bytes and headers as the site (what any Echo server could reach), and
// the gzip size of the libraries the stack fixes, bundled alone.
package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"flag"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
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
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

func run() error {
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
	fmt.Printf("\nstart to ready (binary, all static pages rendered): %v   budget 1s  %s\n", ready.Round(time.Millisecond), verdict(ready <= time.Second))

	fmt.Printf("\n%-12s %9s %9s %9s %9s   budgets: HTML 14 KB, JS first visit 120 KB (consent included), returning visitor 110 KB, CSS 10 KB\n",
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
		ok := htmlGz <= 14*1024 && l.css <= 10*1024 && first <= 120*1024 && returning <= 110*1024
		fmt.Printf("%-12s %8.1fK %8.1fK %8.1fK %8.1fK   %s\n", p.name, kb(htmlGz), kb(first), kb(returning), kb(l.css), verdict(ok))
	}
	fmt.Println("(JS again: boot, the entry, its static imports and the page's preloads with their strings; JS first adds the consent chunk and its strings, fetched after hydration when no decision is stored)")
	libs, err := libraryFloor(root)
	if err != nil {
		return err
	}
	fmt.Printf("floor: the libraries alone (react-dom, react, react-router, i18next, react-i18next, vanilla-cookieconsent), bundled and minified: %.1fK gzip\n", kb(libs))

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

	fmt.Println("\ngoja render time per page type (go test -bench Render ./handlers):")
	out, err := exec.Command("go", "test", "-run", "^$", "-bench", "Render", "-benchtime", "30x", "./handlers").CombinedOutput()
	if err != nil {
		return fmt.Errorf("render benchmark: %v\n%s", err, out)
	}
	for _, line := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(line, "BenchmarkRender") {
			f := strings.Fields(line)
			ns, _ := strconv.ParseFloat(f[2], 64)
			fmt.Printf("  %-28s %6.1f ms\n", strings.TrimPrefix(f[0], "BenchmarkRender/"), ns/1e6)
		}
	}
	return nil
}

// load runs wrk against a cached page of the site, a bare net/http server
// writing the same bytes and headers (the floor), and nginx serving them
// from disk: first each pinned to core 0 with wrk on core 1, where the
// budget applies, then each on both cores, so that scaling shows.
func load(base, bin, tmp string) error {
	for _, tool := range []string{"wrk", "nginx", "taskset"} {
		if _, err := exec.LookPath(tool); err != nil {
			fmt.Printf("\nload: %s is not installed; skipped (apt-get install wrk nginx-light util-linux)\n", tool)
			return nil
		}
	}
	const path = "/de/blog"
	html, gz, header, err := fetchGzipBodyHeader(base + path)
	if err != nil {
		return err
	}
	www := filepath.Join(tmp, "www")
	_ = os.MkdirAll(www, 0o755)
	_ = os.WriteFile(filepath.Join(www, "index.html"), html, 0o644)
	_ = os.WriteFile(filepath.Join(www, "index.html.gz"), gz, 0o644)

	// One core: the site started by run, the budget's comparison.
	one := placement{server: "0", workers: 1, wrk: "1", wrkThreads: 1}
	fmt.Printf("\ncached page %s (gzip, keep-alive), %d connections, best of %d runs of %v each taken in turns, server on core 0, wrk on core 1:\n",
		path, *conns, max(*rounds, 1), *duration)
	single, err := compare(one, base+path, www, gz, header, tmp)
	if err != nil {
		return err
	}
	ratio := single.site.rps / single.floor.rps
	fmt.Printf("  site / net/http floor  %5.2f   budget >= 0.9  %s\n", ratio, verdict(ratio >= 0.9))
	fmt.Printf("  site / net/http with the site's timeouts  %5.2f   (the timeouts alone: %.2f of the floor)\n", single.site.rps/single.timed.rps, single.timed.rps/single.floor.rps)
	fmt.Printf("  site / nginx           %5.2f   (net/http floor / nginx: %.2f)\n", single.site.rps/single.nginx.rps, single.floor.rps/single.nginx.rps)

	// Two cores: a second site, GOMAXPROCS=2, and wrk beside the servers.
	two := placement{server: "0,1", workers: 2, wrk: "0,1", wrkThreads: 2}
	siteURL, stop, err := startSite(bin, filepath.Join(tmp, "two-cores"), two)
	if err != nil {
		return err
	}
	defer stop()
	fmt.Printf("\nthe same on two cores: each server on cores 0-1 (GOMAXPROCS=2, nginx 2 workers), wrk -t2 on the same two cores\n")
	fmt.Printf("(wrk takes part of the servers' time: no core is the servers' alone; no budget, for scaling):\n")
	double, err := compare(two, siteURL+path, www, gz, header, tmp)
	if err != nil {
		return err
	}
	fmt.Printf("  site / net/http floor  %5.2f\n", double.site.rps/double.floor.rps)
	fmt.Printf("  site / net/http with the site's timeouts  %5.2f\n", double.site.rps/double.timed.rps)
	fmt.Printf("  site / nginx           %5.2f   (net/http floor / nginx: %.2f)\n", double.site.rps/double.nginx.rps, double.floor.rps/double.nginx.rps)
	fmt.Printf("  two cores / one:  site %.2fx, net/http %.2fx, nginx %.2fx\n",
		double.site.rps/single.site.rps, double.floor.rps/single.floor.rps, double.nginx.rps/single.nginx.rps)
	return nil
}

// placement says where the servers and wrk run.
type placement struct {
	server     string // taskset's CPU list for the servers
	workers    int    // GOMAXPROCS of the Go servers, nginx's worker_processes
	wrk        string // taskset's CPU list for wrk
	wrkThreads int
}

// pinned returns the command name, args run by taskset on cpus.
func pinned(cpus, name string, args ...string) *exec.Cmd {
	return exec.Command("taskset", append([]string{"-c", cpus, name}, args...)...)
}

// comparison is one load run of each server.
type comparison struct{ site, floor, timed, nginx wrkResult }

// compare starts the floor and nginx placed as p, runs wrk against siteURL
// and them, and prints the three rows.
func compare(p placement, siteURL, www string, gz []byte, header http.Header, tmp string) (comparison, error) {
	var r comparison
	dir := filepath.Join(tmp, "servers-"+strconv.Itoa(p.workers))
	nginxURL, stopNginx, err := startNginx(filepath.Join(dir, "nginx"), www, p)
	if err != nil {
		return r, err
	}
	defer stopNginx()
	floorURL, stopFloor, err := startFloor(filepath.Join(dir, "floor"), gz, header, p, false)
	if err != nil {
		return r, err
	}
	defer stopFloor()
	timedURL, stopTimed, err := startFloor(filepath.Join(dir, "floor-timeouts"), gz, header, p, true)
	if err != nil {
		return r, err
	}
	defer stopTimed()
	// In turns, so that a moment when the machine is busy elsewhere slows
	// each of them alike; the best run of each counts, as other work only
	// ever slows a run down.
	for range max(*rounds, 1) {
		for _, run := range []struct {
			url  string
			best *wrkResult
		}{{siteURL, &r.site}, {floorURL, &r.floor}, {timedURL, &r.timed}, {nginxURL, &r.nginx}} {
			res, err := wrk(p, run.url)
			if err != nil {
				return r, err
			}
			if res.rps > run.best.rps {
				*run.best = res
			}
		}
	}
	fmt.Printf("  site      %9.0f req/s   p99 %v\n", r.site.rps, r.site.p99)
	fmt.Printf("  net/http  %9.0f req/s   p99 %v   (floor: a bare handler writing the same bytes and headers)\n", r.floor.rps, r.floor.p99)
	fmt.Printf("  net/http  %9.0f req/s   p99 %v   (the same handler in the site's http.Server, with its timeouts)\n", r.timed.rps, r.timed.p99)
	fmt.Printf("  nginx     %9.0f req/s   p99 %v\n", r.nginx.rps, r.nginx.p99)
	return r, nil
}

// startSite starts another instance of the binary, placed as p, with a
// data folder of its own, and returns its base URL once it is ready.
func startSite(bin, dir string, p placement) (base string, stop func(), err error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", nil, err
	}
	addr := freeAddr()
	base = "http://" + addr
	cmd := pinned(p.server, bin, "-addr", addr, "-data_dir", filepath.Join(dir, "data"), "-base_url", base)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOMAXPROCS="+strconv.Itoa(p.workers))
	logFile, err := os.Create(filepath.Join(dir, "site.log"))
	if err != nil {
		return "", nil, err
	}
	cmd.Stderr = logFile
	if err := cmd.Start(); err != nil {
		_ = logFile.Close()
		return "", nil, err
	}
	stop = func() { _ = cmd.Process.Kill(); _, _ = cmd.Process.Wait(); _ = logFile.Close() }
	if err := waitReady(base + "/readyz"); err != nil {
		stop()
		return "", nil, err
	}
	return base, stop, nil
}

// startNginx starts nginx serving the page's files from www, placed as p.
func startNginx(dir, www string, p placement) (url string, stop func(), err error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", nil, err
	}
	addr := freeAddr()
	conf := fmt.Sprintf(`worker_processes %[4]d; daemon off; pid %[1]s/nginx.pid; error_log %[1]s/error.log;
events { worker_connections 1024; }
http { access_log off; sendfile on; keepalive_requests 100000; gzip_static on; etag on;
  client_body_temp_path %[1]s; proxy_temp_path %[1]s; fastcgi_temp_path %[1]s; uwsgi_temp_path %[1]s; scgi_temp_path %[1]s;
  server { listen %[2]s; root %[3]s; location / { default_type text/html; try_files /index.html =404; } } }`, dir, addr, www, p.workers)
	confPath := filepath.Join(dir, "nginx.conf")
	if err := os.WriteFile(confPath, []byte(conf), 0o644); err != nil {
		return "", nil, err
	}
	args := []string{"-c", confPath, "-p", dir}
	if os.Geteuid() == 0 {
		// The workers must reach the bench's private temporary folder.
		args = append(args, "-g", "user root;")
	}
	cmd := pinned(p.server, "nginx", args...)
	if err := cmd.Start(); err != nil {
		return "", nil, err
	}
	// SIGTERM, not SIGKILL: nginx's master then stops its workers, which a
	// killed master would leave running, serving the port.
	stop = func() { _ = cmd.Process.Signal(syscall.SIGTERM); _, _ = cmd.Process.Wait() }
	url = "http://" + addr + "/"
	if err := waitReady(url); err != nil {
		stop()
		log, _ := os.ReadFile(filepath.Join(dir, "error.log"))
		return "", nil, fmt.Errorf("nginx: %w\n%s", err, log)
	}
	return url, stop, nil
}

type wrkResult struct {
	rps float64
	p99 time.Duration
}

var (
	wrkRPS = regexp.MustCompile(`Requests/sec:\s+([\d.]+)`)
	wrkP99 = regexp.MustCompile(`\s99%\s+([\d.]+)(us|ms|s)`)
)

func wrk(p placement, url string) (wrkResult, error) {
	out, err := pinned(p.wrk, "wrk", "-t"+strconv.Itoa(p.wrkThreads), "-c"+strconv.Itoa(*conns), "-d"+duration.String(), "--latency",
		"-H", "Accept-Encoding: gzip", url).CombinedOutput()
	if err != nil {
		return wrkResult{}, fmt.Errorf("wrk: %v\n%s", err, out)
	}
	var r wrkResult
	if m := wrkRPS.FindSubmatch(out); m != nil {
		r.rps, _ = strconv.ParseFloat(string(m[1]), 64)
	}
	if m := wrkP99.FindSubmatch(out); m != nil {
		v, _ := strconv.ParseFloat(string(m[1]), 64)
		unit := map[string]time.Duration{"us": time.Microsecond, "ms": time.Millisecond, "s": time.Second}[string(m[2])]
		r.p99 = time.Duration(v * float64(unit))
	}
	return r, nil
}

// A page's stylesheets, and its one script: boot.ts, which starts the
// entry and preloads the page's modules after the first paint.
var (
	stylesheet = regexp.MustCompile(`<link rel="stylesheet" href="(/assets/[^"]+)"`)
	bootScript = regexp.MustCompile(`<script type="module" src="(/assets/[^"]+)" data-entry="(/assets/[^"]+)" data-preload="([^"]*)"`)
)

// staticImport finds a module's static imports: esbuild writes them with
// the public path (/assets/...), or relative (./...) without one.
var staticImport = regexp.MustCompile(`(?:from|import)\s*"((?:\./|/assets/)[^"]+\.js)"`)

// pageLoad is what a page loads: the gzip sizes of its JavaScript and CSS,
// and the files counted.
type pageLoad struct {
	js, css int
	seen    map[string]bool
}

// visit counts a file and, for a module, what it imports statically.
func (l *pageLoad) visit(base, u string) error {
	if l.seen[u] {
		return nil
	}
	l.seen[u] = true
	body, gz, err := fetchGzipBody(base + u)
	if err != nil {
		return err
	}
	if strings.HasSuffix(u, ".css") {
		l.css += len(gz)
		return nil
	}
	l.js += len(gz)
	dir := u[:strings.LastIndex(u, "/")+1]
	for _, m := range staticImport.FindAllSubmatch(body, -1) {
		dep := string(m[1])
		if !strings.HasPrefix(dep, "/") {
			dep = filepath.Clean(dir + dep)
		}
		if err := l.visit(base, dep); err != nil {
			return err
		}
	}
	return nil
}

// firstLoad sums the gzip sizes of the JavaScript and CSS a page loads
// to hydrate: its stylesheets, boot script, entry, preloads and their
// imports.
func firstLoad(base string, html []byte) (*pageLoad, error) {
	l := &pageLoad{seen: map[string]bool{}}
	var urls []string
	for _, m := range stylesheet.FindAllSubmatch(html, -1) {
		urls = append(urls, string(m[1]))
	}
	for _, m := range bootScript.FindAllSubmatch(html, -1) {
		urls = append(append(urls, string(m[1]), string(m[2])), strings.Fields(string(m[3]))...)
	}
	for _, u := range urls {
		if err := l.visit(base, u); err != nil {
			return nil, err
		}
	}
	return l, nil
}

// commonStrings finds a page's common strings among its preloads; the
// banner's strings are beside them.
var commonStrings = regexp.MustCompile(`(/assets/strings/[^ "]+/[a-z]+)-common\.js`)

// consentBanner finds the consent chunk among the entry's dynamic imports.
var consentBanner = regexp.MustCompile(`chunks/banner-[A-Za-z0-9]+\.js`)

// consentChunk returns the gzip size of the JavaScript the page's entry
// loads after hydration for the consent banner (its chunk and strings),
// beyond what the page has already loaded (l is not changed). Its
// stylesheet is not JavaScript.
func (l *pageLoad) consentChunk(base string, html []byte) (int, error) {
	boot := bootScript.FindSubmatch(html)
	if boot == nil {
		return 0, fmt.Errorf("no boot script in the page")
	}
	body, _, err := fetchGzipBody(base + string(boot[2]))
	if err != nil {
		return 0, err
	}
	name := consentBanner.Find(body)
	if name == nil {
		return 0, fmt.Errorf("the entry imports no consent chunk")
	}
	more := &pageLoad{seen: maps.Clone(l.seen)}
	if err := more.visit(base, "/assets/"+string(name)); err != nil {
		return 0, err
	}
	// And the banner's strings, beside the page's own: <lang>-consent.js.
	common := commonStrings.FindSubmatch(boot[3])
	if common == nil {
		return 0, fmt.Errorf("the page preloads no common strings")
	}
	if err := more.visit(base, string(common[1])+"-consent.js"); err != nil {
		return 0, err
	}
	return more.js, nil
}

func fetchGzip(url string) ([]byte, int, error) {
	body, gz, err := fetchGzipBody(url)
	return body, len(gz), err
}

// fetchGzipBody returns a URL's body and its gzip encoding as served.
func fetchGzipBody(url string) (body, gz []byte, err error) {
	body, gz, _, err = fetchGzipBodyHeader(url)
	return body, gz, err
}

// fetchGzipBodyHeader is fetchGzipBody with the response's header.
func fetchGzipBodyHeader(url string) (body, gz []byte, header http.Header, err error) {
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	req.Header.Set("Accept-Encoding", "gzip")
	res, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		return nil, nil, nil, err
	}
	header = res.Header
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	if err != nil {
		return nil, nil, nil, err
	}
	if res.Header.Get("Content-Encoding") != "gzip" {
		var buf bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
		_, _ = zw.Write(raw)
		_ = zw.Close()
		return raw, buf.Bytes(), header, nil
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		return nil, nil, nil, err
	}
	body, err = io.ReadAll(zr)
	return body, raw, header, err
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

func residentMB(pid int) (float64, error) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	defer func() { _ = f.Close() }()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			kbs, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
			return kbs / 1024, nil
		}
	}
	return 0, fmt.Errorf("no VmRSS")
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
