package handlers

import (
	"net/http"
	"net/netip"
	"net/url"
	"strings"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	"github.com/northbeam/site/internal/config"
)

// The hardening of every response: security headers, the origin check of
// state-changing requests, a body limit as a backstop, and where the
// client's address comes from. router.go lists these middlewares.

// hstsValue is two years, the preload lists' minimum. Subdomains are left
// out: the consultancy's other hosts are not ours to force onto https.
const hstsValue = "max-age=63072000"

// bodyLimit bounds every request body, whatever the route; the endpoints
// have tighter limits of their own (contact 64 KB, booking 16 KB).
const bodyLimit = "256K"

// The content security policy: no inline script or style anywhere. The
// page data and JSON-LD are data blocks (<script type="application/json">
// and "application/ld+json"), which are never executed and need no hash.
// The consent banner's CSS is applied through constructed stylesheets,
// which style-src 'self' allows. Google's hosts are allowed only when
// analytics is configured, as Google documents them for GA4.
//
// Violations are reported to cspReportPath (cspreport.go), which logs them.
// Browsers with the Reporting API follow report-to, to the endpoint the
// Reporting-Endpoints header names (they honour it over https only, and
// then ignore report-uri); the others follow report-uri.
const (
	cspBase = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
		"connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; " +
		"frame-ancestors 'none'; form-action 'self'; manifest-src 'self'" + cspReporting
	cspAnalytics = "default-src 'self'; script-src 'self' https://*.googletagmanager.com; style-src 'self'; " +
		"img-src 'self' data: https://*.google-analytics.com https://*.googletagmanager.com; " +
		"connect-src 'self' https://*.google-analytics.com https://*.analytics.google.com https://*.googletagmanager.com; " +
		"font-src 'self'; object-src 'none'; base-uri 'none'; " +
		"frame-ancestors 'none'; form-action 'self'; manifest-src 'self'" + cspReporting
	cspReporting = "; report-uri " + cspReportPath + "; report-to csp"
)

// contentSecurityPolicy returns the policy of a site with the given GA4
// measurement ID (empty: no analytics).
func contentSecurityPolicy(measurementID string) string {
	if measurementID == "" {
		return cspBase
	}
	return cspAnalytics
}

// permissionsPolicy turns off the powerful features the site never uses.
// Only features Chromium recognises are listed: an unknown one (such as the
// retired interest-cohort, replaced by browsing-topics) is reported as an
// error in every visitor's console.
const permissionsPolicy = "accelerometer=(), autoplay=(), browsing-topics=(), camera=(), display-capture=(), " +
	"encrypted-media=(), geolocation=(), gyroscope=(), hid=(), idle-detection=(), magnetometer=(), " +
	"microphone=(), midi=(), payment=(), publickey-credentials-get=(), screen-wake-lock=(), serial=(), " +
	"usb=(), xr-spatial-tracking=()"

// secureHeaders sets the security headers on every response, before the
// handler runs, so that pages, assets, API answers, errors, 404s and the
// answer to a panic all carry them. Their values are made once (see
// headerField) and assigned to the header map under their canonical names.
func (srv *Server) secureHeaders(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		h := c.Response().Header()
		for _, f := range securityHeaders {
			h[f.key] = f.value
		}
		csp := cspBaseField
		if b := srv.Build(); b != nil && b.Options().GAMeasurementID != "" {
			csp = cspAnalyticsField
		}
		h["Content-Security-Policy"] = csp
		if srv.overHTTPS(c.Request()) {
			h["Strict-Transport-Security"] = hstsField
		}
		return next(c)
	}
}

// headerField is a response header field whose value is made once and
// shared by every answer that carries it: its key is canonical, and its
// value has room for nothing more, so that Header.Add appends to a copy
// (net/http only reads it).
type headerField struct {
	key   string
	value []string
}

func newHeaderField(key, value string) headerField {
	return headerField{key: http.CanonicalHeaderKey(key), value: []string{value}[:1:1]}
}

// The security headers' values, made once.
var (
	securityHeaders = []headerField{
		newHeaderField("Reporting-Endpoints", cspReportEndpoint),
		newHeaderField("X-Content-Type-Options", "nosniff"),
		newHeaderField("Referrer-Policy", "strict-origin-when-cross-origin"),
		newHeaderField("Permissions-Policy", permissionsPolicy),
		newHeaderField("Cross-Origin-Opener-Policy", "same-origin"),
		newHeaderField("Cross-Origin-Resource-Policy", "same-origin"),
		newHeaderField("X-Frame-Options", "DENY"), // frame-ancestors, for browsers without CSP 2
	}
	cspBaseField      = newHeaderField("Content-Security-Policy", contentSecurityPolicy("")).value
	cspAnalyticsField = newHeaderField("Content-Security-Policy", cspAnalytics).value
	hstsField         = newHeaderField("Strict-Transport-Security", hstsValue).value
)

// overHTTPS reports whether Strict-Transport-Security belongs on the answer
// to req. A forwarded scheme is believed only from a trusted proxy.
func (srv *Server) overHTTPS(req *http.Request) bool {
	switch srv.HSTS {
	case config.HSTSOff:
		return false
	case config.HSTSAlways:
		return true
	}
	if req.TLS != nil {
		return true
	}
	return srv.TrustProxy && strings.EqualFold(req.Header.Get(echo.HeaderXForwardedProto), "https")
}

// checkOrigin refuses state-changing requests (POST, PUT, PATCH, DELETE)
// sent by another site with 403. A browser says where a request comes from
// in Sec-Fetch-Site (same-origin and none pass), or else in Origin, which
// must be the site's public origin (BASE_URL) or the request's own host.
// A request with neither header is not from a browser (curl, a server, a
// monitor): it cannot carry a visitor's cookies or intent, so it passes,
// and the rate limits apply to it as to everyone.
func (srv *Server) checkOrigin() echo.MiddlewareFunc {
	protection := http.NewCrossOriginProtection()
	if b := srv.Build(); b != nil {
		if u, err := url.Parse(b.Options().BaseURL); err == nil && u.Scheme != "" && u.Host != "" {
			_ = protection.AddTrustedOrigin(u.Scheme + "://" + u.Host)
		}
	}
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			req := c.Request()
			if err := protection.Check(req); err != nil {
				srv.log.Warn("cross-origin request refused", "id", requestID(c), "method", req.Method,
					"path", logPath(req.URL.Path), "sec_fetch_site", req.Header.Get("Sec-Fetch-Site"))
				return echo.NewHTTPError(http.StatusForbidden)
			}
			return next(c)
		}
	}
}

// limitBodies is the backstop limit on every request body: 413 beyond it.
func limitBodies() echo.MiddlewareFunc {
	return middleware.BodyLimit(bodyLimit)
}

// ipExtractor says where c.RealIP, which the rate limits count by, comes
// from: the connection's peer, unless a proxy on a private network in front
// is trusted to say who its client was in X-Forwarded-For.
func (srv *Server) ipExtractor() echo.IPExtractor {
	if srv.TrustProxy {
		// Loopback, link-local and private ranges are trusted by default.
		return echo.ExtractIPFromXFFHeader()
	}
	return echo.ExtractIPDirect()
}

// assignRequestID gives every request the id that its log lines carry and
// the X-Request-Id header of its answer states. The id is made here, unless
// a proxy in front is trusted (TrustProxy, and the request comes from a
// loopback or private address, as for X-Forwarded-For) and passed on a
// short, plain id of its own, so that its log and ours name the request
// alike. A client's own X-Request-Id is never used nor echoed: it could be
// of any length, and say anything in our logs.
func (srv *Server) assignRequestID(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		id := ""
		if req := c.Request(); srv.TrustProxy {
			id = req.Header.Get(echo.HeaderXRequestID)
			if !plainRequestID(id) || !fromPrivateNetwork(req.RemoteAddr) {
				id = "" // a new one
			}
		}
		c.Response().Header()[echo.HeaderXRequestID] = srv.requestIDs.header(id)
		return next(c)
	}
}

// maxRequestID is the longest id taken from a proxy: a UUID is 36
// characters, nginx's $request_id 32.
const maxRequestID = 64

// plainRequestID reports whether id is 1 to maxRequestID ASCII letters,
// digits, '-', '_' or '.'.
func plainRequestID(id string) bool {
	if id == "" || len(id) > maxRequestID {
		return false
	}
	for i := 0; i < len(id); i++ {
		switch c := id[i]; {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '-', c == '_', c == '.':
		default:
			return false
		}
	}
	return true
}

// fromPrivateNetwork reports whether a connection's peer (host:port) is on
// a loopback, link-local or private address: where ipExtractor trusts a
// proxy.
func fromPrivateNetwork(remoteAddr string) bool {
	ap, err := netip.ParseAddrPort(remoteAddr)
	if err != nil {
		return false
	}
	a := ap.Addr().Unmap()
	return a.IsLoopback() || a.IsPrivate() || a.IsLinkLocalUnicast()
}

// bookingWord reports whether seg, a segment under /api/bookings/, names
// an action; any other segment may be a booking's token.
func bookingWord(seg string) bool {
	switch seg {
	case "cancel", "reschedule":
		return true
	}
	return false
}

// logPath is a request's path as logs show it: a token, which opens a
// booking (the visitor's name and email) or a staff link, is masked in
// whatever form the path holds it, by one rule that ignores case: every
// segment after /api/bookings/ (anywhere in the path, however many
// slashes) that is not an action's word reads {token}, followed by ".ics"
// if it ended so; and the value of any token= (a ;token= parameter
// written into the path) reads {token}. The query is never logged.
func logPath(p string) string {
	if !containsFold(p, "/bookings/") && !containsFold(p, "token=") {
		return p // the common case, without an allocation
	}
	segments := strings.Split(p, "/")
	var prev string // the last non-empty segment
	under := false  // after /api/bookings/
	for i, seg := range segments {
		if seg == "" {
			continue
		}
		switch {
		case under && !bookingWord(seg):
			masked := "{token}"
			if len(seg) > len(".ics") && strings.EqualFold(seg[len(seg)-len(".ics"):], ".ics") {
				masked += ".ics"
			}
			segments[i] = masked
		case strings.EqualFold(prev, "api") && strings.EqualFold(seg, "bookings"):
			under = true
		default:
			segments[i] = maskTokenParams(seg)
		}
		prev = seg
	}
	return strings.Join(segments, "/")
}

// maskTokenParams replaces the value of every token= in seg (in any case)
// up to the next ';', '&' or ',' with {token}.
func maskTokenParams(seg string) string {
	const key = "token="
	var b strings.Builder
	for {
		i := indexFold(seg, key)
		if i < 0 {
			if b.Len() == 0 {
				return seg
			}
			b.WriteString(seg)
			return b.String()
		}
		b.WriteString(seg[:i+len(key)])
		b.WriteString("{token}")
		seg = seg[i+len(key):]
		if end := strings.IndexAny(seg, ";&,"); end >= 0 {
			seg = seg[end:]
		} else {
			seg = ""
		}
	}
}

// indexFold is strings.Index ignoring ASCII case, without allocating.
func indexFold(s, sub string) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		if strings.EqualFold(s[i:i+len(sub)], sub) {
			return i
		}
	}
	return -1
}

func containsFold(s, sub string) bool { return indexFold(s, sub) >= 0 }
