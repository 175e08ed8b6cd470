package ratelimit_test

import (
	"testing"
	"time"

	"github.com/northbeam/site/internal/ratelimit"
)

// TestParse reads the configuration's requests/window.
func TestParse(t *testing.T) {
	for in, want := range map[string]ratelimit.Limit{"": {}, "5/10m": {5, 10 * time.Minute}, " 100 / 1s": {100, time.Second}} {
		if got, err := ratelimit.Parse(in); err != nil || got != want {
			t.Errorf("Parse(%q) = %v, %v", in, got, err)
		}
	}
	for _, in := range []string{"5", "0/1m", "-1/1m", "5/0s", "x/1m", "5/ever"} {
		if _, err := ratelimit.Parse(in); err == nil {
			t.Errorf("Parse(%q) accepted", in)
		}
	}
}

// TestOr: an unset limit takes the endpoint's default, a set one stays.
func TestOr(t *testing.T) {
	def := ratelimit.Limit{Requests: 5, Window: time.Minute}
	set := ratelimit.Limit{Requests: 1, Window: time.Hour}
	for _, tc := range []struct{ l, want ratelimit.Limit }{
		{ratelimit.Limit{}, def}, {ratelimit.Limit{Requests: 3}, def}, {ratelimit.Limit{Window: time.Second}, def}, {set, set},
	} {
		if got := tc.l.Or(def); got != tc.want {
			t.Errorf("%v.Or(%v) = %v, want %v", tc.l, def, got, tc.want)
		}
	}
}
