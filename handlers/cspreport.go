package handlers

import (
	"encoding/json"
	"log/slog"
	"mime"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
)

// registerCSPReport serves the endpoint the content security policy sends
// its violation reports to (security.go names it twice: report-uri for
// browsers without the Reporting API, report-to for those with it), so that
// a policy that breaks something in production shows in the logs.
func registerCSPReport(e *echo.Echo, srv *Server) {
	limiter := newRateLimiter(cspReportRate)
	e.POST(cspReportPath, func(c echo.Context) error {
		return srv.cspReport(c, limiter)
	})
}

// cspReportPath is where reports go; same-origin, so browsers send them
// without a preflight and with the page's own origin.
const cspReportPath = "/api/csp-report"

// cspReportEndpoint is the Reporting-Endpoints header, naming the group
// that the policy's report-to directive points at.
const cspReportEndpoint = `csp="` + cspReportPath + `"`

// The endpoint's bounds: a report is a few hundred bytes, a batch from the
// Reporting API a few of them. A page that breaks sends one report per
// blocked load, so the rate is per client and generous, but bounded.
const (
	cspReportBodyLimit   = 64 << 10
	cspReportsPerRequest = 20 // reports logged from one batch; the rest are counted
)

var cspReportRate = RateLimit{Requests: 60, Window: time.Minute}

// cspReportBody is the part of a violation report that is logged, in the
// two shapes browsers send: report-uri's {"csp-report": {...}} with
// hyphenated names, and the Reporting API's [{"type": "csp-violation",
// "body": {...}}] in camel case. The sample, the referrer and the line's
// text are never read: they can hold what a visitor typed.
type cspReportBody struct {
	DocumentURI        string `json:"document-uri"`
	EffectiveDirective string `json:"effective-directive"`
	ViolatedDirective  string `json:"violated-directive"`
	BlockedURI         string `json:"blocked-uri"`
	SourceFile         string `json:"source-file"`
	LineNumber         int    `json:"line-number"`
	Disposition        string `json:"disposition"`

	DocumentURL     string `json:"documentURL"`
	Directive       string `json:"effectiveDirective"`
	BlockedURL      string `json:"blockedURL"`
	SourceFileCamel string `json:"sourceFile"`
	LineNumberCamel int    `json:"lineNumber"`
}

// cspReport reads one request of reports and logs each violation: 204,
// or 413, 415, 400 or 429 without logging anything more.
func (srv *Server) cspReport(c echo.Context, limiter *rateLimiter) error {
	if srv.throttled(c, limiter) {
		return echo.NewHTTPError(http.StatusTooManyRequests)
	}
	req := c.Request()
	mediaType, _, err := mime.ParseMediaType(req.Header.Get(echo.HeaderContentType))
	if err != nil {
		return echo.NewHTTPError(http.StatusUnsupportedMediaType)
	}
	raw, err := readBody(c, cspReportBodyLimit)
	if err != nil {
		return err
	}
	var reports []cspReportBody
	switch mediaType {
	case "application/csp-report", echo.MIMEApplicationJSON:
		var one struct {
			Report *cspReportBody `json:"csp-report"`
		}
		if err := json.Unmarshal(raw, &one); err != nil || one.Report == nil {
			return echo.NewHTTPError(http.StatusBadRequest)
		}
		reports = append(reports, *one.Report)
	case "application/reports+json":
		var batch []struct {
			Type string        `json:"type"`
			Body cspReportBody `json:"body"`
		}
		if err := json.Unmarshal(raw, &batch); err != nil {
			return echo.NewHTTPError(http.StatusBadRequest)
		}
		for _, r := range batch {
			if r.Type == "csp-violation" {
				reports = append(reports, r.Body)
			}
		}
	default:
		return echo.NewHTTPError(http.StatusUnsupportedMediaType)
	}
	for i, r := range reports {
		if i == cspReportsPerRequest {
			srv.log.Warn("csp violations not logged", "id", requestID(c), "count", len(reports)-i)
			break
		}
		srv.log.LogAttrs(req.Context(), slog.LevelWarn, "csp violation",
			slog.String("id", requestID(c)),
			slog.String("directive", cspDirective(r)),
			slog.String("blocked", blockedOrigin(first(r.BlockedURI, r.BlockedURL))),
			slog.String("document", documentPath(first(r.DocumentURI, r.DocumentURL))),
			slog.String("source", sourceOf(first(r.SourceFile, r.SourceFileCamel))),
			slog.Int("line", max(r.LineNumber, r.LineNumberCamel)),
			slog.String("disposition", cspKeyword(r.Disposition)),
		)
	}
	return c.NoContent(http.StatusNoContent)
}

func first(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

var cspWord = regexp.MustCompile(`^[a-z][a-z0-9-]{0,39}$`)

// cspKeyword is s when it is a directive name or a keyword, else "other":
// nothing a page put there reaches the log.
func cspKeyword(s string) string {
	if s == "" {
		return "-"
	}
	if cspWord.MatchString(s) {
		return s
	}
	return "other"
}

func cspDirective(r cspReportBody) string {
	d := first(r.EffectiveDirective, r.Directive)
	if d == "" {
		// CSP 2 browsers name the directive with its value.
		d, _, _ = strings.Cut(r.ViolatedDirective, " ")
	}
	return cspKeyword(d)
}

// blockedOrigin is what was blocked, down to the origin: a keyword
// ("inline", "eval"), a scheme ("data", "blob") or scheme://host[:port].
// Paths and queries stay out of the log: they can hold tokens.
func blockedOrigin(s string) string {
	if s == "" {
		return "-"
	}
	if cspWord.MatchString(s) {
		return s
	}
	u, err := url.Parse(s)
	if err != nil || u.Scheme == "" || !cspWord.MatchString(strings.ToLower(u.Scheme)) {
		return "other"
	}
	scheme := strings.ToLower(u.Scheme)
	if u.Host == "" {
		return scheme
	}
	return scheme + "://" + strings.ToLower(u.Host)
}

// documentPath is the path of the page the violation happened on, masked
// as request logs mask it, without its query.
func documentPath(s string) string {
	u, err := url.Parse(s)
	if err != nil || u.Path == "" {
		return "-"
	}
	p := logPath(u.Path)
	if len(p) > 200 {
		p = p[:200] + "..."
	}
	return p
}

// sourceOf is the script a violation came from: its path when it is one of
// the site's assets, else its origin.
func sourceOf(s string) string {
	if s == "" {
		return "-"
	}
	u, err := url.Parse(s)
	if err == nil && strings.HasPrefix(u.Path, "/assets/") {
		return documentPath(s)
	}
	return blockedOrigin(s)
}
