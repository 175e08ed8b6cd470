package contact

import (
	"context"
	"errors"
	"io/fs"
	"log/slog"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/northbeam/site/internal/logtest"
	"github.com/northbeam/site/internal/mail"
	"github.com/northbeam/site/internal/mail/mailtest"
	"github.com/northbeam/site/internal/store"
	"github.com/northbeam/site/internal/store/storetest"
)

func TestSubmitStoresMessageAndMail(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {

		woken := 0
		svc := newService(t, st, func() { woken++ })

		sub := humanSubmission("fr")
		sub.Name = "  Ada Lovelace  "
		sub.Message = "Bonjour,\r\nnous aimerions moderniser notre plateforme."
		rec, err := svc.Submit(context.Background(), sub)
		if err != nil {
			t.Fatal(err)
		}
		if rec.Spam || rec.Ref == "" {
			t.Fatalf("receipt = %+v", rec)
		}
		list, err := List(context.Background(), st, 10)
		if err != nil || len(list) != 1 {
			t.Fatalf("List = %v, %v", list, err)
		}
		got := list[0]
		if got.Ref != rec.Ref || got.Name != "Ada Lovelace" || got.Message != "Bonjour,\nnous aimerions moderniser notre plateforme." ||
			got.Lang != "fr" || got.Service != ServicePlatformEngineering || got.Spam || got.CreatedAt.Location() != time.UTC {
			t.Errorf("stored = %+v", got)
		}
		type row struct{ kind, to, replyTo, lang, state string }
		var rows []row
		r, err := st.QueryContext(context.Background(), `SELECT kind, to_addr, reply_to, lang, state FROM outbox ORDER BY id`)
		if err != nil {
			t.Fatal(err)
		}
		for r.Next() {
			var x row
			if err := r.Scan(&x.kind, &x.to, &x.replyTo, &x.lang, &x.state); err != nil {
				t.Fatal(err)
			}
			rows = append(rows, x)
		}
		r.Close()
		want := []row{
			{KindNotify, testInbox, "ada@example.com", "en", "pending"},
			{KindAck, "ada@example.com", testInbox, "fr", "pending"},
		}
		if !slices.Equal(rows, want) {
			t.Errorf("outbox = %+v, want %+v", rows, want)
		}
		if woken != 1 {
			t.Errorf("Queued called %d times, want 1", woken)
		}
	})
}

func TestSubmitInvalidStoresNothing(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {

		svc := newService(t, st, nil)
		sub := humanSubmission("en")
		sub.Email = "not an address"
		_, err := svc.Submit(context.Background(), sub)
		var fe FieldErrors
		if !errors.As(err, &fe) || fe[FieldEmail] != KeyEmail || len(fe) != 1 {
			t.Fatalf("Submit = %v, want FieldErrors{email}", err)
		}
		if n := count(t, st, `SELECT count(*) FROM messages`) + count(t, st, `SELECT count(*) FROM outbox`); n != 0 {
			t.Errorf("%d rows stored for an invalid submission", n)
		}
	})
}

func TestSpamIsStoredNotMailed(t *testing.T) {
	tests := []struct {
		name   string
		change func(*Submission)
		reason string
	}{
		{"honeypot", func(s *Submission) { s.Honeypot = "https://cheap.example" }, SpamHoneypot},
		{"too fast", func(s *Submission) { s.RenderedAt = time.Now().Add(-time.Second) }, SpamTooFast},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := newStore(t)
			woken := 0
			svc := newService(t, st, func() { woken++ })
			sub := humanSubmission("de")
			tt.change(&sub)
			rec, err := svc.Submit(context.Background(), sub)
			if err != nil {
				t.Fatal(err)
			}
			if !rec.Spam {
				t.Error("receipt does not say spam")
			}
			if n := count(t, st, `SELECT count(*) FROM messages WHERE spam = 1 AND spam_reason = ?`, tt.reason); n != 1 {
				t.Errorf("spam rows with reason %q = %d, want 1", tt.reason, n)
			}
			if n := count(t, st, `SELECT count(*) FROM outbox`); n != 0 {
				t.Errorf("spam queued %d mails", n)
			}
			if woken != 0 {
				t.Error("worker woken for spam")
			}
		})
	}
}

// The message and its mail are one transaction: when a mail cannot be
// queued, the message is not stored either.
func TestSaveIsAtomic(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {

		rec := Record{Ref: "r-1", CreatedAt: time.Now(), Name: "Ada", Email: "ada@example.com", Message: "0123456789", Lang: "en"}
		good := mail.Message{Kind: KindNotify, To: testInbox, Subject: "New", Text: "Body"}
		bad := good
		bad.Subject = "New\r\nBcc: evil@attacker.test"

		if _, err := Save(context.Background(), st, rec, []mail.Message{good, bad}); !errors.Is(err, mail.ErrInvalid) {
			t.Fatalf("Save with an invalid mail = %v, want mail.ErrInvalid", err)
		}
		if n := count(t, st, `SELECT count(*) FROM messages`) + count(t, st, `SELECT count(*) FROM outbox`); n != 0 {
			t.Fatalf("%d rows left by a failed Save", n)
		}

		saved, err := Save(context.Background(), st, rec, []mail.Message{good, good})
		if err != nil {
			t.Fatal(err)
		}
		if saved.ID == 0 || count(t, st, `SELECT count(*) FROM messages`) != 1 || count(t, st, `SELECT count(*) FROM outbox`) != 2 {
			t.Fatal("Save did not write the message and both mails")
		}

		// The same ref twice: the second insert fails and queues nothing.
		if _, err := Save(context.Background(), st, rec, []mail.Message{good}); err == nil {
			t.Fatal("duplicate ref accepted")
		}
		if n := count(t, st, `SELECT count(*) FROM outbox`); n != 2 {
			t.Fatalf("outbox rows = %d after a failed duplicate, want 2", n)
		}

		spam := rec
		spam.Ref, spam.Spam, spam.SpamReason = "r-2", true, SpamHoneypot
		if _, err := Save(context.Background(), st, spam, []mail.Message{good}); err != nil {
			t.Fatal(err)
		}
		if n := count(t, st, `SELECT count(*) FROM outbox`); n != 2 {
			t.Fatalf("Save queued mail for spam")
		}
	})
}

func TestMailArrivesOverSMTP(t *testing.T) {
	// The acknowledgement is the visitor's language's own template: its
	// subject line, and its greeting, the first line of its text.
	ackSubjects, ackGreetings := map[string]string{}, map[string]string{}
	for _, lang := range siteLanguages(t) {
		tmpl, err := fs.ReadFile(siteContent(), "mail/"+lang+"/contact-ack.txt")
		if err != nil {
			t.Fatal(err)
		}
		head, body, _ := strings.Cut(string(tmpl), "\n\n")
		subject, _ := strings.CutPrefix(head, "Subject: ")
		ackSubjects[lang] = strings.ReplaceAll(subject, "{{.Brand.Name}}", "Northbeam")
		greeting, _, _ := strings.Cut(body, "\n")
		ackGreetings[lang] = greeting + "\n"
		if strings.Contains(ackSubjects[lang]+greeting, "{{") || greeting == "" {
			t.Fatalf("%s: the template's subject %q and first line %q are not plain text", lang, subject, greeting)
		}
	}
	for _, lang := range siteLanguages(t) {
		t.Run(lang, func(t *testing.T) {
			st := newStore(t)
			srv := mailtest.Start(t)
			logs := &logtest.Buffer{}
			logger := slog.New(slog.NewTextHandler(logs, nil))
			sender, err := mail.NewSMTPSender(mail.SMTPConfig{URL: srv.URL(), From: "Northbeam <hello@northbeam.dev>"})
			if err != nil {
				t.Fatal(err)
			}
			worker := mail.NewWorker(st, sender, mail.WorkerConfig{Logger: logger})
			svc := newService(t, st, worker.Wake)

			sub := humanSubmission(lang)
			sub.Message = "We need help with our platform.\nCan we talk next week?"
			if _, err := svc.Submit(context.Background(), sub); err != nil {
				t.Fatal(err)
			}
			if n, err := worker.DrainOnce(context.Background()); n != 2 || err != nil {
				t.Fatalf("DrainOnce = %d, %v", n, err)
			}
			got := srv.Received()
			if len(got) != 2 {
				t.Fatalf("received %d, want 2", len(got))
			}
			notify, ack := got[0], got[1]

			if !slices.Equal(notify.To, []string{testInbox}) || notify.From != "hello@northbeam.dev" {
				t.Errorf("notify envelope %s -> %v", notify.From, notify.To)
			}
			if rt, _ := notify.AddressHeader("Reply-To"); !slices.Equal(rt, []string{"ada@example.com"}) {
				t.Errorf("notify Reply-To = %v", rt)
			}
			if notify.Subject != "New contact message from Ada Lovelace" || notify.Header.Get("Content-Language") != "en" {
				t.Errorf("notify Subject %q, language %q", notify.Subject, notify.Header.Get("Content-Language"))
			}
			if text, _ := notify.Text(); !strings.Contains(text, "> We need help with our platform.\n> Can we talk next week?") || !strings.Contains(text, "Platform engineering") {
				t.Errorf("notify body:\n%s", text)
			}

			if !slices.Equal(ack.To, []string{"ada@example.com"}) {
				t.Errorf("ack recipients = %v", ack.To)
			}
			if rt, _ := ack.AddressHeader("Reply-To"); !slices.Equal(rt, []string{testInbox}) {
				t.Errorf("ack Reply-To = %v", rt)
			}
			if ack.Subject != ackSubjects[lang] || ack.Header.Get("Content-Language") != lang {
				t.Errorf("ack Subject %q, language %q", ack.Subject, ack.Header.Get("Content-Language"))
			}
			if text, _ := ack.Text(); !strings.HasPrefix(text, ackGreetings[lang]) {
				t.Errorf("ack body:\n%s", text)
			}

			for _, secret := range []string{"ada@", "Ada", "platform", sub.Message} {
				if strings.Contains(logs.String(), secret) {
					t.Errorf("logs contain %q:\n%s", secret, logs)
				}
			}
		})
	}
}

func TestMailWaitsForSMTPServer(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {

		srv := mailtest.Start(t)
		sender, err := mail.NewSMTPSender(mail.SMTPConfig{URL: srv.URL(), From: "hello@northbeam.dev"})
		if err != nil {
			t.Fatal(err)
		}
		now := time.Now().Add(time.Second)
		worker := mail.NewWorker(st, sender, mail.WorkerConfig{
			Logger: slog.New(slog.NewTextHandler(&logtest.Buffer{}, nil)),
			Now:    func() time.Time { return now },
		})
		svc := newService(t, st, worker.Wake)
		srv.Stop()

		if _, err := svc.Submit(context.Background(), humanSubmission("de")); err != nil {
			t.Fatal(err)
		}
		for attempt := 1; attempt <= 2; attempt++ {
			if n, err := worker.DrainOnce(context.Background()); n != 0 || err != nil {
				t.Fatalf("DrainOnce with the server down = %d, %v", n, err)
			}
			if n := count(t, st, `SELECT count(*) FROM outbox WHERE state = 'pending' AND attempts = ? AND last_error <> ''`, attempt); n != 2 {
				t.Fatalf("after attempt %d: %d rows pending with that many attempts, want 2", attempt, n)
			}
			now = now.Add(2 * time.Hour)
		}

		srv.Restart()
		if n, err := worker.DrainOnce(context.Background()); n != 2 || err != nil {
			t.Fatalf("DrainOnce after the server is back = %d, %v", n, err)
		}
		// Jittered backoff may reorder the two; find each by its recipient.
		subjects := map[string]string{}
		for _, r := range srv.Received() {
			subjects[strings.Join(r.To, ",")] = r.Subject
		}
		want := map[string]string{
			testInbox:         "New contact message from Ada Lovelace",
			"ada@example.com": "Wir haben Ihre Nachricht erhalten – Northbeam",
		}
		if !maps.Equal(subjects, want) {
			t.Fatalf("received %v, want %v", subjects, want)
		}
		if n := count(t, st, `SELECT count(*) FROM outbox WHERE state = 'sent' AND attempts = 3`); n != 2 {
			t.Errorf("%d rows sent on the third attempt, want 2", n)
		}
	})
}

// A name with CRLF is refused by validation; even when a record carrying
// one is stored and mailed, the server sees no extra header and no extra
// recipient.
func TestHeaderInjectionThroughName(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {

		srv := mailtest.Start(t)
		svc := newService(t, st, nil)
		const evil = "Eve\r\nBcc: evil@attacker.test\r\nX-Injected: yes"

		sub := humanSubmission("en")
		sub.Name = evil
		if _, err := svc.Submit(context.Background(), sub); err == nil {
			t.Fatal("Submit accepted a name with CRLF")
		}

		rec := Record{Ref: "r-evil", CreatedAt: time.Now(), Name: evil, Email: "eve@example.com", Message: "0123456789", Lang: "en"}
		mails, err := svc.mailer.Compose(rec)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Save(context.Background(), st, rec, mails); err != nil {
			t.Fatal(err)
		}
		sender, err := mail.NewSMTPSender(mail.SMTPConfig{URL: srv.URL(), From: "hello@northbeam.dev"})
		if err != nil {
			t.Fatal(err)
		}
		worker := mail.NewWorker(st, sender, mail.WorkerConfig{Logger: slog.New(slog.NewTextHandler(&logtest.Buffer{}, nil))})
		if n, err := worker.DrainOnce(context.Background()); n != 2 || err != nil {
			t.Fatalf("DrainOnce = %d, %v", n, err)
		}
		for _, r := range srv.Received() {
			for _, to := range r.To {
				if to != testInbox && to != "eve@example.com" {
					t.Errorf("unexpected recipient %s", to)
				}
			}
			for _, h := range []string{"Bcc", "X-Injected"} {
				if v := r.Header.Get(h); v != "" {
					t.Errorf("injected header %s: %s", h, v)
				}
			}
			if strings.Contains(r.Subject, "\n") || strings.Contains(r.Subject, "\r") {
				t.Errorf("subject spans lines: %q", r.Subject)
			}
		}
	})
}
