package contact

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/northbeam/site/internal/store"
	"github.com/northbeam/site/internal/store/storetest"
)

func TestListAndWriteText(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {

		base := time.Date(2026, 11, 20, 8, 0, 0, 0, time.UTC)
		records := []Record{
			{Ref: "r-1", CreatedAt: base, Name: "First", Email: "first@example.com", Message: "Oldest message.", Lang: "en"},
			{Ref: "r-2", CreatedAt: base.Add(time.Hour), Name: "Second", Email: "second@example.com", Message: "Line one\nLine two \x1b[2J", Service: ServiceNotSure, Lang: "ar"},
			{Ref: "r-3", CreatedAt: base.Add(2 * time.Hour), Name: "Bot", Email: "bot@example.com", Message: "Buy now, buy now!", Lang: "en", Spam: true, SpamReason: SpamHoneypot},
		}
		for _, r := range records {
			if _, err := Save(context.Background(), st, r, nil); err != nil {
				t.Fatal(err)
			}
		}

		got, err := List(context.Background(), st, 2)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 2 || got[0].Ref != "r-3" || got[1].Ref != "r-2" {
			t.Fatalf("List(2) = %+v, want r-3, r-2", got)
		}
		if !got[0].Spam || got[0].SpamReason != SpamHoneypot || !got[1].CreatedAt.Equal(base.Add(time.Hour)) {
			t.Errorf("fields not read back: %+v", got)
		}
		if all, _ := List(context.Background(), st, 0); len(all) != 3 {
			t.Errorf("List(0) = %d records, want 3", len(all))
		}

		var out strings.Builder
		if err := WriteText(&out, got); err != nil {
			t.Fatal(err)
		}
		text := out.String()
		for _, want := range []string{
			"2026-11-20 10:00 UTC  Bot <bot@example.com>  service=-  lang=en  ref=r-3  SPAM (honeypot)",
			"2026-11-20 09:00 UTC  Second <second@example.com>  service=not-sure  lang=ar  ref=r-2",
			"    Line one\n    Line two ?[2J\n",
		} {
			if !strings.Contains(text, want) {
				t.Errorf("output lacks %q:\n%s", want, text)
			}
		}
		if strings.ContainsRune(text, '\x1b') {
			t.Error("output carries an escape character to the terminal")
		}
	})
}
