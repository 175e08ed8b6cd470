package sitetest

import (
	"io/fs"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/northbeam/site/internal/sitebuild"
)

// The hosts of the tests: people of the shipped team, each linked to a
// staff address.
const (
	HostSamira = "samira-haddad"
	HostJonas  = "jonas-becker"
	HostLena   = "lena-hartmann"
)

// HostsOf returns availability (BookingFixture's shape) with consultations
// booked with people of the shipped team: discovery is shared round-robin
// among Samira, Jonas and Lena; strategy is Lena's and Samira's, at the
// visitor's choice. Each keeps the consultancy's hours.
func HostsOf(availability string) string {
	start := strings.Index(availability, `"services":`)
	end := strings.Index(availability, `"slotIntervalMinutes"`)
	if start < 0 || end < start {
		panic("sitetest.HostsOf: no services before slotIntervalMinutes")
	}
	// The services' own settings (their meetings) are kept: each gets the
	// hosts and assignment above.
	old := availability[start:end]
	for _, s := range []struct{ name, extra string }{
		{"discovery", `"hosts": ["samira-haddad", "jonas-becker", "lena-hartmann"], "assignment": "round-robin", `},
		{"strategy", `"hosts": ["lena-hartmann", "samira-haddad"], "assignment": "choice", `},
	} {
		old = strings.Replace(old, `"`+s.name+`": {`, `"`+s.name+`": {`+s.extra, 1)
	}
	return availability[:start] + old + `"hosts": {
    "samira-haddad": {"staff": "samira@northbeam.test"},
    "jonas-becker": {"staff": "jonas@northbeam.test"},
    "lena-hartmann": {"staff": "lena@northbeam.test"}
  },
  ` + availability[end:]
}

// HostsFixture is BookingFixture with hosts (HostsOf).
var HostsFixture = HostsOf(BookingFixture)

var hostSites struct {
	mu    sync.Mutex
	sites map[string]*sitebuild.Build
}

// HostsSite returns the real site built with availability as its
// content/availability.json, so that its pages offer booking with the
// hosts it names; built once per availability for the test binary.
func HostsSite(t testing.TB, availability string) *sitebuild.Build {
	t.Helper()
	hostSites.mu.Lock()
	defer hostSites.mu.Unlock()
	if s, ok := hostSites.sites[availability]; ok {
		return s
	}
	content := overlay{Content(), fstest.MapFS{"availability.json": {Data: []byte(availability)}}}
	opts := Site(t).Options()
	opts.Lazy = true // a page is rendered when a test asks for it
	s, err := Rebuild(t, content, opts)
	if err != nil {
		t.Fatalf("building the site with hosts: %v", err)
	}
	if hostSites.sites == nil {
		hostSites.sites = map[string]*sitebuild.Build{}
	}
	hostSites.sites[availability] = s
	return s
}

// overlay is a file system whose top files stand in for base's.
type overlay struct {
	base fs.FS
	top  fstest.MapFS
}

func (o overlay) Open(name string) (fs.File, error) {
	if _, ok := o.top[name]; ok {
		return o.top.Open(name)
	}
	return o.base.Open(name)
}
