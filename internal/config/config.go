// Package config is every setting of the site in one table: its
// environment variable and the flag of the same name in lower case, its
// default, how it is read and what it refuses. README.md's configuration
// table documents the same settings, and a test holds the two together.
package config

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/northbeam/site/internal/ratelimit"
)

// Config is the whole configuration. Each field names its variable and its
// default as the table of settings holds it (a test holds these comments
// to the table).
type Config struct {
	Addr                string          // ADDR, default ":8080", 127.0.0.1:8080 with DEV unless set: the listen address
	BaseURL             string          // BASE_URL, default "http://localhost:8080": the public URL of canonical links, the sitemap and mail, without a trailing slash
	DataDir             string          // DATA_DIR, default "./data": where the SQLite database lives (SQLiteFile)
	DatabaseURL         string          // DATABASE_URL, default "": a PostgreSQL URL shared by several instances; empty keeps SQLite in DATA_DIR. A secret
	DatabaseWait        time.Duration   // DATABASE_WAIT, default "1m": how long a start waits for PostgreSQL to answer before it gives up
	ShutdownDrain       time.Duration   // SHUTDOWN_DRAIN, default "1s", 0 with DEV unless set: on SIGTERM, how long /readyz fails and answers close their connections before the server stops
	SMTPURL             string          // SMTP_URL, default "": smtp://user:pass@host:587 or smtps://...; empty keeps mail in the outbox. A secret
	MailFrom            string          // MAIL_FROM, default "": the sender; empty takes the email of content/site.json
	MailTo              string          // MAIL_TO, default "": the consultancy's inbox; empty takes the email of content/site.json
	GAMeasurementID     string          // GA_MEASUREMENT_ID, default "": Google Analytics 4; empty means no analytics
	ConsentHideFromBots bool            // CONSENT_HIDE_FROM_BOTS, default "true": false only for browser tests
	Dev                 bool            // DEV, default "false": rebuild and re-render on change, serve drafts
	DevPublic           bool            // DEV_PUBLIC, default "false": with DEV, let ADDR be an address other than loopback (the dev loop serves the sources' text)
	Root                string          // ROOT, default ".": the project directory (frontend/, content/, node_modules/)
	TrustProxy          bool            // TRUST_PROXY, default "false": believe X-Forwarded-For, X-Forwarded-Proto and X-Request-Id from a proxy on a loopback or private address
	HSTS                string          // HSTS, default "auto": when Strict-Transport-Security is sent, HSTSAuto, HSTSAlways or HSTSOff
	ContactRateLimit    ratelimit.Limit // CONTACT_RATE_LIMIT, default "5/10m": contact posts per client and window
	CalendarICSURLs     []string        // CALENDAR_ICS_URLS, default "": the iCalendar feeds of the consultancy's calendars, comma-separated in the variable. Secrets
	CalendarRefresh     time.Duration   // CALENDAR_REFRESH, default "5m": how often the feeds are fetched again
	ReminderHours       int             // REMINDER_HOURS, default "24": how long before a consultation the visitor is reminded; 0 sends no reminder
	BookingDailyLimit   int             // BOOKING_DAILY_LIMIT, default "2": standing bookings one email address may hold; 0 means no limit
	BookingRateLimit    ratelimit.Limit // BOOKING_RATE_LIMIT, default "10/10m": booking and cancellation posts per client and window
	Retention           int             // RETENTION, default "12": months that messages, past bookings' personal fields and sent mail are kept
}

// The HSTS modes (Config.HSTS).
const (
	HSTSAuto   = "auto"   // over https: TLS here, or X-Forwarded-Proto from a trusted proxy
	HSTSAlways = "always" // every response: a proxy in front terminates TLS and says nothing
	HSTSOff    = "off"
)

// SlotsRateLimit is how many slot queries one client may make: a visitor
// browses a few weeks of slots. It is not a setting.
func SlotsRateLimit() ratelimit.Limit {
	return ratelimit.Limit{Requests: 120, Window: time.Minute}
}

// SQLiteFile is the SQLite database of the data directory dataDir.
func SQLiteFile(dataDir string) string { return filepath.Join(dataDir, "site.db") }

// Load reads the whole configuration of a server: each setting from its
// flag in args when given, else from its environment variable when set,
// else its default; then it refuses what cannot work, with a message that
// names the setting and never shows a secret.
func Load(args []string, getenv func(string) string) (Config, error) {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	c, err := Parse(fs, args, getenv)
	if err != nil {
		return c, err
	}
	if fs.NArg() > 0 {
		return c, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	return c, nil
}

// Usage writes the server's flags to w, each with its meaning and default
// (the flag's environment variable is its name in upper case).
func Usage(w io.Writer) {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(w)
	fs.Usage = fs.PrintDefaults
	_, _ = Parse(fs, []string{"-h"}, func(string) string { return "" }) // -h: the usage, and no setting read
}

// Parse is Load for a command with flags of its own in fs: it reads the
// settings named (every one when none is), each with its flag added to fs,
// and leaves the others at their defaults. What is left of args after the
// flags stays in fs.
func Parse(fs *flag.FlagSet, args []string, getenv func(string) string, names ...string) (Config, error) {
	all := settings()
	read := map[string]bool{}
	for _, name := range names {
		if !has(all, name) {
			return Config{}, fmt.Errorf("config: no setting is called %s", name)
		}
		read[name] = true
	}
	given := map[string]string{} // setting -> its flag's value
	for _, s := range all {
		if len(names) > 0 && !read[s.name] {
			continue
		}
		read[s.name] = true
		keep := func(v string) error { given[s.name] = v; return nil }
		if s.boolean {
			fs.BoolFunc(strings.ToLower(s.name), s.help, keep)
		} else {
			fs.Func(strings.ToLower(s.name), s.help, keep)
		}
	}
	// The flags only keep their text: one parse below reads flags and
	// variables alike, so that a refusal reads the same from either.
	if err := fs.Parse(args); err != nil {
		return Config{}, err
	}
	var c Config
	asked := map[string]bool{} // set by a flag or a variable, not left to its default
	for _, s := range all {
		v := s.def
		if read[s.name] {
			if e := getenv(s.name); e != "" {
				v, asked[s.name] = e, true
			}
			if f, ok := given[s.name]; ok {
				v, asked[s.name] = f, true
			}
		}
		if err := s.set(&c, v); err != nil {
			return c, named(s.name, err)
		}
	}
	if c.Dev {
		// A developer's Ctrl-C stops at once.
		if !asked["SHUTDOWN_DRAIN"] {
			c.ShutdownDrain = 0
		}
		if err := devAddr(&c, asked["ADDR"]); err != nil {
			return c, err
		}
	}
	return c, nil
}

// DevLoopbackAddr is where -dev listens when ADDR is not set: the dev
// loop streams build errors with the sources' text (docs/ARCHITECTURE.md,
// The dev loop), for the developer's machine alone.
const DevLoopbackAddr = "127.0.0.1:8080"

// devAddr keeps -dev on loopback: ADDR left to its default becomes
// DevLoopbackAddr, and an ADDR set to another address is refused unless
// DEV_PUBLIC asks for it. With DEV_PUBLIC and no ADDR, -dev listens on
// every address, as Vite's --host does.
func devAddr(c *Config, asked bool) error {
	switch {
	case !asked && !c.DevPublic:
		c.Addr = DevLoopbackAddr
	case asked && !c.DevPublic && !Loopback(c.Addr):
		return fmt.Errorf("ADDR %q: -dev shows the sources and their errors to whoever reaches it, so it listens on loopback only (such as %s); set DEV_PUBLIC=true to serve it on the network", c.Addr, DevLoopbackAddr)
	}
	return nil
}

// Default is the configuration of an empty environment and no flag: every
// setting at its default. The handlers take the limits a test leaves unset
// from it.
func Default() Config {
	c, err := Parse(flag.NewFlagSet("default", flag.ContinueOnError), nil, func(string) string { return "" })
	if err != nil {
		// A default its own check refuses: TestDefaults says which.
		panic(err)
	}
	return c
}

func has(all []setting, name string) bool {
	for _, s := range all {
		if s.name == name {
			return true
		}
	}
	return false
}

// shown is a refusal whose message shows the value refused, after the
// setting's name: `ADDR "localhost": missing port in address`. A secret's
// refusal is never one.
type shown struct {
	value string // as the message writes it
	err   error
}

func (e shown) Error() string { return e.value + ": " + e.err.Error() }
func (e shown) Unwrap() error { return e.err }

// named puts the setting's name in front of a refusal.
func named(name string, err error) error {
	if s := (shown{}); errors.As(err, &s) {
		return fmt.Errorf("%s %w", name, err)
	}
	return fmt.Errorf("%s: %w", name, err)
}
