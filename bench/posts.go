package main

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" driver, to make the PostgreSQL run's schema
)

// postLoad measures contact and booking posts, which commit to the
// database with their mail, on each back-end: a fresh server per back-end
// on core 0, clients on core 1.
func postLoad(bin, tmp string) error {
	const workers = 16
	fmt.Printf("\nPOST throughput, %d concurrent clients, server on core 0 (commits with their mail, SMTP off):\n", workers)
	fmt.Printf("  %-9s %12s %9s %9s   %12s %9s %9s  %s\n", "back-end", "contact/s", "p50", "p99", "booking/s", "p50", "p99", "(201 / 409)")

	backends := []struct {
		name string
		env  func() ([]string, func(), error)
	}{
		{"SQLite", func() ([]string, func(), error) {
			return []string{"DATA_DIR=" + filepath.Join(tmp, "posts-sqlite")}, func() {}, nil
		}},
		{"Postgres", func() ([]string, func(), error) {
			databaseURL, drop, err := benchSchema()
			if err != nil {
				return nil, nil, err
			}
			return []string{"DATA_DIR=" + filepath.Join(tmp, "posts-pg"), "DATABASE_URL=" + databaseURL}, drop, nil
		}},
	}
	for _, b := range backends {
		env, cleanup, err := b.env()
		if err != nil {
			fmt.Printf("  %-9s not measured: %v\n", b.name, err)
			continue
		}
		err = func() error {
			defer cleanup()
			addr := freeAddr()
			base := "http://" + addr
			args := []string{bin}
			if _, err := exec.LookPath("taskset"); err == nil {
				args = append([]string{"taskset", "-c", "0"}, args...)
			}
			cmd := exec.Command(args[0], args[1:]...)
			cmd.Dir = tmp
			cmd.Env = append(os.Environ(), append(env, "ADDR="+addr, "BASE_URL="+base, "SMTP_URL=",
				"CONTACT_RATE_LIMIT=100000000/1m", "BOOKING_RATE_LIMIT=100000000/1m")...)
			logFile, err := os.Create(filepath.Join(tmp, "posts-"+b.name+".log"))
			if err != nil {
				return err
			}
			defer func() { _ = logFile.Close() }() // the child writes it, not this descriptor
			cmd.Stderr = logFile
			if err := cmd.Start(); err != nil {
				return err
			}
			defer func() { _ = cmd.Process.Kill(); _, _ = cmd.Process.Wait() }()
			if err := waitReady(base + "/readyz"); err != nil {
				return err
			}
			contact := runPosts(workers, 3000, func(i int) (string, string) {
				body, _ := json.Marshal(map[string]any{
					"name": fmt.Sprintf("Bench %d", i), "email": fmt.Sprintf("bench%d@example.com", i),
					"message": "A benchmark message that is long enough to pass validation.", "lang": "en",
					"rendered_at": time.Now().Add(-time.Minute).UnixMilli(),
				})
				return base + "/api/contact", string(body)
			})
			starts, err := slotStarts(base)
			if err != nil {
				return err
			}
			bookings := runPosts(workers, len(starts), func(i int) (string, string) {
				body, _ := json.Marshal(map[string]string{
					"service": "discovery", "start": starts[i], "name": fmt.Sprintf("Bench %d", i),
					"email": fmt.Sprintf("bench%d@example.com", i), "timeZone": "UTC", "lang": "en", "phone": "+49 30 901820",
				})
				return base + "/api/bookings", string(body)
			})
			fmt.Printf("  %-9s %12.0f %9v %9v   %12.0f %9v %9v  (%d / %d)\n", b.name,
				contact.rps, contact.p50, contact.p99, bookings.rps, bookings.p50, bookings.p99,
				bookings.status[201], bookings.status[409])
			if other := contact.failed + bookings.failed; other > 0 {
				fmt.Printf("  %-9s %d requests failed or had an unexpected status\n", "", other)
			}
			return nil
		}()
		if err != nil {
			return fmt.Errorf("posts on %s: %w", b.name, err)
		}
	}
	fmt.Println("  (booking: every open discovery start of the next month once; neighbours overlap with the buffer, hence the 409s)")
	return nil
}

type postResult struct {
	rps      float64
	p50, p99 time.Duration
	status   map[int]int
	failed   int
}

// runPosts sends n posts from workers clients and measures them.
func runPosts(workers, n int, request func(i int) (url, body string)) postResult {
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: workers}, Timeout: 30 * time.Second}
	var (
		mu        sync.Mutex
		latencies = make([]time.Duration, 0, n)
		res       = postResult{status: map[int]int{}}
		next      = make(chan int)
		wg        sync.WaitGroup
	)
	start := time.Now()
	for range workers {
		wg.Go(func() {
			for i := range next {
				u, body := request(i)
				t0 := time.Now()
				r, err := client.Post(u, "application/json", strings.NewReader(body))
				took := time.Since(t0)
				status := 0
				if err == nil {
					_, _ = io.Copy(io.Discard, r.Body) // drained for the connection's reuse
					r.Body.Close()
					status = r.StatusCode
				}
				mu.Lock()
				latencies = append(latencies, took)
				res.status[status]++
				if status != 201 && status != 409 {
					res.failed++
				}
				mu.Unlock()
			}
		})
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
	elapsed := time.Since(start)
	slices.Sort(latencies)
	if len(latencies) > 0 {
		res.p50 = latencies[len(latencies)/2].Round(10 * time.Microsecond)
		res.p99 = latencies[len(latencies)*99/100].Round(10 * time.Microsecond)
	}
	res.rps = float64(n) / elapsed.Seconds()
	return res
}

// slotStarts returns every open discovery start of the next month.
func slotStarts(base string) ([]string, error) {
	res, err := http.Get(base + "/api/slots?service=discovery&days=31&tz=UTC")
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	var slots struct {
		Days []struct {
			Slots []struct{ Start string } `json:"slots"`
		} `json:"days"`
	}
	if err := json.NewDecoder(res.Body).Decode(&slots); err != nil {
		return nil, err
	}
	var starts []string
	for _, d := range slots.Days {
		for _, s := range d.Slots {
			starts = append(starts, s.Start)
		}
	}
	return starts, nil
}

// benchSchema creates an empty schema in the PostgreSQL of PG_TEST_URL
// (default: the project machines' server) and returns a URL using it.
func benchSchema() (string, func(), error) {
	server := os.Getenv("PG_TEST_URL")
	if server == "" {
		server = "postgres://postgres@127.0.0.1:5432/test?sslmode=disable"
	}
	db, err := sql.Open("pgx", server)
	if err != nil {
		return "", nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	schema := "bench_" + hex.EncodeToString(b)
	if _, err := db.ExecContext(ctx, "CREATE SCHEMA "+schema); err != nil {
		_ = db.Close()
		return "", nil, fmt.Errorf("no PostgreSQL at PG_TEST_URL (%v)", err)
	}
	u, err := url.Parse(server)
	if err != nil {
		_ = db.Close()
		return "", nil, err
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	drop := func() {
		_, _ = db.Exec("DROP SCHEMA " + schema + " CASCADE")
		_ = db.Close()
	}
	return u.String(), drop, nil
}
