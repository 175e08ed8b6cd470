package handlers

import (
	"net/netip"
	"sync"
	"time"
)

// RateLimit is how many requests one client may make in any window of
// time. The zero value takes the default of the endpoint that uses it.
type RateLimit struct {
	Requests int
	Window   time.Duration
}

// or returns l, or def when l is not set.
func (l RateLimit) or(def RateLimit) RateLimit {
	if l.Requests <= 0 || l.Window <= 0 {
		return def
	}
	return l
}

// rateLimiter keeps, per client, the times of its recent requests (a
// sliding log: at most Requests entries each), so that a refusal can say
// exactly when the next request will be allowed.
type rateLimiter struct {
	limit RateLimit

	mu        sync.Mutex
	hits      map[string][]time.Time // client -> times within the window, oldest first
	nextSweep time.Time
}

func newRateLimiter(limit RateLimit) *rateLimiter {
	return &rateLimiter{limit: limit, hits: map[string][]time.Time{}}
}

// allow counts a request from client at now when it is within the limit;
// when it is not, it returns how long the client has to wait. Refused
// requests are not counted, so waiting that long is always enough.
func (l *rateLimiter) allow(client string, now time.Time) (bool, time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	// Clients that went quiet are forgotten once per window, so the map
	// holds only the clients of the last window or two.
	if !now.Before(l.nextSweep) {
		for c, h := range l.hits {
			if now.Sub(h[len(h)-1]) >= l.limit.Window {
				delete(l.hits, c)
			}
		}
		l.nextSweep = now.Add(l.limit.Window)
	}
	h := l.hits[client]
	for len(h) > 0 && now.Sub(h[0]) >= l.limit.Window {
		h = h[1:]
	}
	if len(h) >= l.limit.Requests {
		l.hits[client] = h
		return false, h[0].Add(l.limit.Window).Sub(now)
	}
	l.hits[client] = append(h, now)
	return true, 0
}

// clientKey is what a rate limit counts by: the IP address, or for IPv6
// its /64 network, the block a single subscriber usually holds.
func clientKey(ip string) string {
	addr, err := netip.ParseAddr(ip)
	if err != nil {
		return ip
	}
	addr = addr.Unmap()
	if addr.Is4() {
		return addr.String()
	}
	prefix, err := addr.Prefix(64)
	if err != nil {
		return addr.String()
	}
	return prefix.String()
}
