package main

import (
	"testing"

	"github.com/northbeam/site/internal/config"
	"github.com/northbeam/site/internal/site"
)

// TestSenderIsNamed: mail comes from the consultancy by name, whether
// MAIL_FROM is unset or a bare address; a name given in MAIL_FROM stays.
func TestSenderIsNamed(t *testing.T) {
	info := &site.Info{Name: "Northbeam", Email: "hello@northbeam.dev"}
	for from, want := range map[string]string{
		"":                                 "\"Northbeam\" <hello@northbeam.dev>",
		"mail@northbeam.dev":               "\"Northbeam\" <mail@northbeam.dev>",
		"Team Northbeam <a@northbeam.dev>": "Team Northbeam <a@northbeam.dev>",
	} {
		if got := withSiteEmail(config.Config{MailFrom: from}, info).MailFrom; got != want {
			t.Errorf("MAIL_FROM %q: sender %q, want %q", from, got, want)
		}
	}
}
