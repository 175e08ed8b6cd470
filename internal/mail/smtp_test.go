package mail

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/northbeam/site/internal/mail/mailtest"
)

func TestNewSMTPSenderConfig(t *testing.T) {
	tests := []struct {
		name string
		url  string
		from string
		ok   bool
	}{
		{"smtp", "smtp://mail.example.com", "hello@northbeam.dev", true},
		{"smtp with credentials and port", "smtp://user:p%40ss@mail.example.com:2525", "Northbeam <hello@northbeam.dev>", true},
		{"smtps", "smtps://user:pass@mail.example.com", "hello@northbeam.dev", true},
		{"tls none", "smtp://127.0.0.1:25?tls=none", "hello@northbeam.dev", true},
		{"unknown tls", "smtp://mail.example.com?tls=maybe", "hello@northbeam.dev", false},
		{"unknown parameter", "smtp://mail.example.com?tsl=none", "hello@northbeam.dev", false},
		{"scheme", "http://mail.example.com", "hello@northbeam.dev", false},
		{"no host", "smtp://", "hello@northbeam.dev", false},
		{"bad port", "smtp://mail.example.com:99999", "hello@northbeam.dev", false},
		{"from missing", "smtp://mail.example.com", "", false},
		{"from without domain", "smtp://mail.example.com", "hello", false},
		{"from with CRLF", "smtp://mail.example.com", "hello@northbeam.dev\r\nBcc: x@y.z", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := NewSMTPSender(SMTPConfig{URL: tt.url, From: tt.from})
			if (err == nil) != tt.ok {
				t.Fatalf("NewSMTPSender(%q, %q) error = %v, want ok=%v", tt.url, tt.from, err, tt.ok)
			}
			if err != nil && strings.Contains(err.Error(), "p%40ss") {
				t.Errorf("error shows the password: %v", err)
			}
		})
	}
}

func TestNewSenderWithoutURLHolds(t *testing.T) {
	s, err := NewSender(SMTPConfig{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := s.(LogSender); !ok {
		t.Fatalf("NewSender without URL = %T, want LogSender", s)
	}
}

func TestSMTPSenderSend(t *testing.T) {
	srv := mailtest.Start(t)
	sender := smtpSender(t, srv)

	m := validMessage()
	m.HTML = "<p>Hello <b>world</b></p>"
	m.Attachments = []Attachment{{
		Filename:    "invite.ics",
		ContentType: "text/calendar; charset=utf-8; method=REQUEST",
		Data:        []byte("BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n"),
	}}
	if err := sender.Send(context.Background(), "0b8f6a4e-ref", m); err != nil {
		t.Fatalf("Send: %v", err)
	}
	got := srv.Received()
	if len(got) != 1 {
		t.Fatalf("received %d messages, want 1", len(got))
	}
	r := got[0]
	if r.From != "hello@northbeam.dev" || !slices.Equal(r.To, []string{"visitor@example.com"}) {
		t.Errorf("envelope = %s -> %v", r.From, r.To)
	}
	if r.Subject != m.Subject {
		t.Errorf("Subject = %q, want %q", r.Subject, m.Subject)
	}
	if rt, _ := r.AddressHeader("Reply-To"); !slices.Equal(rt, []string{"hello@northbeam.dev"}) {
		t.Errorf("Reply-To = %v", rt)
	}
	if from, _ := r.Header.AddressList("From"); len(from) != 1 || from[0].Name != "Northbeam" {
		t.Errorf("From = %v", from)
	}
	headers := map[string]string{
		"Message-Id":       "<0b8f6a4e-ref@northbeam.dev>",
		"Content-Language": "de",
		"Auto-Submitted":   "auto-generated",
		"User-Agent":       "",
		"X-Mailer":         "",
	}
	for k, want := range headers {
		if got := r.Header.Get(k); got != want {
			t.Errorf("%s = %q, want %q", k, got, want)
		}
	}
	if text, err := r.Text(); err != nil || text != "Hello\nworld" {
		t.Errorf("text = %q, %v", text, err)
	}
	var html, ics, imip bool
	for _, p := range r.Parts {
		html = html || p.ContentType == "text/html" && p.Within == "multipart/alternative" && strings.Contains(string(p.Body), "<b>world</b>")
		ics = ics || p.Filename == "invite.ics" && p.ContentType == "text/calendar" && strings.HasPrefix(string(p.Body), "BEGIN:VCALENDAR")
		// iMIP (RFC 6047): the invitation is also the body's last alternative.
		imip = imip || p.Filename == "" && p.Within == "multipart/alternative" && p.ContentType == "text/calendar" &&
			p.Params["method"] == "REQUEST" && strings.HasPrefix(string(p.Body), "BEGIN:VCALENDAR")
	}
	if !html || !ics || !imip {
		t.Errorf("html alternative %v, calendar attachment %v, calendar alternative %v; parts: %+v", html, ics, imip, r.Parts)
	}
}

func TestSMTPSenderTLSAndAuth(t *testing.T) {
	srv := mailtest.Start(t, mailtest.WithTLS(t), mailtest.WithAuth("site", "s3cret"))
	if !strings.HasPrefix(srv.URL(), "smtp://site:s3cret@") || strings.Contains(srv.URL(), "tls=") {
		t.Fatalf("URL = %s", srv.URL())
	}
	if err := smtpSender(t, srv).Send(context.Background(), "ref-1", validMessage()); err != nil {
		t.Fatalf("Send over STARTTLS with AUTH: %v", err)
	}
	if n := len(srv.Received()); n != 1 {
		t.Fatalf("received %d, want 1", n)
	}

	wrong, err := NewSMTPSender(SMTPConfig{
		URL:       strings.Replace(srv.URL(), "s3cret", "wrong", 1),
		From:      "hello@northbeam.dev",
		TLSConfig: srv.ClientTLS(),
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := wrong.Send(context.Background(), "ref-2", validMessage()); err == nil {
		t.Fatal("Send with a wrong password succeeded")
	}
	// Without trusting the test certificate, mandatory STARTTLS must fail
	// rather than fall back to plain text with the password.
	untrusting, err := NewSMTPSender(SMTPConfig{URL: srv.URL(), From: "hello@northbeam.dev"})
	if err != nil {
		t.Fatal(err)
	}
	if err := untrusting.Send(context.Background(), "ref-3", validMessage()); err == nil {
		t.Fatal("Send to an untrusted certificate succeeded")
	}
	if n := len(srv.Received()); n != 1 {
		t.Fatalf("received %d, want still 1", n)
	}
}

func TestSMTPSenderRefusesHeaderInjection(t *testing.T) {
	srv := mailtest.Start(t)
	sender := smtpSender(t, srv)
	attacks := []func(*Message){
		func(m *Message) { m.Subject = "Hello\r\nBcc: evil@attacker.test" },
		func(m *Message) { m.Subject = "Hello\nBcc: evil@attacker.test" },
		func(m *Message) { m.To = "visitor@example.com\r\nBcc: evil@attacker.test" },
		func(m *Message) { m.To = "visitor@example.com, evil@attacker.test" },
		func(m *Message) { m.ReplyTo = "visitor@example.com\r\nBcc: evil@attacker.test" },
		func(m *Message) { m.Lang = "en\r\nBcc: evil@attacker.test" },
	}
	for i, attack := range attacks {
		m := validMessage()
		attack(&m)
		if err := sender.Send(context.Background(), "ref", m); !errors.Is(err, ErrInvalid) {
			t.Errorf("attack %d: Send error = %v, want ErrInvalid", i, err)
		}
	}
	if err := sender.Send(context.Background(), "ref>\r\nBcc: evil@attacker.test", validMessage()); !errors.Is(err, ErrInvalid) {
		t.Errorf("ref with CRLF: Send error = %v, want ErrInvalid", err)
	}
	if n := len(srv.Received()); n != 0 {
		t.Fatalf("server received %d messages, want none", n)
	}
}

func TestSMTPSenderServerDown(t *testing.T) {
	srv := mailtest.Start(t)
	sender := smtpSender(t, srv)
	srv.Stop()
	start := time.Now()
	err := sender.Send(context.Background(), "ref", validMessage())
	if err == nil || errors.Is(err, ErrInvalid) {
		t.Fatalf("Send to a stopped server: %v, want a retryable error", err)
	}
	if time.Since(start) > 5*time.Second {
		t.Errorf("a refused connection took %v", time.Since(start))
	}
}
