// Command site serves Northbeam's website: React pages rendered by Go in four
// languages, the contact and booking APIs, and the blog.
//
//	go run .                 serve on :8080, building the bundles in memory
//	go run . -dev            also rebuild and re-render when frontend/ or content/ change
//	go run . build -out DIR  write the bundles for a production binary
package main

import (
	"context"
	"embed"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/northbeam/site/handlers"
	"github.com/northbeam/site/internal/accesslog"
	"github.com/northbeam/site/internal/assets"
	"github.com/northbeam/site/internal/booking"
	"github.com/northbeam/site/internal/calendar"
	"github.com/northbeam/site/internal/contact"
	"github.com/northbeam/site/internal/intl"
	"github.com/northbeam/site/internal/mail"
	"github.com/northbeam/site/internal/site"
	"github.com/northbeam/site/internal/staff"
	"github.com/northbeam/site/internal/store"
	"github.com/northbeam/site/render"

	_ "time/tzdata" // the binary runs on hosts without zone files
)

// embeddedContent is the content a production binary serves; `go run .`
// reads content/ from disk instead, so that -dev sees edits.
//
//go:embed all:content
var embeddedContent embed.FS

// Config is the whole configuration, from environment variables and flags of
// the same name in lower case (flags win).
type Config struct {
	Addr                string        // ADDR, default ":8080": listen address
	BaseURL             string        // BASE_URL, default "http://localhost:8080": public URL for canonical links, sitemap, mail
	DataDir             string        // DATA_DIR, default "./data": where the embedded database lives
	DatabaseURL         string        // DATABASE_URL, default empty: a PostgreSQL URL (postgres://...) shared by several instances; empty keeps SQLite in DATA_DIR
	DatabaseWait        time.Duration // DATABASE_WAIT, default 1m: how long a start waits for PostgreSQL to answer before it gives up
	ShutdownDrain       time.Duration // SHUTDOWN_DRAIN, default 1s (0 with DEV): on SIGTERM, how long /readyz fails and connections close after each answer before the server stops
	SMTPURL             string        // SMTP_URL, default empty: smtp://user:pass@host:port; empty keeps mail in the outbox
	MailFrom            string        // MAIL_FROM, default from content/site.json: the sender
	MailTo              string        // MAIL_TO, default from content/site.json: the consultancy's inbox
	GAMeasurementID     string        // GA_MEASUREMENT_ID, default empty: Google Analytics 4; empty means no analytics
	ConsentHideFromBots bool          // CONSENT_HIDE_FROM_BOTS, default true: false only for browser tests
	Dev                 bool          // DEV, default false: rebuild and re-render on change, serve drafts
	Root                string        // ROOT, default ".": the project directory (frontend/, content/, node_modules/)
	TrustProxy          bool          // TRUST_PROXY, default false: believe X-Forwarded-For/-Proto from a proxy on a loopback or private address
	HSTS                string        // HSTS, default "auto": Strict-Transport-Security over https; "always" behind a TLS proxy that sends no X-Forwarded-Proto; "off"
	ContactRateLimit    string        // CONTACT_RATE_LIMIT, default "5/10m": contact posts per client and window
	BookingRateLimit    string        // BOOKING_RATE_LIMIT, default "10/10m": booking and cancellation posts per client and window
	Retention           int           // RETENTION, default 12: months messages, past bookings' personal fields and sent mail are kept (the privacy policy says so)

	CalendarICSURLs   string        // CALENDAR_ICS_URLS, default empty: comma-separated iCalendar feeds of the consultancy's calendars; secrets, never logged
	CalendarRefresh   time.Duration // CALENDAR_REFRESH, default 5m: how often the feeds are fetched again
	ReminderHours     int           // REMINDER_HOURS, default 24: how long before a consultation the visitor is reminded; 0 turns reminders off
	BookingDailyLimit int           // BOOKING_DAILY_LIMIT, default 2: standing bookings one email address may hold; 0 means no limit

	contactRate, bookingRate handlers.RateLimit // parsed by check
	calendarURLs             []string           // parsed by check
}

var gaID = regexp.MustCompile(`^G-[A-Z0-9]{4,16}$`)

// loadConfig reads the configuration and refuses what cannot work.
func loadConfig(args []string, getenv func(string) string) (Config, error) {
	env := func(name, def string) string {
		if v := getenv(name); v != "" {
			return v
		}
		return def
	}
	var c Config
	fs := flag.NewFlagSet("site", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&c.Addr, "addr", env("ADDR", ":8080"), "listen address")
	fs.StringVar(&c.BaseURL, "base_url", env("BASE_URL", "http://localhost:8080"), "public base URL")
	fs.StringVar(&c.DataDir, "data_dir", env("DATA_DIR", "./data"), "data directory")
	fs.StringVar(&c.DatabaseURL, "database_url", env("DATABASE_URL", ""), "PostgreSQL URL")
	databaseWait, err := envDuration(getenv, "DATABASE_WAIT", time.Minute)
	if err != nil {
		return c, err
	}
	fs.DurationVar(&c.DatabaseWait, "database_wait", databaseWait, "how long to wait for PostgreSQL at start")
	shutdownDrain, err := envDuration(getenv, "SHUTDOWN_DRAIN", -1)
	if err != nil {
		return c, err
	}
	fs.DurationVar(&c.ShutdownDrain, "shutdown_drain", shutdownDrain, "draining time before a graceful stop")
	fs.StringVar(&c.SMTPURL, "smtp_url", env("SMTP_URL", ""), "SMTP server URL")
	fs.StringVar(&c.MailFrom, "mail_from", env("MAIL_FROM", ""), "sender address")
	fs.StringVar(&c.MailTo, "mail_to", env("MAIL_TO", ""), "the consultancy's inbox")
	fs.StringVar(&c.GAMeasurementID, "ga_measurement_id", env("GA_MEASUREMENT_ID", ""), "Google Analytics 4 measurement ID")
	fs.StringVar(&c.Root, "root", env("ROOT", "."), "project directory")
	fs.StringVar(&c.HSTS, "hsts", env("HSTS", handlers.HSTSAuto), "when to send Strict-Transport-Security: auto, always or off")
	fs.StringVar(&c.ContactRateLimit, "contact_rate_limit", env("CONTACT_RATE_LIMIT", "5/10m"), "contact posts per client, as requests/window")
	fs.StringVar(&c.BookingRateLimit, "booking_rate_limit", env("BOOKING_RATE_LIMIT", "10/10m"), "booking posts per client, as requests/window")
	fs.StringVar(&c.CalendarICSURLs, "calendar_ics_urls", env("CALENDAR_ICS_URLS", ""), "the consultancy's calendar feeds, comma-separated")
	calendarRefresh, err := envDuration(getenv, "CALENDAR_REFRESH", 5*time.Minute)
	if err != nil {
		return c, err
	}
	fs.DurationVar(&c.CalendarRefresh, "calendar_refresh", calendarRefresh, "how often the calendar feeds are fetched")
	reminderHours, err := envInt(getenv, "REMINDER_HOURS", 24)
	if err != nil {
		return c, err
	}
	fs.IntVar(&c.ReminderHours, "reminder_hours", reminderHours, "hours before a consultation to remind the visitor; 0 for none")
	dailyLimit, err := envInt(getenv, "BOOKING_DAILY_LIMIT", 2)
	if err != nil {
		return c, err
	}
	fs.IntVar(&c.BookingDailyLimit, "booking_daily_limit", dailyLimit, "standing bookings per email address; 0 for no limit")
	retention, err := envRetention(getenv)
	if err != nil {
		return c, err
	}
	fs.IntVar(&c.Retention, "retention", retention, "months personal data is kept")
	trustProxy, err := strconv.ParseBool(env("TRUST_PROXY", "false"))
	if err != nil {
		return c, fmt.Errorf("TRUST_PROXY: %q is not true or false", getenv("TRUST_PROXY"))
	}
	fs.BoolVar(&c.TrustProxy, "trust_proxy", trustProxy, "trust X-Forwarded-For and X-Forwarded-Proto from a private address")
	hideBots, err := strconv.ParseBool(env("CONSENT_HIDE_FROM_BOTS", "true"))
	if err != nil {
		return c, fmt.Errorf("CONSENT_HIDE_FROM_BOTS: %q is not true or false", getenv("CONSENT_HIDE_FROM_BOTS"))
	}
	dev, err := strconv.ParseBool(env("DEV", "false"))
	if err != nil {
		return c, fmt.Errorf("DEV: %q is not true or false", getenv("DEV"))
	}
	fs.BoolVar(&c.ConsentHideFromBots, "consent_hide_from_bots", hideBots, "hide the consent banner from bots")
	fs.BoolVar(&c.Dev, "dev", dev, "rebuild on change, serve drafts")
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	if c.ShutdownDrain < 0 { // not set: a developer's Ctrl-C stops at once
		c.ShutdownDrain = time.Second
		if c.Dev {
			c.ShutdownDrain = 0
		}
	}
	if fs.NArg() > 0 {
		return c, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	return c, c.check()
}

func (c *Config) check() error {
	_, port, err := net.SplitHostPort(c.Addr)
	if err != nil {
		return fmt.Errorf("ADDR %q: %w", c.Addr, err)
	}
	if n, err := strconv.Atoi(port); err != nil || n < 0 || n > 65535 {
		return fmt.Errorf("ADDR %q: the port must be a number from 0 to 65535", c.Addr)
	}
	u, err := url.Parse(c.BaseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		return fmt.Errorf("BASE_URL %q: must be an absolute http(s) URL such as https://example.com", c.BaseURL)
	}
	c.BaseURL = strings.TrimRight(c.BaseURL, "/")
	if c.DatabaseURL != "" {
		// The URL holds a password: say what is wrong, never what it is.
		u, err := url.Parse(c.DatabaseURL)
		if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") || u.Host == "" {
			return errors.New("DATABASE_URL: must look like postgres://user:password@host:5432/database")
		}
	}
	if c.SMTPURL != "" {
		u, err := url.Parse(c.SMTPURL)
		if err != nil || (u.Scheme != "smtp" && u.Scheme != "smtps") || u.Hostname() == "" {
			return fmt.Errorf("SMTP_URL: must look like smtp://user:pass@host:587 or smtps://user:pass@host:465")
		}
	}
	if c.GAMeasurementID != "" && !gaID.MatchString(c.GAMeasurementID) {
		return fmt.Errorf("GA_MEASUREMENT_ID %q: must look like G-XXXXXXXXXX", c.GAMeasurementID)
	}
	if c.DataDir == "" {
		return errors.New("DATA_DIR: must not be empty")
	}
	switch c.HSTS {
	case handlers.HSTSAuto, handlers.HSTSAlways, handlers.HSTSOff:
	default:
		return fmt.Errorf("HSTS %q: must be auto, always or off", c.HSTS)
	}
	if c.contactRate, err = handlers.ParseRateLimit(c.ContactRateLimit); err != nil {
		return fmt.Errorf("CONTACT_RATE_LIMIT: %w", err)
	}
	if c.ReminderHours < 0 || c.ReminderHours > 24*14 {
		return fmt.Errorf("REMINDER_HOURS %d: want between 0 and 336", c.ReminderHours)
	}
	if c.BookingDailyLimit < 0 {
		return fmt.Errorf("BOOKING_DAILY_LIMIT %d: want 0 (no limit) or more", c.BookingDailyLimit)
	}
	if c.CalendarRefresh < 30*time.Second {
		return fmt.Errorf("CALENDAR_REFRESH %s: want at least 30s", c.CalendarRefresh)
	}
	c.calendarURLs = nil
	for i, raw := range strings.Split(c.CalendarICSURLs, ",") {
		raw = strings.TrimSpace(raw)
		if raw == "" {
			continue
		}
		// A feed URL is a secret: the message names its position only.
		if u, err := url.Parse(raw); err != nil || (u.Scheme != "https" && u.Scheme != "http" && u.Scheme != "webcal") || u.Host == "" {
			return fmt.Errorf("CALENDAR_ICS_URLS: feed %d is not an https, http or webcal URL", i+1)
		}
		c.calendarURLs = append(c.calendarURLs, raw)
	}
	if c.bookingRate, err = handlers.ParseRateLimit(c.BookingRateLimit); err != nil {
		return fmt.Errorf("BOOKING_RATE_LIMIT: %w", err)
	}
	if c.Retention < 1 || c.Retention > staff.MaxRetentionMonths {
		return fmt.Errorf("RETENTION %d: a number of months from 1 to %d", c.Retention, staff.MaxRetentionMonths)
	}
	return nil
}

func main() {
	// The access log's lines are written in batches, off the request path;
	// the other lines at once, after them (internal/accesslog).
	logs := accesslog.New(os.Stderr, 100*time.Millisecond)
	log := slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelInfo}))
	args := os.Args[1:]
	var err error
	switch {
	case len(args) > 0 && args[0] == "build":
		err = buildCommand(args[1:])
	case len(args) > 0 && args[0] == "messages":
		err = messagesCommand(args[1:])
	case len(args) > 0 && args[0] == "migrate-db":
		err = migrateDBCommand(args[1:])
	case len(args) > 0 && args[0] == "backup":
		err = backupCommand(args[1:])
	case len(args) > 0 && args[0] == "staff":
		err = staffCommand(args[1:], os.Stdout)
	default:
		err = serve(args, log, logs)
	}
	if cerr := logs.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("log: %w", cerr)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "site:", err)
		os.Exit(1)
	}
}

// buildCommand writes the bundles for a production binary to embed.
func buildCommand(args []string) error {
	fs := flag.NewFlagSet("build", flag.ContinueOnError)
	out := fs.String("out", "internal/assets/dist", "output directory")
	root := fs.String("root", ".", "project directory")
	if err := fs.Parse(args); err != nil {
		return err
	}
	b, err := assets.Build(absolute(*root))
	if err != nil {
		return err
	}
	if err := b.Write(*out); err != nil {
		return err
	}
	// Render every page once with this bundle, so that the binary starts
	// without rendering them again: with the configuration in the
	// environment (the analytics ID and bot hiding reach the pages).
	cfg, err := loadConfig(nil, os.Getenv)
	if err != nil {
		return fmt.Errorf("configuration: %w", err)
	}
	cfg.Dev = false
	content, err := (sources{root: absolute(*root)}).content()
	if err != nil {
		return err
	}
	memo := render.NewMemo()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	built, err := newSite(context.Background(), content, b, cfg, log, memo, nil)
	if err != nil {
		return err
	}
	// The WebP copies of the content's pictures, which the binary serves
	// without encoding anything (internal/images).
	started := time.Now()
	copies, err := built.WriteImageCopies(filepath.Join(*out, "img"), runtime.GOMAXPROCS(0))
	if err != nil {
		return err
	}
	var total int
	for _, c := range copies {
		total += c.Bytes
	}
	fmt.Fprintf(os.Stderr, "build: %d picture copies, %d KB, encoded in %s\n", len(copies), total/1024, time.Since(started).Round(time.Millisecond))
	f, err := os.Create(filepath.Join(*out, memoFile))
	if err != nil {
		return err
	}
	if _, err := memo.WriteTo(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// memoFile holds, beside the bundles, the pages the build rendered.
const memoFile = "renders.gob.gz"

func absolute(p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		return p
	}
	return abs
}

// messagesCommand prints the latest contact messages for staff, from the
// database the configuration names (DATABASE_URL, else DATA_DIR).
func messagesCommand(args []string) error {
	fs := flag.NewFlagSet("messages", flag.ContinueOnError)
	limit := fs.Int("n", 20, "how many messages, newest first")
	dataDir := fs.String("data_dir", envOr("DATA_DIR", "./data"), "data directory")
	if err := fs.Parse(args); err != nil {
		return err
	}
	ctx := context.Background()
	st, err := openStore(ctx, *dataDir, os.Getenv("DATABASE_URL"), 10*time.Second)
	if err != nil {
		return err
	}
	defer st.Close()
	records, err := contact.List(ctx, st, *limit)
	if err != nil {
		return err
	}
	return contact.WriteText(os.Stdout, records)
}

// openStore opens and migrates the site's database: PostgreSQL when
// databaseURL is set (waiting up to wait for it to answer), else the
// SQLite file in dataDir.
func openStore(ctx context.Context, dataDir, databaseURL string, wait time.Duration) (*store.Store, error) {
	if databaseURL != "" {
		return store.OpenPostgres(ctx, databaseURL, wait)
	}
	return store.Open(ctx, databasePath(dataDir))
}

func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

func databasePath(dataDir string) string { return filepath.Join(dataDir, "site.db") }

// serve runs the site until SIGINT or SIGTERM, with its access log to
// accessLog.
func serve(args []string, log *slog.Logger, accessLog *accesslog.Writer) error {
	started := time.Now()
	cfg, err := loadConfig(args, os.Getenv)
	if err != nil {
		return fmt.Errorf("configuration: %w", err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	src := sources{root: absolute(cfg.Root), embedded: assets.Embedded()}
	content, err := src.content()
	if err != nil {
		return err
	}
	info, err := site.Load(content, "site.json")
	if err != nil {
		return err
	}
	if cfg.MailFrom == "" {
		cfg.MailFrom = info.Email
	}
	if cfg.MailTo == "" {
		cfg.MailTo = info.Email
	}

	// SQLite opens at once; PostgreSQL may still be starting, so the site
	// comes up first and the store connects behind it (/readyz and the API
	// answer 503 meanwhile).
	var st *store.Store
	if cfg.DatabaseURL != "" {
		st, err = store.NewPostgres(cfg.DatabaseURL)
	} else {
		st, err = store.Open(ctx, databasePath(cfg.DataDir))
	}
	if err != nil {
		return err
	}
	defer st.Close()
	sender, err := mail.NewSender(mail.SMTPConfig{URL: cfg.SMTPURL, From: cfg.MailFrom}, log)
	if err != nil {
		return fmt.Errorf("mail: %w", err)
	}
	worker := mail.NewWorker(st, sender, mail.WorkerConfig{Logger: log})
	workerCtx, stopWorker := context.WithCancel(context.Background())
	defer stopWorker()
	av, err := booking.LoadAvailability(content, "availability.json")
	if err != nil {
		return err
	}
	feeds, err := calendar.NewSource(calendar.Config{
		URLs: cfg.calendarURLs, Home: av.Location, Refresh: cfg.CalendarRefresh,
		Ahead: time.Duration(av.DaysAhead+3) * 24 * time.Hour, Store: st, Logger: log,
	})
	if err != nil {
		return err
	}
	workerDone := make(chan error, 1)
	dbFailed := make(chan error, 1)
	go func() {
		if err := st.Connect(ctx, cfg.DatabaseWait); err != nil {
			dbFailed <- err
			workerDone <- nil
			return
		}
		if cfg.DatabaseURL != "" {
			log.Info("database ready", "backend", st.Backend())
		}
		go feeds.Run(ctx)
		workerDone <- worker.Run(workerCtx)
	}()
	contacts, err := contact.NewService(st, content, contact.Config{
		Inbox:  cfg.MailTo,
		Brand:  contact.Brand{Name: info.Name, Email: info.Email, BaseURL: cfg.BaseURL, ResponseHours: info.Stats.ResponseHours},
		Queued: worker.Wake,
	})
	if err != nil {
		return err
	}

	dates, err := src.dates(info)
	if err != nil {
		return err
	}
	bookings, err := newBookingService(st, content, info, dates, cfg, av, feeds, worker.Wake)
	if err != nil {
		return err
	}
	workspace, err := newStaffWorkspace(st, content, info, cfg, bookings, worker.Wake, log)
	if err != nil {
		return err
	}
	go workspace.RunRetentionDaily(workerCtx)

	built, err := src.buildSite(ctx, cfg, log)
	if err != nil {
		return err
	}
	// Rendering every page at start leaves tens of megabytes behind: goja's
	// runtimes (started again for the rare render after start) and the
	// garbage of the renders. Let go of them and give the memory back to
	// the system now, rather than keep it resident until the runtime's
	// scavenger gets to it.
	built.Engine.Release()
	debug.FreeOSMemory()
	srv := handlers.NewServer(built, handlers.Services{
		Log: log, Store: st, Contact: contacts, Booking: bookings, Calendar: feeds,
		ContactRate: cfg.contactRate, BookingRate: cfg.bookingRate,
		TrustProxy: cfg.TrustProxy, HSTS: cfg.HSTS, Staff: workspace, AccessLog: accessLog,
	})
	httpServer := handlers.HTTPServer(handlers.New(srv))
	httpServer.Addr = cfg.Addr
	httpServer.ErrorLog = slog.NewLogLogger(log.Handler(), slog.LevelWarn)
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	rendered, fromBuild := built.Engine.Counts()
	log.Info("ready", "addr", ln.Addr().String(), "base_url", cfg.BaseURL, "dev", cfg.Dev,
		"start_to_ready", time.Since(started).Round(time.Millisecond), "pages_rendered", rendered, "pages_from_build", fromBuild)
	// Without a build, the pictures' WebP copies are encoded now, behind
	// the start, so that they are ready before a browser asks for them.
	warmImages := func(s *handlers.Site) {
		if err := s.WarmImages(ctx); err != nil && ctx.Err() == nil {
			log.Error("encoding the pictures' copies", "err", err)
		}
	}
	go warmImages(built)
	if cfg.Dev {
		go src.watch(ctx, log, func() {
			if s, err := src.buildSite(ctx, cfg, log); err != nil {
				log.Error("rebuild failed; still serving the previous build", "err", err)
			} else {
				s.KeepImageCopies(srv.Site())
				srv.Swap(s)
				log.Info("rebuilt")
				go warmImages(s)
			}
		})
	}

	listener := &onceCloseListener{Listener: ln}
	errc := make(chan error, 1)
	go func() { errc <- httpServer.Serve(listener) }()
	select {
	case err := <-errc:
		return fmt.Errorf("serve: %w", err)
	case err := <-dbFailed:
		return fmt.Errorf("database: %w", err)
	case <-ctx.Done():
	}
	// A graceful stop, in the order a load balancer needs: fail /readyz and
	// take no new connection, let the connections in use close after their
	// answers, then wait for what is in flight and stop the mail worker.
	log.Info("shutting down", "drain", cfg.ShutdownDrain)
	srv.Drain()
	listener.Close()
	time.Sleep(cfg.ShutdownDrain)
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	shutdownErr := httpServer.Shutdown(shutdownCtx)
	// The worker finishes the message it is sending, then stops.
	stopWorker()
	workerErr := <-workerDone
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

// envInt reads the whole number in the environment variable name, or def
// when it is empty.
func envInt(getenv func(string) string, name string, def int) (int, error) {
	v := getenv(name)
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0, fmt.Errorf("%s: %q is not a whole number", name, v)
	}
	return n, nil
}

// envDuration reads the duration in the environment variable name, or def
// when it is empty.
func envDuration(getenv func(string) string, name string, def time.Duration) (time.Duration, error) {
	v := getenv(name)
	if v == "" {
		return def, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("%s: %q is not a duration such as 30s or 1m", name, v)
	}
	return d, nil
}

// newBookingService starts the booking service on the consultancy's
// availability and calendars; its mails and invites use the interface
// strings.
func newBookingService(st *store.Store, content fs.FS, info *site.Site, dates *intl.Formatter, cfg Config, av booking.Availability,
	feeds *calendar.Source, queued func()) (*booking.Service, error) {
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
	})
}

// sources says where the content and the bundles come from: embedded in a
// production binary, or the project directory.
type sources struct {
	root     string
	embedded fs.FS // the prebuilt bundle, nil unless built with -tags prod
}

// content returns the content directory.
func (s sources) content() (fs.FS, error) {
	if s.embedded != nil {
		return fs.Sub(embeddedContent, "content")
	}
	return os.DirFS(filepath.Join(s.root, "content")), nil
}

// dates writes dates and times in the site's languages, from the CLDR
// data of the project's node_modules, or the part of it a production
// binary embeds (internal/assets, Bundle.CLDR).
func (s sources) dates(info *site.Site) (*intl.Formatter, error) {
	cldr := os.DirFS(filepath.Join(s.root, "node_modules"))
	if s.embedded != nil {
		var err error
		if cldr, err = assets.ReadCLDR(s.embedded); err != nil {
			return nil, err
		}
	}
	return intl.Load(cldr, info.Languages)
}

func (s sources) buildSite(ctx context.Context, cfg Config, log *slog.Logger) (*handlers.Site, error) {
	content, err := s.content()
	if err != nil {
		return nil, err
	}
	if s.embedded == nil {
		bundle, err := assets.Build(s.root)
		if err != nil {
			return nil, err
		}
		return newSite(ctx, content, bundle, cfg, log, nil, nil)
	}
	bundle, err := assets.Read(s.embedded)
	if err != nil {
		return nil, err
	}
	memo, err := render.ReadMemoFS(s.embedded, memoFile)
	if err != nil {
		return nil, err
	}
	copies, err := fs.Sub(s.embedded, "img")
	if err != nil {
		return nil, err
	}
	return newSite(ctx, content, bundle, cfg, log, memo, copies)
}

// newSite renders the site's pages with bundle; memo, when not nil, holds
// pages already rendered with it, and imageCopies the WebP copies of the
// content's pictures the build wrote.
func newSite(ctx context.Context, content fs.FS, bundle *assets.Bundle, cfg Config, log *slog.Logger, memo *render.Memo, imageCopies fs.FS) (*handlers.Site, error) {
	engine, err := render.NewEngine(bundle.Server, render.Options{Runtimes: runtime.GOMAXPROCS(0), Logger: log, Memo: memo})
	if err != nil {
		return nil, err
	}
	return handlers.BuildSite(ctx, content, bundle, engine, handlers.Options{
		BaseURL:             cfg.BaseURL,
		GAMeasurementID:     cfg.GAMeasurementID,
		ConsentHideFromBots: cfg.ConsentHideFromBots,
		Dev:                 cfg.Dev,
		RetentionMonths:     cfg.Retention,
		ImageCopies:         imageCopies,
	})
}

// watch calls rebuild when a file under frontend/ or content/ changes. It
// polls modification times: no dependency, and the same on every OS.
func (s sources) watch(ctx context.Context, log *slog.Logger, rebuild func()) {
	fingerprint := func() string {
		var b strings.Builder
		for _, dir := range []string{"frontend", "content", "esbuild.config.mjs"} {
			_ = filepath.WalkDir(filepath.Join(s.root, dir), func(p string, d fs.DirEntry, err error) error {
				if err != nil {
					return nil
				}
				if info, err := d.Info(); err == nil && !d.IsDir() {
					fmt.Fprintf(&b, "%s %d %d\n", p, info.Size(), info.ModTime().UnixNano())
				}
				return nil
			})
		}
		return b.String()
	}
	last := fingerprint()
	tick := time.NewTicker(500 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			if now := fingerprint(); now != last {
				last = now
				log.Info("change detected; rebuilding")
				rebuild()
			}
		}
	}
}
