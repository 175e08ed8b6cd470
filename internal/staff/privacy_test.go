package staff

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/northbeam/site/internal/store"
	"github.com/northbeam/site/internal/store/storetest"
)

// TestPrivacyFindsEverySpelling: a privacy request finds an address
// whatever its capitals (non-ASCII ones too) and Unicode form, and
// erasing it leaves no spelling of it in the database, down to the bytes
// of the SQLite file.
func TestPrivacyFindsEverySpelling(t *testing.T) {
	for _, backend := range storetest.Backends {
		t.Run(string(backend), func(t *testing.T) {
			ctx := context.Background()
			st, dbPath := openWithFile(t, backend)
			w, _ := newWorkspace(t, st, monday)
			addMessage(t, st, monday.Add(-time.Hour), "Jörg Ähnlich", "JÖRG@ÄXAMPLE.de", "Guten Tag", false)
			addMessage(t, st, monday.Add(-time.Hour), "Éric Lévêque", "éric@example.com", "Bonjour", false)
			addMessage(t, st, monday.Add(-2*time.Hour), "Éric Lévêque", "ÉRIC@example.com", "Encore", false)
			addMessage(t, st, monday.Add(-3*time.Hour), "Éric Lévêque", "e\u0301ric@example.com", "Et encore", true)
			booked := addBooking(t, st, monday.Add(72*time.Hour), "Éric Lévêque", "E\u0301RIC@EXAMPLE.COM", "Conseil")
			// Éric cancelled, and said why: his words are his data too.
			if _, err := st.ExecContext(ctx, `UPDATE bookings SET cancelled_at = ?, cancel_reason = ? WHERE id = ?`,
				store.Millis(monday), "Lévêque s’est trompé de date", booked); err != nil {
				t.Fatal(err)
			}
			keep := addMessage(t, st, monday.Add(-time.Hour), "Eric Plain", "eric@example.com", "Hello", false)

			for _, typed := range []string{"JÖRG@ÄXAMPLE.de", "jörg@äxample.de", "jo\u0308rg@xn--xample-9ta.de"} {
				p, err := w.FindPerson(ctx, typed, "ada@northbeam.test")
				if err != nil {
					t.Fatal(err)
				}
				if len(p.Messages) != 1 || len(p.Mail) != 2 {
					t.Errorf("%q: found %d messages, %d mails, want 1 and 2", typed, len(p.Messages), len(p.Mail))
				}
			}
			erased, err := w.ErasePerson(ctx, "jörg@äxample.de", nil, "ada@northbeam.test")
			if err != nil || erased != (Erased{Messages: 1, Mail: 2}) {
				t.Errorf("erasing Jörg: %+v, %v", erased, err)
			}
			p, err := w.FindPerson(ctx, "éric@example.com", "ada@northbeam.test")
			if err != nil || len(p.Messages) != 3 || len(p.Bookings) != 1 || len(p.Mail) != 4 {
				t.Errorf("Éric: found %d messages, %d bookings, %d mails, want 3, 1, 4 (%v)", len(p.Messages), len(p.Bookings), len(p.Mail), err)
			} else if p.Bookings[0].CancelReason != "Lévêque s’est trompé de date" {
				t.Errorf("Éric's booking in the export: cancel reason %q", p.Bookings[0].CancelReason)
			}
			// Three spellings, which differ by case only: the member
			// confirms them.
			if len(p.Addresses) != 3 {
				t.Errorf("Éric's spellings: %+v", p.Addresses)
			}
			if _, err := w.ErasePerson(ctx, "éric@example.com", nil, "ada@northbeam.test"); !errors.Is(err, ErrChooseAddresses) {
				t.Errorf("erasing three spellings unconfirmed: %v", err)
			}
			erased, err = w.ErasePerson(ctx, "éric@example.com", []string{"éric@example.com", "ÉRIC@example.com", "ÉRIC@EXAMPLE.COM"}, "ada@northbeam.test")
			if err != nil || erased != (Erased{Messages: 3, Bookings: 1, Mail: 4}) {
				t.Errorf("erasing Éric: %+v, %v", erased, err)
			}
			if _, err := w.Message(ctx, keep); err != nil {
				t.Errorf("eric@example.com, another person, was erased: %v", err)
			}
			assertForgotten(t, st, dbPath, "jörg@äxample.de", "jo\u0308rg", "JÖRG@ÄXAMPLE", "éric@", "e\u0301ric@", "Ähnlich", "Lévêque")
		})
	}
}

// TestPrivacyMatchesNoOtherAddress: a privacy request about an address
// never reaches the data of another address that contains it.
func TestPrivacyMatchesNoOtherAddress(t *testing.T) {
	for _, backend := range storetest.Backends {
		t.Run(string(backend), func(t *testing.T) {
			ctx := context.Background()
			st, _ := openWithFile(t, backend)
			w, _ := newWorkspace(t, st, monday)
			addMessage(t, st, monday.Add(-time.Hour), "Inès One", "inj1@example.net", "Message of inj1", false)
			addMessage(t, st, monday.Add(-time.Hour), "Inès Two", "inj2@example.net", "Message of inj2", false)

			p, err := w.ExportPerson(ctx, "nj1@example.net", nil, "ada@northbeam.test")
			if err != nil {
				t.Fatal(err)
			}
			if !p.Empty() {
				t.Errorf("the export for nj1@example.net holds another person's data: %+v", p)
			}
			erased, err := w.ErasePerson(ctx, "j2@example.net", nil, "ada@northbeam.test")
			if err != nil || erased != (Erased{}) {
				t.Errorf("erasing j2@example.net, who has no data: %+v, %v", erased, err)
			}
			if n := count(t, st, `SELECT count(*) FROM outbox WHERE reply_to = 'inj2@example.net' AND text_body LIKE '%Message of inj2%'`); n != 1 {
				t.Errorf("inj2@example.net's notification was emptied")
			}
			if p, _ := w.FindPerson(ctx, "INJ2@example.net", "ada@northbeam.test"); len(p.Messages) != 1 || len(p.Mail) != 2 {
				t.Errorf("inj2@example.net: %d messages, %d mails, want 1 and 2", len(p.Messages), len(p.Mail))
			}
		})
	}
}

// TestNeutralizeFormulaCells: every cell a spreadsheet could read as a
// formula, full-width forms included, is kept as text.
func TestNeutralizeFormulaCells(t *testing.T) {
	for _, cell := range []string{
		"=1+1", "+1", "-1", "@SUM(A1)", "|calc", "\tx", "\rx",
		"＝HYPERLINK(\"http://evil\")", "＋1", "－1", "＠SUM(A1)", "｜calc", "﹦1", "﹢1", "﹣1", "﹫x",
	} {
		if got := neutralize(cell); got != "'"+cell {
			t.Errorf("neutralize(%q) = %q, not kept as text", cell, got)
		}
	}
	for _, cell := range []string{"", "Ada", "1+1", "éric@example.com", "زينب", "'=already"} {
		if got := neutralize(cell); got != cell {
			t.Errorf("neutralize(%q) = %q, changed a plain cell", cell, got)
		}
	}
}

// TestPrivacyKeepsDifferentAddressesApart: addresses that full case
// folding, compatibility mappings or NFC's singletons would merge are
// different people: the privacy search for one never finds the other's
// data, and erasing one leaves the other. Spellings that differ by case
// only are listed as typed, and the export and the erasure act on the
// ones the member confirms.
func TestPrivacyKeepsDifferentAddressesApart(t *testing.T) {
	pairs := [][2]string{
		{"straße@example.de", "strasse@example.de"},
		{"ſam@example.com", "sam@example.com"},
		{"ﬀoo@example.com", "ffoo@example.com"},
		{"ς@example.gr", "σ@example.gr"},
		{"\u212Aevin@example.com", "kevin@example.com"},
	}
	for _, backend := range storetest.Backends {
		t.Run(string(backend), func(t *testing.T) {
			ctx := context.Background()
			st, dbPath := openWithFile(t, backend)
			w, _ := newWorkspace(t, st, monday)
			for i, pair := range pairs {
				addBooking(t, st, monday.Add(time.Duration(72+i)*time.Hour), "Evil Ann "+pair[0], pair[0], "Topic of Ann")
				addBooking(t, st, monday.Add(time.Duration(96+i)*time.Hour), "Zed "+pair[1], pair[1], "Topic of Zed")
				addMessage(t, st, monday.Add(-time.Hour), "Zed "+pair[1], pair[1], "Message of Zed", false)
			}
			for _, pair := range pairs {
				p, err := w.FindPerson(ctx, pair[0], "ada@northbeam.test")
				if err != nil {
					t.Fatal(err)
				}
				if len(p.Bookings) != 1 || p.Bookings[0].Email != pair[0] || len(p.Messages) != 0 || len(p.Mail) != 0 {
					t.Errorf("%q finds %+v", pair[0], p)
				}
				p, err = w.ExportPerson(ctx, pair[1], nil, "ada@northbeam.test")
				if err != nil {
					t.Fatal(err)
				}
				if len(p.Bookings) != 1 || p.Bookings[0].Email != pair[1] || len(p.Messages) != 1 || len(p.Mail) != 2 {
					t.Errorf("%q exports %d bookings, %d messages, %d mails", pair[1], len(p.Bookings), len(p.Messages), len(p.Mail))
				}
			}
			erased, err := w.ErasePerson(ctx, "straße@example.de", nil, "ada@northbeam.test")
			if err != nil || erased != (Erased{Bookings: 1}) {
				t.Errorf("erasing straße@example.de: %+v %v", erased, err)
			}
			if p, _ := w.FindPerson(ctx, "strasse@example.de", "ada@northbeam.test"); len(p.Bookings) != 1 || p.Bookings[0].Name != "Zed strasse@example.de" {
				t.Errorf("erasing straße@ erased strasse@: %+v", p)
			}

			// One address in two spellings, by case only.
			addMessage(t, st, monday.Add(-time.Hour), "Ann One", "Ann@Example.com", "Message of Ann One", false)
			addBooking(t, st, monday.Add(200*time.Hour), "Ann Two", "ann@example.com", "Topic of Ann Two")
			p, err := w.FindPerson(ctx, "ANN@example.com", "ada@northbeam.test")
			if err != nil {
				t.Fatal(err)
			}
			want := []PersonAddress{{Email: "Ann@Example.com", Messages: 1, Mail: 2}, {Email: "ann@example.com", Bookings: 1}}
			if !slices.Equal(p.Addresses, want) {
				t.Errorf("the spellings found: %+v, want %+v", p.Addresses, want)
			}
			for _, confirmed := range [][]string{nil, {"bob@example.com"}, {"ann@example.com", "straße@example.de"}} {
				if _, err := w.ExportPerson(ctx, "ann@example.com", confirmed, "ada@northbeam.test"); !errors.Is(err, ErrChooseAddresses) {
					t.Errorf("export confirming %q: %v, want ErrChooseAddresses", confirmed, err)
				}
				if _, err := w.ErasePerson(ctx, "ann@example.com", confirmed, "ada@northbeam.test"); !errors.Is(err, ErrChooseAddresses) {
					t.Errorf("erasure confirming %q: %v, want ErrChooseAddresses", confirmed, err)
				}
			}
			p, err = w.ExportPerson(ctx, "ann@example.com", []string{"ann@example.com"}, "ada@northbeam.test")
			if err != nil || len(p.Bookings) != 1 || len(p.Messages) != 0 || len(p.Mail) != 0 {
				t.Errorf("export of ann@example.com alone: %+v %v", p, err)
			}
			erased, err = w.ErasePerson(ctx, "ann@example.com", []string{" Ann@Example.com"}, "ada@northbeam.test")
			if err != nil || erased != (Erased{Messages: 1, Mail: 2}) {
				t.Errorf("erasing Ann@Example.com alone: %+v %v", erased, err)
			}
			if p, _ := w.FindPerson(ctx, "ann@example.com", "ada@northbeam.test"); len(p.Bookings) != 1 || p.Bookings[0].Name != "Ann Two" || len(p.Messages) != 0 {
				t.Errorf("after erasing Ann@Example.com: %+v", p)
			}
			assertForgotten(t, st, dbPath, "straße@", "Ann One", "Message of Ann One")
		})
	}
}
