package booking

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/northbeam/site/internal/store"
	"github.com/northbeam/site/internal/store/storetest"
)

// TestAddressLimitCountsOneMailbox: the standing bookings per address are
// counted by the address's key, which merges only spellings of one
// mailbox: straße@ and strasse@ (and the other pairs that full case
// folding merged) each have their own limit, while STRASSE@ is strasse@.
func TestAddressLimitCountsOneMailbox(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		now := utc(t, "2027-03-01T05:00:00Z")
		svc := testServiceWith(t, st, &now, func(c *Config) { c.AddressLimit = 1 })
		weekdays := []int{2, 3, 4, 5, 9, 10, 11, 12, 15, 16, 17}
		book := func(email string) error {
			r := request(t, "discovery", fmt.Sprintf("2027-03-%02dT09:00:00Z", weekdays[0]))
			weekdays = weekdays[1:]
			r.Email = email
			_, err := svc.Book(ctx, r)
			return err
		}
		for _, pair := range [][2]string{
			{"straße@example.de", "strasse@example.de"},
			{"ſam@example.com", "sam@example.com"},
			{"ﬀoo@example.com", "ffoo@example.com"},
			{"ς@example.gr", "σ@example.gr"},
			{"\u212Aevin@example.com", "kevin@example.com"},
		} {
			for _, email := range pair {
				if err := book(email); err != nil {
					t.Errorf("the first booking of %q: %v", email, err)
				}
			}
		}
		if err := book("STRASSE@example.de"); !errors.Is(err, ErrAddressLimit) {
			t.Errorf("a second booking of strasse@, in capitals: %v, want ErrAddressLimit", err)
		}
	})
}
