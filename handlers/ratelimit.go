package handlers

import (
	"context"
	"math"
	"net/netip"
	"strconv"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/northbeam/site/internal/ratelimit"
	"github.com/northbeam/site/internal/store"
)

// RateLimit is how many requests one client may make in any window of
// time. The zero value takes the endpoint's default, from internal/config.
type RateLimit = ratelimit.Limit

// limiter counts requests per client: in memory for one process, or in the
// shared database (internal/ratelimit) when several instances serve the
// site from one PostgreSQL database.
type limiter interface {
	Allow(ctx context.Context, client string, now time.Time) (bool, time.Duration, error)
}

// newLimiter returns the limiter of one endpoint: shared through st when st
// is PostgreSQL, in memory otherwise.
func newLimiter(st *store.Store, bucket string, limit RateLimit) limiter {
	if st != nil && st.Backend() == store.Postgres {
		return ratelimit.NewShared(st, bucket, limit.Requests, limit.Window)
	}
	return newRateLimiter(limit)
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

// Allow is allow, as a [limiter]; counting in memory cannot fail.
func (l *rateLimiter) Allow(_ context.Context, client string, now time.Time) (bool, time.Duration, error) {
	ok, wait := l.allow(client, now)
	return ok, wait, nil
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

// throttled counts a request of c's client against l. When the client is
// over the limit it sets Retry-After (whole seconds, rounded up) and
// returns true: the caller answers 429. A shared limiter that cannot reach
// the database lets the request through: the request needs the database
// too, and is answered 503 by what follows.
func (srv *Server) throttled(c echo.Context, l limiter) bool {
	ok, wait, err := l.Allow(c.Request().Context(), clientKey(c.RealIP()), srv.Now())
	if err != nil {
		srv.log.Warn("rate limit not checked", "id", requestID(c), "err", err)
		return false
	}
	if ok {
		return false
	}
	c.Response().Header().Set("Retry-After", strconv.Itoa(max(1, int(math.Ceil(wait.Seconds())))))
	return true
}
