package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/northbeam/site/internal/booking"
	"github.com/northbeam/site/internal/mail/mailtest"
	"github.com/northbeam/site/internal/store"
	"github.com/northbeam/site/internal/store/storetest"
	"github.com/northbeam/site/internal/testwait"
)

// The tests of this file run several instances of the real binary on one
// PostgreSQL database, as deploy/ describes, and check that together they
// behave as one site.

// instanceEnv is the configuration of an instance on databaseURL, sending
// mail to smtpURL, behind a proxy (the tests set X-Forwarded-For to play
// many clients).
func instanceEnv(t *testing.T, databaseURL, smtpURL string) []string {
	return []string{
		"ADDR=127.0.0.1:0", "DATA_DIR=" + t.TempDir(), "BASE_URL=http://127.0.0.1",
		"DATABASE_URL=" + databaseURL, "SMTP_URL=" + smtpURL, "MAIL_TO=team@northbeam.test",
		"GA_MEASUREMENT_ID=", "DEV=false", "CONSENT_HIDE_FROM_BOTS=true", "TRUST_PROXY=true",
		"CONTACT_RATE_LIMIT=5/10m", "BOOKING_RATE_LIMIT=1000/1m",
	}
}

// waitReady polls /readyz until it answers 200, within the test's deadline
// (testwait): a loaded machine starts an instance slowly, not wrongly.
func waitReady(t *testing.T, addr string) {
	t.Helper()
	testwait.Until(t, "http://"+addr+"/readyz to answer 200", func() bool {
		res, err := http.Get("http://" + addr + "/readyz")
		if err != nil {
			return false
		}
		_, _ = io.Copy(io.Discard, res.Body) // drained for the connection's reuse
		res.Body.Close()
		return res.StatusCode == http.StatusOK
	})
}

// post sends a JSON body to addr as the client at ip (X-Forwarded-For).
func post(addr, path, ip, body string) (int, []byte, error) {
	req, err := http.NewRequest(http.MethodPost, "http://"+addr+path, strings.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Forwarded-For", ip)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	return res.StatusCode, b, err
}

// clientIP is a distinct documentation address (RFC 5737) per n.
func clientIP(n int64) string {
	return fmt.Sprintf("198.51.%d.%d", 100+n/250%100, n%250+1)
}

func TestInstancesShareOnePostgres(t *testing.T) {
	if testing.Short() {
		t.Skip("the multi-instance tests do not run with -short")
	}
	bin := buildSite(t)
	databaseURL := storetest.PostgresURL(t)
	smtp := mailtest.Start(t)
	var procs []*siteProcess
	for range 3 {
		p := startSite(t, bin, instanceEnv(t, databaseURL, smtp.URL()))
		t.Cleanup(func() { _ = p.cmd.Process.Kill() }) // one that has exited already is as good
		procs = append(procs, p)
	}
	for _, p := range procs {
		waitReady(t, p.addr)
	}
	ctx := context.Background()
	st, err := store.OpenPostgres(ctx, databaseURL, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	count := func(q string, args ...any) int {
		t.Helper()
		var n int
		if err := st.QueryRowContext(ctx, q, args...).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}

	// The discovery call is shared among its hosts (content/availability.json):
	// one slot takes one booking per host, each with a different one, and no more.
	av, err := booking.LoadAvailability(os.DirFS("content"), "availability.json")
	if err != nil {
		t.Fatal(err)
	}
	hosts := max(len(av.ServiceHosts["discovery"]), 1)
	t.Run("30 bookings for one slot over three instances", func(t *testing.T) {
		c := newClient()
		c.addr.Store(&procs[0].addr)
		start := openStarts(t, c)[0]
		var wg sync.WaitGroup
		statuses := make([]int, 30)
		gate := make(chan struct{})
		for i := range statuses {
			wg.Go(func() {
				<-gate
				status, body, err := post(procs[i%3].addr, "/api/bookings", clientIP(int64(1000+i)), bookingBody(start, int64(1000+i)))
				if err != nil {
					t.Errorf("booking %d: %v", i, err)
					return
				}
				if status != 201 && status != 409 {
					t.Errorf("booking %d: %d %s", i, status, body)
				}
				statuses[i] = status
			})
		}
		close(gate)
		wg.Wait()
		created, conflicts := 0, 0
		for _, s := range statuses {
			switch s {
			case 201:
				created++
			case 409:
				conflicts++
			}
		}
		if created != hosts || conflicts != 30-hosts {
			t.Errorf("%d × 201 and %d × 409, want %d (one per host of the discovery call) and %d", created, conflicts, hosts, 30-hosts)
		}
		if n := count(`SELECT count(*) FROM bookings WHERE cancelled_at IS NULL`); n != hosts {
			t.Errorf("%d standing bookings stored, want %d", n, hosts)
		}
		if n := count(`SELECT count(DISTINCT host) FROM bookings WHERE cancelled_at IS NULL`); n != hosts {
			t.Errorf("the standing bookings have %d different hosts, want %d", n, hosts)
		}
	})

	t.Run("the contact limit holds across instances", func(t *testing.T) {
		const ip = "203.0.113.77"
		var got []int
		for i := range 8 {
			_, body := contactBody("limit", int64(i))
			status, _, err := post(procs[i%2].addr, "/api/contact", ip, body)
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, status)
		}
		want := []int{201, 201, 201, 201, 201, 429, 429, 429}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("8 posts from one client, alternately to two instances: %v, want %v", got, want)
		}
	})

	t.Run("a killed instance loses no message and no mail", func(t *testing.T) {
		var (
			a                  acked
			seq                atomic.Int64
			failures, server5x atomic.Int64
			killed             atomic.Bool
			stop               = make(chan struct{})
			wg                 sync.WaitGroup
		)
		// This subtest's mail is what the outbox holds past this id: a
		// booking of an earlier subtest may leave a reminder due days later.
		firstMail := count(`SELECT coalesce(max(id), 0) FROM outbox`)
		for w := range 6 {
			wg.Go(func() {
				for i := w; ; i++ {
					select {
					case <-stop:
						return
					default:
					}
					target := procs[i%3]
					if killed.Load() && target == procs[2] {
						continue
					}
					n := seq.Add(1)
					message, body := contactBody("kill", n)
					status, _, err := post(target.addr, "/api/contact", clientIP(n), body)
					switch {
					case err != nil:
						failures.Add(1)
					case status == 201:
						a.add(message, "")
					case status >= 500:
						server5x.Add(1)
					}
				}
			})
		}
		// The kill comes amid the burst, and the burst goes on after it,
		// counted in acknowledged posts rather than in time, so that a slow
		// machine gives the same test as a fast one.
		acknowledged := func() int {
			a.mu.Lock()
			defer a.mu.Unlock()
			return len(a.messages)
		}
		testwait.Until(t, "30 posts acknowledged before the kill", func() bool { return acknowledged() >= 30 })
		procs[2].kill(t)
		killedAt := time.Now()
		killed.Store(true)
		afterKill := acknowledged() + 30
		testwait.Until(t, "30 more posts acknowledged after the kill", func() bool { return acknowledged() >= afterKill })
		close(stop)
		wg.Wait()
		if server5x.Load() != 0 {
			t.Errorf("%d answers were 5xx", server5x.Load())
		}
		for _, m := range a.messages {
			if n := count(`SELECT count(*) FROM messages WHERE message = ?`, m); n != 1 {
				t.Errorf("acknowledged message stored %d times: %q", n, m)
			}
		}
		// The instances still running send every mail that is due. A mail
		// the killed one had claimed is due again when its lease (a minute,
		// the mail worker's default) ends: the test ends those leases now,
		// as that minute passing would, rather than wait for it. They are
		// the unsent rows whose lease ends before killedAt plus a minute;
		// the live instances' claims end later.
		const lease = time.Minute
		testwait.Until(t, "every due mail sent by the instances still running", func() bool {
			return count(`SELECT count(*) FROM outbox WHERE id > ? AND state <> 'sent' AND next_attempt_at <= ?`, firstMail, store.Millis(time.Now())) == 0
		})
		ended, err := st.ExecContext(ctx, `UPDATE outbox SET next_attempt_at = ? WHERE id > ? AND state <> 'sent' AND next_attempt_at <= ?`,
			store.Millis(time.Now()), firstMail, store.Millis(killedAt.Add(lease)))
		if err != nil {
			t.Fatal(err)
		}
		leases, _ := ended.RowsAffected()
		// A post wakes a worker, which finds the mails whose lease ended.
		_, body := contactBody("kill", seq.Add(1))
		if status, answer, err := post(procs[0].addr, "/api/contact", clientIP(seq.Load()), body); err != nil || status != 201 {
			t.Fatalf("a post after the burst: %d %v %s", status, err, answer)
		}
		testwait.Until(t, "every mail sent, those of the killed instance's leases too", func() bool {
			return count(`SELECT count(*) FROM outbox WHERE id > ? AND state <> 'sent'`, firstMail) == 0
		})
		rows, err := st.QueryContext(ctx, `SELECT ref FROM outbox WHERE id > ?`, firstMail)
		if err != nil {
			t.Fatal(err)
		}
		var refs []string
		for rows.Next() {
			var ref string
			if err := rows.Scan(&ref); err != nil {
				t.Fatal(err)
			}
			refs = append(refs, ref)
		}
		rows.Close()
		seen := map[string]int{}
		for _, r := range smtp.Received() {
			id := strings.Trim(r.Header.Get("Message-Id"), "<>")
			ref, _, _ := strings.Cut(id, "@")
			seen[ref]++
		}
		duplicated := 0
		for _, ref := range refs {
			switch n := seen[ref]; {
			case n == 0:
				t.Errorf("mail %s never reached the SMTP server", ref)
			case n > 1:
				duplicated++
			}
		}
		t.Logf("kill test: %d posts acknowledged, %d failed in flight (to the killed instance), %d mails queued, %d leases of the killed instance ended, %d received, %d delivered more than once",
			len(a.messages), failures.Load(), len(refs), leases, len(smtp.Received()), duplicated)
		if duplicated > 1 {
			t.Errorf("%d mails delivered twice; a SIGKILL can duplicate at most the one mail in flight", duplicated)
		}
	})
}

// TestStartWaitsForTheDatabase starts an instance whose PostgreSQL does
// not answer: it serves pages, /readyz and the API answer 503 with
// Retry-After, and SIGTERM stops it cleanly. Another, whose wait is over,
// exits with a message that names no secret.
//
// The first one's wait outlasts the test: a wait that ended while the
// requests were in flight reset their connections, on a machine busy
// enough to make the start take most of it.
func TestStartWaitsForTheDatabase(t *testing.T) {
	if testing.Short() {
		t.Skip("the multi-instance tests do not run with -short")
	}
	bin := buildSite(t)
	const unreachable = "postgres://site:hunter2@127.0.0.1:1/site?sslmode=disable"
	// The give-up needs no request, so nothing races its wait; it runs
	// beside the first instance.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	giveUp := exec.CommandContext(ctx, bin)
	giveUp.Dir = t.TempDir()
	giveUp.Env = append(os.Environ(), append(instanceEnv(t, unreachable, ""), "DATABASE_WAIT=1s")...)
	var lastWords []byte
	gaveUp := make(chan error, 1)
	go func() {
		var err error
		lastWords, err = giveUp.CombinedOutput()
		gaveUp <- err
	}()

	p := startSite(t, bin, append(instanceEnv(t, unreachable, ""), "DATABASE_WAIT=10m", "SHUTDOWN_DRAIN=0s"))
	t.Cleanup(func() { _ = p.cmd.Process.Kill() }) // one that has exited already is as good
	res, err := http.Get("http://" + p.addr + "/fr/blog")
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("a page while the database is away: %v %v", res, err)
	}
	res.Body.Close()
	res, err = http.Get("http://" + p.addr + "/readyz")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 503 || !strings.Contains(string(body), "database") {
		t.Errorf("/readyz: %d %s", res.StatusCode, body)
	}
	_, contact := contactBody("wait", 1)
	status, answer, err := post(p.addr, "/api/contact", "198.51.100.1", strings.Replace(contact, `"lang":"en"`, `"lang":"de"`, 1))
	if err != nil {
		t.Fatal(err)
	}
	var apiErr struct {
		Error struct{ Code, Message string }
	}
	_ = json.Unmarshal(answer, &apiErr) // a body that is not JSON fails the check below, which prints it
	if status != 503 || apiErr.Error.Code != "unavailable" || !strings.Contains(apiErr.Error.Message, "Minute") {
		t.Errorf("a contact post while the database is away: %d %s", status, answer)
	}
	if err := p.stop(); err != nil {
		t.Errorf("SIGTERM while waiting for the database: %v\n%s", err, p.output())
	}

	err = <-gaveUp
	if exit := (*exec.ExitError)(nil); !errors.As(err, &exit) || exit.ExitCode() != 1 {
		t.Errorf("without a database: %v, want exit code 1", err)
	}
	if out := string(lastWords); !strings.Contains(out, "did not answer within 1s") || strings.Contains(out, "hunter2") || strings.Contains(out, unreachable) {
		t.Errorf("the last words of the process that gave up:\n%s", out)
	}
}
