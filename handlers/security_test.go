package handlers

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/labstack/echo/v4"
	"github.com/northbeam/site/internal/booking"
	"github.com/northbeam/site/internal/config"
	"github.com/northbeam/site/internal/contact"
	"github.com/northbeam/site/internal/logtest"
	"github.com/northbeam/site/internal/sitetest"
)

// wantSecurityHeaders are the headers every response carries, whatever
// its route and status.
var wantSecurityHeaders = map[string]string{
	"Content-Security-Policy":      cspBase,
	"Reporting-Endpoints":          cspReportEndpoint,
	"X-Content-Type-Options":       "nosniff",
	"Referrer-Policy":              "strict-origin-when-cross-origin",
	"Permissions-Policy":           permissionsPolicy,
	"Cross-Origin-Opener-Policy":   "same-origin",
	"Cross-Origin-Resource-Policy": "same-origin",
	"X-Frame-Options":              "DENY",
}

func checkSecurityHeaders(t *testing.T, name string, h http.Header, want map[string]string) {
	t.Helper()
	for k, v := range want {
		if got := h.Get(k); got != v {
			t.Errorf("%s: %s = %q, want %q", name, k, got, v)
		}
	}
}

// TestSecurityHeadersOnEveryResponse asserts each header on pages, assets,
// the API, redirects, errors and 404s.
func TestSecurityHeadersOnEveryResponse(t *testing.T) {
	s := sitetest.Site(t)
	h := testHandler(t)
	var asset string
	for name := range s.Bundle.Client {
		asset = "/assets/" + name
		break
	}
	cases := []struct {
		name, method, target string
		status               int
	}{
		{"home", "GET", "/", 200},
		{"page in another language", "GET", sitetest.OtherAt(t, 2).LocalPath("/services"), 200},
		{"blog", "GET", sitetest.OtherAt(t, 0).LocalPath("/blog"), 200},
		{"asset", "GET", asset, 200},
		{"page payload API", "GET", "/api/page?path=/de/schedule", 200},
		{"head of a page", "HEAD", sitetest.OtherAt(t, 1).Prefix, 200},
		{"redirect", "GET", "/en/services/", 301},
		{"404 page", "GET", sitetest.OtherAt(t, 0).LocalPath("/nowhere"), 404},
		{"404 asset", "GET", "/assets/nothing.js", 404},
		{"404 API", "GET", "/api/nothing", 404},
		{"API without its service", "GET", "/api/slots?service=discovery", 503},
		{"method not allowed", "DELETE", "/", 405},
		{"healthz", "GET", "/healthz", 200},
		{"robots", "GET", "/robots.txt", 200},
	}
	for _, tc := range cases {
		req := httptest.NewRequest(tc.method, tc.target, nil)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != tc.status {
			t.Errorf("%s: status %d, want %d", tc.name, rec.Code, tc.status)
		}
		checkSecurityHeaders(t, tc.name, rec.Header(), wantSecurityHeaders)
		if got := rec.Header().Get("Strict-Transport-Security"); got != "" {
			t.Errorf("%s: HSTS over plain http: %q", tc.name, got)
		}
	}
}

// TestContentSecurityPolicyWithAnalytics allows Google's hosts only when a
// measurement ID is configured, and never anything inline.
func TestContentSecurityPolicyWithAnalytics(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a second site")
	}
	h := New(NewServer(sitetest.ConsentSite(t, "G-TEST0001"), Services{Log: sitetest.QuietLog()}))
	rec := sitetest.Get(t, h, "/")
	csp := rec.Header().Get("Content-Security-Policy")
	if csp != cspAnalytics {
		t.Errorf("CSP with analytics = %q", csp)
	}
	for _, p := range []string{cspBase, cspAnalytics} {
		for _, bad := range []string{"'unsafe-inline'", "'unsafe-eval'", "*;", " * ", "http:"} {
			if strings.Contains(p, bad) {
				t.Errorf("policy %q contains %s", p, bad)
			}
		}
		for _, d := range []string{"default-src 'self'", "object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'", "form-action 'self'"} {
			if !strings.Contains(p, d) {
				t.Errorf("policy %q lacks %s", p, d)
			}
		}
	}
	if strings.Contains(cspBase, "google") {
		t.Errorf("the policy without analytics names Google: %s", cspBase)
	}
}

// TestStrictTransportSecurity is sent over TLS, over https behind a trusted
// proxy, always or never as configured.
func TestStrictTransportSecurity(t *testing.T) {
	s := sitetest.Site(t)
	cases := []struct {
		name       string
		svc        Services
		tls        bool
		forwarded  string
		wantHeader bool
	}{
		{"plain http", Services{}, false, "", false},
		{"TLS", Services{}, true, "", true},
		{"forwarded https, proxy not trusted", Services{}, false, "https", false},
		{"forwarded https, proxy trusted", Services{TrustProxy: true}, false, "https", true},
		{"forwarded http, proxy trusted", Services{TrustProxy: true}, false, "http", false},
		{"always", Services{HSTS: config.HSTSAlways}, false, "", true},
		{"off, even over TLS", Services{HSTS: config.HSTSOff}, true, "", false},
	}
	for _, tc := range cases {
		tc.svc.Log = sitetest.QuietLog()
		h := New(NewServer(s, tc.svc))
		req := httptest.NewRequest("GET", "/", nil)
		if tc.tls {
			req.TLS = &tls.ConnectionState{}
		}
		if tc.forwarded != "" {
			req.Header.Set("X-Forwarded-Proto", tc.forwarded)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		got := rec.Header().Get("Strict-Transport-Security")
		if tc.wantHeader && got != hstsValue || !tc.wantHeader && got != "" {
			t.Errorf("%s: Strict-Transport-Security = %q", tc.name, got)
		}
	}
}

// TestSecurityOriginCheck refuses cross-site posts with a localized 403
// before the handler runs, and lets same-origin browsers and non-browser
// clients (no Origin, no Sec-Fetch-Site) through.
func TestSecurityOriginCheck(t *testing.T) {
	s := sitetest.Site(t)
	cases := []struct {
		name    string
		header  []string
		refused bool
	}{
		{"no header (curl, a server)", nil, false},
		{"same-origin", []string{"Sec-Fetch-Site", "same-origin"}, false},
		{"typed by the user", []string{"Sec-Fetch-Site", "none"}, false},
		{"cross-site", []string{"Sec-Fetch-Site", "cross-site"}, true},
		{"same-site (a sibling subdomain)", []string{"Sec-Fetch-Site", "same-site"}, true},
		{"cross-site from another Origin", []string{"Sec-Fetch-Site", "cross-site", "Origin", "https://evil.test"}, true},
		// The public origin is ours even when the server answers under
		// another name (an apex domain redirected to www, say).
		{"cross-site from BASE_URL's origin", []string{"Sec-Fetch-Site", "cross-site", "Origin", "https://example.test"}, false},
		{"Origin of BASE_URL", []string{"Origin", "https://example.test"}, false},
		{"Origin of the request's host", []string{"Origin", "http://example.com"}, false},
		{"another Origin", []string{"Origin", "https://evil.test"}, true},
		{"null Origin", []string{"Origin", "null"}, true},
	}
	for _, tc := range cases {
		// A fresh environment each: the rate limit counts every post.
		env := newContactEnv(t, contactOptions{})
		header := append([]string{"Accept-Language", sitetest.OtherAt(t, 0).Code}, tc.header...)
		rec := env.post(t, echo.MIMEApplicationJSON, humanForm(sitetest.OtherAt(t, 0).Code).json(), header...)
		if tc.refused {
			if rec.Code != http.StatusForbidden {
				t.Errorf("%s: status %d, want 403", tc.name, rec.Code)
				continue
			}
			if e := decodeAPIError(t, rec); e.Code != "forbidden" || e.Message != s.Locales.T(sitetest.OtherAt(t, 0).Code, "errors.forbidden") {
				t.Errorf("%s: error %+v", tc.name, e)
			}
			if n := sitetest.Count(t, env.st, `SELECT count(*) FROM messages`); n != 0 {
				t.Errorf("%s: %d messages stored", tc.name, n)
			}
			checkSecurityHeaders(t, tc.name, rec.Header(), wantSecurityHeaders)
		} else if rec.Code != http.StatusCreated {
			t.Errorf("%s: status %d, want 201: %s", tc.name, rec.Code, rec.Body)
		}
	}
	// Reading is never refused, from wherever it comes.
	rec := sitetest.Get(t, testHandler(t), sitetest.OtherAt(t, 0).Prefix, "Sec-Fetch-Site", "cross-site", "Origin", "https://evil.test")
	if rec.Code != http.StatusOK {
		t.Errorf("cross-site GET: %d", rec.Code)
	}
}

// TestSecurityBodyLimits answers 413 beyond each endpoint's limit, and
// beyond the global backstop.
func TestSecurityBodyLimits(t *testing.T) {
	env := newContactEnv(t, contactOptions{})
	big := `{"name":"` + strings.Repeat("a", 300<<10) + `"}`
	if rec := env.post(t, echo.MIMEApplicationJSON, big); rec.Code != http.StatusRequestEntityTooLarge {
		t.Errorf("300 KB contact post: %d", rec.Code)
	}
	if rec := env.post(t, echo.MIMEApplicationJSON, `{"name":"`+strings.Repeat("a", 70<<10)+`"}`); rec.Code != http.StatusRequestEntityTooLarge {
		t.Errorf("70 KB contact post: %d", rec.Code)
	}
	benv := newBookingEnv(t, sitetest.BookingFixture, &monday7am)
	rec := sitetest.Do(t, benv.handler, "POST", "/api/bookings", "application/json", []byte(`{"topic":"`+strings.Repeat("x", 20<<10)+`"}`))
	if rec.Code != http.StatusRequestEntityTooLarge {
		t.Errorf("20 KB booking: %d", rec.Code)
	}
	// A route that reads no body is covered by the backstop.
	req := httptest.NewRequest("POST", "/api/bookings/cancel", strings.NewReader(strings.Repeat("x", 300<<10)))
	req.Header.Set("Content-Type", "application/json")
	rec = httptest.NewRecorder()
	benv.handler.ServeHTTP(rec, req)
	if rec.Code != http.StatusRequestEntityTooLarge {
		t.Errorf("300 KB cancellation: %d", rec.Code)
	}
}

// TestSecurityBookingRateLimit answers 429 with Retry-After and a
// localized error once a client has used its bookings, and counts clients
// by the connection's address, whatever X-Forwarded-For says.
func TestSecurityBookingRateLimit(t *testing.T) {
	s := sitetest.Site(t)
	env := newBookingEnv(t, sitetest.BookingFixture, &monday7am)
	h := New(NewServer(s, Services{
		Log: sitetest.QuietLog(), Store: env.store, Booking: env.service,
		BookingRate: RateLimit{Requests: 2, Window: time.Minute},
		SlotsRate:   RateLimit{Requests: 3, Window: time.Minute},
	}))
	for i, clock := range []string{"09:00", "10:00", "11:00"} {
		b := validBooking(t, clock, sitetest.OtherAt(t, 1).Code)
		rec := sitetest.Do(t, h, "POST", "/api/bookings", "application/json", []byte(bookingJSON(b)),
			"X-Forwarded-For", "203.0.113."+strconv.Itoa(i))
		if i < 2 {
			if rec.Code != http.StatusCreated {
				t.Fatalf("booking %d: %d %s", i, rec.Code, rec.Body)
			}
			continue
		}
		if rec.Code != http.StatusTooManyRequests {
			t.Fatalf("third booking: %d, want 429", rec.Code)
		}
		if ra, err := strconv.Atoi(rec.Header().Get("Retry-After")); err != nil || ra < 1 || ra > 60 {
			t.Errorf("Retry-After %q", rec.Header().Get("Retry-After"))
		}
		if e := decodeAPIError(t, rec); e.Code != "rate_limited" || e.Message != s.Locales.T(sitetest.OtherAt(t, 1).Code, "errors.rateLimited") {
			t.Errorf("429 body: %+v", e)
		}
	}
	var n int
	if err := env.store.QueryRowContext(context.Background(), `SELECT count(*) FROM bookings`).Scan(&n); err != nil || n != 2 {
		t.Errorf("%d bookings stored (%v), want 2", n, err)
	}
	for i := range 4 {
		rec := sitetest.Do(t, h, "GET", "/api/slots?service=discovery&from=2027-06-08&days=1&tz=Europe/Paris&lang=fr", "", nil)
		want := http.StatusOK
		if i == 3 {
			want = http.StatusTooManyRequests
		}
		if rec.Code != want || (want == 429 && rec.Header().Get("Retry-After") == "") {
			t.Errorf("slots query %d: %d (Retry-After %q), want %d", i, rec.Code, rec.Header().Get("Retry-After"), want)
		}
	}
}

// TestSecurityTrustedProxy counts clients by X-Forwarded-For only when the
// proxy in front is trusted.
func TestSecurityTrustedProxy(t *testing.T) {
	env := newBookingEnv(t, sitetest.BookingFixture, &monday7am)
	h := New(NewServer(sitetest.Site(t), Services{
		Log: sitetest.QuietLog(), Store: env.store, Booking: env.service, TrustProxy: true,
		SlotsRate: RateLimit{Requests: 1, Window: time.Minute},
	}))
	for i := range 3 {
		req := httptest.NewRequest("GET", "/api/slots?service=discovery&from=2027-06-08&days=1&tz=UTC", nil)
		req.RemoteAddr = "10.0.0.2:5555" // the proxy
		req.Header.Set("X-Forwarded-For", "198.51.100."+strconv.Itoa(i+1))
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			t.Errorf("visitor %d behind the proxy: %d", i, rec.Code)
		}
	}
}

// TestSecurityPanicIsALocalized500 turns a panic into the localized error
// page, or the API's JSON error, with no internals, the headers, and a log
// line carrying the request id.
func TestSecurityPanicIsALocalized500(t *testing.T) {
	s := sitetest.Site(t)
	var logs logtest.Buffer
	e := New(NewServer(s, Services{Log: slog.New(slog.NewJSONHandler(&logs, nil))}))
	boom := func(echo.Context) error { panic("secret internals: db password hunter2") }
	e.Echo.GET(sitetest.OtherAt(t, 0).LocalPath("/boom"), boom)
	e.Echo.GET("/api/boom", boom)

	rec := sitetest.Get(t, e, sitetest.OtherAt(t, 0).LocalPath("/boom"))
	body := rec.Body.String()
	if rec.Code != 500 || !strings.Contains(body, s.Locales.T(sitetest.OtherAt(t, 0).Code, "errors.server")) || !strings.Contains(body, `lang="`+sitetest.OtherAt(t, 0).Tag+`"`) {
		t.Errorf("page panic: %d %s", rec.Code, body)
	}
	for _, css := range s.Bundle.Manifest.CSS {
		if !strings.Contains(body, css) {
			t.Errorf("the error page lacks the stylesheet %s", css)
		}
	}
	if strings.Contains(body, "hunter2") || strings.Contains(body, "goroutine") || strings.Contains(body, "<script") {
		t.Errorf("page panic leaks: %s", body)
	}
	checkSecurityHeaders(t, "page panic", rec.Header(), wantSecurityHeaders)

	rec = sitetest.Get(t, e, "/api/boom", "Accept-Language", sitetest.OtherAt(t, 2).Code)
	var apiErr apiError
	if err := json.Unmarshal(rec.Body.Bytes(), &apiErr); err != nil || rec.Code != 500 ||
		apiErr.Error.Code != "server_error" || apiErr.Error.Message != s.Locales.T(sitetest.OtherAt(t, 2).Code, "errors.server") {
		t.Errorf("API panic: %d %s", rec.Code, rec.Body)
	}
	if strings.Contains(rec.Body.String(), "hunter2") {
		t.Errorf("API panic leaks: %s", rec.Body)
	}
	checkSecurityHeaders(t, "API panic", rec.Header(), wantSecurityHeaders)

	id := rec.Header().Get(echo.HeaderXRequestID)
	var sawPanic, sawRequest bool
	for line := range strings.Lines(logs.String()) {
		var entry map[string]any
		if err := json.Unmarshal([]byte(line), &entry); err != nil {
			t.Fatalf("log line is not structured: %q", line)
		}
		if entry["id"] != id {
			continue
		}
		sawPanic = sawPanic || entry["msg"] == "panic"
		sawRequest = sawRequest || entry["msg"] == "request" && entry["status"] == float64(500)
	}
	if id == "" || !sawPanic || !sawRequest {
		t.Errorf("logs of request %q: panic %v, request line with 500 %v:\n%s", id, sawPanic, sawRequest, logs.String())
	}
}

// TestSecurityLogsHoldNoVisitorData posts a message and a booking and
// finds nothing the visitor typed in the logs, but the request id.
func TestSecurityLogsHoldNoVisitorData(t *testing.T) {
	var logs logtest.Buffer
	log := slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	env := newContactEnv(t, contactOptions{log: log})
	form := humanForm(sitetest.Default(t).Code).with("name", "Grace Hopperina", "email", "grace.private@example.org", "message", "Our secret merger plans need a platform.")
	if rec := env.post(t, echo.MIMEApplicationJSON, form.json()); rec.Code != http.StatusCreated {
		t.Fatalf("contact: %d %s", rec.Code, rec.Body)
	}
	if rec := env.post(t, echo.MIMEApplicationForm, form.with("email", "not-an-address").form()); rec.Code != http.StatusUnprocessableEntity {
		t.Fatalf("invalid contact: %d", rec.Code)
	}
	benv := newBookingEnv(t, sitetest.BookingFixture, &monday7am)
	bh := New(NewServer(sitetest.Site(t), Services{Log: log, Store: benv.store, Booking: benv.service}))
	b := validBooking(t, "10:00", sitetest.OtherAt(t, 0).Code)
	b["name"], b["email"], b["topic"] = "Grace Hopperina", "grace.private@example.org", "Our secret merger plans"
	rec := sitetest.Do(t, bh, "POST", "/api/bookings", "application/json", []byte(bookingJSON(b)))
	if rec.Code != http.StatusCreated {
		t.Fatalf("booking: %d %s", rec.Code, rec.Body)
	}
	var created bookingCreated
	_ = json.Unmarshal(rec.Body.Bytes(), &created)
	sitetest.Do(t, bh, "GET", created.Booking.ICS, "", nil)

	out := logs.String()
	for _, secret := range []string{"Hopperina", "grace.private", "example.org", "merger", created.Booking.Token} {
		if strings.Contains(out, secret) {
			t.Errorf("the logs hold %q:\n%s", secret, out)
		}
	}
	if !strings.Contains(out, `"id":"`) {
		t.Errorf("no request id in the logs:\n%s", out)
	}
}

// TestSecurityRedirectsStayOnTheSite: the canonical 301 never leaves the
// site, and what the path holds is escaped back, so it keeps its meaning.
func TestSecurityRedirectsStayOnTheSite(t *testing.T) {
	h := testHandler(t)
	base, _ := url.Parse("http://example.com/")
	for _, target := range sitetest.OffSiteRedirects() {
		rec := sitetest.Get(t, h, target)
		loc := rec.Header().Get("Location")
		if rec.Code != http.StatusMovedPermanently && rec.Code != http.StatusNotFound {
			t.Errorf("%s: status %d", target, rec.Code)
		}
		if loc == "" {
			continue
		}
		// As a browser reads it: a backslash is a slash, tabs and line
		// breaks are dropped.
		browserLoc := strings.NewReplacer("\\", "/", "\t", "", "\n", "", "\r", "").Replace(loc)
		u, err := base.Parse(browserLoc)
		if err != nil || u.Host != base.Host || !strings.HasPrefix(loc, "/") || strings.HasPrefix(loc, "//") ||
			strings.ContainsFunc(loc, func(r rune) bool { return r <= ' ' || r == '\\' || r >= 0x7f }) {
			t.Errorf("%s: Location %q leaves the site (%v)", target, loc, u)
		}
	}
	for from, to := range map[string]string{
		"//evil.com/":      "/evil.com",
		"/%2F%5Cevil.com/": "/%5Cevil.com",
		"/%09/evil.com/":   "/%09/evil.com",
		"/foo%3F/":         "/foo%3F",
		"/x%23y/":          "/x%23y",
		sitetest.OtherAt(t, 0).Prefix + "/caf%C3%A9/": sitetest.OtherAt(t, 0).Prefix + "/caf%C3%A9",
		sitetest.OtherAt(t, 0).LocalPath("//blog/"):   sitetest.OtherAt(t, 0).LocalPath("/blog"),
		"//evil.com/?next=/":                          "/evil.com?next=/",
		"/100%25/":                                    "/100%25",
	} {
		rec := sitetest.Get(t, h, from)
		if rec.Code != http.StatusMovedPermanently || rec.Header().Get("Location") != to {
			t.Errorf("%s: %d to %q, want 301 to %q", from, rec.Code, rec.Header().Get("Location"), to)
		}
		if cc := rec.Header().Get("Cache-Control"); cc != redirectCacheControl {
			t.Errorf("%s: Cache-Control %q, want %q", from, cc, redirectCacheControl)
		}
	}
}

// TestSecurityETagPerEncoding: a page's identity, gzip and brotli bodies
// have an ETag each; a client never gets a 304 for a body it did not have.
func TestSecurityETagPerEncoding(t *testing.T) {
	h := testHandler(t)
	tags := map[string]string{}
	for _, enc := range []string{"", "gzip", "br"} {
		rec := sitetest.Get(t, h, sitetest.OtherAt(t, 0).LocalPath("/schedule"), "Accept-Encoding", enc)
		if rec.Code != http.StatusOK || rec.Header().Get("Content-Encoding") != enc || rec.Header().Get("Vary") != "Accept-Encoding" {
			t.Fatalf("%q: %d, encoding %q, Vary %q", enc, rec.Code, rec.Header().Get("Content-Encoding"), rec.Header().Get("Vary"))
		}
		tags[enc] = rec.Header().Get("ETag")
	}
	if tags[""] == tags["gzip"] || tags[""] == tags["br"] || tags["gzip"] == tags["br"] {
		t.Fatalf("encodings share an ETag: %q", tags)
	}
	for enc, tag := range tags {
		for other := range tags {
			rec := sitetest.Get(t, h, sitetest.OtherAt(t, 0).LocalPath("/schedule"), "Accept-Encoding", other, "If-None-Match", tag)
			if want := map[bool]int{true: 304, false: 200}[other == enc]; rec.Code != want {
				t.Errorf("the %q ETag on a %q request: %d, want %d", enc, other, rec.Code, want)
			}
		}
	}
}

// TestSecurityErrorBodies: a 405 says what it is (under /api, as JSON
// with Allow, for a path the API serves with other methods), an unknown
// API path answers the API's JSON 404 whatever the method, and /api/page
// echoes nothing it was given.
func TestSecurityErrorBodies(t *testing.T) {
	s := sitetest.Site(t)
	h := testHandler(t)
	do := func(method, target string, header ...string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(method, target, nil)
		for i := 0; i+1 < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec
	}
	// A path the API serves, with another method: 405, JSON, and Allow.
	for _, tc := range []struct{ method, target, allow string }{
		{http.MethodGet, "/api/contact", "POST"},
		{http.MethodDelete, "/api/contact", "POST"},
		{http.MethodPost, "/api/slots", "GET"},
		{http.MethodPut, "/api/bookings/cancel", "GET, POST"},
		{http.MethodPost, "/api/bookings/abc.ics", "GET"},
		{http.MethodPost, "/api/page", "GET"},
	} {
		rec := do(tc.method, tc.target, "Accept-Language", sitetest.OtherAt(t, 1).Code)
		e := decodeAPIError(t, rec)
		if rec.Code != 405 || e.Code != "method_not_allowed" || e.Message != s.Locales.T(sitetest.OtherAt(t, 1).Code, "errors.methodNotAllowed") || rec.Header().Get("Allow") != tc.allow {
			t.Errorf("%s %s: %d %+v, Allow %q, want 405 and Allow %q", tc.method, tc.target, rec.Code, e, rec.Header().Get("Allow"), tc.allow)
		}
	}
	// A path it does not serve, whatever the method: 404, JSON.
	for _, method := range []string{http.MethodGet, http.MethodHead, http.MethodPost, http.MethodDelete, http.MethodPut} {
		for _, target := range []string{"/api/nope", "/api", "/api/", "/api/page/x", "/api/contact/x"} {
			rec := do(method, target, "Accept-Language", sitetest.OtherAt(t, 2).Code)
			if rec.Code != 404 || !strings.HasPrefix(rec.Header().Get("Content-Type"), "application/json") {
				t.Errorf("%s %s: %d %q, want a JSON 404", method, target, rec.Code, rec.Header().Get("Content-Type"))
				continue
			}
			if method != http.MethodHead {
				if e := decodeAPIError(t, rec); e.Code != "not_found" || e.Message != s.Locales.T(sitetest.OtherAt(t, 2).Code, "errors.notFound") {
					t.Errorf("%s %s: %+v", method, target, e)
				}
			}
			checkSecurityHeaders(t, target, rec.Header(), wantSecurityHeaders)
		}
	}
	// HEAD of what GET serves is answered as GET is.
	if rec := do(http.MethodHead, "/api/page?path=/fr"); rec.Code != 200 {
		t.Errorf("HEAD /api/page: %d", rec.Code)
	}
	rec := do(http.MethodDelete, sitetest.OtherAt(t, 0).LocalPath("/blog"), "Accept-Language", sitetest.OtherAt(t, 0).Code)
	if rec.Code != 405 || rec.Body.String() != s.Locales.T(sitetest.OtherAt(t, 0).Code, "errors.methodNotAllowed")+"\n" || rec.Header().Get("Allow") == "" {
		t.Errorf("DELETE /fr/blog: %d %q, Allow %q", rec.Code, rec.Body, rec.Header().Get("Allow"))
	}

	long := sitetest.OtherAt(t, 0).Prefix + "/" + strings.Repeat("echoed-", 15000) // 100 KB
	rec = sitetest.Get(t, h, "/api/page?path="+url.QueryEscape(long))
	if rec.Code != 404 || strings.Contains(rec.Body.String(), "echoed") || rec.Body.Len() > 4<<10 {
		t.Errorf("/api/page with a 100 KB path: %d, %d bytes: %.200s", rec.Code, rec.Body.Len(), rec.Body)
	}
	var payload struct {
		Page, Lang string
		Status     int
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &payload); err != nil || payload.Page != "NotFound" || payload.Lang != sitetest.OtherAt(t, 0).Code || payload.Status != 404 {
		t.Errorf("/api/page with an unknown path: %+v %v", payload, err)
	}
}

// TestSecurityLogsMaskBookingTokens: however the invite's address is
// written, the booking's token never reaches a log line.
func TestSecurityLogsMaskBookingTokens(t *testing.T) {
	var logs logtest.Buffer
	log := slog.New(slog.NewJSONHandler(&logs, nil))
	benv := newBookingEnv(t, sitetest.BookingFixture, &monday7am)
	h := New(NewServer(sitetest.Site(t), Services{Log: log, Store: benv.store, Booking: benv.service}))
	token := bookSlot(t, benv, validBooking(t, "10:00", sitetest.Default(t).Code)).Token
	for _, p := range []string{
		"/api/bookings/" + token + ".ics", "/api/bookings/" + token + ".ICS", "/api/bookings/" + token,
		"/api/bookings/" + token + ".ics/", "/api/bookings/" + token + "/cancel", "/api/bookings/x." + token,
		"/api/bookings//" + token + ".Ics",
		// Near misses: another case, a token written into the path.
		"/API/BOOKINGS/" + token + ".ics", "/Api/Bookings/" + token, "//api//bookings/" + token,
		"/schedule/cancel;token=" + token, sitetest.OtherAt(t, 0).Prefix + "/schedule/reschedule;TOKEN=" + token + ";x=1",
		"/staff/link;token=" + token, "/staff/enrol;Token=" + token,
	} {
		sitetest.Get(t, h, p)
	}
	if out := logs.String(); strings.Contains(out, token) || !strings.Contains(out, `"path":"/api/bookings/{token}.ics"`) {
		t.Errorf("the logs hold the token %s, or no masked path:\n%s", token, out)
	}
	for in, want := range map[string]string{
		"/api/bookings/abc.ics":      "/api/bookings/{token}.ics",
		"/api/bookings/abc.ICS":      "/api/bookings/{token}.ics",
		"/api/bookings/abc":          "/api/bookings/{token}",
		"/api/bookings/abc.ics/":     "/api/bookings/{token}.ics/",
		"/api/bookings/cancel":       "/api/bookings/cancel",
		"/api/bookings/abc/cancel":   "/api/bookings/{token}/cancel",
		"/api/bookings/.ics":         "/api/bookings/{token}",
		"/api/slots":                 "/api/slots",
		"/API/BOOKINGS/abc.ics":      "/API/BOOKINGS/{token}.ics",
		"/api//bookings/abc":         "/api//bookings/{token}",
		"/schedule/cancel;token=abc": "/schedule/cancel;token={token}",
		sitetest.OtherAt(t, 1).Prefix + "/schedule/cancel;TOKEN=abc;a=b": sitetest.OtherAt(t, 1).Prefix + "/schedule/cancel;TOKEN={token};a=b",
		"/staff/enrol;token=abc&token=def":                               "/staff/enrol;token={token}&token={token}",
		"/blog/bookings/abc":                                             "/blog/bookings/abc",
		sitetest.OtherAt(t, 0).LocalPath("/blog"):                        sitetest.OtherAt(t, 0).LocalPath("/blog"),
	} {
		if got := logPath(in); got != want {
			t.Errorf("logPath(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestSecurityRequestIDs: the server makes every request's id; it takes
// one only from a trusted proxy, and only a short, plain one.
func TestSecurityRequestIDs(t *testing.T) {
	var logs logtest.Buffer
	s := sitetest.Site(t)
	send := func(svc Services, remote, id string) string {
		svc.Log = slog.New(slog.NewJSONHandler(&logs, nil))
		req := httptest.NewRequest("GET", sitetest.OtherAt(t, 0).Prefix, nil)
		req.RemoteAddr = remote
		if id != "" {
			req.Header.Set(echo.HeaderXRequestID, id)
		}
		rec := httptest.NewRecorder()
		New(NewServer(s, svc)).ServeHTTP(rec, req)
		return rec.Header().Get(echo.HeaderXRequestID)
	}
	huge := strings.Repeat("A", 50<<10)
	direct, proxied := Services{}, Services{TrustProxy: true}
	seen := map[string]bool{}
	for _, tc := range []struct {
		name         string
		svc          Services
		remote, sent string
		kept         bool
	}{
		{"none sent", direct, "203.0.113.9:4000", "", false},
		{"50 KB from a client", direct, "203.0.113.9:4000", huge, false},
		{"a plain id from a client", direct, "203.0.113.9:4000", "abc-123", false},
		{"a plain id from a client, proxies trusted", proxied, "203.0.113.9:4000", "abc-123", false},
		{"50 KB from a trusted proxy", proxied, "10.0.0.2:4000", huge, false},
		{"a line break from a trusted proxy", proxied, "10.0.0.2:4000", "abc\ndef", false},
		{"spaces from a trusted proxy", proxied, "127.0.0.1:4000", "verify at evil.example", false},
		{"nginx's id from a trusted proxy", proxied, "127.0.0.1:4000", "9f3c2b1a0d4e5f60718293a4b5c6d7e8", true},
		{"a UUID from a trusted proxy", proxied, "[fd00::2]:4000", "6ba7b810-9dad-11d1-80b4-00c04fd430c8", true},
	} {
		got := send(tc.svc, tc.remote, tc.sent)
		if tc.kept != (got == tc.sent) {
			t.Errorf("%s: id %.80q", tc.name, got)
		}
		if !plainRequestID(got) {
			t.Errorf("%s: answered id %.80q is not plain", tc.name, got)
		}
		if !tc.kept {
			if seen[got] {
				t.Errorf("%s: id %q was made before", tc.name, got)
			}
			seen[got] = true
		}
	}
	if out := logs.String(); strings.Contains(out, "AAAAAAAAAA") || strings.Contains(out, "evil.example") {
		t.Errorf("a client's id reached the log: %.300s", out)
	}
}

// TestSecurityInvisibleCharactersNeverReachMail: the format characters
// that reorder or hide text (U+202E and its kin) are removed from one-line
// fields before they reach the consultancy's subjects and the invite's CN.
func TestSecurityInvisibleCharactersNeverReachMail(t *testing.T) {
	invisible := func(s string) bool {
		return strings.ContainsFunc(s, func(r rune) bool { return unicode.Is(unicode.Cf, r) || r == '\u2028' || r == '\u2029' })
	}
	benv := newBookingEnv(t, sitetest.BookingFixture, &monday7am)
	req := validBooking(t, "10:00", sitetest.OtherAt(t, 0).Code)
	req["name"], req["company"], req["topic"] = "Amira\u202e lirpa", "\u2066Haddad\u2069 Logistics\u200b", "Une ligne\u2028une autre"
	bookSlot(t, benv, req)
	var subject string
	var invite []byte
	err := benv.store.DB().QueryRow(`SELECT o.subject, a.data FROM outbox o JOIN outbox_attachments a ON a.outbox_id = o.id WHERE o.kind = ?`,
		booking.KindNotify).Scan(&subject, &invite)
	if err != nil {
		t.Fatal(err)
	}
	unfolded := strings.ReplaceAll(string(invite), "\r\n ", "")
	if invisible(subject) || invisible(unfolded) || !strings.Contains(subject, "Amira lirpa") ||
		!strings.Contains(unfolded, `CN="Amira lirpa"`) || !strings.Contains(unfolded, `> Une ligne\n> une autre`) {
		t.Errorf("notification %q, invite:\n%s", subject, unfolded)
	}
	rec := sitetest.PostJSON(t, benv.handler, "/api/bookings", map[string]string{
		"service": "discovery", "start": tuesdayAt(t, "11:00").Format(time.RFC3339), "name": "Amira\u2028Bcc: eve@evil.example",
		"email": "amira@example.com", "timeZone": "Europe/Paris", "lang": sitetest.OtherAt(t, 1).Code,
	})
	if e := decodeAPIError(t, rec); rec.Code != 422 || e.Fields["name"] != sitetest.Site(t).Locales.T(sitetest.OtherAt(t, 1).Code, booking.KeyName) {
		t.Errorf("a name with a line separator: %d %+v", rec.Code, e)
	}

	env := newContactEnv(t, contactOptions{})
	if rec := env.post(t, echo.MIMEApplicationJSON, humanForm(sitetest.Default(t).Code).with("name", "Ada\u202e\u200fecalevoL").json()); rec.Code != http.StatusCreated {
		t.Fatalf("contact: %d %s", rec.Code, rec.Body)
	}
	var name string
	if err := env.st.DB().QueryRow(`SELECT subject FROM outbox WHERE kind = ?`, contact.KindNotify).Scan(&subject); err != nil {
		t.Fatal(err)
	}
	if err := env.st.DB().QueryRow(`SELECT name FROM messages`).Scan(&name); err != nil {
		t.Fatal(err)
	}
	if subject != "New contact message from AdaecalevoL" || name != "AdaecalevoL" {
		t.Errorf("subject %q, stored name %q", subject, name)
	}
}
