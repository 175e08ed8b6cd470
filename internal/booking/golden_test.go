package booking

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/northbeam/site/internal/goldentest"
	"github.com/northbeam/site/internal/images"
	"github.com/northbeam/site/internal/mail"
	"github.com/northbeam/site/internal/site"
	"github.com/northbeam/site/internal/team"
)

// TestGoldenMails holds every mail of a booking, in every language, written
// from the shipped templates and strings, to what testdata/mails.golden
// recorded: the dates and times in them above all.
func TestGoldenMails(t *testing.T) {
	content, info, texts, av := shippedContent(t)
	now := time.Date(2026, time.November, 16, 8, 0, 0, 0, time.UTC)
	// The discovery call is booked with a host, named as the team's
	// pages name her in each language.
	av.Hosts = map[string]Host{"samira-haddad": {Slug: "samira-haddad", Staff: "samira@northbeam.test", Weekly: av.Weekly}}
	av.ServiceHosts = map[string][]string{"discovery": {"samira-haddad"}}
	av.Assignment = map[string]string{"discovery": AssignRoundRobin}
	people, err := team.Load(content, "team", func(images.Ref) (images.Picture, error) { return images.Picture{}, nil })
	if err != nil {
		t.Fatal(err)
	}
	svc, err := NewService(nil, content, Config{
		People: func(lang, slug string) (HostProfile, bool) {
			p, err := people.Person(lang, slug)
			if err != nil {
				return HostProfile{}, false
			}
			return HostProfile{Name: p.Name, Role: p.Role}, true
		},
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
		Now:            func() time.Time { return now },
		ReminderBefore: 24 * time.Hour,
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
	// Every language of content/site.json, and one it lacks ("zxx", ISO
	// 639's "no linguistic content"), which falls back on the default.
	for _, lang := range append(info.Languages.Codes(), "zxx") {
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
				bk.Host = "samira-haddad"
			} else {
				bk.MeetingURL = "https://meet.jit.si/Northbeam-golden"
			}
			var mails []mail.Message
			moved := func(av Availability, b Booking) ([]mail.Message, error) {
				return m.movedMails(av, b, b.Start.Add(-26*time.Hour), false)
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

// TestMovedMailSaysWhoMovedIt: the visitor's "moved" mail, in every
// language, says the visitor asked for the move when they made it, and
// that the team moved it when staff did; both give the new and the
// previous time. The consultancy's notice says the same.
func TestMovedMailSaysWhoMovedIt(t *testing.T) {
	content, info, texts, av := shippedContent(t)
	m, err := newMailer(content, Config{
		Availability: av, Inbox: "team@northbeam.test", Brand: Brand{Name: info.Name, Email: info.Email, BaseURL: "https://northbeam.test"},
		Texts: texts, Dates: shippedDates(t), LocalURL: func(lang, path string) string { return "https://northbeam.test/" + lang + path },
	})
	if err != nil {
		t.Fatal(err)
	}
	sentences := map[string][2]string{ // the visitor's move, the team's
		"en": {"As you asked, your consultation with Northbeam has moved to a new time.",
			"Our team has moved your consultation with Northbeam to a new time. If it does not suit you, choose another time or cancel with the links below."},
		"fr": {"Comme vous l’avez demandé, votre consultation avec Northbeam a été déplacée.",
			"Notre équipe a déplacé votre consultation avec Northbeam à un nouvel horaire. S’il ne vous convient pas, vous pouvez en choisir un autre ou annuler à l’aide des liens ci-dessous."},
		"de": {"wie gewünscht haben wir Ihr Gespräch mit Northbeam verlegt.",
			"unser Team hat Ihr Gespräch mit Northbeam auf einen neuen Termin verlegt. Passt er Ihnen nicht, können Sie über die Links unten einen anderen Termin wählen oder absagen."},
		"ar": {"بناءً على طلبك، نقلنا موعد استشارتك مع Northbeam إلى وقت جديد.",
			"نقل فريقنا موعد استشارتك مع Northbeam إلى وقت جديد. وإن لم يناسبك، يمكنك اختيار وقت آخر أو إلغاء الموعد من الرابطين أدناه."},
	}
	notices := [2]string{"Jane Doe has moved their consultation to a new time;", "Our team has moved Jane Doe's consultation to a new time and told them by email;"}
	start := time.Date(2026, time.November, 20, 14, 30, 0, 0, time.UTC)
	previous := start.Add(-26 * time.Hour)
	for lang, want := range sentences {
		b := Booking{
			Token: "token", CancelToken: "cancel", Service: "strategy", Start: start, End: start.Add(av.Services["strategy"]),
			Name: "Jane Doe", Email: "jane@example.com", TimeZone: "Europe/Paris", Lang: lang, Created: previous.Add(-time.Hour),
		}
		paris, _ := time.LoadLocation("Europe/Paris")
		when := shippedDates(t).FormatDateTime(lang, start.In(paris))
		was := shippedDates(t).FormatDateTime(lang, previous.In(paris))
		for i, byStaff := range []bool{false, true} {
			mails, err := m.movedMails(av, b, previous, byStaff)
			if err != nil {
				t.Fatal(err)
			}
			visitor, notice := mails[0].Text, mails[1].Text
			if !strings.Contains(visitor, "\n"+want[i]+"\n") || strings.Contains(visitor, want[1-i]) {
				t.Errorf("%s, moved by staff %v: the mail lacks %q:\n%s", lang, byStaff, want[i], visitor)
			}
			if !strings.Contains(visitor, when) || !strings.Contains(visitor, was) {
				t.Errorf("%s, moved by staff %v: the mail lacks the new time %q or the previous one %q:\n%s", lang, byStaff, when, was, visitor)
			}
			if !strings.Contains(notice, notices[i]) {
				t.Errorf("%s, moved by staff %v: the consultancy's notice lacks %q:\n%s", lang, byStaff, notices[i], notice)
			}
		}
	}
}

// shippedContent loads the shipped content/: the site, its strings and the
// consultancy's hours, as the service is made from them.
func shippedContent(t *testing.T) (fs.FS, *site.Info, *site.Locales, Availability) {
	t.Helper()
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
	return content, info, texts, av
}
