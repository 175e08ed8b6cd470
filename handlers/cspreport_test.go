package handlers

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/northbeam/site/internal/logtest"
	"github.com/northbeam/site/internal/sitetest"
)

// The bodies Chromium 156 sent for a page of http://127.0.0.1:36619 (an
// inline script and an image from another host), through report-uri and,
// over https, through the Reporting API.
const (
	chromiumReportURI = `{"csp-report":{"document-uri":"http://127.0.0.1:36619/page","referrer":"","violated-directive":"script-src-elem","effective-directive":"script-src-elem","original-policy":"default-src 'self'; script-src 'self'; report-uri /api/csp-report","disposition":"enforce","blocked-uri":"inline","line-number":1,"column-number":49,"source-file":"http://127.0.0.1:36619/page","status-code":200,"script-sample":""}}`
	chromiumReportTo  = `[{"age":98,"body":{"blockedURL":"https://evil.example/a/b?tok=1","columnNumber":110,"disposition":"enforce","documentURL":"https://127.0.0.1:35311/page","effectiveDirective":"img-src","lineNumber":1,"originalPolicy":"default-src 'self'; script-src 'self'; report-uri /api/csp-report; report-to csp","referrer":"","sample":"","sourceFile":"https://127.0.0.1:35311/page","statusCode":200},"type":"csp-violation","url":"https://127.0.0.1:35311/page","user_agent":"Mozilla/5.0 (X11; Linux x86_64) HeadlessChrome/156.0.0.0 Safari/537.36"}]`
)

// TestCSPReports accepts both shapes of report with 204 and logs each
// violation down to its directive, what was blocked (origin only), the
// page's path (masked, no query) and the source; it refuses what is not a
// report with a 4xx and logs nothing of it.
func TestCSPReports(t *testing.T) {
	cases := []struct {
		name, contentType, body string
		header                  []string
		status                  int
		logged                  []string // in the log line of the violation
		notLogged               []string
	}{
		{name: "report-uri, as Chromium sends it", contentType: "application/csp-report", body: chromiumReportURI,
			header: []string{"Origin", "http://example.com", "Sec-Fetch-Site", "same-origin"}, status: 204,
			logged: []string{`msg="csp violation"`, "directive=script-src-elem", "blocked=inline", "document=/page", "source=http://127.0.0.1:36619", "line=1", "disposition=enforce"}},
		{name: "Reporting API batch, as Chromium sends it", contentType: "application/reports+json", body: chromiumReportTo,
			header: []string{"Origin", "http://example.com"}, status: 204,
			logged:    []string{"directive=img-src", "blocked=https://evil.example ", "document=/page"},
			notLogged: []string{"tok=1", "/a/b", "HeadlessChrome"}},
		{name: "a token in the page's query and a sample", contentType: "application/csp-report",
			body:   `{"csp-report":{"document-uri":"https://example.test/fr/schedule/cancel?token=SECRETTOKEN","violated-directive":"script-src 'self'","blocked-uri":"eval","script-sample":"grace.private@example.org","referrer":"https://search.example/?q=grace"}}`,
			status: 204, logged: []string{"directive=script-src", "blocked=eval", "document=/fr/schedule/cancel"},
			notLogged: []string{"SECRETTOKEN", "grace", "search.example"}},
		{name: "the invite's address holds a token", contentType: "application/csp-report",
			body:   `{"csp-report":{"document-uri":"https://example.test/api/bookings/SECRETTOKEN.ics","effective-directive":"style-src-attr","blocked-uri":"data:text/css,x"}}`,
			status: 204, logged: []string{"document=/api/bookings/{token}.ics", "blocked=data"}, notLogged: []string{"SECRETTOKEN", "text/css"}},
		{name: "a directive that is not one", contentType: "application/csp-report",
			body:   `{"csp-report":{"document-uri":"https://example.test/","effective-directive":"img-src\n level=ERROR msg=forged","blocked-uri":"javascript:alert(1)"}}`,
			status: 204, logged: []string{"directive=other", "blocked=javascript "}, notLogged: []string{"forged", "alert"}},
		{name: "other reports in a batch are ignored", contentType: "application/reports+json",
			body:   `[{"type":"deprecation","body":{"id":"x","message":"grace.private"}}]`,
			status: 204, notLogged: []string{"csp violation", "grace"}},
		{name: "plain JSON", contentType: "application/json", body: chromiumReportURI, status: 204, logged: []string{"blocked=inline"}},
		{name: "another media type", contentType: "text/plain", body: chromiumReportURI, status: 415, notLogged: []string{"csp violation"}},
		{name: "no media type", body: chromiumReportURI, status: 415, notLogged: []string{"csp violation"}},
		{name: "not JSON", contentType: "application/csp-report", body: `{"csp-report":`, status: 400, notLogged: []string{"csp violation"}},
		{name: "no report in it", contentType: "application/csp-report", body: `{"other":{}}`, status: 400, notLogged: []string{"csp violation"}},
		{name: "beyond 64 KB", contentType: "application/reports+json", body: "[" + strings.Repeat(" ", 65<<10) + "]", status: 413, notLogged: []string{"csp violation"}},
		{name: "from another site", contentType: "application/csp-report", body: chromiumReportURI,
			header: []string{"Origin", "https://evil.test", "Sec-Fetch-Site", "cross-site"}, status: 403, notLogged: []string{"csp violation"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var logs logtest.Buffer
			h := New(NewServer(sitetest.Site(t), Services{Log: logs.Logger()}))
			rec := sitetest.Do(t, h, "POST", cspReportPath, tc.contentType, []byte(tc.body), tc.header...)
			if rec.Code != tc.status {
				t.Fatalf("status %d, want %d: %s", rec.Code, tc.status, rec.Body)
			}
			var line string
			for l := range strings.Lines(logs.String()) {
				if strings.Contains(l, "csp violation") {
					line = l
				}
			}
			for _, want := range tc.logged {
				if !strings.Contains(line, want) {
					t.Errorf("the violation's log line lacks %q:\n%s", want, logs.String())
				}
			}
			for _, bad := range tc.notLogged {
				if strings.Contains(logs.String(), bad) {
					t.Errorf("the log holds %q:\n%s", bad, logs.String())
				}
			}
		})
	}
}

// TestCSPReportRateLimit answers 429 once a client has sent its reports
// for the minute, logs no more of them, and lets other clients report.
func TestCSPReportRateLimit(t *testing.T) {
	var logs logtest.Buffer
	now := time.Date(2027, 6, 7, 5, 0, 0, 0, time.UTC)
	h := New(NewServer(sitetest.Site(t), Services{Log: logs.Logger(), Now: func() time.Time { return now }}))
	post := func(ip string) int {
		req := httptest.NewRequest("POST", cspReportPath, strings.NewReader(chromiumReportURI))
		req.Header.Set("Content-Type", "application/csp-report")
		req.RemoteAddr = ip + ":4000"
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec.Code
	}
	for i := range cspReportRate.Requests {
		if code := post("198.51.100.7"); code != http.StatusNoContent {
			t.Fatalf("report %d: %d", i+1, code)
		}
	}
	if code := post("198.51.100.7"); code != http.StatusTooManyRequests {
		t.Errorf("report %d of one client within the minute: %d, want 429", cspReportRate.Requests+1, code)
	}
	if n := strings.Count(logs.String(), "csp violation"); n != cspReportRate.Requests {
		t.Errorf("%d violations logged, want %d", n, cspReportRate.Requests)
	}
	if code := post("203.0.113.9"); code != http.StatusNoContent {
		t.Errorf("another client: %d, want 204", code)
	}
	now = now.Add(cspReportRate.Window)
	if code := post("198.51.100.7"); code != http.StatusNoContent {
		t.Errorf("the first client a window later: %d, want 204", code)
	}
}

// TestCSPReportBatchIsBounded logs at most cspReportsPerRequest violations
// of one batch, and says how many it left out.
func TestCSPReportBatchIsBounded(t *testing.T) {
	var logs logtest.Buffer
	h := New(NewServer(sitetest.Site(t), Services{Log: logs.Logger()}))
	one := strings.TrimSuffix(strings.TrimPrefix(chromiumReportTo, "["), "]")
	batch := "[" + strings.TrimSuffix(strings.Repeat(one+",", 50), ",") + "]"
	if rec := sitetest.Do(t, h, "POST", cspReportPath, "application/reports+json", []byte(batch)); rec.Code != http.StatusNoContent {
		t.Fatalf("status %d", rec.Code)
	}
	if n := strings.Count(logs.String(), `msg="csp violation"`); n != cspReportsPerRequest {
		t.Errorf("%d violations logged, want %d", n, cspReportsPerRequest)
	}
	if !strings.Contains(logs.String(), `msg="csp violations not logged"`) || !strings.Contains(logs.String(), "count=30") {
		t.Errorf("the 30 left out are not counted:\n%s", logs.String())
	}
}
