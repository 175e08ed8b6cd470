package contact

import (
	"context"
	"maps"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/northbeam/site/e2e/internal/e2etest"
	"github.com/northbeam/site/handlers"
	"github.com/northbeam/site/internal/sitetest"
	"github.com/northbeam/site/internal/store"
	"github.com/northbeam/site/internal/store/storetest"
)

// TestContactFormWhileTheDatabaseIsAway sends the form in Chromium while
// the way to PostgreSQL is cut: the form shows its error state with the
// spec's message and why, keeps what was typed, and sends once the
// database is back.
func TestContactFormWhileTheDatabaseIsAway(t *testing.T) {
	b, _ := e2etest.Browser(t)
	s := sitetest.Site(t)
	ctx := context.Background()
	proxy, proxied := storetest.NewProxy(t, storetest.PostgresURL(t))
	st, err := store.OpenPostgres(ctx, proxied, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	h := handlers.New(handlers.NewServer(s, handlers.Services{
		Log: sitetest.QuietLog(), Store: st, Contact: sitetest.ContactService(t, st, time.Millisecond, nil),
	}))
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)

	proxy.Cut()
	typed := map[string]string{"name": "Jonas Weber", "email": "jonas@example.com", "message": "Wir planen eine neue Plattform für 2027.", "service": "platform-engineering"}
	var values map[string]string
	tb := e2etest.NewTab(t, b)
	tb.Run(t,
		chromedp.Navigate(srv.URL+"/de"),
		e2etest.WaitHydrated(),
		e2etest.FillContactForm(typed["name"], typed["email"], typed["message"], typed["service"]),
		chromedp.Click(e2etest.SubmitSel, chromedp.ByQuery),
		e2etest.WaitText(e2etest.StatusSel, s.Locales.T("de", "contact.error")+" "+s.Locales.T("de", "errors.unavailable")),
		e2etest.FormValues(&values),
	)
	if !maps.Equal(values, typed) {
		t.Errorf("after the refusal the form holds %v, the visitor typed %v", values, typed)
	}
	proxy.Restore()
	tb.Run(t,
		chromedp.Click(e2etest.SubmitSel, chromedp.ByQuery),
		e2etest.WaitText(e2etest.StatusSel, s.Locales.T("de", "contact.sent")),
	)
	var n int
	if err := st.QueryRowContext(ctx, `SELECT count(*) FROM messages`).Scan(&n); err != nil || n != 1 {
		t.Errorf("%d messages stored (%v), want the one sent after the outage", n, err)
	}
}
