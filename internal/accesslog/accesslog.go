// Package accesslog writes a server's log off the request path: the access
// log's lines, one per request, are formatted without allocating and
// written in batches by a goroutine of their own; the other log lines, which
// log/slog's handler writes through the same Writer, are written at once,
// after the batch before them, so that the log keeps its order. Close
// writes what is left: nothing is lost at shutdown.
package accesslog

import (
	"io"
	"strconv"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"
)

// Entry is one line of the access log.
type Entry struct {
	Time     time.Time // when the answer was complete
	ID       string    // the request id
	Method   string
	Path     string // as logs may show it: without a visitor's secrets
	Status   int
	Bytes    int64 // of the body sent
	Duration time.Duration
}

// Batching limits.
const (
	// flushAt is the size of a batch that is written at once, before the
	// next tick.
	flushAt = 64 << 10
	// maxPending is where the writer falls behind: a line beyond it waits
	// until the batch is taken rather than be dropped or grow the batch
	// without bound.
	maxPending = 4 << 20
	// maxLine bounds the part of a line formatted on the stack; longer
	// lines (a long path) grow on the heap.
	maxLine = 512
)

// Writer is a log's destination. Log queues an access-log line; Write,
// which a slog handler calls with whole lines, writes at once. A goroutine
// writes the queued lines every interval, or sooner when a batch reaches
// 64 KB. Its methods may be called from any goroutine, and after Close,
// when every line is written at once.
type Writer struct {
	out io.Writer

	mu      sync.Mutex
	pending []byte     // queued lines, guarded by mu
	taken   *sync.Cond // a batch was taken (with mu)
	closed  bool       // guarded by mu

	outMu sync.Mutex // serializes writes to out; guards spare and err
	spare []byte     // the previous batch's buffer, for the next one
	err   error      // the first error writing a batch

	wake chan struct{} // a batch is ready before the tick
	stop chan struct{}
	done chan struct{}
}

// New returns a Writer to out that writes queued lines every interval.
func New(out io.Writer, interval time.Duration) *Writer {
	w := &Writer{
		out:     out,
		pending: make([]byte, 0, 2*flushAt),
		spare:   make([]byte, 0, 2*flushAt),
		wake:    make(chan struct{}, 1),
		stop:    make(chan struct{}),
		done:    make(chan struct{}),
	}
	w.taken = sync.NewCond(&w.mu)
	go w.run(interval)
	return w
}

func (w *Writer) run(interval time.Duration) {
	defer close(w.done)
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for {
		select {
		case <-w.stop:
			return
		case <-tick.C:
		case <-w.wake:
		}
		_ = w.flush(nil)
	}
}

// Log queues e's line. It does not allocate once the batch buffers have
// grown to their working size.
func (w *Writer) Log(e Entry) {
	var stack [maxLine]byte
	line := e.appendTo(stack[:0])
	w.mu.Lock()
	for len(w.pending) >= maxPending && !w.closed {
		w.taken.Wait()
	}
	w.pending = append(w.pending, line...)
	n, closed := len(w.pending), w.closed
	w.mu.Unlock()
	switch {
	case closed:
		_ = w.flush(nil)
	case n >= flushAt:
		select {
		case w.wake <- struct{}{}:
		default: // already woken
		}
	}
}

// Write writes p, a whole line or more, after the queued lines.
func (w *Writer) Write(p []byte) (int, error) {
	if err := w.flush(p); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush writes the queued lines now, and returns the first error any
// batch met.
func (w *Writer) Flush() error {
	_ = w.flush(nil)
	w.outMu.Lock()
	defer w.outMu.Unlock()
	return w.err
}

// Close writes the queued lines, stops the goroutine and returns the first
// error any batch met. Lines logged afterwards are written at once.
func (w *Writer) Close() error {
	w.mu.Lock()
	already := w.closed
	w.closed = true
	w.mu.Unlock()
	w.taken.Broadcast()
	if !already {
		close(w.stop)
		<-w.done
	}
	return w.Flush()
}

// flush writes the queued lines, then p when it is not nil, and returns
// the error of writing p.
func (w *Writer) flush(p []byte) error {
	w.outMu.Lock()
	defer w.outMu.Unlock()
	w.mu.Lock()
	batch := w.pending
	w.pending = w.spare[:0]
	w.mu.Unlock()
	w.taken.Broadcast()
	if len(batch) > 0 {
		if _, err := w.out.Write(batch); err != nil && w.err == nil {
			w.err = err
		}
	}
	w.spare = batch[:0]
	if p == nil {
		return nil
	}
	_, err := w.out.Write(p)
	return err
}

// appendTo appends e's line to b, in the format of log/slog's TextHandler:
//
//	time=2026-01-02T15:04:05.000+00:00 level=INFO msg=request id=… method=GET path=/ status=200 bytes=1234 duration=1.2ms
func (e *Entry) appendTo(b []byte) []byte {
	b = append(b, "time="...)
	b = appendMillis(b, e.Time)
	b = append(b, " level=INFO msg=request id="...)
	b = appendValue(b, e.ID)
	b = append(b, " method="...)
	b = appendValue(b, e.Method)
	b = append(b, " path="...)
	b = appendValue(b, e.Path)
	b = append(b, " status="...)
	b = strconv.AppendInt(b, int64(e.Status), 10)
	b = append(b, " bytes="...)
	b = strconv.AppendInt(b, e.Bytes, 10)
	b = append(b, " duration="...)
	b = append(b, e.Duration.String()...)
	return append(b, '\n')
}

// appendMillis appends t in RFC 3339 with milliseconds, as log/slog does,
// and as slog does through time's fast path for RFC3339Nano: a tenth of a
// millisecond added after truncating keeps exactly four digits after the
// point, and the fourth is dropped.
func appendMillis(b []byte, t time.Time) []byte {
	const prefixLen = len("2006-01-02T15:04:05.000")
	n := len(b)
	b = t.Truncate(time.Millisecond).Add(time.Millisecond/10).AppendFormat(b, time.RFC3339Nano)
	return append(b[:n+prefixLen], b[n+prefixLen+1:]...)
}

// appendValue appends s, quoted as log/slog's TextHandler quotes it: when
// it is empty or holds a space, '=', '"', a control character, or a rune
// that is invalid, a space or not printable. A quoted value escapes line
// breaks: what a visitor sends cannot start a line of its own.
func appendValue(b []byte, s string) []byte {
	if needsQuoting(s) {
		return strconv.AppendQuote(b, s)
	}
	return append(b, s...)
}

func needsQuoting(s string) bool {
	if s == "" {
		return true
	}
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c <= ' ' || c == '=' || c == '"' || c == utf8.RuneSelf-1 {
				return true
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError || unicode.IsSpace(r) || !unicode.IsPrint(r) {
			return true
		}
		i += size
	}
	return false
}
