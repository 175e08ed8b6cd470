package config_test

import (
	"flag"
	"io"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/northbeam/site/internal/config"
	"github.com/northbeam/site/internal/ratelimit"
)

// env is an environment of the variables given.
func env(vars map[string]string) func(string) string {
	return func(name string) string { return vars[name] }
}

func TestDefaults(t *testing.T) {
	want := config.Config{
		Addr:                ":8080",
		BaseURL:             "http://localhost:8080",
		DataDir:             "./data",
		DatabaseWait:        time.Minute,
		ShutdownDrain:       time.Second,
		ConsentHideFromBots: true,
		Root:                ".",
		HSTS:                config.HSTSAuto,
		ContactRateLimit:    ratelimit.Limit{Requests: 5, Window: 10 * time.Minute},
		CalendarRefresh:     5 * time.Minute,
		ReminderHours:       24,
		BookingDailyLimit:   2,
		BookingRateLimit:    ratelimit.Limit{Requests: 10, Window: 10 * time.Minute},
		Retention:           12,
	}
	got, err := config.Load(nil, env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("an empty environment:\n got %+v\nwant %+v", got, want)
	}
	if d := config.Default(); !reflect.DeepEqual(d, want) {
		t.Errorf("Default() = %+v", d)
	}
}

func TestOverrides(t *testing.T) {
	for _, tc := range []struct {
		name  string
		args  []string
		env   map[string]string
		field func(config.Config) any
		want  any
	}{
		{"BASE_URL loses its trailing slash", nil, map[string]string{"BASE_URL": "https://northbeam.dev/"},
			func(c config.Config) any { return c.BaseURL }, "https://northbeam.dev"},
		{"PostgreSQL and its wait", nil, map[string]string{"DATABASE_URL": "postgres://site:pw@db.internal:5432/site", "DATABASE_WAIT": "5s"},
			func(c config.Config) any { return []any{c.DatabaseURL, c.DatabaseWait} }, []any{"postgres://site:pw@db.internal:5432/site", 5 * time.Second}},
		{"-dev drains nothing", []string{"-dev"}, nil,
			func(c config.Config) any { return []any{c.Dev, c.ShutdownDrain} }, []any{true, time.Duration(0)}},
		{"DEV=true drains nothing", nil, map[string]string{"DEV": "true"},
			func(c config.Config) any { return c.ShutdownDrain }, time.Duration(0)},
		{"a drain asked for holds with DEV", []string{"-dev"}, map[string]string{"SHUTDOWN_DRAIN": "2s"},
			func(c config.Config) any { return c.ShutdownDrain }, 2 * time.Second},
		{"a drain of 0 without DEV", []string{"-shutdown_drain", "0s"}, nil,
			func(c config.Config) any { return c.ShutdownDrain }, time.Duration(0)},
		{"-dev listens on loopback", []string{"-dev"}, nil,
			func(c config.Config) any { return c.Addr }, "127.0.0.1:8080"},
		{"-dev keeps an address on loopback", []string{"-dev"}, map[string]string{"ADDR": "[::1]:9000"},
			func(c config.Config) any { return c.Addr }, "[::1]:9000"},
		{"-dev keeps localhost", nil, map[string]string{"DEV": "true", "ADDR": "localhost:9000"},
			func(c config.Config) any { return c.Addr }, "localhost:9000"},
		{"-dev on the network when asked, every address by default", []string{"-dev", "-dev_public"}, nil,
			func(c config.Config) any { return c.Addr }, ":8080"},
		{"-dev on the network at the address asked", []string{"-dev"}, map[string]string{"DEV_PUBLIC": "true", "ADDR": "0.0.0.0:3000"},
			func(c config.Config) any { return c.Addr }, "0.0.0.0:3000"},
		{"every address without -dev", nil, map[string]string{"ADDR": "0.0.0.0:8080"},
			func(c config.Config) any { return c.Addr }, "0.0.0.0:8080"},
		{"-dev=false", []string{"-dev=false"}, map[string]string{"DEV": "true"},
			func(c config.Config) any { return []any{c.Dev, c.ShutdownDrain} }, []any{false, time.Second}},
		{"the calendar feeds, blanks left out", nil, map[string]string{"CALENDAR_ICS_URLS": " https://calendar.example.com/a.ics, ,webcal://b.example/c.ics "},
			func(c config.Config) any { return c.CalendarICSURLs }, []string{"https://calendar.example.com/a.ics", "webcal://b.example/c.ics"}},
		{"rate limits", []string{"-booking_rate_limit", "3/1h"}, map[string]string{"CONTACT_RATE_LIMIT": "1000000/1m"},
			func(c config.Config) any { return []any{c.ContactRateLimit, c.BookingRateLimit} },
			[]any{ratelimit.Limit{Requests: 1000000, Window: time.Minute}, ratelimit.Limit{Requests: 3, Window: time.Hour}}},
		{"retention in months", nil, map[string]string{"RETENTION": " 24 months"},
			func(c config.Config) any { return c.Retention }, 24},
		{"no reminder", []string{"-reminder_hours=0"}, nil,
			func(c config.Config) any { return c.ReminderHours }, 0},
		{"HSTS always behind a TLS proxy", nil, map[string]string{"HSTS": "always", "TRUST_PROXY": "true"},
			func(c config.Config) any { return []any{c.HSTS, c.TrustProxy} }, []any{config.HSTSAlways, true}},
		{"an empty variable is unset", nil, map[string]string{"ADDR": "", "MAIL_TO": ""},
			func(c config.Config) any { return []any{c.Addr, c.MailTo} }, []any{":8080", ""}},
		{"an empty flag is set", []string{"-mail_to="}, map[string]string{"MAIL_TO": "team@northbeam.test"},
			func(c config.Config) any { return c.MailTo }, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := config.Load(tc.args, env(tc.env))
			if err != nil {
				t.Fatal(err)
			}
			if got := tc.field(c); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

// TestFlagsWin reads every setting from its variable, and from its flag,
// which wins over the variable.
func TestFlagsWin(t *testing.T) {
	// Two values of each setting: the first unlike its default, the second
	// unlike the first.
	values := map[string][2]string{
		"ADDR":                   {":9000", "127.0.0.1:9100"},
		"BASE_URL":               {"https://a.example", "https://b.example"},
		"DATA_DIR":               {"/srv/a", "/srv/b"},
		"DATABASE_URL":           {"postgres://a@db/a", "postgresql://b@db/b"},
		"DATABASE_WAIT":          {"5s", "10s"},
		"SHUTDOWN_DRAIN":         {"0s", "3s"},
		"SMTP_URL":               {"smtp://a@mail:587", "smtps://b@mail:465"},
		"MAIL_FROM":              {"a@northbeam.test", "b@northbeam.test"},
		"MAIL_TO":                {"c@northbeam.test", "d@northbeam.test"},
		"GA_MEASUREMENT_ID":      {"G-AAAA1111", "G-BBBB2222"},
		"CONSENT_HIDE_FROM_BOTS": {"false", "true"},
		"DEV":                    {"true", "false"},
		"DEV_PUBLIC":             {"true", "false"},
		"ROOT":                   {"/src/a", "/src/b"},
		"TRUST_PROXY":            {"true", "false"},
		"HSTS":                   {"off", "always"},
		"CONTACT_RATE_LIMIT":     {"1/1m", "2/1m"},
		"CALENDAR_ICS_URLS":      {"https://a.example/a.ics", "https://b.example/b.ics"},
		"CALENDAR_REFRESH":       {"1m", "2m"},
		"REMINDER_HOURS":         {"0", "48"},
		"BOOKING_DAILY_LIMIT":    {"0", "5"},
		"BOOKING_RATE_LIMIT":     {"1/1h", "2/1h"},
		"RETENTION":              {"6", "24"},
	}
	names := config.Names()
	if len(values) != len(names) {
		t.Fatalf("the test knows %d settings, the table %d", len(values), len(names))
	}
	def := config.Default()
	for _, name := range names {
		v, ok := values[name]
		if !ok {
			t.Errorf("%s: no values to try", name)
			continue
		}
		fromEnv, err := config.Load(nil, env(map[string]string{name: v[0]}))
		if err != nil {
			t.Errorf("%s=%s: %v", name, v[0], err)
			continue
		}
		flagArg := "-" + strings.ToLower(name) + "=" + v[1]
		both, err := config.Load([]string{flagArg}, env(map[string]string{name: v[0]}))
		if err != nil {
			t.Errorf("%s: %v", flagArg, err)
			continue
		}
		fromFlag, _ := config.Load([]string{flagArg}, env(nil))
		if reflect.DeepEqual(fromEnv, def) {
			t.Errorf("%s=%s changed nothing", name, v[0])
		}
		if reflect.DeepEqual(both, fromEnv) || !reflect.DeepEqual(both, fromFlag) {
			t.Errorf("%s: with the variable %s and the flag %s, got %+v; want the flag's", name, v[0], flagArg, both)
		}
	}
}

func TestRefusals(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		env  map[string]string
		want string
	}{
		{"port out of range", []string{"-addr", ":99999"}, nil, `ADDR ":99999": the port must be a number from 0 to 65535`},
		{"no port", nil, map[string]string{"ADDR": "localhost"}, `ADDR "localhost": address localhost: missing port in address`},
		{"relative base URL", []string{"-base_url", "example.com"}, nil, `BASE_URL "example.com": must be an absolute http(s) URL such as https://example.com`},
		{"base URL with a query", nil, map[string]string{"BASE_URL": "https://x.test/?a=b"}, `BASE_URL "https://x.test/?a=b": must be`},
		{"no data directory", []string{"-data_dir="}, nil, "DATA_DIR: must not be empty"},
		{"bad boolean", nil, map[string]string{"CONSENT_HIDE_FROM_BOTS": "maybe"}, `CONSENT_HIDE_FROM_BOTS: "maybe" is not true or false`},
		{"bad boolean flag", []string{"-dev=maybe"}, nil, `DEV: "maybe" is not true or false`},
		{"bad SMTP URL", nil, map[string]string{"SMTP_URL": "http://u:s3cret@mail.test"}, "SMTP_URL: must look like smtp://user:pass@host:587 or smtps://user:pass@host:465"},
		{"bad GA ID", nil, map[string]string{"GA_MEASUREMENT_ID": "UA-123"}, `GA_MEASUREMENT_ID "UA-123": must look like G-XXXXXXXXXX`},
		{"not PostgreSQL", nil, map[string]string{"DATABASE_URL": "mysql://site:s3cret-pw@db/site"}, "DATABASE_URL: must look like postgres://user:password@host:5432/database"},
		{"PostgreSQL without a host", []string{"-database_url", "postgres:///s3cret"}, nil, "DATABASE_URL: must look like"},
		{"bad database wait", nil, map[string]string{"DATABASE_WAIT": "a while"}, `DATABASE_WAIT: "a while" is not a duration such as 30s or 1m`},
		{"bad drain", nil, map[string]string{"SHUTDOWN_DRAIN": "-1s"}, `SHUTDOWN_DRAIN: "-1s" is not a duration`},
		{"a feed that is not a URL", nil, map[string]string{"CALENDAR_ICS_URLS": "https://calendar.example.com/a.ics, ftp://x:s3cret@feeds/b.ics"}, "CALENDAR_ICS_URLS: feed 2 is not an https, http or webcal URL"},
		{"a refresh too often", nil, map[string]string{"CALENDAR_REFRESH": "1s"}, "CALENDAR_REFRESH 1s: want at least 30s"},
		{"bad reminder hours", nil, map[string]string{"REMINDER_HOURS": "a day"}, `REMINDER_HOURS: "a day" is not a whole number`},
		{"reminder beyond two weeks", []string{"-reminder_hours", "337"}, nil, "REMINDER_HOURS 337: want between 0 and 336"},
		{"negative booking limit", nil, map[string]string{"BOOKING_DAILY_LIMIT": "-1"}, "BOOKING_DAILY_LIMIT -1: want 0 (no limit) or more"},
		{"-dev on every address", []string{"-dev"}, map[string]string{"ADDR": "0.0.0.0:8080"}, `ADDR "0.0.0.0:8080": -dev shows the sources and their errors to whoever reaches it, so it listens on loopback only (such as 127.0.0.1:8080); set DEV_PUBLIC=true`},
		{"-dev on every address, no host", nil, map[string]string{"DEV": "true", "ADDR": ":8080"}, `ADDR ":8080": -dev shows the sources`},
		{"-dev on every IPv6 address", []string{"-dev", "-addr", "[::]:8080"}, nil, `ADDR "[::]:8080": -dev shows the sources`},
		{"-dev on a host name", []string{"-dev", "-addr", "devbox.lan:8080"}, map[string]string{"DEV_PUBLIC": "false"}, `ADDR "devbox.lan:8080": -dev shows the sources`},
		{"unknown flag", []string{"-nope"}, nil, "flag provided but not defined: -nope"},
		{"stray argument", []string{"serve"}, nil, `unexpected argument "serve"`},
		{"bad TRUST_PROXY", nil, map[string]string{"TRUST_PROXY": "yes please"}, `TRUST_PROXY: "yes please" is not true or false`},
		{"bad HSTS", nil, map[string]string{"HSTS": "sometimes"}, `HSTS "sometimes": must be auto, always or off`},
		{"bad contact rate", nil, map[string]string{"CONTACT_RATE_LIMIT": "5 per minute"}, `CONTACT_RATE_LIMIT: rate limit "5 per minute": want requests/window, such as 5/10m`},
		{"bad booking rate", []string{"-booking_rate_limit", "0/1m"}, nil, `BOOKING_RATE_LIMIT: rate limit "0/1m"`},
		{"retention not a number", nil, map[string]string{"RETENTION": "a year"}, `RETENTION: "a year" is not a number of months such as 12`},
		{"retention of no months", []string{"-retention", "0"}, nil, "RETENTION 0: a number of months from 1 to 120"},
		{"retention beyond ten years", nil, map[string]string{"RETENTION": "121"}, "RETENTION 121: a number of months from 1 to 120"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := config.Load(tc.args, env(tc.env))
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("err = %v, want one starting %q", err, tc.want)
			}
			if err != nil && strings.Contains(err.Error(), "s3cret") {
				t.Errorf("the error shows a secret: %v", err)
			}
		})
	}
}

// TestSecretsAreNeverShown gives every secret setting a value it refuses,
// holding a password, from the variable and from the flag.
func TestSecretsAreNeverShown(t *testing.T) {
	const bad = "ftp://site:s3cret@host.example/x"
	secrets := config.Secrets()
	if len(secrets) == 0 {
		t.Fatal("no setting is marked secret")
	}
	for _, name := range secrets {
		for _, load := range []func() error{
			func() error { _, err := config.Load(nil, env(map[string]string{name: bad})); return err },
			func() error { _, err := config.Load([]string{"-" + strings.ToLower(name), bad}, env(nil)); return err },
		} {
			err := load()
			if err == nil || !strings.HasPrefix(err.Error(), name+":") {
				t.Errorf("%s=%s: err = %v, want a refusal naming %s", name, bad, err, name)
			} else if strings.Contains(err.Error(), "s3cret") || strings.Contains(err.Error(), "host.example") {
				t.Errorf("%s: the refusal shows the value: %v", name, err)
			}
		}
	}
}

// TestParseReadsOnlyTheSettingsNamed: a command reads its settings with
// flags of its own and arguments; the settings it does not name keep their
// defaults and are neither read nor checked.
func TestParseReadsOnlyTheSettingsNamed(t *testing.T) {
	fs := flag.NewFlagSet("backup", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	keep := fs.Int("keep", 0, "copies kept")
	vars := env(map[string]string{"DATA_DIR": "/srv/env", "BASE_URL": "not a URL", "ADDR": ":9000"})
	c, err := config.Parse(fs, []string{"-data_dir", "/srv/flag", "-keep", "3", "copy.db"}, vars, "DATA_DIR", "DATABASE_URL")
	if err != nil {
		t.Fatal(err)
	}
	if c.DataDir != "/srv/flag" || *keep != 3 || fs.Arg(0) != "copy.db" || c.Addr != ":8080" {
		t.Errorf("data dir %q, keep %d, argument %q, addr %q", c.DataDir, *keep, fs.Arg(0), c.Addr)
	}
	fs = flag.NewFlagSet("backup", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	if _, err := config.Parse(fs, []string{"-addr", ":1"}, vars, "DATA_DIR"); err == nil {
		t.Error("a flag of a setting the command does not read was accepted")
	}
	if _, err := config.Parse(flag.NewFlagSet("x", flag.ContinueOnError), nil, vars, "DATA_DIRECTORY"); err == nil {
		t.Error("a setting that does not exist was named")
	}
}
