package staff

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/northbeam/site/internal/store"
	"github.com/northbeam/site/internal/store/storetest"
)

// TestPrivateFeedMovesWithMigrateDB holds migrate-db's copy (store.Copy) to
// the members' private calendar feeds: the address a member made on the
// SQLite site opens their feed on PostgreSQL, a renewal between two runs
// moves the new address (the old one no longer opens), and a revocation
// between two runs ends the address on PostgreSQL too.
func TestPrivateFeedMovesWithMigrateDB(t *testing.T) {
	ctx := context.Background()
	lite := storetest.Open(t, store.SQLite)
	pg := storetest.Open(t, store.Postgres)
	start := time.Date(2027, 3, 1, 9, 0, 0, 0, time.UTC)
	old, _ := newWorkspace(t, lite, start)
	moved, _ := newWorkspace(t, pg, start)
	member, _ := signIn(t, old, lite, "jonas@northbeam.test")
	other, _ := signIn(t, old, lite, "lena@northbeam.test")

	tokenOf := func(address string) string {
		t.Helper()
		i := strings.Index(address, "token=")
		if i < 0 {
			t.Fatalf("no token in %q", address)
		}
		return address[i+len("token="):]
	}
	copyAll := func() {
		t.Helper()
		if _, err := store.Copy(ctx, lite, pg, store.CopyOptions{}); err != nil {
			t.Fatalf("copy: %v", err)
		}
	}
	opens := func(w *Workspace, token string, want Member) {
		t.Helper()
		m, _, err := w.FeedBookings(ctx, token)
		if err != nil || m.ID != want.ID {
			t.Fatalf("the private feed of %s after the copy: member %d, %v", want.Email, m.ID, err)
		}
	}
	closed := func(w *Workspace, token string) {
		t.Helper()
		if _, _, err := w.FeedBookings(ctx, token); !errors.Is(err, ErrNotFound) {
			t.Fatalf("an address no longer valid opens a feed after the copy: %v", err)
		}
	}

	first, err := old.RenewPrivateFeed(ctx, member)
	if err != nil {
		t.Fatal(err)
	}
	kept, err := old.RenewPrivateFeed(ctx, other)
	if err != nil {
		t.Fatal(err)
	}
	copyAll()
	opens(moved, tokenOf(first), member)
	opens(moved, tokenOf(kept), other)
	if f, err := moved.PrivateFeedOf(ctx, member); err != nil || !f.Active {
		t.Fatalf("the account page on PostgreSQL: %+v, %v; want an address", f, err)
	}

	// Renewed on the old site before the last run: the new address moves.
	second, err := old.RenewPrivateFeed(ctx, member)
	if err != nil {
		t.Fatal(err)
	}
	copyAll()
	opens(moved, tokenOf(second), member)
	closed(moved, tokenOf(first))

	// Revoked on the old site before the last run: revoked on the new one.
	if err := old.RevokePrivateFeed(ctx, member); err != nil {
		t.Fatal(err)
	}
	copyAll()
	closed(moved, tokenOf(second))
	opens(moved, tokenOf(kept), other)
}
