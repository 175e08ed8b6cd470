package accesslog

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"
)

// syncBuffer is the log's destination in these tests: a buffer that says
// how many writes it took.
type syncBuffer struct {
	mu     sync.Mutex
	buf    bytes.Buffer
	writes int
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.writes++
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func entry(i int) Entry {
	return Entry{
		Time: time.Date(2026, 3, 4, 5, 6, 7, 891_234_567, time.UTC), ID: fmt.Sprintf("id%d", i),
		Method: "GET", Path: "/de/blog", Status: 200, Bytes: 1234, Duration: 1500 * time.Microsecond,
	}
}

// TestLineIsSlogsTextFormat: an access line reads as the other lines of
// the log, which log/slog's TextHandler writes, quoting included.
func TestLineIsSlogsTextFormat(t *testing.T) {
	for _, path := range []string{"/de/blog", "/a b", "/x=y", "/\"quoted\"", "/line\nbreak", "", "/é", "/\u00a0nbsp", "/bad\xff"} {
		e := entry(1)
		e.Path = path
		var want bytes.Buffer
		slog.New(slog.NewTextHandler(&want, nil)).LogAttrs(t.Context(), slog.LevelInfo, "request",
			slog.String("id", e.ID), slog.String("method", e.Method), slog.String("path", e.Path),
			slog.Int("status", e.Status), slog.Int64("bytes", e.Bytes), slog.Duration("duration", e.Duration))
		// slog stamps its own time; compare what follows it.
		_, wantRest, _ := strings.Cut(want.String(), " ")
		got := string(e.appendTo(nil))
		gotTime, gotRest, _ := strings.Cut(got, " ")
		if gotRest != wantRest {
			t.Errorf("path %q:\n got %q\nwant %q", path, gotRest, wantRest)
		}
		if gotTime != "time=2026-03-04T05:06:07.891Z" {
			t.Errorf("time: %q", gotTime)
		}
	}
}

// TestNothingLostAtClose: lines logged from many goroutines are all
// written by Close, each once and whole, though the interval never came.
func TestNothingLostAtClose(t *testing.T) {
	var out syncBuffer
	w := New(&out, time.Hour)
	const goroutines, each = 8, 5000
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Go(func() {
			for i := range each {
				w.Log(entry(g*each + i))
			}
		})
	}
	wg.Wait()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	seen := map[string]bool{}
	for _, l := range lines {
		_, rest, ok := strings.Cut(l, " id=")
		id, _, _ := strings.Cut(rest, " ")
		if !ok || seen[id] || !strings.HasSuffix(l, " duration=1.5ms") {
			t.Fatalf("line %q (seen %v)", l, seen[id])
		}
		seen[id] = true
	}
	if len(seen) != goroutines*each {
		t.Errorf("%d lines written, want %d", len(seen), goroutines*each)
	}
	// Batches, not a write per line.
	if out.writes > goroutines*each/50 {
		t.Errorf("%d writes for %d lines", out.writes, goroutines*each)
	}
	// After Close, a line is written at once.
	w.Log(entry(-1))
	if !strings.Contains(out.String(), " id=id-1 ") {
		t.Error("a line logged after Close was not written")
	}
}

// TestLinesAreWrittenWithinTheInterval: a quiet server's lines do not wait
// for the next busy moment.
func TestLinesAreWrittenWithinTheInterval(t *testing.T) {
	var out syncBuffer
	w := New(&out, 20*time.Millisecond)
	defer func() { _ = w.Close() }() // into memory: no write can fail
	w.Log(entry(1))
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(out.String(), "id=id1 ") {
		if time.Now().After(deadline) {
			t.Fatal("the line was not written within 5 s")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestOtherLinesKeepTheOrder: a line written through Write, as slog's
// handler writes the other lines, follows the queued access lines, at
// once.
func TestOtherLinesKeepTheOrder(t *testing.T) {
	var out syncBuffer
	w := New(&out, time.Hour)
	defer func() { _ = w.Close() }() // into memory: no write can fail
	log := slog.New(slog.NewTextHandler(w, nil))
	w.Log(entry(1))
	log.Error("handler error", "id", "id1")
	w.Log(entry(2))
	got := out.String()
	first, second := strings.Index(got, "msg=request id=id1 "), strings.Index(got, "msg=\"handler error\"")
	if first < 0 || second < first || strings.Contains(got, "id=id2") {
		t.Errorf("log:\n%s", got)
	}
}

// failing is a destination that refuses every write.
type failing struct{}

func (failing) Write([]byte) (int, error) { return 0, errors.New("disk full") }

// TestCloseReportsAWriteError: a batch that could not be written is not
// lost silently.
func TestCloseReportsAWriteError(t *testing.T) {
	w := New(failing{}, time.Hour)
	w.Log(entry(1))
	if err := w.Close(); err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Errorf("Close: %v", err)
	}
}

// TestLogDoesNotAllocate: an access line costs no allocation once the
// batch buffers have grown.
func TestLogDoesNotAllocate(t *testing.T) {
	var out syncBuffer
	w := New(&out, time.Hour)
	defer func() { _ = w.Close() }() // into memory: no write can fail
	e := entry(1)
	for range 2 { // both batch buffers
		for range 2000 {
			w.Log(e)
		}
		_ = w.Flush()
	}
	if n := testing.AllocsPerRun(1000, func() { w.Log(e) }); n != 0 {
		t.Errorf("%v allocations per line", n)
	}
}

func BenchmarkLog(b *testing.B) {
	w := New(io.Discard, 10*time.Millisecond)
	defer func() { _ = w.Close() }() // into io.Discard: no write can fail
	e := entry(1)
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			w.Log(e)
		}
	})
}
