package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/northbeam/site/internal/config"
	"github.com/northbeam/site/internal/sitetest"
	"github.com/northbeam/site/internal/store"
	"github.com/northbeam/site/internal/testwait"
)

// The crash and load tests run the real binary on loopback against a
// temporary database, with the project's content. Both skip with -short.

// siteProcess is one run of the built binary.
type siteProcess struct {
	cmd  *exec.Cmd
	addr string
	done chan error // the exit status, once
	// ready is the ready line's figures: start to ready, pages rendered at
	// start and pages the build had rendered.
	ready []string

	mu   sync.Mutex
	tail []string // the last lines it logged
	all  []string // every line it logged
}

// logged returns every line the process logged.
func (p *siteProcess) logged() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.all)
}

// output returns the last lines the process logged.
func (p *siteProcess) output() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	var problems []string
	for _, line := range p.all {
		if strings.Contains(line, "level=ERROR") || strings.Contains(line, "level=WARN") || strings.Contains(line, " status=5") {
			problems = append(problems, line)
		}
	}
	first := p.all[:min(len(p.all), 12)]
	return "the first lines:\n" + strings.Join(first, "\n") + "\nerrors, warnings and 5xx answers:\n" + strings.Join(problems, "\n") +
		"\nthe last lines:\n" + strings.Join(p.tail, "\n")
}

var readyLine = regexp.MustCompile(`msg=ready addr=(\S+) .*start_to_ready=(\S+) pages_rendered=(\d+) pages_from_build=(\d+)`)

// startSite starts bin on a free loopback port and waits until it is ready.
func startSite(t *testing.T, bin string, env []string) *siteProcess {
	t.Helper()
	cmd := exec.Command(bin)
	cmd.Dir = t.TempDir() // nothing beside the binary
	cmd.Env = append(os.Environ(), env...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &siteProcess{cmd: cmd, done: make(chan error, 1)}
	addr := make(chan []string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			line := sc.Text()
			p.mu.Lock()
			p.all = append(p.all, line)
			p.tail = append(p.tail, line)
			if len(p.tail) > 20 {
				p.tail = p.tail[1:]
			}
			p.mu.Unlock()
			if m := readyLine.FindStringSubmatch(line); m != nil {
				addr <- m[1:]
			}
			if strings.Contains(line, "panic") {
				t.Errorf("the server logged a panic: %s", line)
			}
		}
		p.done <- cmd.Wait()
	}()
	select {
	case m := <-addr:
		p.addr, p.ready = m[0], m[1:]
		return p
	case err := <-p.done:
		t.Fatalf("the server exited before ready: %v\n%s", err, p.output())
	case <-time.After(time.Until(testwait.Deadline(t))):
		_ = cmd.Process.Kill()
		t.Fatalf("the server was not ready by the test's deadline\n%s", p.output())
	}
	return nil
}

func (p *siteProcess) kill(t *testing.T) {
	t.Helper()
	_ = p.cmd.Process.Signal(syscall.SIGKILL)
	<-p.done //nolint:errcheck // the exit status of a SIGKILL says nothing
}

// stop sends SIGTERM and returns the exit status of the graceful shutdown.
func (p *siteProcess) stop() error {
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-p.done:
		return err
	case <-time.After(25 * time.Second):
		_ = p.cmd.Process.Kill()
		return fmt.Errorf("no exit 25 s after SIGTERM")
	}
}

// builtBinary is the production binary the tests of this package share:
// it is built once per run of the tests.
var builtBinary struct {
	once sync.Once
	dir  string
	path string
	err  error
}

// asProgram, set in a child's environment, makes this test binary run as
// the program itself (main): the package's code built as `go run .`
// builds it, so a test that starts the program from the project's sources
// needs no build of its own.
const asProgram = "NORTHBEAM_TEST_AS_PROGRAM"

// TestMain runs the program when asked to (asProgram), else the tests,
// and removes the shared binary after them.
func TestMain(m *testing.M) {
	if os.Getenv(asProgram) == "1" {
		main()
		os.Exit(0)
	}
	code := m.Run()
	if builtBinary.dir != "" {
		_ = os.RemoveAll(builtBinary.dir) // a temporary directory: best effort
	}
	os.Exit(code)
}

// buildSite builds the production binary as `npm run build:binary` does:
// the build command writes the bundles, the pages it rendered with them
// and the pictures' copies, and `go build -tags prod` embeds them. The
// first test to ask builds it; the others reuse it.
//
// The build command runs in this process (its code is this package's), in
// an empty environment: the configuration's defaults. The compiler runs
// without -trimpath and -ldflags='-s -w', which change only what the
// binary says of its source; -trimpath would also compile every
// dependency again, its objects being cached apart from the tests' own.
func buildSite(t *testing.T) string {
	t.Helper()
	builtBinary.once.Do(func() {
		dir, err := os.MkdirTemp("", program+"-")
		if err != nil {
			builtBinary.err = err
			return
		}
		builtBinary.dir = dir
		var report strings.Builder
		// The pictures' copies the other test binaries keep are taken, not
		// encoded again (a copy's address names its file and recipe).
		args := []string{"-out", "internal/assets/dist"}
		if dir := sitetest.ImageCopies(); dir != "" {
			args = append(args, "-keep-copies", dir)
		}
		if err := buildCommand(args, func(string) string { return "" }, &report); err != nil {
			builtBinary.err = fmt.Errorf("build: %w\n%s", err, report.String())
			return
		}
		bin := filepath.Join(dir, program)
		if out, err := exec.Command("go", "build", "-tags", "prod", "-o", bin, ".").CombinedOutput(); err != nil {
			builtBinary.err = fmt.Errorf("go build -tags prod: %v\n%s", err, out)
			return
		}
		builtBinary.path = bin
	})
	if builtBinary.err != nil {
		t.Fatal(builtBinary.err)
	}
	return builtBinary.path
}

// siteEnv is the configuration of the test's server: its own database,
// limits far above the burst. The binary carries its content.
func siteEnv(dataDir string) []string {
	return []string{
		"ADDR=127.0.0.1:0", "DATA_DIR=" + dataDir, "BASE_URL=http://127.0.0.1",
		"SMTP_URL=", "GA_MEASUREMENT_ID=", "DEV=false", "CONSENT_HIDE_FROM_BOTS=true",
		"CONTACT_RATE_LIMIT=1000000/1m", "BOOKING_RATE_LIMIT=1000000/1m",
	}
}

// client talks to whichever process is current.
type client struct {
	http *http.Client
	addr atomic.Pointer[string]
}

func newClient() *client {
	return &client{http: &http.Client{
		Timeout:   5 * time.Second,
		Transport: &http.Transport{MaxIdleConnsPerHost: 32},
	}}
}

func (c *client) url(path string) string { return "http://" + *c.addr.Load() + path }

func (c *client) do(method, path, body string) (int, []byte, error) {
	req, err := http.NewRequest(method, c.url(path), strings.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := c.http.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		return 0, nil, err // the answer did not arrive whole: not a 2xx we saw
	}
	return res.StatusCode, b, nil
}

// contactBody is a valid contact post whose message is unique to seq.
func contactBody(run string, seq int64) (message, body string) {
	message = fmt.Sprintf("Crash test %s message number %d: please call us back.", run, seq)
	b, _ := json.Marshal(map[string]any{
		"name": "Visitor " + fmt.Sprint(seq), "email": fmt.Sprintf("v%d@example.com", seq),
		"message": message, "lang": "en", "website": "",
		"rendered_at": time.Now().Add(-time.Minute).UnixMilli(),
	})
	return message, string(b)
}

// openStarts returns the start times of open discovery slots, from the
// server's own API, every other one (neighbours overlap once the buffer
// is counted).
func openStarts(t *testing.T, c *client) []string {
	t.Helper()
	status, body, err := c.do("GET", "/api/slots?service=discovery&days=31&tz=UTC", "")
	if err != nil || status != 200 {
		t.Fatalf("slots: %d %v %s", status, err, body)
	}
	var slots struct {
		Days []struct {
			Slots []struct{ Start string } `json:"slots"`
		} `json:"days"`
	}
	if err := json.Unmarshal(body, &slots); err != nil {
		t.Fatal(err)
	}
	var starts []string
	for _, d := range slots.Days {
		for i, s := range d.Slots {
			if i%2 == 0 {
				starts = append(starts, s.Start)
			}
		}
	}
	if len(starts) == 0 {
		t.Fatal("no open slot in the next 31 days")
	}
	return starts
}

func bookingBody(start string, seq int64) string {
	b, _ := json.Marshal(map[string]string{
		"service": "discovery", "start": start, "name": fmt.Sprintf("Booker %d", seq), "phone": "+49 30 901820",
		"email": fmt.Sprintf("b%d@example.com", seq), "timeZone": "Europe/Paris", "lang": "fr",
	})
	return string(b)
}

// acked is what the server answered 2xx to.
type acked struct {
	mu       sync.Mutex
	messages []string // contact messages, each unique
	bookings []string // booking tokens
}

func (a *acked) add(message, token string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if message != "" {
		a.messages = append(a.messages, message)
	}
	if token != "" {
		a.bookings = append(a.bookings, token)
	}
}

// checkStored opens the database and checks that every acknowledged
// message and booking is there exactly once, and that nothing was stored
// twice.
func checkStored(t *testing.T, dataDir string, a *acked) (messages, bookings int) {
	t.Helper()
	st, err := store.Open(context.Background(), config.SQLiteFile(dataDir))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	db := st.DB()
	count := func(q string, args ...any) int {
		var n int
		if err := db.QueryRow(q, args...).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	lost := 0
	for _, m := range a.messages {
		if n := count(`SELECT count(*) FROM messages WHERE message = ?`, m); n != 1 {
			lost++
			t.Errorf("acknowledged message stored %d times: %q", n, m)
		}
	}
	for _, tok := range a.bookings {
		if n := count(`SELECT count(*) FROM bookings WHERE token = ?`, tok); n != 1 {
			lost++
			t.Errorf("acknowledged booking stored %d times: %s", n, tok)
		}
	}
	if n := count(`SELECT count(*) FROM (SELECT message FROM messages GROUP BY message HAVING count(*) > 1)`); n != 0 {
		t.Errorf("%d messages stored more than once", n)
	}
	if n := count(`SELECT count(*) FROM (SELECT email FROM bookings GROUP BY email HAVING count(*) > 1)`); n != 0 {
		t.Errorf("%d bookings stored more than once", n)
	}
	// A time may be booked once per host (content/availability.json names
	// the services' hosts; a booking without one has host ''), never twice
	// with the same person.
	if n := count(`SELECT count(*) FROM (SELECT host, start_at FROM bookings WHERE cancelled_at IS NULL GROUP BY host, start_at HAVING count(*) > 1)`); n != 0 {
		t.Errorf("%d times booked twice with the same host", n)
	}
	// Every stored row has its mails queued with it, in the same transaction.
	if n := count(`SELECT count(*) FROM outbox`); n < count(`SELECT count(*) FROM messages`)+count(`SELECT count(*) FROM bookings`) {
		t.Errorf("%d mails queued for fewer rows than stored", n)
	}
	if lost > 0 {
		t.Errorf("%d acknowledged rows lost or duplicated", lost)
	}
	return count(`SELECT count(*) FROM messages`), count(`SELECT count(*) FROM bookings`)
}

// TestCrashAndLoad builds the server, fires contact posts and bookings at
// it while killing it with SIGKILL and restarting it, then checks the
// database; then runs a short load over pages and APIs, and stops the
// server with SIGTERM, which must exit 0.
func TestCrashAndLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("the crash and load tests do not run with -short")
	}
	started := time.Now()
	bin := buildSite(t)
	dataDir := t.TempDir()
	env := siteEnv(dataDir)
	c := newClient()
	proc := startSite(t, bin, env)
	c.addr.Store(&proc.addr)
	starts := openStarts(t, c)
	t.Logf("built and started in %v; start to ready %s, %s pages rendered at start, %s from the build; %d candidate slots",
		time.Since(started).Round(time.Millisecond), proc.ready[0], proc.ready[1], proc.ready[2], len(starts))
	// The binary starts from the pages its build rendered.
	if proc.ready[1] != "0" || proc.ready[2] == "0" {
		t.Errorf("the production binary rendered %s pages at start and took %s from its build, want 0 and all", proc.ready[1], proc.ready[2])
	}

	// The burst: workers post until told to stop; a refused connection
	// (the server is down) is retried with new content, never the same.
	var (
		a                     acked
		seq, slot             atomic.Int64
		sent, ok2xx, failures atomic.Int64
		server5xx             atomic.Int64
		stopBurst             = make(chan struct{})
		wg                    sync.WaitGroup
	)
	run := fmt.Sprint(time.Now().UnixNano())
	for w := range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stopBurst:
					return
				default:
				}
				n := seq.Add(1)
				sent.Add(1)
				if w%3 == 2 {
					i := slot.Add(1) - 1
					if int(i) >= len(starts) {
						i = int64(rand.IntN(len(starts)))
					}
					status, body, err := c.do("POST", "/api/bookings", bookingBody(starts[i], n))
					switch {
					case err != nil:
						failures.Add(1)
						time.Sleep(20 * time.Millisecond)
					case status == 201:
						ok2xx.Add(1)
						var created struct{ Booking struct{ Token string } }
						if err := json.Unmarshal(body, &created); err != nil || created.Booking.Token == "" {
							t.Errorf("201 without a token: %s", body)
						}
						a.add("", created.Booking.Token)
					case status >= 500:
						server5xx.Add(1)
					}
					continue
				}
				message, body := contactBody(run, n)
				status, _, err := c.do("POST", "/api/contact", body)
				switch {
				case err != nil:
					failures.Add(1)
					time.Sleep(50 * time.Millisecond)
				case status == 201:
					ok2xx.Add(1)
					a.add(message, "")
				case status >= 500:
					server5xx.Add(1)
				}
			}
		}()
	}
	// Each kill comes amid the burst: after the instance has acknowledged
	// posts (counted, so that a slow machine gives the same test), at a
	// random moment after that.
	acknowledgedSince := func(what string) {
		from := ok2xx.Load()
		testwait.Until(t, what, func() bool { return ok2xx.Load() >= from+5 })
	}
	const kills = 3
	for range kills {
		acknowledgedSince("posts acknowledged before a kill")
		time.Sleep(time.Duration(rand.IntN(300)) * time.Millisecond) // the moment of the kill, at random
		proc.kill(t)
		proc = startSite(t, bin, env)
		c.addr.Store(&proc.addr)
	}
	acknowledgedSince("posts acknowledged after the last restart")
	close(stopBurst)
	wg.Wait()
	// The last start already recovered the database; one more, cleanly.
	proc.kill(t)
	proc = startSite(t, bin, env)
	c.addr.Store(&proc.addr)
	messages, bookings := checkStored(t, dataDir, &a)
	t.Logf("crash test: %d requests, %d answered 2xx (%d messages, %d bookings acknowledged), %d failed in flight, %d 5xx, %d SIGKILLs; stored %d messages and %d bookings, 0 lost, 0 twice",
		sent.Load(), ok2xx.Load(), len(a.messages), len(a.bookings), failures.Load(), server5xx.Load(), kills, messages, bookings)
	if server5xx.Load() != 0 {
		t.Errorf("%d answers were 5xx", server5xx.Load())
	}
	if len(a.messages) == 0 || len(a.bookings) == 0 {
		t.Errorf("the burst got too few answers to mean anything: %d messages, %d bookings", len(a.messages), len(a.bookings))
	}

	loadTest(t, c, dataDir, run)
	if t.Failed() {
		t.Logf("the server's last lines:\n%s", proc.output())
	}

	if err := proc.stop(); err != nil {
		t.Errorf("SIGTERM: the server did not exit cleanly: %v", err)
	}
	t.Logf("crash and load tests took %v", time.Since(started).Round(time.Millisecond))
}

// loadTest sends a few thousand requests across pages, assets and APIs,
// within the test's deadline, and checks there is no 5xx and no lost row.
func loadTest(t *testing.T, c *client, dataDir, run string) {
	t.Helper()
	_, home, err := c.do("GET", "/", "")
	if err != nil {
		t.Fatal(err)
	}
	paths := []string{
		"/", "/fr", "/de", "/ar", "/services", "/fr/services/custom-software", "/de/services/platform-engineering",
		"/ar/services/strategic-consulting", "/blog", "/fr/blog", "/schedule", "/de/schedule/discovery", "/ar/privacy",
		"/cookies", "/nowhere", "/fr/nowhere", "/en/services", "/sitemap.xml", "/robots.txt", "/healthz", "/readyz",
		"/api/page?path=/fr/blog", "/api/page?path=/ar/schedule",
	}
	paths = append(paths, regexp.MustCompile(`/assets/[^"]+\.(?:js|css)`).FindAllString(string(home), -1)...)

	const total = 3000
	var (
		next, slotsQueries atomic.Int64
		statuses           sync.Map // status -> *atomic.Int64
		a                  acked
		errs               atomic.Int64
		wg                 sync.WaitGroup
	)
	count := func(status int) {
		v, _ := statuses.LoadOrStore(status, new(atomic.Int64))
		v.(*atomic.Int64).Add(1)
	}
	// Bounded by the test's deadline, not by seconds: a loaded machine
	// makes the run slower, not wrong.
	ctx := testwait.Context(t)
	var failedPaths sync.Map // path -> status, for the 5xx answers
	started := time.Now()
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				i := next.Add(1)
				if i > total {
					return
				}
				var status int
				var err error
				path := "/api/contact"
				switch {
				case i%10 == 0: // a contact post
					message, body := contactBody(run+"-load", i)
					status, _, err = c.do("POST", "/api/contact", body)
					if status == 201 {
						a.add(message, "")
					}
				case i%29 == 0 && slotsQueries.Add(1) <= 100: // within the slots limit of one client
					path = "/api/slots?service=strategy&days=7&tz=Asia/Tokyo"
					status, _, err = c.do("GET", path, "")
				default:
					path = paths[int(i)%len(paths)]
					status, _, err = c.do("GET", path, "")
				}
				if status >= 500 {
					failedPaths.Store(path, status)
				}
				if err != nil {
					errs.Add(1)
					continue
				}
				count(status)
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(started)
	var summary []string
	fivexx := int64(0)
	statuses.Range(func(k, v any) bool {
		n := v.(*atomic.Int64).Load()
		summary = append(summary, fmt.Sprintf("%d×%d", k, n))
		if k.(int) >= 500 {
			fivexx += n
		}
		return true
	})
	done := min(next.Load(), total)
	t.Logf("load test: %d requests in %v (%.0f/s), statuses %s, %d transport errors, %d 5xx, %d contact posts acknowledged",
		done, elapsed.Round(time.Millisecond), float64(done)/elapsed.Seconds(), strings.Join(summary, " "), errs.Load(), fivexx, len(a.messages))
	if fivexx != 0 || errs.Load() != 0 {
		var failed []string
		failedPaths.Range(func(k, v any) bool {
			failed = append(failed, fmt.Sprintf("%v: %v", k, v))
			return true
		})
		t.Errorf("load test: %d 5xx (%s), %d transport errors", fivexx, strings.Join(failed, ", "), errs.Load())
	}
	if done < total {
		t.Errorf("load test: only %d of %d requests within the time bound", done, total)
	}
	messages, _ := checkStored(t, dataDir, &a)
	t.Logf("load test: every acknowledged post stored once (%d messages in the database)", messages)
}
