package ratelimit

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Limit is how many requests one client may make in any window of time.
// The zero value is unset: it takes the default of the endpoint that uses
// it (see [Limit.Or]).
type Limit struct {
	Requests int
	Window   time.Duration
}

// Or returns l, or def when l is not set.
func (l Limit) Or(def Limit) Limit {
	if l.Requests <= 0 || l.Window <= 0 {
		return def
	}
	return l
}

// Parse reads a limit written as "requests/window", such as "5/10m"; ""
// is the zero Limit.
func Parse(s string) (Limit, error) {
	if s == "" {
		return Limit{}, nil
	}
	n, w, ok := strings.Cut(s, "/")
	requests, err := strconv.Atoi(strings.TrimSpace(n))
	if !ok || err != nil || requests <= 0 {
		return Limit{}, fmt.Errorf("rate limit %q: want requests/window, such as 5/10m", s)
	}
	window, err := time.ParseDuration(strings.TrimSpace(w))
	if err != nil || window <= 0 {
		return Limit{}, fmt.Errorf("rate limit %q: want requests/window, such as 5/10m", s)
	}
	return Limit{Requests: requests, Window: window}, nil
}
