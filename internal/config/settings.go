package config

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/northbeam/site/internal/ratelimit"
	"github.com/northbeam/site/internal/staff"
)

// setting is one variable of the configuration.
type setting struct {
	name    string // the environment variable; its flag is the name in lower case
	def     string // the default, written as the variable would be
	readme  string // README.md's default column, where it says more than def
	secret  bool   // holds a password or a token: no message shows it
	boolean bool   // the flag alone means true (-dev)
	help    string // the flag's usage
	// set reads v into c, or says why it cannot. The caller puts the
	// setting's name in front of the message.
	set func(c *Config, v string) error
}

// settings is every variable, in the order of README.md's table.
func settings() []setting {
	return []setting{
		{name: "ADDR", def: ":8080", readme: "`:8080` (`127.0.0.1:8080` with `DEV`)", help: "listen address", set: func(c *Config, v string) error {
			c.Addr = v
			return checkAddr(v)
		}},
		{name: "BASE_URL", def: "http://localhost:8080", help: "public base URL", set: func(c *Config, v string) error {
			u, err := url.Parse(v)
			if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
				return shown{strconv.Quote(v), errors.New("must be an absolute http(s) URL such as https://example.com")}
			}
			c.BaseURL = strings.TrimRight(v, "/")
			return nil
		}},
		{name: "DATA_DIR", def: "./data", help: "data directory, where site.db lives", set: func(c *Config, v string) error {
			if v == "" {
				return errors.New("must not be empty")
			}
			c.DataDir = v
			return nil
		}},
		{name: "DATABASE_URL", secret: true, help: "PostgreSQL URL; empty keeps SQLite in the data directory", set: func(c *Config, v string) error {
			if v != "" {
				u, err := url.Parse(v)
				if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") || u.Host == "" {
					return errors.New("must look like postgres://user:password@host:5432/database")
				}
			}
			c.DatabaseURL = v
			return nil
		}},
		{name: "DATABASE_WAIT", def: "1m", help: "how long to wait for PostgreSQL at start", set: func(c *Config, v string) (err error) {
			c.DatabaseWait, err = parseDuration(v)
			return err
		}},
		{name: "SHUTDOWN_DRAIN", def: "1s", readme: "`1s` (`0` with `DEV`)", help: "draining time before a graceful stop", set: func(c *Config, v string) (err error) {
			c.ShutdownDrain, err = parseDuration(v)
			return err
		}},
		{name: "SMTP_URL", secret: true, help: "SMTP server URL; empty keeps mail in the outbox", set: func(c *Config, v string) error {
			if v != "" {
				u, err := url.Parse(v)
				if err != nil || (u.Scheme != "smtp" && u.Scheme != "smtps") || u.Hostname() == "" {
					return errors.New("must look like smtp://user:pass@host:587 or smtps://user:pass@host:465")
				}
			}
			c.SMTPURL = v
			return nil
		}},
		{name: "MAIL_FROM", readme: "the email of `content/site.json`", help: "sender address", set: func(c *Config, v string) error {
			c.MailFrom = v
			return nil
		}},
		{name: "MAIL_TO", readme: "the email of `content/site.json`", help: "the consultancy's inbox", set: func(c *Config, v string) error {
			c.MailTo = v
			return nil
		}},
		{name: "GA_MEASUREMENT_ID", help: "Google Analytics 4 measurement ID", set: func(c *Config, v string) error {
			if v != "" && !gaMeasurementID.MatchString(v) {
				return shown{strconv.Quote(v), errors.New("must look like G-XXXXXXXXXX")}
			}
			c.GAMeasurementID = v
			return nil
		}},
		{name: "CONSENT_HIDE_FROM_BOTS", def: "true", boolean: true, help: "hide the consent banner from bots", set: func(c *Config, v string) (err error) {
			c.ConsentHideFromBots, err = parseBool(v)
			return err
		}},
		{name: "DEV", def: "false", boolean: true, help: "rebuild on change, serve drafts", set: func(c *Config, v string) (err error) {
			c.Dev, err = parseBool(v)
			return err
		}},
		{name: "DEV_PUBLIC", def: "false", boolean: true, help: "let -dev listen on a network address", set: func(c *Config, v string) (err error) {
			c.DevPublic, err = parseBool(v)
			return err
		}},
		{name: "ROOT", def: ".", help: "project directory", set: func(c *Config, v string) error {
			c.Root = v
			return nil
		}},
		{name: "TRUST_PROXY", def: "false", boolean: true, help: "trust X-Forwarded-For and X-Forwarded-Proto from a private address", set: func(c *Config, v string) (err error) {
			c.TrustProxy, err = parseBool(v)
			return err
		}},
		{name: "HSTS", def: HSTSAuto, help: "when to send Strict-Transport-Security: auto, always or off", set: func(c *Config, v string) error {
			switch v {
			case HSTSAuto, HSTSAlways, HSTSOff:
				c.HSTS = v
				return nil
			}
			return shown{strconv.Quote(v), errors.New("must be auto, always or off")}
		}},
		{name: "CONTACT_RATE_LIMIT", def: "5/10m", help: "contact posts per client, as requests/window", set: func(c *Config, v string) (err error) {
			c.ContactRateLimit, err = ratelimit.Parse(v)
			return err
		}},
		{name: "CALENDAR_ICS_URLS", secret: true, help: "the consultancy's calendar feeds, comma-separated", set: func(c *Config, v string) error {
			c.CalendarICSURLs = nil
			for i, raw := range strings.Split(v, ",") {
				raw = strings.TrimSpace(raw)
				if raw == "" {
					continue
				}
				// A feed URL is a secret: the message names its position only.
				if u, err := url.Parse(raw); err != nil || (u.Scheme != "https" && u.Scheme != "http" && u.Scheme != "webcal") || u.Host == "" {
					return fmt.Errorf("feed %d is not an https, http or webcal URL", i+1)
				}
				c.CalendarICSURLs = append(c.CalendarICSURLs, raw)
			}
			return nil
		}},
		{name: "CALENDAR_REFRESH", def: "5m", help: "how often the calendar feeds are fetched", set: func(c *Config, v string) (err error) {
			if c.CalendarRefresh, err = parseDuration(v); err != nil {
				return err
			}
			if c.CalendarRefresh < 30*time.Second {
				return shown{c.CalendarRefresh.String(), errors.New("want at least 30s")}
			}
			return nil
		}},
		{name: "REMINDER_HOURS", def: "24", help: "hours before a consultation to remind the visitor; 0 for none", set: func(c *Config, v string) (err error) {
			if c.ReminderHours, err = parseInt(v); err != nil {
				return err
			}
			if c.ReminderHours < 0 || c.ReminderHours > 24*14 {
				return shown{strconv.Itoa(c.ReminderHours), errors.New("want between 0 and 336")}
			}
			return nil
		}},
		{name: "BOOKING_DAILY_LIMIT", def: "2", help: "standing bookings per email address; 0 for no limit", set: func(c *Config, v string) (err error) {
			if c.BookingDailyLimit, err = parseInt(v); err != nil {
				return err
			}
			if c.BookingDailyLimit < 0 {
				return shown{strconv.Itoa(c.BookingDailyLimit), errors.New("want 0 (no limit) or more")}
			}
			return nil
		}},
		{name: "BOOKING_RATE_LIMIT", def: "10/10m", help: "booking posts per client, as requests/window", set: func(c *Config, v string) (err error) {
			c.BookingRateLimit, err = ratelimit.Parse(v)
			return err
		}},
		{name: "RETENTION", def: strconv.Itoa(staff.DefaultRetentionMonths), help: "months personal data is kept", set: func(c *Config, v string) error {
			v = strings.TrimSpace(v)
			n, err := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSuffix(v, "months"), "mo")))
			if err != nil {
				return fmt.Errorf("%q is not a number of months such as 12", v)
			}
			if n < 1 || n > staff.MaxRetentionMonths {
				return shown{strconv.Itoa(n), fmt.Errorf("a number of months from 1 to %d", staff.MaxRetentionMonths)}
			}
			c.Retention = n
			return nil
		}},
	}
}

var gaMeasurementID = regexp.MustCompile(`^G-[A-Z0-9]{4,16}$`)

func checkAddr(v string) error {
	_, port, err := net.SplitHostPort(v)
	if err != nil {
		return shown{strconv.Quote(v), err}
	}
	if n, err := strconv.Atoi(port); err != nil || n < 0 || n > 65535 {
		return shown{strconv.Quote(v), errors.New("the port must be a number from 0 to 65535")}
	}
	return nil
}

// Loopback reports whether the listen address addr (host:port) is on
// loopback alone: 127.0.0.0/8, ::1 or localhost. An empty host, 0.0.0.0 or
// :: listen on every address; a host name other than localhost may be
// any.
func Loopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func parseDuration(v string) (time.Duration, error) {
	d, err := time.ParseDuration(v)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("%q is not a duration such as 30s or 1m", v)
	}
	return d, nil
}

func parseInt(v string) (int, error) {
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0, fmt.Errorf("%q is not a whole number", v)
	}
	return n, nil
}

func parseBool(v string) (bool, error) {
	b, err := strconv.ParseBool(v)
	if err != nil {
		return false, fmt.Errorf("%q is not true or false", v)
	}
	return b, nil
}
