package handlers

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/evanw/esbuild/pkg/api"

	"github.com/northbeam/site/internal/assets"
	"github.com/northbeam/site/internal/contact"
	"github.com/northbeam/site/internal/sitetest"
	"github.com/northbeam/site/internal/staff"
	"github.com/northbeam/site/internal/store"
	"github.com/northbeam/site/render"
)

// BenchmarkStaffInbox measures the choice between rendering the staff
// pages on the server and in the browser (README, "Staff workspace"), on
// the workspace's largest page, an inbox of 50 messages:
//
//   - shell: the page as served, a document that loads the staff bundle;
//   - json: the inbox's data, which the browser renders;
//   - goja: the same list rendered to HTML by goja, from the same React
//     components (frontend/staff/render-bench.tsx), as a server render
//     would do on every request.
//
// go test ./handlers -run X -bench StaffInbox
func BenchmarkStaffInbox(b *testing.B) {
	env := newStaffEnv(b, store.SQLite, staffOptions{})
	ctx := context.Background()
	cookie := env.signIn(b, "ada@northbeam.test")
	for i := range 50 {
		r := contact.Record{
			Ref: fmt.Sprintf("%08d-0000-4000-8000-000000000000", i), CreatedAt: env.clock.Now().Add(-time.Duration(i) * time.Hour),
			Name: fmt.Sprintf("Visitor %d", i), Email: fmt.Sprintf("visitor%d@example.com", i), Lang: "fr",
			Message: "Bonjour, nous aimerions moderniser notre plateforme et migrer vers Kubernetes l'an prochain. Pouvez-vous nous aider ?",
		}
		if _, err := contact.Save(ctx, env.st, r, nil); err != nil {
			b.Fatal(err)
		}
	}
	get := func(b *testing.B, target string) []byte {
		rec := env.do(b, "GET", target, "", cookie)
		if rec.Code != http.StatusOK {
			b.Fatalf("%s: %d", target, rec.Code)
		}
		return rec.Body.Bytes()
	}
	data := get(b, "/staff/api/messages?folder=new")
	b.Run("shell", func(b *testing.B) {
		for b.Loop() {
			get(b, "/staff")
		}
	})
	b.Run("json", func(b *testing.B) {
		for b.Loop() {
			get(b, "/staff/api/messages?folder=new")
		}
		b.ReportMetric(float64(len(data)), "B-json")
	})

	cfg, err := assets.LoadConfig(filepath.Join(sitetest.Root(), "esbuild.config.mjs"))
	if err != nil {
		b.Fatal(err)
	}
	opts, err := cfg.ServerOptions(sitetest.Root())
	if err != nil {
		b.Fatal(err)
	}
	opts.EntryPoints = []string{"frontend/staff/render-bench.tsx"}
	opts.Outfile = "dist/staff-bench.js"
	res := api.Build(opts)
	if len(res.Errors) > 0 {
		b.Fatalf("building the render bench: %v", res.Errors)
	}
	engine, err := render.NewEngine(res.OutputFiles[0].Contents, render.Options{Runtimes: 1, Logger: sitetest.QuietLog()})
	if err != nil {
		b.Fatal(err)
	}
	var inbox staffMessages
	if err := json.Unmarshal(data, &inbox); err != nil {
		b.Fatal(err)
	}
	payload, _ := json.Marshal(map[string]any{
		"boot":     map[string]any{"lang": "en", "name": "Northbeam", "zone": "Europe/Berlin", "me": nil, "link": nil},
		"messages": inbox.Messages,
	})
	b.Run("goja", func(b *testing.B) {
		var html string
		for b.Loop() {
			if html, err = engine.Render(ctx, payload); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(len(html)), "B-html")
		b.ReportMetric(float64(len(res.OutputFiles[0].Contents)), "B-bundle")
	})
}

// BenchmarkStaffLinkRequest measures whether asking for a sign-in link
// tells, by its time, whether the address is a member's (issue 27, L1):
// the median answer for a member (µs-member) against an address nobody
// has (µs-stranger), on both engines. Each iteration asks for both, in
// turns, so that what one request leaves behind (the collector's work,
// the database's) weighs on both alike; the work a request queued is done
// and the machine given 2 ms before the next request, outside the time
// measured. The limits are lifted so that every request does its work.
//
// go test ./handlers -run X -bench StaffLinkRequest
func BenchmarkStaffLinkRequest(b *testing.B) {
	for _, backend := range []store.Backend{store.SQLite, store.Postgres} {
		b.Run(string(backend), func(b *testing.B) {
			unlimited := RateLimit{Requests: 1 << 30, Window: time.Minute}
			env := newStaffEnv(b, backend, staffOptions{signInRate: unlimited, linkRate: unlimited})
			if _, err := env.ws.Invite(context.Background(), "ada@northbeam.test", staff.ActorCommandLine); err != nil {
				b.Fatal(err)
			}
			ask := func(email string) time.Duration {
				req := httptest.NewRequest("POST", "/staff/api/sign-in/link", strings.NewReader(`{"email":"`+email+`"}`))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Sec-Fetch-Site", "same-origin")
				rec := httptest.NewRecorder()
				start := time.Now()
				env.h.ServeHTTP(rec, req) // the answer, as the asker times it
				took := time.Since(start)
				if rec.Code != http.StatusAccepted {
					b.Fatalf("%d %s", rec.Code, rec.Body)
				}
				env.ws.SettleSignInLinks()
				time.Sleep(2 * time.Millisecond)
				return took
			}
			var member, stranger []time.Duration
			turn := false
			for b.Loop() {
				turn = !turn
				if turn {
					member = append(member, ask("ada@northbeam.test"))
					stranger = append(stranger, ask("stranger@example.com"))
				} else {
					stranger = append(stranger, ask("stranger@example.com"))
					member = append(member, ask("ada@northbeam.test"))
				}
			}
			median := func(d []time.Duration) float64 {
				slices.Sort(d)
				return float64(d[len(d)/2].Microseconds())
			}
			b.ReportMetric(median(member), "µs-member")
			b.ReportMetric(median(stranger), "µs-stranger")
		})
	}
}
