package staff

import (
	"context"
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
			erased, err := w.ErasePerson(ctx, "jörg@äxample.de", "ada@northbeam.test")
			if err != nil || erased != (Erased{Messages: 1, Mail: 2}) {
				t.Errorf("erasing Jörg: %+v, %v", erased, err)
			}
			p, err := w.FindPerson(ctx, "éric@example.com", "ada@northbeam.test")
			if err != nil || len(p.Messages) != 3 || len(p.Bookings) != 1 || len(p.Mail) != 4 {
				t.Errorf("Éric: found %d messages, %d bookings, %d mails, want 3, 1, 4 (%v)", len(p.Messages), len(p.Bookings), len(p.Mail), err)
			} else if p.Bookings[0].CancelReason != "Lévêque s’est trompé de date" {
				t.Errorf("Éric's booking in the export: cancel reason %q", p.Bookings[0].CancelReason)
			}
			erased, err = w.ErasePerson(ctx, "éric@example.com", "ada@northbeam.test")
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

			p, err := w.ExportPerson(ctx, "nj1@example.net", "ada@northbeam.test")
			if err != nil {
				t.Fatal(err)
			}
			if !p.Empty() {
				t.Errorf("the export for nj1@example.net holds another person's data: %+v", p)
			}
			erased, err := w.ErasePerson(ctx, "j2@example.net", "ada@northbeam.test")
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
