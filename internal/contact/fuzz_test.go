package contact

import (
	"testing"
	"time"
	"unicode/utf8"
)

// FuzzValidate checks that validation never panics, and that whatever it
// accepts composes into mails that are themselves valid: no input that
// passes the form can break a header.
func FuzzValidate(f *testing.F) {
	f.Add("Ada Lovelace", "ada@example.com", "We would like to talk.", "not-sure", "fr")
	f.Add("Eve\r\nBcc: evil@attacker.test", "eve@example.com", "0123456789", "", "en")
	f.Add("ليلى", "josé@exämple.de", "مرحبا بكم جميعا", "custom-software", "ar")
	f.Add(" ", "a@b", "short", "x", "")
	f.Add("\x00", "\"a b\"@x.com", "\x1b[2J0123456789", "strategic-consulting", "de-AT")
	m, err := NewMailer(siteContent(), testBrand(), testInbox)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, name, email, message, service, lang string) {
		sub := Submission{Name: name, Email: email, Message: message, Service: service, Lang: lang}
		errs := sub.Validate()
		for field, key := range errs {
			if key == "" || field == "" {
				t.Fatalf("empty field error %q: %q", field, key)
			}
		}
		if errs != nil {
			return
		}
		n := sub.Normalized()
		if c := utf8.RuneCountInString(n.Name); c < 1 || c > NameMax {
			t.Fatalf("accepted name of %d runes", c)
		}
		mails, err := m.Compose(Record{Ref: "ref", CreatedAt: time.Now(), Name: n.Name, Email: n.Email, Message: n.Message, Service: n.Service, Lang: n.Lang})
		if err != nil {
			t.Fatalf("Compose: %v", err)
		}
		for _, msg := range mails {
			if err := msg.Validate(); err != nil {
				t.Fatalf("accepted submission %+v gives an invalid %s mail: %v", sub, msg.Kind, err)
			}
		}
	})
}
