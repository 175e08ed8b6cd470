package handlers

import (
	"errors"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/northbeam/site/internal/store"
)

// apiError is the JSON shape of every API error (DESIGN.md).
type apiError struct {
	Error apiErrorBody `json:"error"`
}

type apiErrorBody struct {
	Code    string            `json:"code"`
	Message string            `json:"message"`
	Fields  map[string]string `json:"fields,omitempty"`
}

// errorCodes maps statuses to an error code and the locale key of its message.
var errorCodes = map[int][2]string{
	http.StatusBadRequest:            {"bad_request", "errors.badRequest"},
	http.StatusForbidden:             {"forbidden", "errors.forbidden"},
	http.StatusNotFound:              {"not_found", "errors.notFound"},
	http.StatusMethodNotAllowed:      {"method_not_allowed", "errors.methodNotAllowed"},
	http.StatusRequestEntityTooLarge: {"too_large", "errors.tooLarge"},
	http.StatusUnsupportedMediaType:  {"unsupported_type", "errors.unsupportedType"},
	http.StatusTooManyRequests:       {"rate_limited", "errors.rateLimited"},
	http.StatusUnprocessableEntity:   {"invalid", "validation.invalid"},
	http.StatusServiceUnavailable:    {"unavailable", "errors.unavailable"},
}

// unavailableRetryAfter is what a 503 asks clients to wait, in seconds:
// about as long as a database restart or a failover takes.
const unavailableRetryAfter = "10"

// failureStatus is the status of an error that a handler cannot answer
// otherwise: 503 with Retry-After when the database is unavailable (not
// ready, unreachable, full, read-only, locked), 500 for the rest. It logs
// the error once.
func (srv *Server) failureStatus(c echo.Context, err error) int {
	if store.IsUnavailable(err) {
		srv.log.Warn("database unavailable", "id", requestID(c), "path", logPath(c.Request().URL.Path), "err", err)
		c.Response().Header().Set("Retry-After", unavailableRetryAfter)
		return http.StatusServiceUnavailable
	}
	srv.log.Error("handler error", "id", requestID(c), "path", logPath(c.Request().URL.Path), "err", err)
	return http.StatusInternalServerError
}

// errorCode returns the error code of a status and the locale key of its
// message; a status without its own is a server error.
func errorCode(status int) (code, key string) {
	if c, ok := errorCodes[status]; ok {
		return c[0], c[1]
	}
	return "server_error", "errors.server"
}

// newAPIError returns the body of an API error with the given status, its
// message in lang, and fields mapping field names to locale keys.
func (s *Site) newAPIError(status int, lang string, fields map[string]string) apiError {
	code, key := errorCode(status)
	body := apiErrorBody{Code: code, Message: s.Locales.T(lang, key)}
	if len(fields) > 0 {
		body.Fields = make(map[string]string, len(fields))
		for field, key := range fields {
			body.Fields[field] = s.Locales.T(lang, key)
		}
	}
	return apiError{Error: body}
}

// isAPIPath reports whether p is under /api, whose answers are JSON, errors
// included, whether or not a route holds p.
func isAPIPath(p string) bool {
	return p == "/api" || strings.HasPrefix(p, "/api/")
}

// handleError answers errors that reached Echo: JSON for the API, the
// localized 404 page or a plain message for the rest.
func (srv *Server) handleError(err error, c echo.Context) {
	if c.Response().Committed {
		return
	}
	var status int
	var he *echo.HTTPError
	if errors.As(err, &he) {
		status = he.Code
	} else {
		status = srv.failureStatus(c, err)
	}
	s := srv.Site()
	req := c.Request()
	if isStaffPath(req.URL.Path) {
		srv.staffError(c, status)
		return
	}
	if isAPIPath(req.URL.Path) {
		_ = c.JSON(status, s.newAPIError(status, requestLanguage(s, "", req), nil))
		return
	}
	if status == http.StatusNotFound && req.Method == http.MethodGet {
		s.notFound[s.languageOf(req.URL.Path).Code].ServeHTTP(c.Response(), req)
		return
	}
	if status >= http.StatusInternalServerError {
		srv.serverErrorPage(c, status)
		return
	}
	_, key := errorCode(status)
	_ = c.String(status, s.Locales.T(requestLanguage(s, "", req), key)+"\n")
}
