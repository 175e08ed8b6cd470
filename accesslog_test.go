package main

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/northbeam/site/internal/sitetest"
)

// TestAccessLogIsWholeAfterShutdown: the access log is written in batches,
// off the request path, and a graceful stop writes what is left: once the
// process has exited, every request it answered has its line, with its id
// and a booking's token masked, though SIGTERM came right after the last
// answer.
func TestAccessLogIsWholeAfterShutdown(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the binary")
	}
	bin := buildSite(t)
	p := startSite(t, bin, append(siteEnv(t.TempDir()), "SHUTDOWN_DRAIN=0s"))
	c := newClient()
	c.addr.Store(&p.addr)
	const token = "Sup3rSecretBookingToken"
	paths := []string{sitetest.OtherAt(t, 1).LocalPath("/blog"), "/", sitetest.OtherAt(t, 2).LocalPath("/privacy"), "/nope", "/api/bookings/" + token + ".ics"}
	ids := map[string]string{} // id -> path
	for i := range 400 {
		path := paths[i%len(paths)]
		res, err := c.http.Get(c.url(path))
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		id := res.Header.Get("X-Request-Id")
		if id == "" || ids[id] != "" {
			t.Fatalf("%s: request id %q (seen for %q)", path, id, ids[id])
		}
		ids[id] = path
	}
	if err := p.stop(); err != nil {
		t.Fatalf("stop: %v\n%s", err, p.output())
	}
	logged := map[string]bool{}
	for _, line := range p.logged() {
		if strings.Contains(line, token) {
			t.Errorf("the log holds a booking's token: %s", line)
		}
		_, rest, ok := strings.Cut(line, " msg=request id=")
		if !ok {
			continue
		}
		id, _, _ := strings.Cut(rest, " ")
		path := ids[id]
		if path == "" {
			continue // /readyz, which startSite polls
		}
		if want := fmt.Sprintf(" method=%s path=%s ", http.MethodGet, strings.Replace(path, token, "{token}", 1)); !strings.Contains(line, want) {
			t.Errorf("line of %s lacks %q: %s", path, want, line)
		}
		logged[id] = true
	}
	if len(logged) != len(ids) {
		t.Errorf("%d of %d requests logged; the last lines:\n%s", len(logged), len(ids), p.output())
	}
}
