package staff

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"sync"
	"testing"
	"time"

	"github.com/northbeam/site/internal/contact"
	"github.com/northbeam/site/internal/intl"
	"github.com/northbeam/site/internal/site"
	"github.com/northbeam/site/internal/store"
)

var contentDir, _ = filepath.Abs("../../content")

// clock is a clock that tests move by hand.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// newWorkspace returns a workspace on st with the shipped content and
// strings, the consultancy in Berlin, and a clock starting at start.
func newWorkspace(t testing.TB, st *store.Store, start time.Time) (*Workspace, *clock) {
	t.Helper()
	content := os.DirFS(contentDir)
	info, err := site.Load(content, "site.json")
	if err != nil {
		t.Fatal(err)
	}
	texts, err := site.LoadLocales(content, "staff/locales", info)
	if err != nil {
		t.Fatal(err)
	}
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	dates, err := intl.Load(os.DirFS("../../node_modules"), info.Languages)
	if err != nil {
		t.Fatal(err)
	}
	mailer, err := contact.NewMailer(content, contact.Brand{Name: info.Name, Email: info.Email, BaseURL: "https://example.test", ResponseHours: 24,
		Zone: berlin, Dates: dates}, "team@northbeam.test")
	if err != nil {
		t.Fatal(err)
	}
	c := &clock{now: start}
	w, err := New(st, Config{
		BaseURL: "https://example.test", Name: info.Name, Location: berlin,
		Texts: texts, Content: content, Contact: mailer, Now: c.Now,
	})
	if err != nil {
		t.Fatal(err)
	}
	return w, c
}

var linkToken = regexp.MustCompile(`/staff/link\?token=([A-Za-z0-9_-]+)`)

// mailedLink returns the token of the latest sign-in link in the outbox.
func mailedLink(t testing.TB, st *store.Store) string {
	t.Helper()
	var body string
	err := st.QueryRowContext(context.Background(), `SELECT text_body FROM outbox WHERE kind = ? ORDER BY id DESC LIMIT 1`, KindSignInLink).Scan(&body)
	if err != nil {
		t.Fatalf("no sign-in link in the outbox: %v", err)
	}
	m := linkToken.FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("no link in the mail:\n%s", body)
	}
	return m[1]
}

func count(t testing.TB, q store.Querier, query string, args ...any) int {
	t.Helper()
	var n int
	if err := q.QueryRowContext(context.Background(), query, args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return n
}

func exec(t testing.TB, q store.Querier, query string, args ...any) {
	t.Helper()
	if _, err := q.ExecContext(context.Background(), query, args...); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
}

// signIn adds email as a member and signs them in through a mailed link.
func signIn(t testing.TB, w *Workspace, st *store.Store, email string) (Member, string) {
	t.Helper()
	ctx := context.Background()
	if _, err := w.Invite(ctx, email, ActorCommandLine); err != nil {
		t.Fatal(err)
	}
	if err := w.RequestSignInLink(ctx, email); err != nil {
		t.Fatal(err)
	}
	m, session, err := w.UseSignInLink(ctx, mailedLink(t, st))
	if err != nil {
		t.Fatal(err)
	}
	return m, session
}
