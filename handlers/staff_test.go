package handlers

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/text/feature/plural"
	"golang.org/x/text/language"

	"github.com/northbeam/site/internal/booking"
	"github.com/northbeam/site/internal/contact"
	"github.com/northbeam/site/internal/mail"
	"github.com/northbeam/site/internal/mail/mailtest"
	"github.com/northbeam/site/internal/sitetest"
	"github.com/northbeam/site/internal/staff"
	"github.com/northbeam/site/internal/store"
	"github.com/northbeam/site/internal/store/storetest"
)

// staffEnv is the whole site with a staff workspace on a fresh database,
// its clock in the test's hands.
type staffEnv struct {
	h     http.Handler
	st    *store.Store
	ws    *staff.Workspace
	clock *sitetest.Clock
}

type staffOptions struct {
	signInRate, linkRate RateLimit
	baseURL              string // default the test site's, https://example.test
}

func newStaffEnv(t testing.TB, backend store.Backend, opts staffOptions) *staffEnv {
	t.Helper()
	if opts.baseURL == "" {
		opts.baseURL = "https://example.test"
	}
	st := storetest.Open(t, backend)
	clock := sitetest.NewClock(time.Date(2027, 6, 7, 8, 0, 0, 0, time.UTC))
	ws := sitetest.StaffWorkspace(t, st, opts.baseURL, clock.Now)
	srv := NewServer(sitetest.Site(t), Services{
		Log: sitetest.QuietLog(), Store: st, Staff: ws, Now: clock.Now,
		StaffSignInRate: opts.signInRate, StaffLinkRate: opts.linkRate,
	})
	return &staffEnv{h: New(srv), st: st, ws: ws, clock: clock}
}

// staffSession is the name of the session cookie over https.
const staffSession = "__Host-nb_staff"

// do sends a request as the workspace's own page would (same origin), with
// the cookies given as name=value pairs.
func (env *staffEnv) do(t testing.TB, method, target, body string, cookies ...string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(method, target, strings.NewReader(body))
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if method != http.MethodGet && method != http.MethodHead {
		req.Header.Set("Sec-Fetch-Site", "same-origin")
	}
	for _, ck := range cookies {
		req.Header.Add("Cookie", ck)
	}
	rec := httptest.NewRecorder()
	env.h.ServeHTTP(rec, req)
	env.ws.SettleSignInLinks() // a requested link is in the outbox once answered
	return rec
}

// setCookie returns the value a response sets for cookie name, and its
// attributes.
func setCookie(rec *httptest.ResponseRecorder, name string) (*http.Cookie, bool) {
	for _, c := range rec.Result().Cookies() {
		if c.Name == name {
			return c, true
		}
	}
	return nil, false
}

// signIn gives email access and signs in through a mailed link, as a
// member does, and returns the session cookie ("name=value").
func (env *staffEnv) signIn(t testing.TB, email string, cookies ...string) string {
	t.Helper()
	if _, err := env.ws.Invite(context.Background(), email, staff.ActorCommandLine); err != nil {
		t.Fatal(err)
	}
	if rec := env.do(t, "POST", "/staff/api/sign-in/link", `{"email":"`+email+`"}`); rec.Code != http.StatusAccepted {
		t.Fatalf("asking for a link: %d %s", rec.Code, rec.Body)
	}
	rec := env.do(t, "POST", "/staff/api/sign-in/link/use", `{"token":"`+sitetest.MailedSignInToken(t, env.st)+`"}`, cookies...)
	if rec.Code != http.StatusOK {
		t.Fatalf("using the link: %d %s", rec.Code, rec.Body)
	}
	ck, ok := setCookie(rec, staffSession)
	if !ok {
		t.Fatalf("no session cookie: %v", rec.Header())
	}
	return staffSession + "=" + ck.Value
}

// staffURLs are every URL of the workspace, with a method.
var staffURLs = []struct{ method, target string }{
	{"GET", "/staff"},
	{"GET", "/staff/messages/0b0e1c3e-0000-4000-8000-000000000000"},
	{"GET", "/staff/bookings"},
	{"GET", "/staff/bookings/1"},
	{"GET", "/staff/bookings/new"},
	{"GET", "/staff/mail"},
	{"GET", "/staff/exports"},
	{"GET", "/staff/privacy"},
	{"GET", "/staff/audit"},
	{"GET", "/staff/account"},
	{"GET", "/staff/nowhere/at/all"},
	{"GET", "/staff/api/me"},
	{"POST", "/staff/api/me/language"},
	{"POST", "/staff/api/sign-out"},
	{"POST", "/staff/api/sign-out-everywhere"},
	{"DELETE", "/staff/api/passkeys/1"},
	{"POST", "/staff/api/passkeys/1/name"},
	{"DELETE", "/staff/api/sessions/1"},
	{"GET", "/staff/api/messages"},
	{"GET", "/staff/api/messages/x"},
	{"POST", "/staff/api/messages/x/handled"},
	{"POST", "/staff/api/messages/x/not-spam"},
	{"POST", "/staff/api/messages/x/spam"},
	{"GET", "/staff/api/bookings"},
	{"GET", "/staff/api/bookings/1"},
	{"POST", "/staff/api/bookings/1/cancel"},
	{"POST", "/staff/api/bookings"},
	{"POST", "/staff/api/bookings/1/move"},
	{"POST", "/staff/api/bookings/1/no-show"},
	{"GET", "/staff/api/bookings/1/notes"},
	{"POST", "/staff/api/bookings/1/notes"},
	{"GET", "/staff/api/messages/x/notes"},
	{"POST", "/staff/api/messages/x/notes"},
	{"POST", "/staff/api/messages/x/read"},
	{"GET", "/staff/api/counts"},
	{"GET", "/staff/api/week"},
	{"GET", "/staff/api/hosts"},
	{"POST", "/staff/api/bookings/1/hand-over"},
	{"GET", "/staff/api/me/feeds"},
	{"POST", "/staff/api/me/feeds"},
	{"DELETE", "/staff/api/me/feeds/1"},
	{"POST", "/staff/api/me/calendar"},
	{"DELETE", "/staff/api/me/calendar"},
	{"GET", "/staff/api/mail"},
	{"GET", "/staff/api/mail/x"},
	{"POST", "/staff/api/mail/x/retry"},
	{"GET", "/staff/api/audit"},
	{"POST", "/staff/api/privacy/search"},
	{"POST", "/staff/api/privacy/erase"},
	{"GET", "/staff/api/nothing"},
	{"GET", "/staff/export/messages.csv"},
	{"GET", "/staff/export/bookings.csv?from=2027-01-01&to=2027-12-31"},
	{"POST", "/staff/export/person.json"},
	{"GET", "/staff/export/nothing.csv"},
}

// Every staff URL, signed out: a page redirects to the sign-in (and back
// afterwards), the API and the exports answer 401; all of it kept out of
// caches and search engines. A forged or stale cookie is no session.
func TestStaffSignedOut(t *testing.T) {
	forEachBackend(t, func(t *testing.T, backend store.Backend) {
		env := newStaffEnv(t, backend, staffOptions{})
		for _, cookie := range []string{"", staffSession + "=" + strings.Repeat("A", 43), staffSession + "=forged"} {
			for _, u := range staffURLs {
				var cookies []string
				if cookie != "" {
					cookies = append(cookies, cookie)
				}
				rec := env.do(t, u.method, u.target, "{}", cookies...)
				name := u.method + " " + u.target
				if strings.HasPrefix(u.target, "/staff/api/") || strings.HasPrefix(u.target, "/staff/export/") {
					if rec.Code != http.StatusUnauthorized {
						t.Errorf("%s: %d, want 401", name, rec.Code)
					}
					if e := decodeAPIError(t, rec); e.Code != "signed_out" || e.Message == "" {
						t.Errorf("%s: error %+v", name, e)
					}
				} else {
					if rec.Code != http.StatusSeeOther || !strings.HasPrefix(rec.Header().Get("Location"), "/staff/sign-in?next=%2Fstaff") {
						t.Errorf("%s: %d to %q, want 303 to the sign-in page", name, rec.Code, rec.Header().Get("Location"))
					}
				}
				checkStaffHeaders(t, name, rec.Header())
			}
		}
		// The pages that open without a session.
		for _, target := range []string{"/staff/sign-in", "/staff/sign-in?lang=ar"} {
			rec := env.do(t, "GET", target, "")
			if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `id="staff-data"`) {
				t.Errorf("%s: %d", target, rec.Code)
			}
			checkStaffHeaders(t, target, rec.Header())
		}
		rtl := sitetest.RightToLeft(t)
		if body := env.do(t, "GET", "/staff/sign-in?lang="+rtl.Code, "").Body.String(); !strings.Contains(body, `<html lang="`+rtl.Tag+`" dir="rtl">`) {
			t.Errorf("the sign-in page in %s is not right to left:\n%s", rtl.Code, body)
		}
	})
}

// checkStaffHeaders asserts what every answer under /staff carries.
func checkStaffHeaders(t *testing.T, name string, h http.Header) {
	t.Helper()
	if got := h.Get("Cache-Control"); got != "no-store" {
		t.Errorf("%s: Cache-Control %q, want no-store", name, got)
	}
	if got := h.Get("X-Robots-Tag"); !strings.Contains(got, "noindex") {
		t.Errorf("%s: X-Robots-Tag %q", name, got)
	}
	if csp := h.Get("Content-Security-Policy"); strings.Contains(csp, "google") || csp == "" {
		t.Errorf("%s: CSP %q", name, csp)
	}
}

// The workspace is no part of the public site: absent from the sitemap,
// its pages load none of the visitors' scripts (no consent banner, no
// analytics), and a visitor's first load gains no byte of the workspace.
func TestStaffStaysOutOfThePublicSite(t *testing.T) {
	s := sitetest.Site(t)
	h := testHandler(t)
	if body := sitetest.Get(t, h, "/sitemap.xml").Body.String(); strings.Contains(body, "/staff") {
		t.Error("the sitemap lists the workspace")
	}
	m := s.Bundle.Manifest
	page := sitetest.Get(t, h, "/staff/sign-in").Body.String()
	if strings.Contains(page, m.Entry) || strings.Contains(page, "gtag") || strings.Contains(page, "googletagmanager") {
		t.Errorf("the sign-in page loads the public app or analytics:\n%s", page)
	}
	for _, css := range m.CSS {
		if strings.Contains(page, css) {
			t.Errorf("the sign-in page loads the public stylesheet (and its consent styles) %s", css)
		}
	}
	if !strings.Contains(page, m.Staff.Entry) || !strings.HasPrefix(m.Staff.Entry, "/assets/staff/") {
		t.Errorf("the sign-in page does not load the staff bundle %q", m.Staff.Entry)
	}
	// The staff files stand apart from everything a visitor loads.
	fl := measureHomeFirstLoad(t)
	for name := range fl.beforeHydration {
		if strings.HasPrefix(name, "staff/") {
			t.Errorf("a visitor's first load holds %s", name)
		}
	}
	for name, data := range s.Bundle.Client {
		if strings.HasPrefix(name, "staff/") {
			continue
		}
		for _, marker := range []string{"nb_staff", "passkeys/begin", "Sign in with a passkey", "staff-data"} {
			if bytes.Contains(data, []byte(marker)) {
				t.Errorf("the public file %s holds the workspace's %q", name, marker)
			}
		}
	}
	for _, lang := range s.Info.Languages {
		for _, u := range m.Preloads("Home", lang.Code) {
			if strings.HasPrefix(strings.TrimPrefix(u, "/assets/"), "staff/") {
				t.Errorf("the %s home page preloads %s", lang.Code, u)
			}
		}
	}
}

// Session fixation: a session cookie planted before the sign-in never
// becomes a signed-in one; the sign-in gets a cookie of its own, with
// every attribute it needs.
func TestStaffSessionFixation(t *testing.T) {
	forEachBackend(t, func(t *testing.T, backend store.Backend) {
		env := newStaffEnv(t, backend, staffOptions{})
		planted := staffSession + "=" + strings.Repeat("B", 43)
		// An attacker's own valid session, planted in the victim's browser.
		attacker := env.signIn(t, "mallory@northbeam.test")
		for _, plant := range []string{planted, attacker} {
			cookie := env.signIn(t, "ada@northbeam.test", plant)
			if cookie == plant {
				t.Fatal("the planted session was kept")
			}
			if rec := env.do(t, "GET", "/staff/api/me", "", plant); plant == planted && rec.Code != http.StatusUnauthorized {
				t.Errorf("the planted cookie opens the workspace: %d", rec.Code)
			}
			rec := env.do(t, "GET", "/staff/api/me", "", cookie)
			if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `"email":"ada@northbeam.test"`) {
				t.Errorf("the new session: %d %s", rec.Code, rec.Body)
			}
		}
		if rec := env.do(t, "GET", "/staff/api/me", "", attacker); rec.Code != http.StatusUnauthorized {
			t.Errorf("the attacker's planted session survived the victim's sign-in: %d", rec.Code)
		}
		if _, err := env.ws.Invite(context.Background(), "ada@northbeam.test", staff.ActorCommandLine); err != nil {
			t.Fatal(err)
		}
		env.do(t, "POST", "/staff/api/sign-in/link", `{"email":"ada@northbeam.test"}`)
		rec := env.do(t, "POST", "/staff/api/sign-in/link/use", `{"token":"`+sitetest.MailedSignInToken(t, env.st)+`"}`)
		ck, _ := setCookie(rec, staffSession)
		if ck == nil || !ck.Secure || !ck.HttpOnly || ck.SameSite != http.SameSiteStrictMode || ck.Path != "/" || ck.Domain != "" {
			t.Errorf("session cookie %+v: want __Host-, Secure, HttpOnly, SameSite=Strict, Path=/", ck)
		}
	})
}

// Plain http is for localhost development only: there the cookie drops
// the __Host- prefix and Secure, which browsers would refuse over http.
func TestStaffCookieOnLocalhost(t *testing.T) {
	env := newStaffEnv(t, store.SQLite, staffOptions{baseURL: "http://localhost:8080"})
	if _, err := env.ws.Invite(context.Background(), "ada@northbeam.test", staff.ActorCommandLine); err != nil {
		t.Fatal(err)
	}
	env.do(t, "POST", "/staff/api/sign-in/link", `{"email":"ada@northbeam.test"}`)
	rec := env.do(t, "POST", "/staff/api/sign-in/link/use", `{"token":"`+sitetest.MailedSignInToken(t, env.st)+`"}`)
	ck, ok := setCookie(rec, "nb_staff")
	if !ok || ck.Secure || !ck.HttpOnly || ck.SameSite != http.SameSiteStrictMode {
		t.Errorf("localhost cookie %+v", ck)
	}
}

// Used, expired and unknown links are refused, by the API and with a page
// that says which, and a link works once.
func TestStaffLinksExpireAndWorkOnce(t *testing.T) {
	forEachBackend(t, func(t *testing.T, backend store.Backend) {
		env := newStaffEnv(t, backend, staffOptions{})
		ctx := context.Background()
		inv, err := env.ws.Invite(ctx, "ada@northbeam.test", staff.ActorCommandLine)
		if err != nil {
			t.Fatal(err)
		}
		invitation := inv.URL[strings.Index(inv.URL, "/staff/"):]
		if rec := env.do(t, "GET", invitation, ""); rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `"link":"valid"`) {
			t.Errorf("a fresh invitation: %d %s", rec.Code, rec.Body)
		}
		env.do(t, "POST", "/staff/api/sign-in/link", `{"email":"ada@northbeam.test"}`)
		token := sitetest.MailedSignInToken(t, env.st)
		page := "/staff/link?token=" + token
		if rec := env.do(t, "GET", page, ""); rec.Code != http.StatusOK {
			t.Errorf("opening a fresh link spends nothing: %d", rec.Code)
		}
		if rec := env.do(t, "GET", page, ""); rec.Code != http.StatusOK {
			t.Errorf("opening it again (a mail scanner did first): %d", rec.Code)
		}
		use := `{"token":"` + token + `"}`
		if rec := env.do(t, "POST", "/staff/api/sign-in/link/use", use); rec.Code != http.StatusOK {
			t.Fatalf("first use: %d %s", rec.Code, rec.Body)
		}
		rec := env.do(t, "POST", "/staff/api/sign-in/link/use", use)
		if e := decodeAPIError(t, rec); rec.Code != http.StatusGone || e.Code != "link_used" || e.Message != "This link has already been used." {
			t.Errorf("second use: %d %+v", rec.Code, e)
		}
		if _, ok := setCookie(rec, staffSession); ok {
			t.Error("a used link set a session cookie")
		}
		if rec := env.do(t, "GET", page, ""); rec.Code != http.StatusGone || !strings.Contains(rec.Body.String(), `"link":"used"`) {
			t.Errorf("the page of a used link: %d %s", rec.Code, rec.Body)
		}

		env.do(t, "POST", "/staff/api/sign-in/link", `{"email":"ada@northbeam.test"}`)
		late := sitetest.MailedSignInToken(t, env.st)
		env.clock.Advance(15 * time.Minute)
		rec = env.do(t, "POST", "/staff/api/sign-in/link/use", `{"token":"`+late+`"}`)
		if e := decodeAPIError(t, rec); rec.Code != http.StatusGone || e.Code != "link_expired" {
			t.Errorf("a link after 15 minutes: %d %+v", rec.Code, e)
		}
		other := sitetest.Other(t)
		if rec := env.do(t, "GET", "/staff/link?token="+late+"&lang="+other.Code, ""); rec.Code != http.StatusGone ||
			!strings.Contains(rec.Body.String(), `"link":"expired"`) || !strings.Contains(rec.Body.String(), `lang="`+other.Tag+`"`) {
			t.Errorf("the page of an expired link: %d", rec.Code)
		}
		env.clock.Advance(24 * time.Hour)
		if rec := env.do(t, "GET", invitation, ""); rec.Code != http.StatusGone || !strings.Contains(rec.Body.String(), `"link":"expired"`) {
			t.Errorf("an invitation after 24 hours: %d", rec.Code)
		}
		rec = env.do(t, "POST", "/staff/api/passkeys/begin", `{"invitation":"`+invitation[len("/staff/enrol?token="):]+`"}`)
		if e := decodeAPIError(t, rec); rec.Code != http.StatusGone || e.Code != "link_expired" {
			t.Errorf("an enrolment with an expired invitation: %d %+v", rec.Code, e)
		}
		for _, target := range []string{"/staff/enrol?token=nope", "/staff/link", "/staff/link?token=" + strings.Repeat("C", 43)} {
			if rec := env.do(t, "GET", target, ""); rec.Code != http.StatusNotFound || !strings.Contains(rec.Body.String(), `"link":"unknown"`) {
				t.Errorf("%s: %d", target, rec.Code)
			}
		}
	})
}

// Every state-changing request of the workspace must come from its own
// pages: another site, a sibling site, or a client that says nothing of
// its origin is refused before anything is done.
func TestStaffCrossSitePOSTsAreRefused(t *testing.T) {
	env := newStaffEnv(t, store.SQLite, staffOptions{})
	cookie := env.signIn(t, "ada@northbeam.test")
	for _, u := range staffURLs {
		if u.method == "GET" {
			continue
		}
		for _, hdr := range [][]string{
			{"Sec-Fetch-Site", "cross-site"},
			{"Sec-Fetch-Site", "same-site"},
			{"Origin", "https://evil.test"},
			{"Origin", "null"},
			{},
		} {
			req := httptest.NewRequest(u.method, u.target, strings.NewReader(`{"handled":true,"email":"x@example.com"}`))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Cookie", cookie)
			if len(hdr) == 2 {
				req.Header.Set(hdr[0], hdr[1])
			}
			rec := httptest.NewRecorder()
			env.h.ServeHTTP(rec, req)
			if rec.Code != http.StatusForbidden {
				t.Errorf("%s %s with %v: %d, want 403", u.method, u.target, hdr, rec.Code)
			}
		}
	}
	if n := sitetest.Count(t, env.st, `SELECT count(*) FROM staff_audit WHERE action <> 'sign-in' AND action <> 'invitation'`); n != 0 {
		t.Errorf("refused requests did something: %d audit entries", n)
	}
	// From the workspace's origin, without Sec-Fetch-Site (an older browser).
	req := httptest.NewRequest("POST", "/staff/api/sign-out", strings.NewReader("{}"))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Origin", "https://example.test")
	req.Header.Set("Cookie", cookie)
	rec := httptest.NewRecorder()
	env.h.ServeHTTP(rec, req)
	if rec.Code != http.StatusNoContent {
		t.Errorf("a same-origin sign-out: %d %s", rec.Code, rec.Body)
	}
}

// Sign-in attempts and link requests are limited per client; a link is
// also limited per address, and the answer about an address does not say
// whether it is staff.
func TestStaffSignInRateLimit(t *testing.T) {
	forEachBackend(t, func(t *testing.T, backend store.Backend) {
		env := newStaffEnv(t, backend, staffOptions{
			signInRate: RateLimit{Requests: 3, Window: time.Minute},
			linkRate:   RateLimit{Requests: 2, Window: time.Hour},
		})
		if _, err := env.ws.Invite(context.Background(), "ada@northbeam.test", staff.ActorCommandLine); err != nil {
			t.Fatal(err)
		}
		staffAnswer := env.do(t, "POST", "/staff/api/sign-in/link", `{"email":"ada@northbeam.test"}`)
		strangerAnswer := env.do(t, "POST", "/staff/api/sign-in/link", `{"email":"stranger@example.com"}`)
		if staffAnswer.Code != strangerAnswer.Code || staffAnswer.Body.String() != strangerAnswer.Body.String() {
			t.Errorf("staff: %d %s; stranger: %d %s", staffAnswer.Code, staffAnswer.Body, strangerAnswer.Code, strangerAnswer.Body)
		}
		rec := env.do(t, "POST", "/staff/api/sign-in/link", `{"email":"ada@northbeam.test"}`)
		if rec.Code != http.StatusTooManyRequests || rec.Header().Get("Retry-After") == "" {
			t.Errorf("a third link within the hour: %d", rec.Code)
		}
		if e := decodeAPIError(t, rec); e.Code != "rate_limited" {
			t.Errorf("refusal %+v", e)
		}

		for i := range 3 {
			rec := env.do(t, "POST", "/staff/api/sign-in/link/use", `{"token":"`+strings.Repeat("D", 43)+`"}`)
			if rec.Code != http.StatusNotFound {
				t.Errorf("attempt %d: %d", i+1, rec.Code)
			}
		}
		for _, target := range []string{"/staff/api/sign-in/link/use", "/staff/api/sign-in/begin", "/staff/api/sign-in/finish"} {
			rec := env.do(t, "POST", target, `{"token":"`+sitetest.MailedSignInToken(t, env.st)+`"}`)
			if rec.Code != http.StatusTooManyRequests || rec.Header().Get("Retry-After") == "" {
				t.Errorf("%s over the limit: %d", target, rec.Code)
			}
		}
		env.clock.Advance(time.Minute)
		if rec := env.do(t, "POST", "/staff/api/sign-in/link/use", `{"token":"`+sitetest.MailedSignInToken(t, env.st)+`"}`); rec.Code != http.StatusOK {
			t.Errorf("a minute later, the right link: %d %s", rec.Code, rec.Body)
		}

		// The pages a link opens tell the token's state: they count
		// against the same limit, together.
		env.clock.Advance(time.Minute)
		guess := strings.Repeat("E", 43)
		for i, target := range []string{"/staff/link?token=" + guess, "/staff/enrol?token=" + guess, "/staff/link?token=" + guess} {
			if rec := env.do(t, "GET", target, ""); rec.Code != http.StatusNotFound {
				t.Errorf("page %d, %s: %d", i+1, target, rec.Code)
			}
		}
		for _, target := range []string{"/staff/enrol?token=" + guess, "/staff/link?token=" + guess, "/staff/api/sign-in/begin"} {
			method := map[bool]string{true: "POST", false: "GET"}[strings.HasPrefix(target, "/staff/api/")]
			rec := env.do(t, method, target, "")
			if rec.Code != http.StatusTooManyRequests || rec.Header().Get("Retry-After") == "" {
				t.Errorf("%s over the limit: %d", target, rec.Code)
			}
			if method == "GET" && !strings.Contains(rec.Body.String(), `"link":"limited"`) {
				t.Errorf("%s over the limit does not say so: %.300s", target, rec.Body)
			}
		}
	})
}

// staffJSON decodes a JSON answer.
func staffJSON[T any](t testing.TB, rec *httptest.ResponseRecorder) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(rec.Body.Bytes(), &v); err != nil {
		t.Fatalf("not JSON (%v): %d %s", err, rec.Code, rec.Body)
	}
	return v
}

// The workspace's work over HTTP: the inbox, exports (a CSV a parser reads
// back), privacy requests with their confirmation, sign-out everywhere,
// and the audit log that records who did what.
func TestStaffWorkspaceAPI(t *testing.T) {
	forEachBackend(t, func(t *testing.T, backend store.Backend) {
		env := newStaffEnv(t, backend, staffOptions{})
		ctx := context.Background()
		cookie := env.signIn(t, "ada@northbeam.test")
		received := env.clock.Now().Add(-time.Hour)
		for _, r := range []contact.Record{
			{Ref: "11111111-1111-4111-8111-111111111111", CreatedAt: received, Name: "=cmd|' /C calc'!A0", Email: "zoe@example.com", Message: "Bonjour, ça va ? مرحبا", Lang: sitetest.OtherAt(t, 0).Code},
			{Ref: "22222222-2222-4222-8222-222222222222", CreatedAt: received, Name: "Spammer", Email: "spam@example.com", Message: "buy", Lang: sitetest.Default(t).Code, Spam: true, SpamReason: contact.SpamTooFast},
		} {
			if _, err := contact.Save(ctx, env.st, r, nil); err != nil {
				t.Fatal(err)
			}
		}
		list := staffJSON[staffMessages](t, env.do(t, "GET", "/staff/api/messages?folder=new&q=%C3%A7a", "", cookie))
		if len(list.Messages) != 1 || list.Counts["spam"] != 1 || list.Messages[0].Folder != "new" {
			t.Errorf("search: %+v", list)
		}
		if rec := env.do(t, "GET", "/staff/api/messages?folder=trash", "", cookie); rec.Code != http.StatusBadRequest {
			t.Errorf("an unknown folder: %d", rec.Code)
		}
		if rec := env.do(t, "GET", "/staff/api/messages/nope", "", cookie); rec.Code != http.StatusNotFound {
			t.Errorf("an unknown message: %d", rec.Code)
		}
		rec := env.do(t, "POST", "/staff/api/messages/11111111-1111-4111-8111-111111111111/handled", `{"handled":true}`, cookie)
		if m := staffJSON[map[string]staffMessage](t, rec)["message"]; m.Folder != "handled" || m.Handled == nil {
			t.Errorf("handled: %+v", m)
		}
		rec = env.do(t, "POST", "/staff/api/messages/22222222-2222-4222-8222-222222222222/not-spam", "{}", cookie)
		if m := staffJSON[map[string]staffMessage](t, rec)["message"]; m.Folder != "new" {
			t.Errorf("not spam: %+v", m)
		}
		if n := sitetest.Count(t, env.st, `SELECT count(*) FROM outbox WHERE kind = 'contact.notify'`); n != 1 {
			t.Errorf("%d notifications after not-spam, want 1", n)
		}

		rec = env.do(t, "GET", "/staff/export/messages.csv?from=2027-06-01&to=2027-06-30", "", cookie)
		if rec.Code != http.StatusOK || !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/csv") ||
			rec.Header().Get("Content-Disposition") != `attachment; filename=messages-2027-06-01_2027-06-30.csv` {
			t.Fatalf("export: %d %v", rec.Code, rec.Header())
		}
		checkStaffHeaders(t, "export", rec.Header())
		raw := rec.Body.Bytes()
		if !bytes.HasPrefix(raw, []byte("\uFEFF")) {
			t.Error("no byte order mark")
		}
		rows, err := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(raw, []byte("\uFEFF")))).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		if len(rows) != 3 || rows[0][0] != "Reference" {
			t.Fatalf("rows %q", rows)
		}
		byRef := map[string][]string{}
		for _, r := range rows[1:] {
			byRef[r[0]] = r
		}
		if r := byRef["11111111-1111-4111-8111-111111111111"]; r[2] != "'=cmd|' /C calc'!A0" || r[8] != "Bonjour, ça va ? مرحبا" {
			t.Errorf("row %q", r)
		}
		for _, bad := range []string{"?from=2027-06-30&to=2027-06-01", "?from=June"} {
			if rec := env.do(t, "GET", "/staff/export/bookings.csv"+bad, "", cookie); rec.Code != http.StatusBadRequest ||
				decodeAPIError(t, rec).Code != "invalid_range" {
				t.Errorf("range %s: %d", bad, rec.Code)
			}
		}

		rec = env.do(t, "POST", "/staff/api/privacy/search", `{"email":"ZOE@example.com"}`, cookie)
		if p := staffJSON[map[string]staff.Person](t, rec)["person"]; len(p.Messages) != 1 {
			t.Errorf("privacy search: %+v", p)
		}
		if rec := env.do(t, "POST", "/staff/api/privacy/search", `{"email":"zoe"}`, cookie); rec.Code != http.StatusUnprocessableEntity ||
			decodeAPIError(t, rec).Fields["email"] == "" {
			t.Errorf("an invalid address: %d %s", rec.Code, rec.Body)
		}
		download := httptest.NewRequest("POST", "/staff/export/person.json", strings.NewReader("email=zoe%40example.com"))
		download.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		download.Header.Set("Sec-Fetch-Site", "same-origin")
		download.Header.Set("Cookie", cookie)
		dl := httptest.NewRecorder()
		env.h.ServeHTTP(dl, download)
		if dl.Code != http.StatusOK || !strings.HasPrefix(dl.Header().Get("Content-Disposition"), "attachment") ||
			!strings.Contains(dl.Body.String(), "Bonjour, ça va ? مرحبا") {
			t.Errorf("the person's data as JSON: %d %v %s", dl.Code, dl.Header(), dl.Body)
		}
		rec = env.do(t, "POST", "/staff/api/privacy/erase", `{"email":"zoe@example.com","confirm":"zoe@example.org"}`, cookie)
		if e := decodeAPIError(t, rec); rec.Code != http.StatusUnprocessableEntity || e.Fields["confirm"] == "" {
			t.Errorf("an erasure without its confirmation: %d %+v", rec.Code, e)
		}
		if n := sitetest.Count(t, env.st, `SELECT count(*) FROM messages WHERE email = 'zoe@example.com'`); n != 1 {
			t.Error("an unconfirmed erasure erased")
		}
		rec = env.do(t, "POST", "/staff/api/privacy/erase", `{"email":"zoe@example.com","confirm":" Zoe@Example.com"}`, cookie)
		if e := staffJSON[map[string]staff.Erased](t, rec)["erased"]; e.Messages != 1 {
			t.Errorf("erased %+v (%d)", e, rec.Code)
		}

		// Who did what.
		audit := staffJSON[struct {
			Entries []staffAuditEntry `json:"entries"`
		}](t, env.do(t, "GET", "/staff/api/audit", "", cookie))
		var actions []string
		for _, e := range audit.Entries {
			if e.Actor != "ada@northbeam.test" && e.Action != "invitation" {
				t.Errorf("entry by %q: %+v", e.Actor, e)
			}
			if strings.Contains(e.Subject+e.Detail, "zoe@") {
				t.Errorf("the audit log names the person: %+v", e)
			}
			actions = append(actions, e.Action)
		}
		want := "erasure privacy-export privacy-search export not-spam message-handled sign-in invitation"
		if got := strings.Join(actions, " "); got != want {
			t.Errorf("audit log:\n got %s\nwant %s", got, want)
		}

		second := env.signIn(t, "ada@northbeam.test")
		if rec := env.do(t, "POST", "/staff/api/sign-out-everywhere", "{}", cookie); rec.Code != http.StatusNoContent {
			t.Fatalf("sign out everywhere: %d", rec.Code)
		}
		for _, ck := range []string{cookie, second} {
			if rec := env.do(t, "GET", "/staff/api/me", "", ck); rec.Code != http.StatusUnauthorized {
				t.Errorf("a session after signing out everywhere: %d", rec.Code)
			}
		}
	})
}

// The workspace speaks each language its members choose: the page's
// language and direction, the API's messages, the CSV's columns.
func TestStaffLanguages(t *testing.T) {
	env := newStaffEnv(t, store.SQLite, staffOptions{})
	cookie := env.signIn(t, "ada@northbeam.test")
	rtl := sitetest.RightToLeft(t)
	if rec := env.do(t, "POST", "/staff/api/me/language", `{"lang":"`+rtl.Code+`"}`, cookie); rec.Code != http.StatusOK {
		t.Fatalf("choosing %s: %d %s", rtl.Code, rec.Code, rec.Body)
	}
	if rec := env.do(t, "POST", "/staff/api/me/language", `{"lang":"tlh"}`, cookie); rec.Code != http.StatusUnprocessableEntity {
		t.Errorf("an unknown language: %d", rec.Code)
	}
	page := env.do(t, "GET", "/staff", "", cookie).Body.String()
	if !strings.Contains(page, `<html lang="`+rtl.Tag+`" dir="rtl">`) || !strings.Contains(page, `"me":{"email":"ada@northbeam.test","lang":"`+rtl.Code+`"}`) {
		t.Errorf("the workspace in %s:\n%s", rtl.Code, page)
	}
	locales := sitetest.Site(t).StaffLocales
	if e := decodeAPIError(t, env.do(t, "GET", "/staff/api/messages/nope", "", cookie)); e.Message != locales.T(rtl.Code, "errors.notFound") {
		t.Errorf("an error in %s: %+v", rtl.Code, e)
	}
	rec := env.do(t, "GET", "/staff/export/bookings.csv", "", cookie)
	if !strings.Contains(rec.Body.String(), locales.T(rtl.Code, "export.columns.visitorZone")) {
		t.Errorf("the CSV's columns in %s: %s", rtl.Code, rec.Body)
	}
}

// Every string of the workspace exists in every language, and every one
// is used (the public strings' test, for content/staff/locales).
func TestStaffStringsComplete(t *testing.T) {
	s := sitetest.Site(t)
	// A plural key is compared by its base (messages_one, messages_other:
	// messages); its forms are the language's CLDR categories, and its
	// placeholders but {{count}} (a form may write the number as a word)
	// those of en's _other.
	plural := regexp.MustCompile(`_(zero|one|two|few|many|other)$`)
	bases := func(lang string) (keys []string, forms map[string][]string) {
		forms = map[string][]string{}
		for _, k := range s.StaffLocales.Keys(lang) {
			if m := plural.FindStringSubmatch(k); m != nil {
				base := strings.TrimSuffix(k, m[0])
				forms[base] = append(forms[base], m[1])
				if len(forms[base]) > 1 {
					continue
				}
				k = base
			}
			keys = append(keys, k)
		}
		return keys, forms
	}
	ref, _ := bases(sitetest.Default(t).Code)
	placeholder := regexp.MustCompile(`\{\{\w+\}\}`)
	placeholders := func(lang, k string) []string {
		var out []string
		for _, p := range placeholder.FindAllString(s.StaffLocales.T(lang, k), -1) {
			if p != "{{count}}" {
				out = append(out, p)
			}
		}
		slices.Sort(out)
		return out
	}
	for _, lang := range s.Info.Languages {
		keys, forms := bases(lang.Code)
		if strings.Join(keys, ",") != strings.Join(ref, ",") {
			t.Errorf("%s: the keys differ from en.json", lang.Code)
		}
		want := cldrPluralForms(lang.Code)
		for base, got := range forms {
			slices.Sort(got)
			if !slices.Equal(got, want) {
				t.Errorf("%s %s: plural forms %v, want %v", lang.Code, base, got, want)
			}
		}
		for _, k := range ref {
			enKey, key := k, k
			if fs, ok := forms[k]; ok {
				enKey = k + "_other"
				for _, f := range fs {
					key = k + "_" + f
					if en, got := placeholders(sitetest.Default(t).Code, enKey), placeholders(lang.Code, key); !slices.Equal(en, got) {
						t.Errorf("%s %s: placeholders %v, en has %v", lang.Code, key, got, en)
					}
				}
				continue
			}
			if en, got := placeholders(sitetest.Default(t).Code, enKey), placeholders(lang.Code, key); !slices.Equal(en, got) {
				t.Errorf("%s %s: placeholders %v, en has %v", lang.Code, key, got, en)
			}
		}
	}
	var src strings.Builder
	for _, dir := range []string{"frontend/staff", "handlers", "internal/sitebuild", "internal/staff"} {
		// A directory that moved would leave nothing to check: fail.
		err := filepath.WalkDir(filepath.Join(sitetest.Root(), dir), func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || strings.HasSuffix(p, "_test.go") || !(strings.HasSuffix(p, ".go") || strings.HasSuffix(p, ".ts") || strings.HasSuffix(p, ".tsx")) {
				return err
			}
			b, _ := os.ReadFile(p)
			src.Write(b)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	all := src.String()
	templated := regexp.MustCompile("`([a-z]+(?:\\.[a-zA-Z]+)*)\\.\\$\\{")
	prefixes := map[string]bool{}
	for _, m := range templated.FindAllStringSubmatch(all, -1) {
		prefixes[m[1]+"."] = true
	}
	for _, k := range ref {
		if strings.Contains(all, `"`+k+`"`) {
			continue
		}
		used := false
		for p := range prefixes {
			if strings.HasPrefix(k, p) && !strings.Contains(k[len(p):], ".") {
				used = true
			}
		}
		if !used {
			t.Errorf("content/staff/locales/en.json: %s is used nowhere", k)
		}
	}
}

// A cancellation on the visitor's behalf, through SMTP: the visitor is told
// why in their language (Arabic here) with the invite's cancellation
// (METHOD:CANCEL), the consultancy is told who did it, the time is free
// again, and the audit log records it.
func TestStaffCancelsABooking(t *testing.T) {
	forEachBackend(t, func(t *testing.T, backend store.Backend) {
		benv, env, cookie := newStaffBookingEnv(t, backend)
		ctx := context.Background()
		created := bookSlot(t, benv, validBooking(t, "09:00", "ar"))

		agenda := staffJSON[staffBookings](t, env.do(t, "GET", "/staff/api/bookings", "", cookie))
		if len(agenda.Days) != 1 || agenda.Days[0].Date != "2027-06-08" || len(agenda.Days[0].Bookings) != 1 {
			t.Fatalf("agenda %+v", agenda)
		}
		b := agenda.Days[0].Bookings[0]
		if b.Name != "Amira Haddad" || b.Status != "upcoming" || !b.Start.Equal(created.Start) {
			t.Errorf("booking %+v", b)
		}
		target := "/staff/api/bookings/" + strconv.FormatInt(b.ID, 10) + "/cancel"
		rec := env.do(t, "POST", target, `{"reason":"   "}`, cookie)
		if e := decodeAPIError(t, rec); rec.Code != http.StatusUnprocessableEntity || e.Fields["reason"] == "" {
			t.Errorf("no reason: %d %+v", rec.Code, e)
		}
		if rec := env.do(t, "POST", "/staff/api/bookings/999/cancel", `{"reason":"x"}`, cookie); rec.Code != http.StatusNotFound {
			t.Errorf("an unknown booking: %d", rec.Code)
		}
		smtpServer := mailtest.Start(t)
		sender, err := mail.NewSMTPSender(mail.SMTPConfig{URL: smtpServer.URL(), From: "Northbeam <hello@northbeam.test>", Timeout: 5 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		worker := mail.NewWorker(benv.store, sender, mail.WorkerConfig{Logger: sitetest.QuietLog()})
		if _, err := worker.DrainOnce(ctx); err != nil {
			t.Fatal(err)
		}
		before := len(smtpServer.WaitFor(3)) // the booking's two mails and the sign-in link

		rec = env.do(t, "POST", target, `{"reason":"نعتذر، المستشارة مريضة اليوم."}`, cookie)
		if got := staffJSON[map[string]staffBooking](t, rec)["booking"]; rec.Code != http.StatusOK || got.Status != "cancelled" || got.Cancelled == nil {
			t.Fatalf("cancel: %d %+v", rec.Code, got)
		}
		if rec := env.do(t, "POST", target, `{"reason":"again"}`, cookie); rec.Code != http.StatusConflict || decodeAPIError(t, rec).Code != "cancelled_already" {
			t.Errorf("a second cancellation: %d", rec.Code)
		}
		if _, err := worker.DrainOnce(ctx); err != nil {
			t.Fatal(err)
		}
		got := smtpServer.WaitFor(before + 2)[before:]
		byRecipient := map[string]mailtest.Received{}
		for _, m := range got {
			byRecipient[strings.Join(m.To, ",")] = m
		}
		visitor, notify := byRecipient["amira@example.com"], byRecipient[sitetest.Inbox]
		text, _ := visitor.Text()
		if !strings.HasPrefix(visitor.Subject, "إلغاء الموعد") || !strings.Contains(text, "نعتذر، المستشارة مريضة اليوم.") {
			t.Errorf("the visitor's mail: %q\n%s", visitor.Subject, text)
		}
		for _, m := range []mailtest.Received{visitor, notify} {
			files := m.Attachments()
			if len(files) != 1 || files[0].Params["method"] != "CANCEL" {
				t.Fatalf("mail to %v: attachments %+v", m.To, files)
			}
			sitetest.ParseInvite(t, files[0].Body, "CANCEL")
		}
		if notifyText, _ := notify.Text(); !strings.Contains(notifyText, "ops@northbeam.test") {
			t.Errorf("the consultancy's copy does not say who cancelled:\n%s", notifyText)
		}
		// The time is free again.
		bookSlot(t, benv, validBooking(t, "09:00", sitetest.OtherAt(t, 0).Code))
		if n := sitetest.Count(t, benv.store, `SELECT count(*) FROM staff_audit WHERE action = 'booking-cancellation' AND actor = 'ops@northbeam.test'`); n != 1 {
			t.Errorf("%d audit entries for the cancellation", n)
		}
	})
}

// cldrPluralForms returns, sorted, the plural categories i18next asks lang
// for: those CLDR's rules give the whole numbers the workspace counts.
func cldrPluralForms(lang string) []string {
	names := map[plural.Form]string{plural.Other: "other", plural.Zero: "zero", plural.One: "one", plural.Two: "two", plural.Few: "few", plural.Many: "many"}
	tag := language.MustParse(lang)
	seen := map[string]bool{}
	var forms []string
	for n := 0; n <= 1200; n++ {
		if f := names[plural.Cardinal.MatchPlural(tag, n, 0, 0, 0, 0)]; !seen[f] {
			seen[f] = true
			forms = append(forms, f)
		}
	}
	slices.Sort(forms)
	return forms
}

// staffWithBookings is the tests' workspace with the booking service's
// cancellation, and no mail of its own.
func staffWithBookings(t testing.TB, st *store.Store, now func() time.Time, c *booking.StaffCancellation) *staff.Workspace {
	t.Helper()
	return sitetest.StaffWorkspace(t, st, sitetest.BaseURL, now, func(cfg *staff.Config) {
		cfg.Bookings, cfg.Contact = c, nil
	})
}

// A site at an IP address (BASE_URL=http://127.0.0.1:8080) starts, and its
// workspace opens with mailed links: passkeys, which belong to a domain
// name, are refused with a message that says so.
func TestStaffAtAnIPAddress(t *testing.T) {
	env := newStaffEnv(t, store.SQLite, staffOptions{baseURL: "https://127.0.0.1:8443"})
	rec := env.do(t, "POST", "/staff/api/sign-in/begin", "{}")
	if e := decodeAPIError(t, rec); rec.Code != http.StatusServiceUnavailable || e.Code != "no_passkeys" || !strings.Contains(e.Message, "BASE_URL") {
		t.Errorf("a passkey sign-in: %d %+v", rec.Code, e)
	}
	cookie := env.signIn(t, "ada@northbeam.test")
	if rec := env.do(t, "GET", "/staff/api/me", "", cookie); rec.Code != http.StatusOK {
		t.Errorf("signed in by link: %d", rec.Code)
	}
}

// TestStaffLinkRequestAnswersBeforeItsWork: a request for a sign-in link
// is answered once queued, before any of its work, so that its time does
// not tell a member from a stranger (issue 27, L1; the medians are in
// BenchmarkStaffLinkRequest). While the tables it needs are locked, a
// member's request and a stranger's are answered alike at once; once
// free, the member's link is mailed and the stranger gets nothing.
func TestStaffLinkRequestAnswersBeforeItsWork(t *testing.T) {
	forEachBackend(t, func(t *testing.T, backend store.Backend) {
		env := newStaffEnv(t, backend, staffOptions{})
		ctx := context.Background()
		if _, err := env.ws.Invite(ctx, "ada@northbeam.test", staff.ActorCommandLine); err != nil {
			t.Fatal(err)
		}
		locked, release, unlocked := make(chan struct{}), make(chan struct{}), make(chan error, 1)
		go func() {
			unlocked <- env.st.InTx(ctx, func(tx *store.Tx) error {
				if backend == store.Postgres { // SQLite's write transaction locks the whole file already
					if _, err := tx.ExecContext(ctx, `LOCK TABLE staff IN ACCESS EXCLUSIVE MODE`); err != nil {
						return err
					}
				}
				close(locked)
				<-release
				return nil
			})
		}()
		<-locked
		ask := func(email string) *httptest.ResponseRecorder {
			req := httptest.NewRequest("POST", "/staff/api/sign-in/link", strings.NewReader(`{"email":"`+email+`"}`))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Sec-Fetch-Site", "same-origin")
			rec := httptest.NewRecorder()
			env.h.ServeHTTP(rec, req)
			return rec
		}
		answers := make(chan [2]*httptest.ResponseRecorder, 1)
		go func() {
			answers <- [2]*httptest.ResponseRecorder{ask("ada@northbeam.test"), ask("stranger@example.com")}
		}()
		var got [2]*httptest.ResponseRecorder
		select {
		case got = <-answers:
		case <-time.After(20 * time.Second): // far beyond any answer that does not wait: a guard, not a measure
			t.Error("a request for a link waited for the database: its time tells who is a member")
			close(release)
			got = <-answers
			release = nil
		}
		if release != nil {
			close(release)
		}
		if err := <-unlocked; err != nil {
			t.Fatal(err)
		}
		if got[0].Code != http.StatusAccepted || got[0].Code != got[1].Code || got[0].Body.String() != got[1].Body.String() {
			t.Errorf("member: %d %s; stranger: %d %s", got[0].Code, got[0].Body, got[1].Code, got[1].Body)
		}
		env.ws.SettleSignInLinks()
		if token := sitetest.MailedSignInToken(t, env.st); token == "" {
			t.Error("the member's link was not mailed")
		}
		var n int
		if err := env.st.QueryRowContext(ctx, `SELECT count(*) FROM outbox WHERE to_addr = 'stranger@example.com'`).Scan(&n); err != nil || n != 0 {
			t.Errorf("mail to the stranger: %d %v", n, err)
		}
	})
}
