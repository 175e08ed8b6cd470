package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	netmail "net/mail"
	"os"
	"os/signal"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/northbeam/site/handlers"
	"github.com/northbeam/site/internal/accesslog"
	"github.com/northbeam/site/internal/assets"
	"github.com/northbeam/site/internal/booking"
	"github.com/northbeam/site/internal/calendar"
	"github.com/northbeam/site/internal/config"
	"github.com/northbeam/site/internal/contact"
	"github.com/northbeam/site/internal/intl"
	"github.com/northbeam/site/internal/mail"
	"github.com/northbeam/site/internal/site"
	"github.com/northbeam/site/internal/sitebuild"
	"github.com/northbeam/site/internal/store"
	"github.com/northbeam/site/render"
)

// serveCommand runs the site until SIGINT or SIGTERM, with its access log
// to accessLog. The pages come up first; the database connects behind them.
func serveCommand(args []string, getenv func(string) string, log *slog.Logger, accessLog *accesslog.Writer) error {
	started := time.Now()
	cfg, err := config.Load(args, getenv)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprintf(os.Stdout, "Usage: %s [flags]           serve the site\n       %s COMMAND [flags]   build, messages, migrate-db, backup, staff (README.md, Commands)\n\n"+
			"Each flag is also read from its environment variable, its name in upper case (-data_dir: DATA_DIR); a flag wins.\n", program, program)
		config.Usage(os.Stdout)
		return nil
	}
	if err != nil {
		return fmt.Errorf("configuration: %w", err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	src := projectSources(cfg)
	if cfg.Dev {
		// -dev from the project's sources watches the Go code too: the
		// server runs as a child of the watcher (devrestart.go).
		if why := goWatchable(cfg, src.embedded != nil); why == "" {
			stop()
			return superviseGo(cfg, args, log)
		} else if !devChild() {
			log.Info("Go changes are not watched", "why", why)
		}
	}
	if cfg.Dev && src.embedded == nil {
		if src.builder, err = assets.NewBuilder(src.root); err != nil {
			return err
		}
		src.memo = render.NewMemo()
		// The session's renders wait on disk, not in the heap.
		if err := src.memo.SpillTo(devCache(cfg)); err != nil {
			log.Warn("the renders of the session stay in memory", "err", err)
		}
		src.missing = &missingSink{root: src.root}
		src.kept.parsed = sitebuild.NewParsed()
	}
	// What a start keeps for its life (the posts, the plan, the pages'
	// headers) is made among the garbage of the bundles' build, the loading
	// and, in a production binary, its pages: the collector runs at half
	// its target until the content is loaded (until the pages are taken,
	// in a production binary), which packs what is kept into fewer spans
	// (denseDuringPrerender).
	restoreGC := denseDuringPrerender(src.embedded == nil || embeddedPosts() >= denseAbovePosts)
	// The bundles build while the database and the services start.
	src.prebuild()
	// The renders' cache is salted with this program's hash, read beside
	// the rest of the start, once for both of its readers.
	program := sync.OnceValues(func() ([]byte, error) { return programSalt(src.embedded) })
	renders := make(chan *render.DiskCache, 1)
	go func() { renders <- openRenders(cfg, program, log) }()
	// So is the content's index (a JSON file of megabytes at a thousand
	// posts a language), named by the same hash.
	parsed := make(chan *sitebuild.Parsed, 1)
	go func(kept *sitebuild.Parsed) { parsed <- openParsed(cfg, program, kept, log) }(src.kept.parsed)
	content, info, err := src.siteContent()
	if err != nil {
		return err
	}
	cfg = withSiteEmail(cfg, info)
	st, err := openServingStore(ctx, cfg)
	if err != nil {
		return err
	}
	defer st.Close()
	av, err := booking.LoadAvailability(content, "availability.json")
	if err != nil {
		return err
	}
	bg, err := startBackground(ctx, st, cfg, av, log)
	if err != nil {
		return err
	}
	defer bg.stop()
	dates, err := src.dates(info)
	if err != nil {
		return err
	}
	// The mails name the hosts as the team's pages do, from the site
	// being served (a -dev edit of a person reaches them too).
	var serving atomic.Pointer[handlers.Server]
	people := func(lang, slug string) (booking.HostProfile, bool) {
		srv := serving.Load()
		if srv == nil || srv.Build() == nil {
			return booking.HostProfile{}, false
		}
		card, ok := srv.Build().HostCard(lang, slug)
		return booking.HostProfile{Name: card.Name, Role: card.Role}, ok
	}
	services, err := newServices(st, content, info, dates, cfg, av, bg, people, log)
	if err != nil {
		return err
	}
	services.AccessLog = accessLog

	src.kept.renders = <-renders
	// `go run .` listens before the content is loaded: requests wait for
	// the site (handlers.Starting); the dev loop and a production binary
	// build it first (docs/ARCHITECTURE.md, Starting).
	var built *sitebuild.Build
	early := src.embedded == nil && src.builder == nil
	if !early {
		src.kept.parsed = <-parsed
		if built, err = src.buildSite(ctx, cfg, log); err != nil {
			return err
		}
		saveIndex(src.kept.parsed, log)
	}
	srv := handlers.NewServer(built, services)
	serving.Store(srv)
	if src.builder != nil {
		srv.Dev = handlers.NewDevLoop(built)
		src.missing.to(srv.Dev)
	}
	// A production binary takes its pages from its build before it listens;
	// any other start listens at once, renders a page on its first request
	// and the rest behind, and /readyz waits for them (docs/ARCHITECTURE.md,
	// Rendering).
	rendering := srv.Prerendering()
	if src.embedded != nil {
		// The build's renders are in the pages now: the memo that held them
		// is let go before the memory goes back to the system.
		prerender(ctx, built, 0, log, func() {
			built.Engine.ForgetMemo()
			pruneRenders(ctx, src.kept.renders, log)
		})
		rendering()
	}
	if !early {
		restoreGC() // -dev's prerender sets its own
	}
	var starting *handlers.Starting
	var handler http.Handler
	if early {
		locales, err := site.LoadLocales(content, "locales", info)
		if err != nil {
			return err
		}
		starting = handlers.NewStarting(srv, info, locales, handlers.StartingWait)
		handler = starting
	} else {
		handler = handlers.New(srv)
	}
	front, err := listen(cfg, srv, handler, log)
	if err != nil {
		return err
	}
	if early {
		log.Info("listening; rendering the pages behind", "addr", front.listener.Addr().String(), "dev", cfg.Dev,
			"start_to_listen", time.Since(started).Round(time.Millisecond))
		src.kept.parsed = <-parsed
		if built, err = src.buildSite(ctx, cfg, log); err != nil {
			_ = front.http.Close()
			return err
		}
		starting.Serve(built)
		posts, _, _ := src.kept.parsed.Parses()
		log.Info("content loaded", "start_to_loaded", time.Since(started).Round(time.Millisecond), "posts_parsed", posts)
		restoreGC()
		saveIndex(src.kept.parsed, log)
	}
	// The retention job, which may be due at a start (and its first run on
	// a large database takes a while), runs behind the listening server,
	// never before it answers (docs/ARCHITECTURE.md, Data).
	go services.Staff.RunRetentionDaily(bg.ctx)
	ready := func() {
		rendered, fromBuild := built.Engine.Counts()
		var fromCache int64
		if src.kept.renders != nil {
			fromCache, _ = src.kept.renders.Counts()
		}
		log.Info("ready", "addr", front.listener.Addr().String(), "base_url", cfg.BaseURL, "dev", cfg.Dev,
			"start_to_ready", time.Since(started).Round(time.Millisecond), "pages_rendered", rendered, "pages_from_build", fromBuild,
			"from_renders_cache", fromCache)
	}
	// The pictures' copies are made behind, and those the content no
	// longer has removed once they are (imageCopies).
	copies := &imageCopies{}
	copies.start(ctx, built, log)
	if src.embedded != nil {
		ready()
		// What is no page is made behind, on one goroutine: the other
		// core answers the first requests.
		go warmFiles(ctx, built, log)
	} else {
		if !early {
			log.Info("listening; rendering the pages behind", "addr", front.listener.Addr().String(), "dev", cfg.Dev,
				"start_to_listen", time.Since(started).Round(time.Millisecond))
		}
		if cfg.Dev {
			warnIfExposed(log, front.listener.Addr())
		}
		if devChild() && srv.Dev != nil {
			childServes(srv.Dev, log)
		}
		// Behind the start, after the first page (or a moment), on every
		// runtime: a request's render takes the next one free, before the
		// pages behind (render.Behind).
		prerenderCtx, stopPrerender := context.WithCancel(ctx)
		defer stopPrerender()
		go func() {
			select {
			case <-srv.FirstPage():
			case <-time.After(2 * time.Second):
			case <-prerenderCtx.Done():
			}
			restoreGC := denseDuringPrerender(cfg.Dev)
			prerender(render.Behind(prerenderCtx), built, 0, log, func() { pruneRenders(prerenderCtx, src.kept.renders, log) })
			rendering()
			ready()
			warmFiles(prerenderCtx, built, log)
			restoreGC() // an edit ends both at once (stopPrerender)
		}()
		if srv.Dev != nil {
			go (&devLoop{src: src, cfg: cfg, srv: srv, log: log, memo: src.memo, stopPrerender: stopPrerender,
				copies: copies}).run(ctx)
			checked := make(chan struct{})
			go func() {
				defer close(checked)
				(&typeChecker{root: src.root, cache: devCache(cfg), show: srv.Dev.SetProblems, log: log}).run(ctx)
			}()
			// The checker stops with the server, not after it: it is killed
			// when ctx ends, and the process waits for that before it exits.
			defer func() { stop(); <-checked }()
		}
	}
	return front.serve(ctx, cfg.ShutdownDrain, bg, log)
}

// prerender renders the pages of b no request has rendered yet and logs
// those that fail (each answers its requests with a server error); then
// after, when not nil, before the memory is handed back.
func prerender(ctx context.Context, b *sitebuild.Build, workers int, log *slog.Logger, after func()) {
	if err := b.Prerender(ctx, workers); err != nil {
		log.Error("pages that failed to render answer 500", "err", err)
	}
	if after != nil {
		after()
	}
	// Rendering every page leaves tens of megabytes behind: goja's runtimes
	// (started again for the rare render after) and the garbage of the
	// renders. Let go of them and give the memory back to the system now,
	// rather than keep it resident until the runtime's scavenger gets to it.
	b.Engine.Release()
	debug.FreeOSMemory()
	releaseReadOnlyData()
}

// denseAbovePosts is the number of posts from which a production binary
// starts with the collector at half its target: at today's few posts it
// keeps nothing worth it, and took 0.1 s of a start of 0.6 s.
const denseAbovePosts = 200

// embeddedPosts counts the posts a production binary embeds, in every
// language (0 without a binary's content).
func embeddedPosts() int {
	n := 0
	langs, _ := fs.ReadDir(embeddedContent, "content/blog")
	for _, l := range langs {
		if posts, err := fs.ReadDir(embeddedContent, "content/blog/"+l.Name()); err == nil && l.IsDir() {
			n += len(posts)
		}
	}
	return n
}

// prerenderGCPercent is the collector's target while -dev's start renders
// every page, and while a production binary starts (GOGC, 100 by default).
const prerenderGCPercent = 50

// denseDuringPrerender lowers the collector's target, when dense, for
// -dev's prerender and the files warmed after it, and for a production
// binary's start, and returns what sets it back. What a process keeps for
// its life (the plan's pages, the pages' resources, the posts) is made
// among the start's garbage, and a span of the heap one object keeps stays
// resident: a smaller heap while they are made packs them into fewer
// spans. At 1,000 posts a language, -dev holds about 30 MB less once
// ready; the binary, 3 s after ready, about 40 MB less (203 against 162
// MB), for a restart about 1 s longer on the 2-core machine.
func denseDuringPrerender(dense bool) (restore func()) {
	if !dense {
		return func() {}
	}
	old := debug.SetGCPercent(prerenderGCPercent)
	if old < prerenderGCPercent { // GOGC asked for less, or for none
		debug.SetGCPercent(old)
	}
	return func() { debug.SetGCPercent(old) }
}

// pruneRenders removes from the renders' cache what this start did not
// use, once every page was asked for (ctx not ended before).
func pruneRenders(ctx context.Context, c *render.DiskCache, log *slog.Logger) {
	if c == nil || ctx.Err() != nil {
		return
	}
	if _, err := c.Prune(); err != nil {
		log.Warn("pruning the renders' cache", "err", err)
	}
}

// withSiteEmail gives the mail settings left empty the consultancy's email
// from content/site.json, and a sender without a name the consultancy's
// name ("Northbeam <hello@northbeam.dev>").
func withSiteEmail(cfg config.Config, info *site.Info) config.Config {
	if cfg.MailFrom == "" {
		cfg.MailFrom = info.Email
	}
	if from, err := netmail.ParseAddress(cfg.MailFrom); err == nil && from.Name == "" {
		from.Name = info.Name
		cfg.MailFrom = from.String()
	}
	if cfg.MailTo == "" {
		cfg.MailTo = info.Email
	}
	return cfg
}

// openServingStore opens the database of a server. SQLite opens at once;
// PostgreSQL may still be starting, so its store connects later, behind
// the start (startBackground), and /readyz and the API answer 503
// meanwhile.
func openServingStore(ctx context.Context, cfg config.Config) (*store.Store, error) {
	if cfg.DatabaseURL != "" {
		return store.NewPostgres(cfg.DatabaseURL)
	}
	return store.Open(ctx, config.SQLiteFile(cfg.DataDir), store.OptimizeOnClose())
}

// background is what runs beside the HTTP server: the store's connection,
// then the calendar feeds and the mail worker.
type background struct {
	worker *mail.Worker
	feeds  *calendar.Source
	// ctx is the mail worker's and the daily jobs': stop ends it, after the
	// HTTP server has finished what was in flight.
	ctx  context.Context
	stop context.CancelFunc
	// done receives the mail worker's end; dbFailed why the store did not
	// connect within DATABASE_WAIT.
	done, dbFailed chan error
}

// startBackground connects the store behind the start, then fetches the
// calendar feeds and runs the mail worker until ctx or the background's
// own context ends.
func startBackground(ctx context.Context, st *store.Store, cfg config.Config, av booking.Availability, log *slog.Logger) (*background, error) {
	sender, err := mail.NewSender(mail.SMTPConfig{URL: cfg.SMTPURL, From: cfg.MailFrom}, log)
	if err != nil {
		return nil, fmt.Errorf("mail: %w", err)
	}
	feeds, err := calendar.NewSource(calendar.Config{
		URLs: cfg.CalendarICSURLs, Home: av.Location, Refresh: cfg.CalendarRefresh,
		Ahead: time.Duration(av.DaysAhead+3) * 24 * time.Hour, Store: st, Logger: log,
		// The members' own feeds count for the hosts they are.
		Members: len(av.Hosts) > 0,
	})
	if err != nil {
		return nil, err
	}
	bg := &background{
		worker: mail.NewWorker(st, sender, mail.WorkerConfig{Logger: log}),
		feeds:  feeds,
		done:   make(chan error, 1), dbFailed: make(chan error, 1),
	}
	bg.ctx, bg.stop = context.WithCancel(context.Background())
	go func() {
		if err := st.Connect(ctx, cfg.DatabaseWait); err != nil {
			bg.dbFailed <- err
			bg.done <- nil
			return
		}
		if cfg.DatabaseURL != "" {
			log.Info("database ready", "backend", st.Backend())
		}
		go feeds.Run(ctx)
		bg.done <- bg.worker.Run(bg.ctx)
	}()
	return bg, nil
}

// newServices starts the domain services behind the API: contact, booking
// and the staff workspace, their mail queued for bg's worker.
func newServices(st *store.Store, content fs.FS, info *site.Info, dates *intl.Formatter, cfg config.Config, av booking.Availability,
	bg *background, people func(lang, slug string) (booking.HostProfile, bool), log *slog.Logger) (handlers.Services, error) {
	contacts, err := contact.NewService(st, content, contact.Config{
		Inbox: cfg.MailTo,
		Brand: contact.Brand{Name: info.Name, Email: info.Email, BaseURL: cfg.BaseURL, ResponseHours: info.Stats.ResponseHours,
			Zone: av.Location, Dates: dates},
		Queued: bg.worker.Wake,
	})
	if err != nil {
		return handlers.Services{}, err
	}
	bookings, err := newBookingService(st, content, info, dates, cfg, av, bg.feeds, bg.worker.Wake, people)
	if err != nil {
		return handlers.Services{}, err
	}
	workspace, err := newStaffWorkspace(st, content, info, dates, cfg, bookings, bg.feeds, bg.worker.Wake, log)
	if err != nil {
		return handlers.Services{}, err
	}
	return handlers.Services{
		Log: log, Store: st, Contact: contacts, Booking: bookings, Calendar: bg.feeds, Staff: workspace,
		ContactRate: cfg.ContactRateLimit, BookingRate: cfg.BookingRateLimit, TrustProxy: cfg.TrustProxy, HSTS: cfg.HSTS,
	}, nil
}

// newBookingService starts the booking service on the consultancy's
// availability and calendars; its mails and invites use the interface
// strings.
func newBookingService(st *store.Store, content fs.FS, info *site.Info, dates *intl.Formatter, cfg config.Config, av booking.Availability,
	feeds *calendar.Source, queued func(), people func(lang, slug string) (booking.HostProfile, bool)) (*booking.Service, error) {
	locales, err := site.LoadLocales(content, "locales", info)
	if err != nil {
		return nil, err
	}
	return booking.NewService(st, content, booking.Config{
		Availability: av,
		Inbox:        cfg.MailTo,
		Brand:        booking.Brand{Name: info.Name, Email: info.Email, BaseURL: cfg.BaseURL},
		Texts:        locales,
		Dates:        dates,
		LocalURL: func(lang, path string) string {
			l, ok := info.Language(lang)
			if !ok {
				l = info.Default()
			}
			return cfg.BaseURL + l.LocalPath(path)
		},
		Queued:         queued,
		Calendar:       feeds,
		ReminderBefore: time.Duration(cfg.ReminderHours) * time.Hour,
		AddressLimit:   cfg.BookingDailyLimit,
		People:         people,
	})
}

// warmFiles makes, once a start is ready, what is no page: the icons and
// the compressed client files (sitebuild.Build.WarmFiles).
func warmFiles(ctx context.Context, s *sitebuild.Build, log *slog.Logger) {
	if err := s.WarmFiles(ctx, 1); err != nil && ctx.Err() == nil {
		log.Error("making the sitemap and icons", "err", err)
	}
	// Compressing the client files and drawing the icons leave their
	// compressors' windows and the drawings' garbage behind: give that
	// back now, as prerender does, rather than when the scavenger gets to
	// it.
	debug.FreeOSMemory()
}

// warmImages encodes the pictures' WebP copies that s lacks (without a
// build, all of them) behind the start, so that they are ready before a
// browser asks for them.
func warmImages(ctx context.Context, s *sitebuild.Build, log *slog.Logger) error {
	err := s.WarmImages(ctx)
	if err != nil && ctx.Err() == nil {
		log.Error("encoding the pictures' copies", "err", err)
	}
	return err
}

// imageCopies makes the WebP copies of the pictures of the build served
// behind it (warmImages), and then removes from the folder they are kept
// in, DATA_DIR/image-copies, the copies that build does not have: those of
// pictures changed or deleted since they were made
// (Build.PruneImageCopies), as the renders' cache is pruned once every
// page was asked for. Under -dev a new build stops the warming and pruning
// of the one before (stopWarming) before it is served, and prunes with its
// own copies once it has made them: the build served answers every
// picture's address, so it serves no copy it lacks (a request still under
// way with the build before encodes again a copy it no longer finds). A
// production binary keeps no copy there.
type imageCopies struct {
	mu   sync.Mutex
	stop context.CancelFunc // the warming under way, nil when none
}

// start stops the warming under way and starts that of b, which is, or is
// about to be, the build served.
func (w *imageCopies) start(ctx context.Context, b *sitebuild.Build, log *slog.Logger) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.stop != nil {
		w.stop()
	}
	ctx, w.stop = context.WithCancel(ctx)
	go func() {
		if warmImages(ctx, b, log) != nil {
			return // not every copy made: what is there may be needed
		}
		w.mu.Lock()
		defer w.mu.Unlock()
		if ctx.Err() != nil {
			return // another build is being served
		}
		removed, err := b.PruneImageCopies()
		if err != nil {
			log.Warn("pruning the pictures' copies", "err", err)
		}
		if removed > 0 {
			log.Info("pictures' copies pruned", "removed", removed)
		}
	}()
}

// stopWarming stops the warming under way, and waits for its pruning when
// it is pruning: a new build is about to be served.
func (w *imageCopies) stopWarming() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.stop != nil {
		w.stop()
		w.stop = nil
	}
}

// front is the HTTP side of an instance: the server and its listener.
type front struct {
	srv      *handlers.Server
	http     *http.Server
	listener *onceCloseListener
	errc     chan error // Serve's end
}

// listen opens cfg's address for srv and serves h there (the site's
// http.Server) from now on.
func listen(cfg config.Config, srv *handlers.Server, h http.Handler, log *slog.Logger) (*front, error) {
	httpServer := handlers.HTTPServer(h)
	httpServer.Addr = cfg.Addr
	httpServer.ErrorLog = slog.NewLogLogger(log.Handler(), slog.LevelWarn)
	var ln net.Listener
	var err error
	if devChild() {
		ln, err = childListener()
	} else {
		ln, err = net.Listen("tcp", cfg.Addr)
	}
	if err != nil {
		return nil, fmt.Errorf("listen: %w", err)
	}
	f := &front{srv: srv, http: httpServer, listener: &onceCloseListener{Listener: ln}, errc: make(chan error, 1)}
	go func() { f.errc <- f.http.Serve(f.listener) }()
	return f, nil
}

// serve answers requests until ctx ends, then stops gracefully, draining
// for drain. A database that never answered ends it too, with its error.
func (f *front) serve(ctx context.Context, drain time.Duration, bg *background, log *slog.Logger) error {
	select {
	case err := <-f.errc:
		return fmt.Errorf("serve: %w", err)
	case err := <-bg.dbFailed:
		// The signal also ends the wait for the database: that is a stop.
		if ctx.Err() == nil {
			return fmt.Errorf("database: %w", err)
		}
	case <-ctx.Done():
	}
	return f.stop(drain, bg, log)
}

// stop is a graceful stop, in the order a load balancer needs: fail
// /readyz and take no new connection, let the connections in use close
// after their answers for drain, then wait for what is in flight and stop
// the mail worker.
func (f *front) stop(drain time.Duration, bg *background, log *slog.Logger) error {
	log.Info("shutting down", "drain", drain)
	f.srv.Drain()
	// Shutdown below closes the listener again, and reports what fails.
	_ = f.listener.Close()
	time.Sleep(drain)
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	shutdownErr := f.http.Shutdown(shutdownCtx)
	// Requests for a sign-in link answered before are handled: their mail
	// is in the outbox before the worker stops (or for the next start).
	if f.srv.Staff != nil {
		f.srv.Staff.SettleSignInLinks()
	}
	// The worker finishes the message it is sending, then stops.
	bg.stop()
	workerErr := <-bg.done
	if shutdownErr != nil {
		return fmt.Errorf("shutdown: %w", shutdownErr)
	}
	if workerErr != nil {
		// Not clean: the exit code (1) says so.
		return fmt.Errorf("shutdown: mail worker: %w", workerErr)
	}
	log.Info("stopped cleanly")
	return nil
}

// onceCloseListener lets the listener be closed early, when draining
// starts, and again by the HTTP server's Shutdown without an error.
type onceCloseListener struct {
	net.Listener
	once sync.Once
	err  error
}

func (l *onceCloseListener) Close() error {
	l.once.Do(func() { l.err = l.Listener.Close() })
	return l.err
}
