package booking

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/northbeam/site/internal/goldentest"
	"github.com/northbeam/site/internal/mail"
	"github.com/northbeam/site/internal/site"
)

// TestGoldenMails holds every mail of a booking, in every language, written
// from the shipped templates and strings, to what testdata/mails.golden
// recorded: the dates and times in them above all.
func TestGoldenMails(t *testing.T) {
	content := os.DirFS(filepath.Join("..", "..", "content"))
	info, err := site.Load(content, "site.json")
	if err != nil {
		t.Fatal(err)
	}
	texts, err := site.LoadLocales(content, "locales", info)
	if err != nil {
		t.Fatal(err)
	}
	av, err := LoadAvailability(content, "availability.json")
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, time.November, 16, 8, 0, 0, 0, time.UTC)
	svc, err := NewService(nil, content, Config{
		Availability: av,
		Inbox:        "team@northbeam.test",
		Brand:        Brand{Name: info.Name, Email: info.Email, BaseURL: "https://northbeam.test"},
		Texts:        texts,
		Dates:        shippedDates(t),
		LocalURL: func(lang, path string) string {
			l, ok := info.Language(lang)
			if !ok {
				l = info.Default()
			}
			return "https://northbeam.test" + l.LocalPath(path)
		},
		Now: func() time.Time { return now },
	})
	if err != nil {
		t.Fatal(err)
	}
	staffCancel, err := NewStaffCancellation(svc, content)
	if err != nil {
		t.Fatal(err)
	}
	m := svc.mailer
	var b strings.Builder
	for _, lang := range []string{"en", "fr", "de", "ar", "es"} {
		for i, c := range []struct {
			service, zone string
			start         time.Time
		}{
			// A video call seen from another continent, the next day there.
			{"strategy", "Pacific/Auckland", time.Date(2026, time.November, 20, 14, 30, 0, 0, time.UTC)},
			// A phone call in the consultancy's own zone, on the first of the month, in the morning.
			{"discovery", "Europe/Berlin", time.Date(2026, time.December, 1, 8, 0, 0, 0, time.UTC)},
		} {
			bk := Booking{
				Token: fmt.Sprintf("token-%s-%d", lang, i), CancelToken: fmt.Sprintf("cancel-%s-%d", lang, i),
				Service: c.service, Start: c.start, End: c.start.Add(av.Services[c.service]),
				Name: "Jane Doe", Email: "jane@example.com", Company: "Example Ltd", Topic: "Moving a monolith.",
				TimeZone: c.zone, Lang: lang, Created: now, ReminderRef: "reminder-ref",
			}
			if c.service == "discovery" {
				bk.Phone = "+4930901820"
			} else {
				bk.MeetingURL = "https://meet.jit.si/Northbeam-golden"
			}
			var mails []mail.Message
			moved := func(av Availability, b Booking) ([]mail.Message, error) {
				return m.movedMails(av, b, b.Start.Add(-26*time.Hour))
			}
			for _, write := range []func(Availability, Booking) ([]mail.Message, error){m.confirmationMails, moved} {
				got, err := write(av, bk)
				if err != nil {
					t.Fatal(err)
				}
				mails = append(mails, got...)
			}
			reminder, err := m.reminderMail(av, bk)
			if err != nil {
				t.Fatal(err)
			}
			mails = append(mails, reminder)
			bk.Cancelled = now.Add(time.Hour)
			cancelled, err := m.cancellationMails(av, bk)
			if err != nil {
				t.Fatal(err)
			}
			byStaff, err := staffCancel.mails(bk, "The consultant is ill.", "staff@northbeam.test")
			if err != nil {
				t.Fatal(err)
			}
			for _, msg := range append(append(mails, cancelled...), byStaff...) {
				writeMail(&b, msg)
			}
		}
	}
	goldentest.Check(t, filepath.Join("testdata", "mails.golden"), b.String())
}

func writeMail(b *strings.Builder, m mail.Message) {
	fmt.Fprintf(b, "=== %s to %s, reply to %s, in %s\nSubject: %s\n\n%s", m.Kind, m.To, m.ReplyTo, m.Lang, m.Subject, m.Text)
	for _, a := range m.Attachments {
		fmt.Fprintf(b, "--- %s (%s)\n%s", a.Filename, a.ContentType, strings.ReplaceAll(string(a.Data), "\r\n", "\n"))
	}
}
