package contact

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/northbeam/site/internal/goldentest"
)

// TestGoldenMails holds both mails of a message, in every language, written
// from the shipped templates, to what testdata/mails.golden recorded.
func TestGoldenMails(t *testing.T) {
	m, err := NewMailer(os.DirFS(filepath.Join("..", "..", "content")),
		Brand{Name: "Northbeam", Email: "hello@northbeam.test", BaseURL: "https://northbeam.test", ResponseHours: 24, Zone: berlin(), Dates: shippedDates()},
		"team@northbeam.test")
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	// Every language of content/site.json, and one it lacks, which falls
	// back on the default language.
	for _, lang := range append(siteLanguages(t), unlisted) {
		mails, err := m.Compose(Record{
			Ref: "00000000-0000-0000-0000-00000000000" + fmt.Sprint(len(lang)), CreatedAt: time.Date(2026, time.November, 20, 14, 30, 0, 0, time.UTC),
			Name: "Jane Doe", Email: "jane@example.com", Message: "We would like to move a monolith.",
			Service: ServicePlatformEngineering, Lang: lang,
		})
		if err != nil {
			t.Fatal(err)
		}
		for _, msg := range mails {
			fmt.Fprintf(&b, "=== %s to %s, reply to %s, in %s\nSubject: %s\n\n%s", msg.Kind, msg.To, msg.ReplyTo, msg.Lang, msg.Subject, msg.Text)
		}
	}
	goldentest.Check(t, filepath.Join("testdata", "mails.golden"), b.String())
}
