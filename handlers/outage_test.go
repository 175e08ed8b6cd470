package handlers

import (
	"context"
	"database/sql"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/northbeam/site/internal/sitetest"
	"github.com/northbeam/site/internal/store"
	"github.com/northbeam/site/internal/store/storetest"
)

// TestDatabaseGoesAwayAndComesBack cuts the way to a running PostgreSQL
// under a serving site: pages keep coming from memory, the API answers 503
// with Retry-After and a localized message (never a 500), /readyz says so,
// nothing is half-written, and everything works again once the database is
// back, without a restart.
func TestDatabaseGoesAwayAndComesBack(t *testing.T) {
	ctx := context.Background()
	proxy, proxied := storetest.NewProxy(t, storetest.PostgresURL(t))
	st, err := store.OpenPostgres(ctx, proxied, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	env := newBookingEnvWith(t, st, sitetest.BookingFixture, &monday7am)
	s := sitetest.Site(t)
	unlimited := RateLimit{Requests: 1 << 20, Window: time.Minute}
	h := New(NewServer(s, Services{
		Log: sitetest.QuietLog(), Store: st, Booking: env.service, Contact: sitetest.ContactService(t, st, 0, nil),
		ContactRate: unlimited, BookingRate: unlimited, SlotsRate: unlimited,
	}))
	contactPost := func(lang string) *http.Response {
		rec := sitetest.Do(t, h, "POST", "/api/contact", "application/json", []byte(humanForm(lang).json()))
		return rec.Result()
	}
	get := func(path string) *http.Response { return sitetest.Do(t, h, "GET", path, "", nil).Result() }
	messages := func() int {
		var n int
		if err := st.QueryRowContext(ctx, `SELECT count(*) FROM messages`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}

	if res := contactPost("en"); res.StatusCode != 201 {
		t.Fatalf("before the outage: %d", res.StatusCode)
	}
	if res := get("/readyz"); res.StatusCode != 200 {
		t.Fatalf("/readyz before the outage: %d", res.StatusCode)
	}

	proxy.Cut()
	other := sitetest.Other(t)
	for _, lang := range s.Info.Languages.Codes() {
		res := contactPost(lang)
		rec := sitetest.Do(t, h, "POST", "/api/contact", "application/json", []byte(humanForm(lang).json()))
		if res.StatusCode != 503 || res.Header.Get("Retry-After") == "" {
			t.Errorf("a contact post during the outage: %d, Retry-After %q", res.StatusCode, res.Header.Get("Retry-After"))
		}
		if e := decodeAPIError(t, rec); e.Code != "unavailable" || e.Message != s.Locales.T(lang, "errors.unavailable") {
			t.Errorf("the error in %s: %+v", lang, e)
		}
	}
	form := sitetest.Do(t, h, "POST", "/api/contact", "application/x-www-form-urlencoded", []byte(humanForm(other.Code).form()))
	if form.Code != 503 || !strings.HasPrefix(pageStatus(form.Body.String()), s.Locales.T(other.Code, "contact.error")) {
		t.Errorf("a form post during the outage: %d, status line %q", form.Code, pageStatus(form.Body.String()))
	}
	for path, want := range map[string]int{
		"/api/slots?service=discovery&from=2027-06-08&days=2&tz=UTC": 503,
		"/api/bookings/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA.ics":         503,
		"/readyz":                    503,
		other.LocalPath("/blog"):     200, // pages come from memory
		other.LocalPath("/schedule"): 200,
	} {
		if res := get(path); res.StatusCode != want {
			t.Errorf("GET %s during the outage: %d, want %d", path, res.StatusCode, want)
		}
	}
	booking := sitetest.Do(t, h, "POST", "/api/bookings", "application/json", []byte(bookingJSON(validBooking(t, "10:00", "en"))))
	if booking.Code != 503 || booking.Header().Get("Retry-After") == "" {
		t.Errorf("a booking during the outage: %d %s", booking.Code, booking.Body)
	}

	proxy.Restore()
	if res := get("/readyz"); res.StatusCode != 200 {
		t.Errorf("/readyz after the outage: %d", res.StatusCode)
	}
	if res := contactPost("en"); res.StatusCode != 201 {
		t.Errorf("a contact post after the outage: %d", res.StatusCode)
	}
	if rec := sitetest.Do(t, h, "POST", "/api/bookings", "application/json", []byte(bookingJSON(validBooking(t, "10:00", "en")))); rec.Code != 201 {
		t.Errorf("a booking after the outage: %d %s", rec.Code, rec.Body)
	}
	if n := messages(); n != 2 {
		t.Errorf("%d messages stored, want the 2 acknowledged ones", n)
	}
}

// TestSQLiteRefusesWrites makes the embedded database refuse writes, with
// a full disk and with a write lock held beyond the busy timeout: the API
// answers 503 with Retry-After (never a 500), /readyz says so, pages are
// served, nothing acknowledged is lost, and all recovers once the fault
// ends.
func TestSQLiteRefusesWrites(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=3m", "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("SKIPPED (loudly): a full disk needs a small file system of its own, and mount was refused: %v %s", err, out)
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", dir).CombinedOutput(); err != nil {
			t.Errorf("umount: %v %s", err, out)
		}
	})
	path := filepath.Join(dir, "site.db")
	st, err := store.Open(ctx, path, store.WithBusyTimeout(200*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	unlimited := RateLimit{Requests: 1 << 20, Window: time.Minute}
	h := New(NewServer(sitetest.Site(t), Services{
		Log: sitetest.QuietLog(), Store: st, Contact: sitetest.ContactService(t, st, 0, nil), ContactRate: unlimited,
	}))
	accepted := 0
	post := func() int {
		rec := sitetest.Do(t, h, "POST", "/api/contact", "application/json", []byte(humanForm(sitetest.Other(t).Code).json()))
		switch rec.Code {
		case 201:
			accepted++
		case 503:
			if rec.Header().Get("Retry-After") == "" || decodeAPIError(t, rec).Code != "unavailable" {
				t.Errorf("503 without Retry-After or its code: %s", rec.Body)
			}
		default:
			t.Errorf("contact post: %d %s", rec.Code, rec.Body)
		}
		return rec.Code
	}
	readyz := func() string {
		rec := sitetest.Do(t, h, "GET", "/readyz", "", nil)
		return fmt.Sprint(rec.Code, " ", strings.TrimSpace(rec.Body.String()))
	}
	if post() != 201 {
		t.Fatal("the first post was refused")
	}

	t.Run("full disk", func(t *testing.T) {
		filler := filepath.Join(dir, "filler")
		f, err := os.Create(filler)
		if err != nil {
			t.Fatal(err)
		}
		chunk := make([]byte, 64<<10)
		for {
			if _, err := f.Write(chunk); err != nil {
				break
			}
		}
		_ = f.Close() // the filler only has to take the space, and it has
		refused := false
		for range 200 {
			if post() == 503 {
				refused = true
				break
			}
		}
		if !refused {
			t.Fatal("200 posts on a full disk were all taken")
		}
		if got := readyz(); got != "503 not ready: the database refuses writes" {
			t.Errorf("/readyz on a full disk: %s", got)
		}
		if rec := sitetest.Do(t, h, "GET", sitetest.Other(t).LocalPath("/blog"), "", nil); rec.Code != 200 {
			t.Errorf("a page on a full disk: %d", rec.Code)
		}
		if err := os.Remove(filler); err != nil {
			t.Fatal(err)
		}
		if got := readyz(); got != "200 ready" {
			t.Errorf("/readyz once the disk has room: %s", got)
		}
		if post() != 201 {
			t.Error("a post once the disk has room was refused")
		}
	})

	t.Run("a lock held beyond the busy timeout", func(t *testing.T) {
		other, err := sql.Open("sqlite", "file:"+path+"?_txlock=immediate")
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = other.Close() }()
		tx, err := other.BeginTx(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		if post() != 503 {
			t.Error("a post while another process holds the write lock was not refused")
		}
		if got := readyz(); got != "503 not ready: the database refuses writes" {
			t.Errorf("/readyz while the lock is held: %s", got)
		}
		tx.Rollback()
		if got := readyz(); got != "200 ready" {
			t.Errorf("/readyz once the lock is released: %s", got)
		}
		if post() != 201 {
			t.Error("a post once the lock is released was refused")
		}
	})

	var stored int
	if err := st.QueryRowContext(ctx, `SELECT count(*) FROM messages`).Scan(&stored); err != nil {
		t.Fatal(err)
	}
	var integrity string
	if err := st.QueryRowContext(ctx, `PRAGMA integrity_check`).Scan(&integrity); err != nil {
		t.Fatal(err)
	}
	if stored != accepted || integrity != "ok" {
		t.Errorf("%d messages stored for %d acknowledged; integrity %s", stored, accepted, integrity)
	}
}
