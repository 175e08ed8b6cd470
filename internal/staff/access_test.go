package staff

import (
	"context"
	"errors"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/northbeam/site/internal/store"
	"github.com/northbeam/site/internal/store/storetest"
)

var monday = time.Date(2027, 6, 7, 8, 0, 0, 0, time.UTC)

func TestInvitations(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		w, clk := newWorkspace(t, st, monday)
		inv, err := w.Invite(ctx, "  Ada@Northbeam.TEST ", ActorCommandLine)
		if err != nil {
			t.Fatal(err)
		}
		if inv.Email != "ada@northbeam.test" || !strings.HasPrefix(inv.URL, "https://example.test/staff/enrol?token=") || !inv.Expires.Equal(monday.Add(24*time.Hour)) {
			t.Errorf("invitation %+v", inv)
		}
		u, _ := url.Parse(inv.URL)
		token := u.Query().Get("token")
		if state, _ := w.CheckInvitation(ctx, token); state != TokenValid {
			t.Errorf("fresh invitation: %s", state)
		}
		// The database holds the token's hash, never the token.
		if n := count(t, st, `SELECT count(*) FROM staff_tokens WHERE token_hash = ?`, token); n != 0 {
			t.Error("the token is stored as it is")
		}
		if _, err := w.BeginEnrolment(ctx, token); err != nil {
			t.Errorf("beginning an enrolment: %v", err)
		}
		if state, _ := w.CheckInvitation(ctx, token); state != TokenValid {
			t.Errorf("an enrolment begun spends nothing: %s", state)
		}
		forged := "A" + token[1:]
		if token[0] == 'A' {
			forged = "B" + token[1:]
		}
		if state, _ := w.CheckInvitation(ctx, forged); state != TokenUnknown {
			t.Errorf("a forged token: %s", state)
		}
		if state, _ := w.CheckSignInLink(ctx, token); state != TokenUnknown {
			t.Errorf("an invitation used as a sign-in link: %s", state)
		}
		clk.Advance(24 * time.Hour)
		if state, _ := w.CheckInvitation(ctx, token); state != TokenExpired {
			t.Errorf("after 24 hours: %s", state)
		}
		var te *TokenError
		if _, err := w.BeginEnrolment(ctx, token); !errors.As(err, &te) || te.State != TokenExpired {
			t.Errorf("enrolment with an expired invitation: %v", err)
		}
		if _, err := w.Invite(ctx, "not an address", ActorCommandLine); !errors.Is(err, ErrInvalidEmail) {
			t.Errorf("invalid address: %v", err)
		}
		members, err := w.Members(ctx)
		if err != nil || len(members) != 1 || members[0].Email != "ada@northbeam.test" || !members[0].Invited.IsZero() {
			t.Errorf("members %+v, %v", members, err)
		}
		if _, err := w.Invite(ctx, "ada@northbeam.test", ActorCommandLine); err != nil {
			t.Fatal(err)
		}
		if members, _ := w.Members(ctx); len(members) != 1 || members[0].Invited.IsZero() {
			t.Errorf("a second invitation adds no one and is pending: %+v", members)
		}
		if err := w.Remove(ctx, "ada@northbeam.test", ActorCommandLine); err != nil {
			t.Fatal(err)
		}
		if err := w.Remove(ctx, "ada@northbeam.test", ActorCommandLine); !errors.Is(err, ErrNotFound) {
			t.Errorf("removing twice: %v", err)
		}
		if n := count(t, st, `SELECT count(*) FROM staff_tokens`); n != 0 {
			t.Errorf("%d links outlived their member", n)
		}
		page, err := w.Audit(ctx, 0, 10)
		if err != nil {
			t.Fatal(err)
		}
		var actions []string
		for _, e := range page.Entries {
			actions = append(actions, e.Action+"/"+e.Actor)
		}
		if got := strings.Join(actions, " "); got != "staff-removal/command line invitation/command line invitation/command line" {
			t.Errorf("audit log: %s", got)
		}
	})
}

func TestSignInLinks(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		w, clk := newWorkspace(t, st, monday)
		if _, err := w.Invite(ctx, "ada@northbeam.test", ActorCommandLine); err != nil {
			t.Fatal(err)
		}
		if err := w.RequestSignInLink(ctx, "stranger@example.com"); err != nil {
			t.Errorf("an address that is not staff: %v (want the same answer as for staff)", err)
		}
		if n := count(t, st, `SELECT count(*) FROM outbox`); n != 0 {
			t.Errorf("mail queued for a stranger: %d", n)
		}
		if err := w.RequestSignInLink(ctx, "nope"); !errors.Is(err, ErrInvalidEmail) {
			t.Errorf("not an address: %v", err)
		}
		if err := w.RequestSignInLink(ctx, "ADA@northbeam.test"); err != nil {
			t.Fatal(err)
		}
		var to, lang string
		if err := st.QueryRowContext(ctx, `SELECT to_addr, lang FROM outbox WHERE kind = ?`, KindSignInLink).Scan(&to, &lang); err != nil || to != "ada@northbeam.test" || lang != "en" {
			t.Errorf("sign-in mail to %q in %q: %v", to, lang, err)
		}
		token := mailedLink(t, st)
		m, session, err := w.UseSignInLink(ctx, token)
		if err != nil || m.Email != "ada@northbeam.test" || session == "" {
			t.Fatalf("first use: %+v %q %v", m, session, err)
		}
		var te *TokenError
		if _, _, err := w.UseSignInLink(ctx, token); !errors.As(err, &te) || te.State != TokenUsed {
			t.Errorf("second use: %v", err)
		}
		if err := w.RequestSignInLink(ctx, "ada@northbeam.test"); err != nil {
			t.Fatal(err)
		}
		late := mailedLink(t, st)
		clk.Advance(15 * time.Minute)
		if _, _, err := w.UseSignInLink(ctx, late); !errors.As(err, &te) || te.State != TokenExpired {
			t.Errorf("after 15 minutes: %v", err)
		}
		if _, _, err := w.UseSignInLink(ctx, "short"); !errors.As(err, &te) || te.State != TokenUnknown {
			t.Errorf("a malformed token: %v", err)
		}
	})
}

func TestSessions(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		w, clk := newWorkspace(t, st, monday)
		m, session := signIn(t, w, st, "ada@northbeam.test")
		s, err := w.Authenticate(ctx, session)
		if err != nil || s.Member.ID != m.ID {
			t.Fatalf("a fresh session: %+v %v", s, err)
		}
		if n := count(t, st, `SELECT count(*) FROM staff_sessions WHERE token_hash = ?`, session); n != 0 {
			t.Error("the session token is stored as it is")
		}
		// Used every 11 hours, a session lives for 7 days and no longer.
		for elapsed := 11 * time.Hour; elapsed < 7*24*time.Hour; elapsed += 11 * time.Hour {
			clk.Advance(11 * time.Hour)
			if _, err := w.Authenticate(ctx, session); err != nil {
				t.Fatalf("in use, after %s: %v", elapsed, err)
			}
		}
		clk.Advance(11 * time.Hour)
		if _, err := w.Authenticate(ctx, session); !errors.Is(err, ErrSignedOut) {
			t.Errorf("after 7 days: %v", err)
		}

		_, idle := signIn(t, w, st, "ada@northbeam.test")
		clk.Advance(12 * time.Hour)
		if _, err := w.Authenticate(ctx, idle); !errors.Is(err, ErrSignedOut) {
			t.Errorf("after 12 idle hours: %v", err)
		}

		_, laptop := signIn(t, w, st, "ada@northbeam.test")
		_, phone := signIn(t, w, st, "ada@northbeam.test")
		_, other := signIn(t, w, st, "bob@northbeam.test")
		s, _ = w.Authenticate(ctx, laptop)
		if err := w.SignOut(ctx, s); err != nil {
			t.Fatal(err)
		}
		if _, err := w.Authenticate(ctx, laptop); !errors.Is(err, ErrSignedOut) {
			t.Errorf("after signing out: %v", err)
		}
		if _, err := w.Authenticate(ctx, phone); err != nil {
			t.Errorf("signing out on the laptop signed the phone out: %v", err)
		}
		_, laptop = signIn(t, w, st, "ada@northbeam.test")
		s, _ = w.Authenticate(ctx, laptop)
		if _, err := w.SignOutEverywhere(ctx, s); err != nil {
			t.Fatal(err)
		}
		for _, token := range []string{laptop, phone} {
			if _, err := w.Authenticate(ctx, token); !errors.Is(err, ErrSignedOut) {
				t.Errorf("after signing out everywhere: %v", err)
			}
		}
		if _, err := w.Authenticate(ctx, other); err != nil {
			t.Errorf("another member was signed out: %v", err)
		}
		if err := w.Remove(ctx, "bob@northbeam.test", "ada@northbeam.test"); err != nil {
			t.Fatal(err)
		}
		if _, err := w.Authenticate(ctx, other); !errors.Is(err, ErrSignedOut) {
			t.Errorf("a removed member's session: %v", err)
		}
		for _, forged := range []string{"", "x", strings.Repeat("A", 43)} {
			if _, err := w.Authenticate(ctx, forged); !errors.Is(err, ErrSignedOut) {
				t.Errorf("token %q: %v", forged, err)
			}
		}
	})
}

// DeviceOf names the browsers people sign in with, those that say they are
// others included.
func TestDeviceOf(t *testing.T) {
	for ua, want := range map[string][2]string{
		"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0":          {"Edge", "Windows"},
		"Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15":                  {"Safari", "macOS"},
		"Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36":                  {"Chrome", "Android"},
		"Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0":                                                                 {"Firefox", "Linux"},
		"Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0 Mobile/15E148 Safari/604.1": {"Chrome", "iPhone"},
		"curl/8.5.0": {"", ""},
	} {
		if b, p := DeviceOf(ua); b != want[0] || p != want[1] {
			t.Errorf("%s: %q on %q, want %v", ua, b, p, want)
		}
	}
}
