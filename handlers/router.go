// Package handlers holds the HTTP surface of the site: localized pages, the
// JSON API, assets and health checks. Each file opens with the function that
// registers its routes; New lists the middlewares and calls them all.
package handlers

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/northbeam/site/internal/accesslog"
	"github.com/northbeam/site/internal/booking"
	"github.com/northbeam/site/internal/calendar"
	"github.com/northbeam/site/internal/config"
	"github.com/northbeam/site/internal/contact"
	"github.com/northbeam/site/internal/sitebuild"
	"github.com/northbeam/site/internal/staff"
	"github.com/northbeam/site/internal/store"
)

// Services are the domain services behind the API.
type Services struct {
	Log     *slog.Logger
	Store   *store.Store     // nil in tests that serve pages only
	Contact *contact.Service // nil in tests that serve pages only
	Booking *booking.Service // nil in tests that serve pages only
	// Calendar is the consultancy's calendar feeds, whose state /readyz
	// reports; nil when there are none.
	Calendar *calendar.Source
	Now      func() time.Time // default time.Now
	// ContactRate limits contact posts per client; unset, the
	// configuration's default.
	ContactRate RateLimit
	// BookingRate limits booking and cancellation posts per client; unset,
	// the configuration's default.
	BookingRate RateLimit
	// SlotsRate limits slot queries per client; unset, config.SlotsRateLimit.
	SlotsRate RateLimit
	// TrustProxy believes X-Forwarded-For and X-Forwarded-Proto from a
	// proxy on a loopback or private address; default false.
	TrustProxy bool
	// HSTS is when Strict-Transport-Security is sent: config.HSTSAuto
	// (default, over https), config.HSTSAlways or config.HSTSOff.
	HSTS string

	// Dev is the -dev loop, which tells open pages of new builds and
	// errors; nil (production) serves nothing of it.
	Dev *DevLoop

	// Staff is the staff workspace under /staff; nil (tests that serve
	// pages only) answers there as to someone signed out.
	Staff *staff.Workspace
	// StaffSignInRate limits staff sign-in attempts (passkey ceremonies,
	// invitations and mailed links used) per client; default 20 per 10
	// minutes.
	StaffSignInRate RateLimit
	// StaffLinkRate limits requests for a mailed sign-in link per client,
	// and per address asked for; default 5 per hour.
	StaffLinkRate RateLimit
	// AccessLog receives the line of each request, written in batches off
	// the request path; nil: the line goes to Log, as any other.
	AccessLog *accesslog.Writer
}

// Server is the state the handlers share: the services, and the current
// build of the site, which -dev mode swaps when a file changes.
type Server struct {
	Services
	build atomic.Pointer[sitebuild.Build]
	log   *slog.Logger

	contactLimiter limiter
	bookingLimiter limiter
	slotsLimiter   limiter

	requestIDs requestIDs

	// draining is set when the instance is asked to stop: /readyz fails so
	// that a load balancer sends no more, and every answer closes its
	// connection, so that a proxy's pooled connections leave cleanly.
	draining atomic.Bool
	// prerendering counts the renders of the site's pages still running
	// behind the start: /readyz fails until they are done.
	prerendering atomic.Int32
	// firstPage is closed when the first page has been answered.
	firstPage     chan struct{}
	firstPageOnce sync.Once
}

// NewServer returns a Server serving the site b built.
func NewServer(b *sitebuild.Build, svc Services) *Server {
	if svc.Log == nil {
		svc.Log = slog.Default()
	}
	if svc.Now == nil {
		svc.Now = time.Now
	}
	defaults := config.Default()
	srv := &Server{
		Services: svc, log: svc.Log,
		contactLimiter: newLimiter(svc.Store, "contact", svc.ContactRate.Or(defaults.ContactRateLimit)),
		bookingLimiter: newLimiter(svc.Store, "booking", svc.BookingRate.Or(defaults.BookingRateLimit)),
		slotsLimiter:   newLimiter(svc.Store, "slots", svc.SlotsRate.Or(config.SlotsRateLimit())),
		firstPage:      make(chan struct{}),
	}
	srv.build.Store(b)
	return srv
}

// notReady says why the site cannot serve, or "" when it can: it is not
// stopping, the site is built and the database answers.
func (srv *Server) notReady(ctx context.Context) string {
	switch {
	case srv.draining.Load():
		return "shutting down"
	case srv.Build() == nil:
		return "the site is not built"
	case srv.prerendering.Load() > 0:
		return "rendering the pages"
	case srv.Store != nil && !srv.Store.Ready():
		return "waiting for the database"
	case srv.Store != nil:
		if err := srv.Store.Check(ctx); errors.Is(err, store.ErrRefusesWrites) {
			return "the database refuses writes"
		} else if err != nil {
			return "the database does not answer"
		}
	}
	return ""
}

// Prerendering makes /readyz fail until the function it returns is
// called: while the pages are rendered behind the start, a load balancer
// waits, a developer does not.
func (srv *Server) Prerendering() (done func()) {
	srv.prerendering.Add(1)
	var once sync.Once
	return func() { once.Do(func() { srv.prerendering.Add(-1) }) }
}

// FirstPage is closed once a page has been answered: the renders behind
// the start wait for it a moment, so that they do not slow the first page
// a developer asks for.
func (srv *Server) FirstPage() <-chan struct{} { return srv.firstPage }

// Drain makes the instance fail /readyz and close every connection after
// its answer, the first step of a graceful stop; the caller then waits a
// moment and shuts the HTTP server down.
func (srv *Server) Drain() {
	srv.draining.Store(true)
	if srv.Dev != nil {
		srv.Dev.Close()
	}
}

// Build returns the build of the site being served.
func (srv *Server) Build() *sitebuild.Build { return srv.build.Load() }

// Swap replaces the build being served, as -dev mode does after a rebuild.
func (srv *Server) Swap(b *sitebuild.Build) { srv.build.Store(b) }

// Handler is the whole HTTP surface: Echo's router, context and error
// handling, with the middlewares composed once, when New is called. (Echo's
// own ServeHTTP composes them again for every request, which costs an
// allocation per middleware.) Routes are added through Echo; a middleware
// is added to the list in New, as Echo's Use and Pre are not honoured; serve
// through Handler, never through Echo, which would skip the middlewares.
type Handler struct {
	Echo  *echo.Echo
	chain echo.HandlerFunc // the middlewares around the route's handler
}

// New returns the handler with every middleware and route.
func New(srv *Server) *Handler {
	e := echo.New()
	e.HideBanner = true
	e.HidePort = true
	e.HTTPErrorHandler = srv.handleError
	e.IPExtractor = srv.ipExtractor()

	registerHealth(e, srv)
	registerCSPReport(e, srv)
	registerAssets(e, srv)
	registerPageAPI(e, srv)
	registerAPIFallback(e)
	registerContact(e, srv)
	registerBooking(e, srv)
	registerBlog(e, srv)
	registerStaff(e, srv)
	registerSEO(e, srv)
	if srv.Dev != nil {
		registerDev(e, srv)
	}
	registerPages(e, srv)

	// The middlewares, outermost first.
	middlewares := []echo.MiddlewareFunc{
		srv.assignRequestID,
		srv.secureHeaders, // before the rest: errors and panics carry the headers too
	}
	if srv.Dev != nil {
		middlewares = append(middlewares, srv.withDevClient) // around the error handler's pages too
	}
	middlewares = append(middlewares,
		srv.closeWhenDraining,
		srv.logRequests,
		srv.recoverPanics, // inside logRequests, which logs the 500
		srv.checkOrigin(),
		limitBodies(),
	)
	// The route Echo's router found for the request, or its 404 or 405.
	chain := func(c echo.Context) error { return c.Handler()(c) }
	for i := len(middlewares) - 1; i >= 0; i-- {
		chain = middlewares[i](chain)
	}
	return &Handler{Echo: e, chain: chain}
}

// ServeHTTP is Echo's ServeHTTP with the chain made once: it routes the
// request, runs the middlewares and the route's handler, and answers an
// error that reaches it with the error handler.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	c := h.Echo.AcquireContext()
	c.Reset(r, w)
	h.Echo.Router().Find(r.Method, echo.GetPath(r), c)
	if err := h.chain(c); err != nil {
		h.Echo.HTTPErrorHandler(err, c)
	}
	h.Echo.ReleaseContext(c)
}

// closeWhenDraining asks for the connection to be closed after the answer
// once the instance is stopping: a proxy then drops its pooled connection
// on its own, instead of sending the next request down a connection that
// the shutdown closes under it.
func (srv *Server) closeWhenDraining(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if srv.draining.Load() {
			c.Response().Header().Set(echo.HeaderConnection, "close")
		}
		return next(c)
	}
}

// logRequests writes one structured line per request, without anything a
// visitor typed.
func (srv *Server) logRequests(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		start := time.Now()
		err := next(c)
		if err != nil {
			c.Error(err)
		}
		end := time.Now()
		req, res := c.Request(), c.Response()
		if srv.AccessLog != nil {
			srv.AccessLog.Log(accesslog.Entry{
				Time: end, ID: requestID(c), Method: req.Method, Path: logPath(req.URL.Path),
				Status: res.Status, Bytes: res.Size, Duration: end.Sub(start),
			})
			return nil
		}
		srv.log.LogAttrs(req.Context(), slog.LevelInfo, "request",
			slog.String("id", requestID(c)),
			slog.String("method", req.Method),
			slog.String("path", logPath(req.URL.Path)),
			slog.Int("status", res.Status),
			slog.Int64("bytes", res.Size),
			slog.Duration("duration", end.Sub(start)),
		)
		return nil
	}
}

// recoverPanics turns a panic into a 500 without internals.
func (srv *Server) recoverPanics(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) (err error) {
		defer func() {
			if r := recover(); r != nil {
				if r == http.ErrAbortHandler {
					panic(r)
				}
				srv.log.Error("panic", "id", requestID(c),
					"path", logPath(c.Request().URL.Path), "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
				err = echo.NewHTTPError(http.StatusInternalServerError)
			}
		}()
		return next(c)
	}
}
