package ratelimit_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/northbeam/site/internal/ratelimit"
	"github.com/northbeam/site/internal/store"
	"github.com/northbeam/site/internal/store/storetest"
)

func TestSharedSlidingWindow(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		base := time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC)
		at := func(d time.Duration) time.Time { return base.Add(d) }
		l := ratelimit.NewShared(st, "contact", 3, 10*time.Minute)
		steps := []struct {
			client string
			at     time.Duration
			ok     bool
			wait   time.Duration
		}{
			{"a", 0, true, 0},
			{"a", time.Minute, true, 0},
			{"b", time.Minute, true, 0}, // another client has its own count
			{"a", 2 * time.Minute, true, 0},
			{"a", 3 * time.Minute, false, 7 * time.Minute}, // the first hit leaves the window at 10:10
			{"a", 9 * time.Minute, false, time.Minute},     // refusals are not counted
			{"a", 10 * time.Minute, true, 0},               // the first hit has left
			{"a", 10 * time.Minute, false, time.Minute},
		}
		for i, s := range steps {
			ok, wait, err := l.Allow(ctx, s.client, at(s.at))
			if err != nil {
				t.Fatalf("step %d: %v", i, err)
			}
			if ok != s.ok || wait != s.wait {
				t.Errorf("step %d (%s at +%s): allow = %v, wait %s; want %v, %s", i, s.client, s.at, ok, wait, s.ok, s.wait)
			}
		}
		// A different bucket is a different limit.
		if ok, _, _ := ratelimit.NewShared(st, "booking", 1, time.Minute).Allow(ctx, "a", at(10*time.Minute)); !ok {
			t.Error("the booking limit counted contact posts")
		}
		// Quiet clients are swept once their hits have expired.
		if _, _, err := l.Allow(ctx, "c", at(time.Hour)); err != nil {
			t.Fatal(err)
		}
		var left int
		if err := st.QueryRowContext(ctx, `SELECT count(*) FROM rate_hits WHERE bucket = 'contact' AND client <> 'c'`).Scan(&left); err != nil {
			t.Fatal(err)
		}
		if left != 0 {
			t.Errorf("%d expired hits left after a sweep", left)
		}
	})
}

// Limiters of several instances on one database share the count: a
// client sending at once to all of them gets the limit, not N times it.
func TestSharedAcrossInstances(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		now := time.Now()
		instances := []*ratelimit.Shared{
			ratelimit.NewShared(st, "contact", 5, 10*time.Minute),
			ratelimit.NewShared(st, "contact", 5, 10*time.Minute),
			ratelimit.NewShared(st, "contact", 5, 10*time.Minute),
		}
		var (
			mu      sync.Mutex
			allowed int
			wg      sync.WaitGroup
		)
		for i := range 24 {
			wg.Go(func() {
				ok, _, err := instances[i%len(instances)].Allow(ctx, "203.0.113.9", now)
				if err != nil {
					t.Error(err)
					return
				}
				if ok {
					mu.Lock()
					allowed++
					mu.Unlock()
				}
			})
		}
		wg.Wait()
		if allowed != 5 {
			t.Errorf("%d of 24 concurrent requests allowed over 3 instances, want 5", allowed)
		}
	})
}
