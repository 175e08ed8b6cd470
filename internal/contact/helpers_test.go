package contact

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/northbeam/site/internal/intl"
	"github.com/northbeam/site/internal/site"
	"github.com/northbeam/site/internal/store"
)

const testInbox = "inbox@northbeam.dev"

func testBrand() Brand {
	return Brand{Name: "Northbeam", Email: "hello@northbeam.dev", BaseURL: "https://northbeam.test", ResponseHours: 24,
		Zone: berlin(), Dates: shippedDates()}
}

// berlin is the consultancy's zone in the tests.
var berlin = sync.OnceValue(func() *time.Location {
	loc, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		panic(err)
	}
	return loc
})

// shippedDates writes dates with the CLDR data of the project's node_modules.
var shippedDates = sync.OnceValue(func() *intl.Formatter {
	info, err := site.Load(siteContent(), site.File)
	if err != nil {
		panic(err)
	}
	dates, err := intl.Load(os.DirFS(filepath.Join("..", "..", "node_modules")), info.Languages)
	if err != nil {
		panic(err)
	}
	return dates
})

// siteContent is the real content directory of the repository.
func siteContent() fs.FS { return os.DirFS(filepath.Join("..", "..", "content")) }

// unlisted is a language code that no site lists (ISO 639's "no
// linguistic content"): a visitor's language the site does not speak.
const unlisted = "zxx"

// siteLanguages returns the codes of the languages of content/site.json.
func siteLanguages(t testing.TB) []string {
	t.Helper()
	info, err := site.Load(siteContent(), site.File)
	if err != nil {
		t.Fatal(err)
	}
	return info.Languages.Codes()
}

// newStore returns a fresh SQLite store, for tests about mail and spam
// rather than storage; those about storage run on both back-ends.
func newStore(t *testing.T) *store.Store {
	t.Helper()
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "site.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

func newService(t *testing.T, st *store.Store, queued func()) *Service {
	t.Helper()
	svc, err := NewService(st, siteContent(), Config{Inbox: testInbox, Brand: testBrand(), Queued: queued})
	if err != nil {
		t.Fatal(err)
	}
	return svc
}

// humanSubmission is a valid submission filled in at human speed.
func humanSubmission(lang string) Submission {
	s := validSubmission()
	s.Lang = lang
	s.RenderedAt = time.Now().Add(-time.Minute)
	return s
}

func count(t *testing.T, st *store.Store, query string, args ...any) int {
	t.Helper()
	var n int
	if err := st.QueryRowContext(context.Background(), query, args...).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}
