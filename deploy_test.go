package main

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/northbeam/site/internal/sitetest"
	"github.com/northbeam/site/internal/store/storetest"
	"github.com/northbeam/site/internal/testwait"
)

// TestRollingRestartBehindNginx runs deploy/nginx-site.conf for real in
// front of two instances on one PostgreSQL, restarts the instances one
// after the other with SIGTERM while a load runs through nginx, and counts
// the requests that failed: none may.
func TestRollingRestartBehindNginx(t *testing.T) {
	if testing.Short() {
		t.Skip("the deployment test does not run with -short")
	}
	nginx := findNginx(t)
	bin := buildSite(t)
	databaseURL := storetest.PostgresURL(t)
	ports := freePorts(t, 3)
	front := "127.0.0.1:" + ports[2]
	nginxLog := startNginx(t, nginx, ports, front)

	env := func(port string) []string {
		return append(instanceEnv(t, databaseURL, ""), "ADDR=127.0.0.1:"+port, "CONTACT_RATE_LIMIT=1000000/1m")
	}
	instances := make([]*siteProcess, 2)
	for i := range instances {
		instances[i] = startSite(t, bin, env(ports[i]))
		waitReady(t, instances[i].addr)
	}
	t.Cleanup(func() {
		for _, p := range instances {
			_ = p.cmd.Process.Kill() // an instance that has exited already is as good
		}
	})

	var (
		stop            = make(chan struct{})
		wg              sync.WaitGroup
		requests, posts atomic.Int64
		failed          atomic.Int64
		failuresMu      sync.Mutex
		failures        []string
		client          = &http.Client{Timeout: 10 * time.Second}
		paths           = []string{"/", sitetest.OtherAt(t, 0).LocalPath("/blog"), sitetest.OtherAt(t, 1).LocalPath("/services/platform-engineering"), sitetest.OtherAt(t, 2).LocalPath("/schedule"), "/api/page?path=" + sitetest.OtherAt(t, 1).LocalPath("/blog"), "/nowhere"}
		acceptable      = map[int]bool{200: true, 201: true, 404: true}
		recordFailure   = func(what string) {
			failed.Add(1)
			failuresMu.Lock()
			if len(failures) < 10 {
				failures = append(failures, what)
			}
			failuresMu.Unlock()
		}
	)
	for w := range 6 {
		wg.Go(func() {
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				var (
					res *http.Response
					err error
					n   = requests.Add(1)
				)
				if (w+i)%4 == 0 {
					_, body := contactBody("rolling", n)
					res, err = client.Post("http://"+front+"/api/contact", "application/json", strings.NewReader(body))
					posts.Add(1)
				} else {
					res, err = client.Get("http://" + front + paths[(w+i)%len(paths)])
				}
				if err != nil {
					recordFailure(err.Error())
					continue
				}
				_, _ = io.Copy(io.Discard, res.Body) // drained for the connection's reuse
				res.Body.Close()
				if !acceptable[res.StatusCode] {
					recordFailure(fmt.Sprintf("%s %s: %d", res.Request.Method, res.Request.URL.Path, res.StatusCode))
				}
			}
		})
	}

	// The restarts begin once traffic flows through nginx: counted in
	// requests, not timed.
	testwait.Until(t, "50 requests through nginx before the restarts", func() bool { return requests.Load() >= 50 })
	for i := range instances {
		if err := instances[i].stop(); err != nil {
			t.Errorf("instance %d did not stop cleanly on SIGTERM: %v\n%s", i, err, instances[i].output())
		}
		instances[i] = startSite(t, bin, env(ports[i]))
		waitReady(t, instances[i].addr)
		time.Sleep(2 * time.Second) // as deploy/rolling-restart.sh does: longer than nginx's fail_timeout
	}
	close(stop)
	wg.Wait()

	t.Logf("rolling restart of 2 instances behind nginx: %d requests (%d contact posts), %d failed", requests.Load(), posts.Load(), failed.Load())
	if failed.Load() != 0 {
		log, _ := os.ReadFile(nginxLog)
		t.Errorf("%d requests failed during the rolling restart, e.g.:\n%s\nnginx's error log, its first causes:\n%s",
			failed.Load(), strings.Join(failures, "\n"), causes(string(log), 10))
	}
	if requests.Load() < 200 {
		t.Errorf("only %d requests during the restarts: the load means nothing", requests.Load())
	}
}

// findNginx returns Debian's nginx, or skips (fails under CI=true).
func findNginx(t *testing.T) string {
	t.Helper()
	for _, p := range []string{"nginx", "/usr/sbin/nginx"} {
		if path, err := exec.LookPath(p); err == nil {
			return path
		}
	}
	msg := "the deployment test needs nginx (apt-get install nginx-light)"
	if os.Getenv("CI") == "true" {
		t.Fatal(msg)
	}
	t.Skip("SKIPPED (loudly): " + msg)
	return ""
}

// freePorts returns n loopback ports that were free a moment ago.
func freePorts(t *testing.T, n int) []string {
	t.Helper()
	var ports []string
	var lns []net.Listener
	for range n {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		lns = append(lns, ln)
		_, port, _ := net.SplitHostPort(ln.Addr().String())
		ports = append(ports, port)
	}
	for _, ln := range lns {
		ln.Close()
	}
	return ports
}

// causes returns the first n lines of an nginx error log that say why an
// upstream failed, leaving out the consequence ("no live upstreams").
func causes(log string, n int) string {
	var out []string
	for line := range strings.SplitSeq(log, "\n") {
		if line != "" && !strings.Contains(line, "no live upstreams") && len(out) < n {
			out = append(out, line)
		}
	}
	return strings.Join(out, "\n")
}

// startNginx runs nginx in the foreground with deploy/nginx-site.conf, its
// upstreams moved to the instances' ports and its listener to front, and
// returns the path of its error log.
func startNginx(t *testing.T, nginx string, ports []string, front string) string {
	t.Helper()
	site, err := os.ReadFile(filepath.Join("deploy", "nginx-site.conf"))
	if err != nil {
		t.Fatal(err)
	}
	conf := string(site)
	for old, repl := range map[string]string{
		"127.0.0.1:8081":      "127.0.0.1:" + ports[0],
		"127.0.0.1:8082":      "127.0.0.1:" + ports[1],
		"listen 80;":          "listen " + front + ";",
		"listen [::]:80;\n":   "",
		"server_name example": "server_name 127.0.0.1 example",
	} {
		if !strings.Contains(conf, old) {
			t.Fatalf("deploy/nginx-site.conf no longer has %q", old)
		}
		conf = strings.ReplaceAll(conf, old, repl)
	}
	dir := t.TempDir()
	sitePath := filepath.Join(dir, "site.conf")
	if err := os.WriteFile(sitePath, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	main := fmt.Sprintf(`worker_processes 1;
error_log %[1]s/error.log warn;
pid %[1]s/nginx.pid;
events { worker_connections 1024; }
http {
    access_log off;
    client_body_temp_path %[1]s/body;
    proxy_temp_path %[1]s/proxy;
    fastcgi_temp_path %[1]s/fastcgi;
    uwsgi_temp_path %[1]s/uwsgi;
    scgi_temp_path %[1]s/scgi;
    include %[2]s;
}
`, dir, sitePath)
	mainPath := filepath.Join(dir, "nginx.conf")
	if err := os.WriteFile(mainPath, []byte(main), 0o644); err != nil {
		t.Fatal(err)
	}
	global := "daemon off;"
	if os.Geteuid() == 0 {
		global += " user root;" // the workers must reach the test's private temporary directory
	}
	cmd := exec.Command(nginx, "-p", dir, "-c", mainPath, "-g", global)
	out := &strings.Builder{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM) // SIGKILL would leave its worker serving the port
		_ = cmd.Wait()                          // its exit status after a SIGTERM says nothing
	})
	deadline := time.Now().Add(10 * time.Second)
	for {
		if c, err := net.Dial("tcp", front); err == nil {
			c.Close()
			return filepath.Join(dir, "error.log")
		}
		if time.Now().After(deadline) {
			log, _ := os.ReadFile(filepath.Join(dir, "error.log"))
			t.Fatalf("nginx did not listen on %s: %s\n%s", front, out, log)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
