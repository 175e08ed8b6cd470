package main

import (
	"strings"
	"testing"
	"time"
)

func TestConfigDefaultsAndOverrides(t *testing.T) {
	env := map[string]string{"BASE_URL": "https://northbeam.dev/", "ADDR": ":9000"}
	c, err := loadConfig([]string{"-addr", "127.0.0.1:9100"}, func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	if c.Addr != "127.0.0.1:9100" {
		t.Errorf("the flag must win over ADDR: %q", c.Addr)
	}
	if c.BaseURL != "https://northbeam.dev" {
		t.Errorf("BASE_URL %q: the trailing slash is dropped", c.BaseURL)
	}
	if !c.ConsentHideFromBots || c.Dev || c.DataDir != "./data" || c.DatabaseURL != "" ||
		c.DatabaseWait != time.Minute || c.ShutdownDrain != time.Second {
		t.Errorf("defaults: %+v", c)
	}
	dev, err := loadConfig([]string{"-dev"}, func(k string) string {
		return map[string]string{"DATABASE_URL": "postgres://site:pw@db.internal:5432/site", "DATABASE_WAIT": "5s"}[k]
	})
	if err != nil || dev.ShutdownDrain != 0 || dev.DatabaseWait != 5*time.Second {
		t.Errorf("-dev with PostgreSQL: %+v, %v; want no drain and a 5 s wait", dev, err)
	}
}

func TestInvalidConfigurationStopsTheStart(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		env  map[string]string
		want string
	}{
		{"port out of range", []string{"-addr", ":99999"}, nil, "ADDR"},
		{"no port", nil, map[string]string{"ADDR": "localhost"}, "ADDR"},
		{"relative base URL", []string{"-base_url", "example.com"}, nil, "BASE_URL"},
		{"base URL with a query", nil, map[string]string{"BASE_URL": "https://x.test/?a=b"}, "BASE_URL"},
		{"bad boolean", nil, map[string]string{"CONSENT_HIDE_FROM_BOTS": "maybe"}, "CONSENT_HIDE_FROM_BOTS"},
		{"bad SMTP URL", nil, map[string]string{"SMTP_URL": "http://mail.test"}, "SMTP_URL"},
		{"bad GA ID", nil, map[string]string{"GA_MEASUREMENT_ID": "UA-123"}, "GA_MEASUREMENT_ID"},
		{"not PostgreSQL", nil, map[string]string{"DATABASE_URL": "mysql://site:s3cret-pw@db/site"}, "DATABASE_URL"},
		{"bad database wait", nil, map[string]string{"DATABASE_WAIT": "a while"}, "DATABASE_WAIT"},
		{"bad drain", nil, map[string]string{"SHUTDOWN_DRAIN": "-1s"}, "SHUTDOWN_DRAIN"},
		{"a feed that is not a URL", nil, map[string]string{"CALENDAR_ICS_URLS": "https://calendar.example.com/a.ics, ftp://x:s3cret@feeds/b.ics"}, "feed 2"},
		{"a refresh too often", nil, map[string]string{"CALENDAR_REFRESH": "1s"}, "CALENDAR_REFRESH"},
		{"bad reminder hours", nil, map[string]string{"REMINDER_HOURS": "a day"}, "REMINDER_HOURS"},
		{"negative booking limit", nil, map[string]string{"BOOKING_DAILY_LIMIT": "-1"}, "BOOKING_DAILY_LIMIT"},
		{"unknown flag", []string{"-nope"}, nil, "nope"},
		{"stray argument", []string{"serve"}, nil, "serve"},
		{"bad TRUST_PROXY", nil, map[string]string{"TRUST_PROXY": "yes please"}, "TRUST_PROXY"},
		{"bad HSTS", nil, map[string]string{"HSTS": "sometimes"}, "HSTS"},
		{"bad contact rate", nil, map[string]string{"CONTACT_RATE_LIMIT": "5 per minute"}, "CONTACT_RATE_LIMIT"},
		{"bad booking rate", []string{"-booking_rate_limit", "0/1m"}, nil, "BOOKING_RATE_LIMIT"},
		{"retention not a number", nil, map[string]string{"RETENTION": "a year"}, "RETENTION"},
		{"retention of no months", []string{"-retention", "0"}, nil, "RETENTION"},
		{"retention beyond ten years", nil, map[string]string{"RETENTION": "121"}, "RETENTION"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := loadConfig(tc.args, func(k string) string { return tc.env[k] })
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want a message naming %s", err, tc.want)
			}
			if err != nil && strings.Contains(err.Error(), "s3cret") {
				t.Errorf("the error shows the password: %v", err)
			}
		})
	}
}
