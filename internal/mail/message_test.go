package mail

import (
	"errors"
	"strings"
	"testing"
)

func validMessage() Message {
	return Message{
		Kind:    "test.hello",
		To:      "visitor@example.com",
		ReplyTo: "hello@northbeam.dev",
		Subject: "Grüße – مرحبا",
		Text:    "Hello\nworld",
		Lang:    "de",
	}
}

func TestValidate(t *testing.T) {
	tests := []struct {
		name   string
		change func(*Message)
		ok     bool
	}{
		{"valid", func(m *Message) {}, true},
		{"display name in To", func(m *Message) { m.To = "Ada Lovelace <ada@example.com>" }, true},
		{"no reply-to", func(m *Message) { m.ReplyTo = "" }, true},
		{"attachment", func(m *Message) {
			m.Attachments = []Attachment{{Filename: "invite.ics", ContentType: "text/calendar; charset=utf-8; method=REQUEST", Data: []byte("BEGIN:VCALENDAR")}}
		}, true},
		{"CRLF in subject", func(m *Message) { m.Subject = "Hi\r\nBcc: evil@attacker.test" }, false},
		{"LF in subject", func(m *Message) { m.Subject = "Hi\nBcc: evil@attacker.test" }, false},
		{"CR in subject", func(m *Message) { m.Subject = "Hi\rBcc: evil@attacker.test" }, false},
		{"NUL in subject", func(m *Message) { m.Subject = "Hi\x00" }, false},
		{"empty subject", func(m *Message) { m.Subject = "" }, false},
		{"CRLF in To", func(m *Message) { m.To = "visitor@example.com\r\nBcc: evil@attacker.test" }, false},
		{"two addresses in To", func(m *Message) { m.To = "visitor@example.com, evil@attacker.test" }, false},
		{"no domain in To", func(m *Message) { m.To = "visitor" }, false},
		{"empty To", func(m *Message) { m.To = "" }, false},
		{"CRLF in Reply-To", func(m *Message) { m.ReplyTo = "a@example.com\r\nX-Evil: 1" }, false},
		{"two addresses in Reply-To", func(m *Message) { m.ReplyTo = "a@example.com, b@example.com" }, false},
		{"CRLF in kind", func(m *Message) { m.Kind = "x\r\ny" }, false},
		{"empty kind", func(m *Message) { m.Kind = "" }, false},
		{"empty text", func(m *Message) { m.Text = " \n " }, false},
		{"invalid UTF-8 text", func(m *Message) { m.Text = "\xff\xfe" }, false},
		{"lang with CRLF", func(m *Message) { m.Lang = "en\r\nX-Evil: 1" }, false},
		{"attachment name with CRLF", func(m *Message) {
			m.Attachments = []Attachment{{Filename: "a.ics\r\nX-Evil: 1", ContentType: "text/calendar", Data: []byte("x")}}
		}, false},
		{"attachment name with a path", func(m *Message) {
			m.Attachments = []Attachment{{Filename: "../etc/passwd", ContentType: "text/plain", Data: []byte("x")}}
		}, false},
		{"attachment content type with CRLF", func(m *Message) {
			m.Attachments = []Attachment{{Filename: "a.ics", ContentType: "text/calendar\r\nX-Evil: 1", Data: []byte("x")}}
		}, false},
		{"attachment content type malformed", func(m *Message) {
			m.Attachments = []Attachment{{Filename: "a.ics", ContentType: "not a type", Data: []byte("x")}}
		}, false},
		{"attachments too large", func(m *Message) {
			m.Attachments = []Attachment{{Filename: "a.bin", ContentType: "application/octet-stream", Data: make([]byte, maxAttachmentBytes+1)}}
		}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := validMessage()
			tt.change(&m)
			err := m.Validate()
			if tt.ok && err != nil {
				t.Fatalf("Validate() = %v, want nil", err)
			}
			if !tt.ok && !errors.Is(err, ErrInvalid) {
				t.Fatalf("Validate() = %v, want ErrInvalid", err)
			}
		})
	}
}

func TestRecipientDomain(t *testing.T) {
	tests := map[string]string{
		"visitor@Example.COM":        "example.com",
		"Ada <ada@sub.example.org>":  "sub.example.org",
		"not an address":             "",
		"\"a@b\"@quoted.example.net": "quoted.example.net",
	}
	for in, want := range tests {
		if got := recipientDomain(in); got != want {
			t.Errorf("recipientDomain(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestRedactAddresses(t *testing.T) {
	in := `send failed: 550 5.1.1 <visitor@example.com>: user unknown, affected recipient(s): visitor@example.com`
	got := redactAddresses(in)
	if strings.Contains(got, "visitor") || strings.Contains(got, "example.com") {
		t.Errorf("redactAddresses left the address: %s", got)
	}
	if !strings.Contains(got, "550 5.1.1") {
		t.Errorf("redactAddresses removed too much: %s", got)
	}
}
