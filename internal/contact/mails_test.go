package contact

import (
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"
	"time"
)

func TestComposeEveryLanguage(t *testing.T) {
	m, err := NewMailer(siteContent(), testBrand(), testInbox)
	if err != nil {
		t.Fatalf("NewMailer with the site's content: %v", err)
	}
	tests := []struct {
		lang    string
		subject string
		phrases []string
	}{
		{"en", "We have received your message – Northbeam", []string{"Hello,\n", "within 24 hours", "hello@northbeam.dev", "The Northbeam team"}},
		{"fr", "Nous avons bien reçu votre message – Northbeam", []string{"Bonjour,\n", "sous 24 heures", "hello@northbeam.dev", "L’équipe Northbeam"}},
		{"de", "Wir haben Ihre Nachricht erhalten – Northbeam", []string{"Guten Tag,\n", "innerhalb von 24 Stunden", "hello@northbeam.dev", "Ihr Northbeam-Team"}},
		{"ar", "تلقّينا رسالتكم – Northbeam", []string{"مرحبًا،\n", "خلال 24 ساعة", "hello@northbeam.dev", "فريق Northbeam"}},
	}
	for _, tt := range tests {
		t.Run(tt.lang, func(t *testing.T) {
			r := Record{
				Ref: "ref-1", CreatedAt: time.Date(2026, 11, 20, 9, 5, 0, 0, time.UTC),
				Name: "Ada Lovelace", Email: "ada@example.com", Message: "Line one\nLine two",
				Service: ServiceStrategicConsulting, Lang: tt.lang,
			}
			mails, err := m.Compose(r)
			if err != nil {
				t.Fatal(err)
			}
			if len(mails) != 2 {
				t.Fatalf("%d mails, want 2", len(mails))
			}
			notify, ack := mails[0], mails[1]

			if notify.Kind != KindNotify || notify.To != testInbox || notify.ReplyTo != "ada@example.com" || notify.Lang != "en" {
				t.Errorf("notify envelope = %+v", notify)
			}
			if notify.Subject != "New contact message from Ada Lovelace" {
				t.Errorf("notify subject = %q", notify.Subject)
			}
			for _, p := range []string{"ada@example.com", "Strategic consulting", "> Line one\n> Line two", "ref-1", "https://northbeam.test"} {
				if !strings.Contains(notify.Text, p) {
					t.Errorf("notify text lacks %q:\n%s", p, notify.Text)
				}
			}

			if ack.Kind != KindAck || ack.To != "ada@example.com" || ack.ReplyTo != testInbox || ack.Lang != tt.lang {
				t.Errorf("ack envelope = %+v", ack)
			}
			if ack.Subject != tt.subject {
				t.Errorf("ack subject = %q, want %q", ack.Subject, tt.subject)
			}
			for _, p := range tt.phrases {
				if !strings.Contains(ack.Text, p) {
					t.Errorf("ack text lacks %q:\n%s", p, ack.Text)
				}
			}
			// The acknowledgement goes to an address anyone can type: it
			// must not echo the message, or the form becomes a relay.
			if strings.Contains(ack.Text, "Line one") {
				t.Error("ack repeats the visitor's message")
			}
			if strings.Contains(ack.Text+ack.Subject, "Ada") || strings.Contains(ack.Text, "Strategic") {
				t.Errorf("ack repeats what the visitor wrote:\n%s", ack.Text)
			}
			for _, msg := range mails {
				if err := msg.Validate(); err != nil {
					t.Errorf("%s: %v", msg.Kind, err)
				}
			}
		})
	}
}

// TestAckCarriesNoVisitorText: what a visitor writes never reaches the
// address they typed, which nobody verified, however it is written.
// TestNotifyGivesTheTimeInTheConsultancysZone: the team's notification
// says when the message arrived in the consultancy's zone (Berlin), with
// the zone's name, in winter and in summer time; not in UTC.
func TestNotifyGivesTheTimeInTheConsultancysZone(t *testing.T) {
	m, err := NewMailer(siteContent(), testBrand(), testInbox)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		at   time.Time
		want string
	}{
		{time.Date(2026, 11, 20, 9, 5, 0, 0, time.UTC), "Received:  Friday, 20 November 2026 at 10:05\u00a0am, Berlin (Central European Time)\n"},
		{time.Date(2026, 7, 3, 21, 30, 0, 0, time.UTC), "Received:  Friday, 3 July 2026 at 11:30\u00a0pm, Berlin (Central European Time)\n"},
	} {
		mails, err := m.Compose(Record{Ref: "ref-1", CreatedAt: tt.at, Name: "Ada", Email: "ada@example.com", Message: "Hello", Lang: "fr"})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(mails[0].Text, tt.want) || strings.Contains(mails[0].Text, "UTC") {
			t.Errorf("notification for %v lacks %q:\n%s", tt.at, tt.want, mails[0].Text)
		}
	}
}

func TestAckCarriesNoVisitorText(t *testing.T) {
	m, err := NewMailer(siteContent(), testBrand(), testInbox)
	if err != nil {
		t.Fatal(err)
	}
	const lure = "Your account is locked - verify at https://evil.example/login"
	for _, lang := range siteLanguages(t) {
		mails, err := m.Compose(Record{
			Ref: "r", Name: lure, Email: "victim@example.com", Lang: lang, Service: ServicePlatformEngineering,
			Message: "Please act now: https://evil.example/login",
		})
		if err != nil {
			t.Fatal(err)
		}
		ack := mails[1]
		if ack.To != "victim@example.com" {
			t.Fatalf("%s: ack to %q", lang, ack.To)
		}
		for _, part := range []string{ack.Subject, ack.Text} {
			if strings.Contains(part, "evil.example") || strings.Contains(part, "locked") || strings.Contains(part, "Platform") {
				t.Errorf("%s: the acknowledgement carries the visitor's text:\n%s\n%s", lang, ack.Subject, ack.Text)
			}
		}
		// The consultancy's own inbox still gets all of it.
		if !strings.Contains(mails[0].Text, lure) || !strings.Contains(mails[0].Text, "Please act now") {
			t.Errorf("%s: the notification lost the message:\n%s", lang, mails[0].Text)
		}
	}
}

// Even a record that skipped validation cannot put a line break into a
// subject.
func TestComposeKeepsNameOnOneLine(t *testing.T) {
	m, err := NewMailer(siteContent(), testBrand(), testInbox)
	if err != nil {
		t.Fatal(err)
	}
	mails, err := m.Compose(Record{Ref: "r", Name: "Eve\r\nBcc: evil@attacker.test", Email: "eve@example.com", Message: "0123456789", Lang: "en"})
	if err != nil {
		t.Fatal(err)
	}
	if got := mails[0].Subject; got != "New contact message from Eve Bcc: evil@attacker.test" {
		t.Errorf("subject = %q", got)
	}
	if err := mails[0].Validate(); err != nil {
		t.Errorf("notify: %v", err)
	}
}

func TestNewMailerRejectsBadContent(t *testing.T) {
	good := fstest.MapFS{}
	for _, lang := range siteLanguages(t) {
		good["mail/"+lang+"/contact-ack.txt"] = &fstest.MapFile{Data: []byte("Subject: Hi\n\nHello from {{.Brand.Name}}, within {{.ResponseHours}} hours.\n")}
	}
	good["mail/en/contact-notify.txt"] = &fstest.MapFile{Data: []byte("Subject: New {{.Name}}\n\n{{.Message}}\n")}
	for _, name := range []string{"site.json", "staff/locales/en.json"} {
		data, err := fs.ReadFile(siteContent(), name)
		if err != nil {
			t.Fatal(err)
		}
		good[name] = &fstest.MapFile{Data: data}
	}
	if _, err := NewMailer(good, testBrand(), testInbox); err != nil {
		t.Fatalf("minimal templates: %v", err)
	}

	tests := []struct {
		name   string
		change func(fstest.MapFS)
		brand  Brand
		inbox  string
	}{
		{"missing language", func(f fstest.MapFS) { delete(f, "mail/ar/contact-ack.txt") }, testBrand(), testInbox},
		{"missing notify", func(f fstest.MapFS) { delete(f, "mail/en/contact-notify.txt") }, testBrand(), testInbox},
		{"no subject line", func(f fstest.MapFS) {
			f["mail/de/contact-ack.txt"] = &fstest.MapFile{Data: []byte("Hallo {{.Name}}\n")}
		}, testBrand(), testInbox},
		{"two header lines", func(f fstest.MapFS) {
			f["mail/fr/contact-ack.txt"] = &fstest.MapFile{Data: []byte("Subject: Bonjour\nBcc: x@y.z\n\nCorps\n")}
		}, testBrand(), testInbox},
		{"the acknowledgement names the visitor", func(f fstest.MapFS) {
			f["mail/fr/contact-ack.txt"] = &fstest.MapFile{Data: []byte("Subject: Bonjour {{.Name}}\n\nMerci.\n")}
		}, testBrand(), testInbox},
		{"the acknowledgement quotes the message", func(f fstest.MapFS) {
			f["mail/ar/contact-ack.txt"] = &fstest.MapFile{Data: []byte("Subject: Hi\n\n{{.Message}}\n")}
		}, testBrand(), testInbox},
		{"unknown field", func(f fstest.MapFS) {
			f["mail/en/contact-ack.txt"] = &fstest.MapFile{Data: []byte("Subject: Hi\n\n{{.Nmae}}\n")} //nolint:misspell // the misspelt field is the test
		}, testBrand(), testInbox},
		{"syntax error", func(f fstest.MapFS) {
			f["mail/en/contact-ack.txt"] = &fstest.MapFile{Data: []byte("Subject: Hi\n\n{{.Name\n")}
		}, testBrand(), testInbox},
		{"bad inbox", func(fstest.MapFS) {}, testBrand(), "inbox"},
		{"inbox with CRLF", func(fstest.MapFS) {}, testBrand(), "inbox@northbeam.dev\r\nBcc: x@y.z"},
		{"no brand", func(fstest.MapFS) {}, Brand{}, testInbox},
		{"no zone", func(fstest.MapFS) {}, Brand{Name: "Northbeam", Email: "hello@northbeam.dev", ResponseHours: 24, Dates: shippedDates()}, testInbox},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := fstest.MapFS{}
			for k, v := range good {
				f[k] = v
			}
			tt.change(f)
			if _, err := NewMailer(f, tt.brand, tt.inbox); err == nil {
				t.Error("NewMailer succeeded")
			}
		})
	}
}
