package handlers

import (
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/northbeam/site/internal/site"
	"github.com/northbeam/site/internal/store"
)

// apiError is the JSON shape of every API error, the public API's and the
// staff workspace's.
type apiError struct {
	Error apiErrorBody `json:"error"`
}

type apiErrorBody struct {
	Code    string            `json:"code"`
	Message string            `json:"message"`
	Fields  map[string]string `json:"fields,omitempty"`
}

// errorCodes maps statuses to an error code and the locale key of its
// message, in content/locales for the public API and in
// content/staff/locales for the staff workspace.
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

// errorCode returns the error code of a status and the locale key of its
// message; a status without its own is a server error.
func errorCode(status int) (code, key string) {
	if c, ok := errorCodes[status]; ok {
		return c[0], c[1]
	}
	return "server_error", "errors.server"
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

// newAPIError returns the body of an API error with code, its message
// (locale key) and fields (field names to locale keys) in lang.
func newAPIError(locales *site.Locales, lang, code, key string, fields map[string]string, vars ...string) apiError {
	body := apiErrorBody{Code: code, Message: locales.T(lang, key, vars...)}
	if len(fields) > 0 {
		body.Fields = make(map[string]string, len(fields))
		for field, key := range fields {
			body.Fields[field] = locales.T(lang, key)
		}
	}
	return apiError{Error: body}
}

// apiErrorOf returns the body of the public API's error of status, its
// message in lang, and fields mapping field names to locale keys.
func (srv *Server) apiErrorOf(status int, lang string, fields map[string]string) apiError {
	code, key := errorCode(status)
	return newAPIError(srv.Build().Locales, lang, code, key, fields)
}

// readBody returns a request's body of at most limit bytes: an
// *echo.HTTPError with 413 beyond the limit, 400 when it cannot be read.
func readBody(c echo.Context, limit int64) ([]byte, error) {
	req := c.Request()
	if req.ContentLength > limit {
		return nil, echo.NewHTTPError(http.StatusRequestEntityTooLarge)
	}
	raw, err := io.ReadAll(http.MaxBytesReader(c.Response(), req.Body, limit))
	if _, tooLarge := errors.AsType[*http.MaxBytesError](err); tooLarge {
		return nil, echo.NewHTTPError(http.StatusRequestEntityTooLarge)
	}
	if err != nil {
		return nil, echo.NewHTTPError(http.StatusBadRequest)
	}
	return raw, nil
}

// readJSON returns the body of a JSON request of at most limit bytes, as
// readBody, and 415 for another media type.
func readJSON(c echo.Context, limit int64) ([]byte, error) {
	mediaType, _, err := mime.ParseMediaType(c.Request().Header.Get(echo.HeaderContentType))
	if err != nil || mediaType != echo.MIMEApplicationJSON {
		return nil, echo.NewHTTPError(http.StatusUnsupportedMediaType)
	}
	return readBody(c, limit)
}

// decodeJSON reads the body of a JSON request of at most limit bytes into
// v, as readJSON, and 400 when it is not JSON that fits v.
func decodeJSON(c echo.Context, limit int64, v any) error {
	raw, err := readJSON(c, limit)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return echo.NewHTTPError(http.StatusBadRequest)
	}
	return nil
}

// statusOf returns the status of an error of readBody, readJSON or
// decodeJSON.
func statusOf(err error) int {
	if he, ok := errors.AsType[*echo.HTTPError](err); ok {
		return he.Code
	}
	return http.StatusBadRequest
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
	b := srv.Build()
	req := c.Request()
	if isStaffPath(req.URL.Path) {
		srv.staffError(c, status)
		return
	}
	if isAPIPath(req.URL.Path) {
		_ = c.JSON(status, srv.apiErrorOf(status, requestLanguage(b.Info, "", req), nil))
		return
	}
	if status == http.StatusNotFound && req.Method == http.MethodGet {
		r, nfErr := b.NotFound(req.Context(), languageOf(b.Info, req.URL.Path).Code)
		if nfErr == nil {
			r.ServeHTTP(c.Response(), req)
			return
		}
		status = srv.failureStatus(c, nfErr)
	}
	if status >= http.StatusInternalServerError {
		srv.serverErrorPage(c, status)
		return
	}
	_, key := errorCode(status)
	_ = c.String(status, b.Locales.T(requestLanguage(b.Info, "", req), key)+"\n")
}

// serverErrorPage answers a page request that failed on our side.
func (srv *Server) serverErrorPage(c echo.Context, status int) {
	c.Response().Header().Set("Cache-Control", "no-store")
	b := srv.Build()
	if b == nil {
		_ = c.String(status, http.StatusText(status)+"\n")
		return
	}
	lang := languageOf(b.Info, c.Request().URL.Path)
	_, key := errorCode(status)
	message := b.Locales.T(lang.Code, key)
	page, err := b.ErrorPage(lang, message)
	if err != nil {
		_ = c.String(status, message+"\n")
		return
	}
	_ = c.HTMLBlob(status, page)
}
