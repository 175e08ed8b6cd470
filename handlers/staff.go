package handlers

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/northbeam/site/internal/booking"
	"github.com/northbeam/site/internal/sitebuild"
	"github.com/northbeam/site/internal/staff"
)

// registerStaff serves the staff workspace under /staff: its pages (one
// shell, rendered in the browser from the JSON API; see README, "Staff
// workspace"), the sign-in ceremonies, the API behind the session, and the
// exports. Every answer under /staff is kept from caches and search
// engines, carries no analytics, and every POST must come from the
// workspace's own pages.
func registerStaff(e *echo.Echo, srv *Server) {
	h := &staffHandlers{
		srv:            srv,
		signInLimiter:  newLimiter(srv.Store, "staff-sign-in", srv.StaffSignInRate.Or(defaultStaffSignInRate)),
		linkLimiter:    newLimiter(srv.Store, "staff-link", srv.StaffLinkRate.Or(defaultStaffLinkRate)),
		addressLimiter: newLimiter(srv.Store, "staff-link-address", srv.StaffLinkRate.Or(defaultStaffLinkRate)),
	}
	page := []string{http.MethodGet, http.MethodHead}
	e.Match(page, "/staff/sign-in", h.guard(h.signInPage))
	e.Match(page, "/staff/enrol", h.guard(h.linkPage(staffEnrolPath)))
	e.Match(page, "/staff/link", h.guard(h.linkPage(staffLinkPath)))
	e.Match(page, "/staff", h.guard(h.privatePage))
	e.Any("/staff/*", h.guard(h.fallback))

	// Signing in: open to the signed-out, counted against their limits.
	e.POST("/staff/api/sign-in/begin", h.guard(h.beginSignIn))
	e.POST("/staff/api/sign-in/finish", h.guard(h.finishSignIn))
	e.POST("/staff/api/sign-in/link", h.guard(h.requestLink))
	e.POST("/staff/api/sign-in/link/use", h.guard(h.useLink))
	e.POST("/staff/api/passkeys/begin", h.guard(h.beginPasskey))
	e.POST("/staff/api/passkeys/finish", h.guard(h.finishPasskey))

	// Behind the session.
	e.GET("/staff/api/me", h.guard(h.private(h.me)))
	e.POST("/staff/api/me/language", h.guard(h.private(h.setLanguage)))
	e.POST("/staff/api/sign-out", h.guard(h.private(h.signOut)))
	e.POST("/staff/api/sign-out-everywhere", h.guard(h.private(h.signOutEverywhere)))
	e.DELETE("/staff/api/passkeys/:id", h.guard(h.private(h.removePasskey)))
	e.POST("/staff/api/passkeys/:id/name", h.guard(h.private(h.renamePasskey)))
	e.DELETE("/staff/api/sessions/:id", h.guard(h.private(h.endSession)))
	e.GET("/staff/api/messages", h.guard(h.private(h.messages)))
	e.GET("/staff/api/messages/:ref", h.guard(h.private(h.message)))
	e.POST("/staff/api/messages/:ref/handled", h.guard(h.private(h.setHandled)))
	e.POST("/staff/api/messages/:ref/not-spam", h.guard(h.private(h.notSpam)))
	e.POST("/staff/api/messages/:ref/spam", h.guard(h.private(h.markSpam)))
	e.GET("/staff/api/bookings", h.guard(h.private(h.bookings)))
	e.GET("/staff/api/bookings/:id", h.guard(h.private(h.booking)))
	e.POST("/staff/api/bookings/:id/cancel", h.guard(h.private(h.cancelBooking)))
	e.GET("/staff/api/mail", h.guard(h.private(h.troubledMail)))
	e.GET("/staff/api/mail/:ref", h.guard(h.private(h.readMail)))
	e.POST("/staff/api/mail/:ref/retry", h.guard(h.private(h.retryMail)))
	e.GET("/staff/api/audit", h.guard(h.private(h.audit)))
	e.POST("/staff/api/privacy/search", h.guard(h.private(h.privacySearch)))
	e.POST("/staff/api/privacy/erase", h.guard(h.private(h.privacyErase)))
	e.GET("/staff/export/messages.csv", h.guard(h.private(h.exportMessages)))
	e.GET("/staff/export/bookings.csv", h.guard(h.private(h.exportBookings)))
	e.POST("/staff/export/person.json", h.guard(h.private(h.exportPerson)))
	h.registerWork(e)
	h.registerHosts(e)
}

// Defaults of the staff sign-in limits, per client: a person signs in a
// few times a day; the mailed link is asked for rarely, and each sends mail.
var (
	defaultStaffSignInRate = RateLimit{Requests: 20, Window: 10 * time.Minute}
	defaultStaffLinkRate   = RateLimit{Requests: 5, Window: time.Hour}
)

// linkLimited is the state a link's page shows over the sign-in limit.
const linkLimited = "limited"

// Pages of the workspace that open without a session.
const (
	staffSignInPath = "/staff/sign-in"
	staffEnrolPath  = "/staff/enrol"
	staffLinkPath   = "/staff/link"
)

// staffBodyLimit bounds a request to the workspace's API: a WebAuthn
// answer is a few kilobytes.
const staffBodyLimit = 64 << 10

// staffHandlers serve the workspace; the workspace itself is srv.Staff.
type staffHandlers struct {
	srv            *Server
	signInLimiter  limiter
	linkLimiter    limiter
	addressLimiter limiter
}

// Cookies of the workspace. Over https they carry the __Host- prefix:
// Secure, for this host only, on every path; SameSite=Strict keeps them
// off every request another site starts.
const (
	staffSessionCookie  = "nb_staff"
	staffCeremonyCookie = "nb_staff_ceremony"
)

// staffPermissionsPolicy is the site's, with passkeys allowed: the
// workspace's pages call navigator.credentials.
var staffPermissionsPolicy = strings.Replace(permissionsPolicy, "publickey-credentials-get=()", "publickey-credentials-create=(self), publickey-credentials-get=(self)", 1)

// isStaffPath reports whether p is under /staff.
func isStaffPath(p string) bool { return p == "/staff" || strings.HasPrefix(p, "/staff/") }

// isStaffData reports whether p is answered with data rather than a page:
// the API and the exports, which answer 401 to the signed-out.
func isStaffData(p string) bool {
	return strings.HasPrefix(p, "/staff/api/") || strings.HasPrefix(p, "/staff/export/")
}

// staffHeaders sets what every answer under /staff carries.
func staffHeaders(h http.Header) {
	h.Set("Cache-Control", "no-store")
	h.Set("X-Robots-Tag", "noindex, nofollow")
	// Never the analytics policy: the workspace loads no analytics.
	h.Set("Content-Security-Policy", cspBase)
	h.Set("Permissions-Policy", staffPermissionsPolicy)
	h.Set("Referrer-Policy", "same-origin")
}

// guard sets the workspace's headers and refuses a state-changing request
// that does not come from the workspace's own origin: stricter than the
// site's checkOrigin, it refuses a request that says nothing of its origin
// too (every browser says it on a POST).
func (h *staffHandlers) guard(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		staffHeaders(c.Response().Header())
		req := c.Request()
		switch req.Method {
		case http.MethodGet, http.MethodHead, http.MethodOptions:
		default:
			if !h.sameOrigin(req) {
				h.srv.log.Warn("cross-origin staff request refused", "id", requestID(c), "method", req.Method,
					"path", logPath(req.URL.Path), "sec_fetch_site", req.Header.Get("Sec-Fetch-Site"))
				return h.failStatus(c, http.StatusForbidden)
			}
		}
		return next(c)
	}
}

// sameOrigin reports whether req comes from a page of the workspace's own
// origin: Sec-Fetch-Site says same-origin, or, from a browser that does
// not send it, Origin is BASE_URL's.
func (h *staffHandlers) sameOrigin(req *http.Request) bool {
	if site := req.Header.Get("Sec-Fetch-Site"); site != "" {
		return site == "same-origin"
	}
	origin := req.Header.Get("Origin")
	return origin != "" && origin != "null" && strings.EqualFold(origin, h.origin())
}

// origin is the workspace's origin: BASE_URL's scheme and host.
func (h *staffHandlers) origin() string {
	if h.srv.Staff != nil {
		return h.srv.Staff.Origin()
	}
	if b := h.srv.Build(); b != nil {
		if u, err := url.Parse(b.Options().BaseURL); err == nil {
			return u.Scheme + "://" + u.Host
		}
	}
	return ""
}

// secureCookies reports whether the cookies are Secure with the __Host-
// prefix: always, but for plain http on localhost, where a developer runs
// the site (browsers treat localhost as a secure context for passkeys,
// though not all of them for Secure cookies).
func (h *staffHandlers) secureCookies() bool {
	u, err := url.Parse(h.origin())
	if err != nil || u.Scheme == "https" {
		return true
	}
	host := u.Hostname()
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return false
	}
	ip := net.ParseIP(host)
	return ip == nil || !ip.IsLoopback()
}

func (h *staffHandlers) cookieName(base string) string {
	if h.secureCookies() {
		return "__Host-" + base
	}
	return base
}

func (h *staffHandlers) setCookie(c echo.Context, base, value string, maxAge time.Duration) {
	//nolint:gosec // G124: HttpOnly, SameSite=Strict; Secure but on plain-http localhost (secureCookies)
	c.SetCookie(&http.Cookie{
		Name: h.cookieName(base), Value: value, Path: "/",
		MaxAge: int(maxAge / time.Second), HttpOnly: true, Secure: h.secureCookies(), SameSite: http.SameSiteStrictMode,
	})
}

func (h *staffHandlers) clearCookie(c echo.Context, base string) {
	//nolint:gosec // G124: as setCookie
	c.SetCookie(&http.Cookie{
		Name: h.cookieName(base), Value: "", Path: "/",
		MaxAge: -1, HttpOnly: true, Secure: h.secureCookies(), SameSite: http.SameSiteStrictMode,
	})
}

func (h *staffHandlers) cookie(c echo.Context, base string) string {
	ck, err := c.Cookie(h.cookieName(base))
	if err != nil {
		return ""
	}
	return ck.Value
}

// staffSessionKey holds the request's session in the Echo context.
const staffSessionKey = "staff.session"

// session returns the signed-in session of c's request, if any; a
// database that cannot answer is an error, for a 503.
func (h *staffHandlers) session(c echo.Context) (staff.Session, bool, error) {
	if s, ok := c.Get(staffSessionKey).(staff.Session); ok {
		return s, true, nil
	}
	ws := h.srv.Staff
	token := h.cookie(c, staffSessionCookie)
	if ws == nil || token == "" {
		return staff.Session{}, false, nil
	}
	s, err := ws.Authenticate(c.Request().Context(), token)
	if errors.Is(err, staff.ErrSignedOut) {
		return staff.Session{}, false, nil
	}
	if err != nil {
		return staff.Session{}, false, err
	}
	c.Set(staffSessionKey, s)
	return s, true, nil
}

// private lets only a signed-in member through: the signed-out get 401.
func (h *staffHandlers) private(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		_, ok, err := h.session(c)
		if err != nil {
			return h.failure(c, err)
		}
		if !ok {
			return h.fail(c, http.StatusUnauthorized, "signed_out", "errors.signedOut", nil)
		}
		return next(c)
	}
}

// lang is the language of the workspace's answer: the member's; for the
// signed-out, a lang query parameter, else Accept-Language, else English.
func (h *staffHandlers) lang(c echo.Context) string {
	if s, ok := c.Get(staffSessionKey).(staff.Session); ok {
		return s.Member.Lang
	}
	return requestLanguage(h.srv.Build().Info, c.QueryParam("lang"), c.Request())
}

// fail answers a refusal as the API's JSON error, its message and field
// messages (locale keys of content/staff/locales) in the answer's language.
func (h *staffHandlers) fail(c echo.Context, status int, code, key string, fields map[string]string) error {
	return c.JSON(status, newAPIError(h.srv.Build().StaffLocales, h.lang(c), code, key, fields))
}

// failStatus answers a refusal with status's own error code and message.
func (h *staffHandlers) failStatus(c echo.Context, status int) error {
	code, key := errorCode(status)
	return h.fail(c, status, code, key, nil)
}

// failure answers an error that is not the request's fault: 503 with
// Retry-After when the database is unavailable, else 500 (logged once).
func (h *staffHandlers) failure(c echo.Context, err error) error {
	return h.failStatus(c, h.srv.failureStatus(c, err))
}

// staffError answers an error that reached Echo's error handler under
// /staff (a method not allowed, a body over the site's limit, a body
// decodeJSON refused), with the workspace's headers and JSON.
func (srv *Server) staffError(c echo.Context, status int) {
	staffHeaders(c.Response().Header())
	h := &staffHandlers{srv: srv}
	_ = h.failStatus(c, status)
}

// workspace returns the workspace, or answers 503 when this server has
// none (a test serving pages only).
func (h *staffHandlers) workspace(c echo.Context) (*staff.Workspace, error) {
	if h.srv.Staff == nil {
		return nil, h.failStatus(c, http.StatusServiceUnavailable)
	}
	return h.srv.Staff, nil
}

// ---- Pages ----

// shell answers a workspace page: the document its script renders in, in
// the answer's language.
func (h *staffHandlers) shell(c echo.Context, status int, link string) error {
	b := h.srv.Build()
	lang, ok := b.Info.Language(h.lang(c))
	if !ok {
		lang = b.Info.Default()
	}
	boot := sitebuild.StaffBoot{Lang: lang.Code, Name: b.Info.Name, Zone: "UTC", Link: link}
	if ws := h.srv.Staff; ws != nil {
		boot.Zone = ws.Location().String()
	}
	if sess, ok := c.Get(staffSessionKey).(staff.Session); ok {
		boot.Me = &sitebuild.StaffMember{Email: sess.Member.Email, Lang: sess.Member.Lang}
	}
	page, err := b.StaffPage(lang, boot)
	if err != nil {
		return h.failure(c, err)
	}
	return c.HTMLBlob(status, page)
}

// privatePage answers a page behind the session: its shell for a member,
// a redirect to the sign-in page (and back afterwards) for anyone else.
func (h *staffHandlers) privatePage(c echo.Context) error {
	_, ok, err := h.session(c)
	if err != nil {
		return h.failure(c, err)
	}
	if !ok {
		next := c.Request().URL.Path
		if q := c.Request().URL.RawQuery; q != "" {
			next += "?" + q
		}
		return c.Redirect(http.StatusSeeOther, staffSignInPath+"?next="+url.QueryEscape(next))
	}
	return h.shell(c, http.StatusOK, "")
}

// fallback answers every other path under /staff: a page of the
// workspace's (its script knows which, or says it knows none), or, for
// the API and the exports, 401 to the signed-out and 404 to members.
func (h *staffHandlers) fallback(c echo.Context) error {
	req := c.Request()
	p := req.URL.Path
	if p == "/staff/" {
		return c.Redirect(http.StatusMovedPermanently, "/staff")
	}
	isPage := req.Method == http.MethodGet || req.Method == http.MethodHead
	if isPage && !isStaffData(p) {
		return h.privatePage(c)
	}
	_, ok, err := h.session(c)
	if err != nil {
		return h.failure(c, err)
	}
	if !ok {
		return h.fail(c, http.StatusUnauthorized, "signed_out", "errors.signedOut", nil)
	}
	return h.failStatus(c, http.StatusNotFound)
}

// signInPage is the sign-in page; a member already signed in goes on.
func (h *staffHandlers) signInPage(c echo.Context) error {
	_, ok, err := h.session(c)
	if err != nil {
		return h.failure(c, err)
	}
	if ok {
		return c.Redirect(http.StatusSeeOther, safeStaffNext(c.QueryParam("next")))
	}
	return h.shell(c, http.StatusOK, "")
}

// safeStaffNext keeps a return path inside the workspace.
func safeStaffNext(next string) string {
	if strings.HasPrefix(next, "/staff") && !strings.HasPrefix(next, "//") && !strings.ContainsAny(next, "\\\r\n") {
		return next
	}
	return "/staff"
}

// linkPage is the page an invitation or a mailed link opens. It spends
// nothing (mail scanners open links): a press on its button does. A link
// that cannot be used is refused with a page that says why: 410 when it
// was used or ran out, 404 when it never existed. Since the answer tells
// a token's state, it counts against the sign-in limit, as using the link
// does: 429 over it, with a page that says so.
func (h *staffHandlers) linkPage(path string) echo.HandlerFunc {
	return func(c echo.Context) error {
		state := staff.TokenUnknown
		if ws := h.srv.Staff; ws != nil {
			if h.srv.throttled(c, h.signInLimiter) {
				return h.shell(c, http.StatusTooManyRequests, linkLimited)
			}
			var err error
			check := ws.CheckSignInLink
			if path == staffEnrolPath {
				check = ws.CheckInvitation
			}
			if state, err = check(c.Request().Context(), c.QueryParam("token")); err != nil {
				return h.failure(c, err)
			}
		}
		status := http.StatusOK
		switch state {
		case staff.TokenUsed, staff.TokenExpired:
			status = http.StatusGone
		case staff.TokenUnknown:
			status = http.StatusNotFound
		}
		return h.shell(c, status, string(state))
	}
}

// withID answers a request on the one thing the path's :id names: an id
// that is not a number is refused as an unknown one; with a body, the JSON
// body is read into it (a body decodeJSON refuses goes back to Echo's error
// handler); then answer gives the answer.
func (h *staffHandlers) withID(c echo.Context, body any, answer func(ctx context.Context, id int64) error) error {
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil {
		return h.refusal(c, staff.ErrNotFound)
	}
	if body != nil {
		if err := decodeJSON(c, staffBodyLimit, body); err != nil {
			return err
		}
	}
	return answer(c.Request().Context(), id)
}

// refusal answers an error of the workspace: the refusals the domain
// names with their status, anything else as a failure.
func (h *staffHandlers) refusal(c echo.Context, err error) error {
	var te *staff.TokenError
	switch {
	case errors.As(err, &te):
		status := http.StatusGone
		if te.State == staff.TokenUnknown {
			status = http.StatusNotFound
		}
		key := map[staff.TokenState]string{staff.TokenUsed: "errors.linkUsed", staff.TokenExpired: "errors.linkExpired"}[te.State]
		if key == "" {
			key = "errors.linkUnknown"
		}
		return h.fail(c, status, "link_"+string(te.State), key, nil)
	case errors.Is(err, staff.ErrNotFound):
		return h.failStatus(c, http.StatusNotFound)
	case errors.Is(err, staff.ErrCursor):
		return h.failStatus(c, http.StatusBadRequest)
	case errors.Is(err, staff.ErrInvalidEmail):
		return h.fail(c, http.StatusUnprocessableEntity, "invalid", "errors.invalidEmail", map[string]string{"email": "errors.invalidEmail"})
	case errors.Is(err, staff.ErrChooseAddresses):
		return h.fail(c, http.StatusUnprocessableEntity, "invalid", "errors.chooseAddresses", map[string]string{"addresses": "errors.chooseAddresses"})
	case errors.Is(err, staff.ErrCeremony):
		return h.fail(c, http.StatusBadRequest, "ceremony", "errors.ceremony", nil)
	case errors.Is(err, staff.ErrBusy):
		c.Response().Header().Set("Retry-After", "10")
		return h.failStatus(c, http.StatusServiceUnavailable)
	case errors.Is(err, staff.ErrNoPasskeys):
		return h.fail(c, http.StatusServiceUnavailable, "no_passkeys", "errors.noPasskeys", nil)
	case errors.Is(err, booking.ErrReason):
		return h.fail(c, http.StatusUnprocessableEntity, "invalid", "errors.reason", map[string]string{"reason": "errors.reason"})
	case errors.Is(err, booking.ErrStarted):
		return h.fail(c, http.StatusConflict, "started", "errors.started", nil)
	case errors.Is(err, booking.ErrCancelledAlready):
		return h.fail(c, http.StatusConflict, "cancelled_already", "errors.cancelledAlready", nil)
	case errors.Is(err, staff.ErrCancelledBooking):
		return h.fail(c, http.StatusConflict, "cancelled", "errors.cancelledAlready", nil)
	case errors.Is(err, staff.ErrNotYet):
		return h.fail(c, http.StatusConflict, "not_yet", "errors.notYet", nil)
	case errors.Is(err, staff.ErrCannotCancel):
		return h.failStatus(c, http.StatusServiceUnavailable)
	}
	return h.failure(c, err)
}
