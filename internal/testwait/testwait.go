// Package testwait is how a test waits for what depends on the machine's
// speed: on its condition, until shortly before the test binary's own
// deadline (go test -timeout), never for a fixed time. A loaded machine
// makes a test slower, not wrong; a condition that never comes still
// fails, with the test's own message rather than the binary's panic
// (docs/ARCHITECTURE.md, Tests).
package testwait

import (
	"context"
	"testing"
	"time"
)

// withoutDeadline is how long a wait may last when the test binary has no
// deadline (go test -timeout 0).
const withoutDeadline = 10 * time.Minute

// Deadline returns when a wait of t gives up: half a minute before the
// binary's deadline, so that the test reports what it waited for, and
// the tests and cleanups after it still run, before the binary stops.
// Once a wait has used that time, the waits after it fail at once.
func Deadline(t testing.TB) time.Time {
	d, ok := deadline(t)
	if !ok {
		return time.Now().Add(withoutDeadline)
	}
	return d.Add(-reportMargin)
}

// reportMargin is what Deadline leaves of the binary's time for reports
// and cleanups.
const reportMargin = 30 * time.Second

// deadline is the binary's deadline, which only a *testing.T knows.
func deadline(t testing.TB) (time.Time, bool) {
	if d, ok := t.(interface{ Deadline() (time.Time, bool) }); ok {
		return d.Deadline()
	}
	return time.Time{}, false
}

// Context returns a context that ends at Deadline(t) and with the test.
func Context(t testing.TB) context.Context {
	ctx, cancel := context.WithDeadline(context.Background(), Deadline(t))
	t.Cleanup(cancel)
	return ctx
}

// Until polls done every poll until it holds, or fails the test, naming
// what it waited for, at Deadline(t).
func Until(t testing.TB, what string, done func() bool) {
	t.Helper()
	end := Deadline(t)
	start := time.Now()
	for !done() {
		if time.Now().After(end) {
			t.Fatalf("still waiting after %s: %s", time.Since(start).Round(time.Millisecond), what)
		}
		time.Sleep(poll)
	}
}

// poll is how often Until asks again.
const poll = 50 * time.Millisecond
