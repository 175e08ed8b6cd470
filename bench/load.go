package main

import (
	"fmt"
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

// Cached-page throughput: the site beside a bare net/http server and
// nginx, pinned to one core, then on two (wrk).

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
	// The budget's floor is the bare handler in an http.Server with the
	// site's timeouts (docs/ARCHITECTURE.md, Budgets); net/http's defaults
	// are reported beside it.
	ratio := single.site.rps / single.timed.rps
	fmt.Printf("  site / net/http with the site's timeouts  %5.2f   budget >= 0.9  %s\n", ratio, verdict(ratio >= 0.9))
	fmt.Printf("  site / net/http floor (its defaults)  %5.2f   (the timeouts alone: %.2f of the floor)\n", single.site.rps/single.floor.rps, single.timed.rps/single.floor.rps)
	if single.site.cpu > 0 && single.timed.cpu > 0 && single.floor.cpu > 0 {
		// On a loaded machine the requests a second follow what else runs
		// on core 0; the CPU time a request costs each server much less.
		fmt.Printf("  the same by CPU time a request (net/http's / the site's): %.2f of the floor, %.2f of net/http with the site's timeouts\n",
			float64(single.floor.cpu)/float64(single.site.cpu), float64(single.timed.cpu)/float64(single.site.cpu))
	}
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
			cpu := run.best.cpu
			if res.rps > run.best.rps {
				*run.best = res
			}
			if cpu > 0 && (res.cpu == 0 || cpu < res.cpu) {
				run.best.cpu = cpu // the fewest of the runs
			}
		}
	}
	fmt.Printf("  site      %9.0f req/s   p99 %-9v %s\n", r.site.rps, r.site.p99, r.site.cpuText())
	fmt.Printf("  net/http  %9.0f req/s   p99 %-9v %s   (floor: a bare handler writing the same bytes and headers)\n", r.floor.rps, r.floor.p99, r.floor.cpuText())
	fmt.Printf("  net/http  %9.0f req/s   p99 %-9v %s   (the same handler in the site's http.Server, with its timeouts)\n", r.timed.rps, r.timed.p99, r.timed.cpuText())
	fmt.Printf("  nginx     %9.0f req/s   p99 %-9v %s\n", r.nginx.rps, r.nginx.p99, r.nginx.cpuText())
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
	serverPID[base+"/de/blog"] = cmd.Process.Pid
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
	serverPID[url] = cmd.Process.Pid // its workers are its children
	return url, stop, nil
}

type wrkResult struct {
	rps float64
	p99 time.Duration
	// cpu is the CPU time the server spent on a request (user and
	// system, its children's included), 0 when unknown.
	cpu time.Duration
}

// cpuText is r.cpu as a column.
func (r wrkResult) cpuText() string {
	if r.cpu == 0 {
		return ""
	}
	return fmt.Sprintf("CPU %5.1f µs/request", float64(r.cpu)/float64(time.Microsecond))
}

var (
	wrkRPS      = regexp.MustCompile(`Requests/sec:\s+([\d.]+)`)
	wrkP99      = regexp.MustCompile(`\s99%\s+([\d.]+)(us|ms|s)`)
	wrkRequests = regexp.MustCompile(`(\d+) requests in`)
)

// serverPID is the process serving each URL the bench started (nginx's
// master, whose workers are its children), for the CPU time a run costs
// it.
var serverPID = map[string]int{}

// serverCPU is the CPU time pid and its children have spent so far.
func serverCPU(pid int) time.Duration {
	ticks := procTicks(pid)
	if children, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%d/children", pid, pid)); err == nil {
		for _, c := range strings.Fields(string(children)) {
			if child, err := strconv.Atoi(c); err == nil {
				ticks += procTicks(child)
			}
		}
	}
	return time.Duration(ticks) * time.Second / 100 // USER_HZ
}

// procTicks is pid's utime and stime, in /proc/PID/stat's clock ticks.
func procTicks(pid int) int64 {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	// After the command's name in parentheses: the state (field 3) and on;
	// utime and stime are fields 14 and 15.
	_, rest, _ := strings.Cut(string(stat), ") ")
	f := strings.Fields(rest)
	if len(f) < 13 {
		return 0
	}
	utime, _ := strconv.ParseInt(f[11], 10, 64)
	stime, _ := strconv.ParseInt(f[12], 10, 64)
	return utime + stime
}

func wrk(p placement, url string) (wrkResult, error) {
	pid := serverPID[url]
	before := serverCPU(pid)
	out, err := pinned(p.wrk, "wrk", "-t"+strconv.Itoa(p.wrkThreads), "-c"+strconv.Itoa(*conns), "-d"+duration.String(), "--latency",
		"-H", "Accept-Encoding: gzip", url).CombinedOutput()
	if err != nil {
		return wrkResult{}, fmt.Errorf("wrk: %v\n%s", err, out)
	}
	spent := serverCPU(pid) - before
	var r wrkResult
	if m := wrkRPS.FindSubmatch(out); m != nil {
		r.rps, _ = strconv.ParseFloat(string(m[1]), 64)
	}
	if m := wrkRequests.FindSubmatch(out); m != nil && pid != 0 {
		if n, _ := strconv.Atoi(string(m[1])); n > 0 {
			r.cpu = spent / time.Duration(n)
		}
	}
	if m := wrkP99.FindSubmatch(out); m != nil {
		v, _ := strconv.ParseFloat(string(m[1]), 64)
		unit := map[string]time.Duration{"us": time.Microsecond, "ms": time.Millisecond, "s": time.Second}[string(m[2])]
		r.p99 = time.Duration(v * float64(unit))
	}
	return r, nil
}
