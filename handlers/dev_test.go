package handlers

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/northbeam/site/internal/sitetest"
)

// TestDevLoopTellsOpenPages: with -dev every page carries the dev client
// with its build's number, and the event stream tells an open page the
// build at once, then each new one: a stylesheet-only build keeps the
// scripts' number (the page swaps its stylesheets), any other moves it
// (the page reloads); problems travel with the state.
func TestDevLoopTellsOpenPages(t *testing.T) {
	s := sitetest.Site(t)
	srv := NewServer(s, Services{Log: sitetest.QuietLog()})
	srv.Dev = NewDevLoop(s)
	ts := httptest.NewServer(New(srv))
	defer ts.Close()
	defer srv.Drain()

	res := sitetest.Get(t, New(srv), "/team", "Accept-Encoding", "gzip, br")
	if body := res.Body.String(); !regexp.MustCompile(`<script src="/_dev/client.js" data-server="[0-9a-z]+" data-build="1" data-js="1"></script></head>`).MatchString(body) {
		t.Fatalf("the page carries no dev client before </head>:\n%s", body[:min(len(body), 2000)])
	}
	if res.Header().Get("Content-Encoding") != "" || res.Header().Get("ETag") != "" {
		t.Errorf("a dev page is sent as it is, without an ETag: %v", res.Header())
	}

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, ts.URL+"/_dev/events?path=/team", nil)
	stream, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer stream.Body.Close()
	if ct := stream.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("events: %s", ct)
	}
	lines := bufio.NewScanner(stream.Body)
	next := func() devState {
		t.Helper()
		for lines.Scan() {
			if data, ok := strings.CutPrefix(lines.Text(), "data: "); ok {
				var st devState
				if err := json.Unmarshal([]byte(data), &st); err != nil {
					t.Fatal(err)
				}
				return st
			}
		}
		t.Fatalf("the stream ended: %v", lines.Err())
		return devState{}
	}
	if st := next(); st.Build != 1 || st.JS != 1 || len(st.CSS) == 0 {
		t.Errorf("first state %+v", st)
	}
	if open := srv.Dev.OpenPages(); len(open) != 1 || open[0] != "/team" {
		t.Errorf("open pages %q", open)
	}
	srv.Dev.Built(s, true, nil)
	if st := next(); st.Build != 2 || st.JS != 1 {
		t.Errorf("after a stylesheet-only build: %+v, want build 2, scripts still 1", st)
	}
	srv.Dev.Failed([]DevProblem{{Kind: "build", Message: "Expected \">\"", File: "frontend/pages/Team.tsx", Line: 20, Column: 6}})
	if st := next(); len(st.Problems) != 1 || st.Problems[0].File != "frontend/pages/Team.tsx" {
		t.Errorf("after a failed build: %+v", st)
	}
	srv.Dev.Built(s, false, nil)
	if st := next(); st.Build != 3 || st.JS != 3 || len(st.Problems) != 0 {
		t.Errorf("after a build: %+v, want build 3 and scripts 3, no problem", st)
	}

	// What the loop finds beside the builds travels with the state too, each
	// once, until it is found no more.
	missing := DevProblem{Kind: "string", Message: `no string "footer.x" in en`, File: "frontend/components/Footer.tsx", Line: 16, Column: 16}
	typeErr := DevProblem{Kind: "type", Message: "Type 'string' is not assignable to type 'number'.", File: "frontend/pages/Team.tsx", Line: 3, Column: 7}
	srv.Dev.AddProblems("strings", []DevProblem{missing})
	if st := next(); st.Build != 3 || len(st.Problems) != 1 || st.Problems[0] != missing {
		t.Errorf("after a missing string: %+v", st)
	}
	srv.Dev.AddProblems("strings", []DevProblem{missing}) // told again: nothing new
	srv.Dev.SetProblems("types", []DevProblem{typeErr})
	if st := next(); len(st.Problems) != 2 || st.Problems[0] != missing || st.Problems[1] != typeErr {
		t.Errorf("after a type error: %+v, want the missing string and the type error", st)
	}
	srv.Dev.ClearProblems("strings")
	srv.Dev.SetProblems("types", nil)
	if st := next(); len(st.Problems) != 0 {
		t.Errorf("after the fixes: %+v, want no problem", st)
	}
}
