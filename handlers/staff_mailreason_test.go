package handlers

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/northbeam/site/internal/mail"
	"github.com/northbeam/site/internal/mail/mailtest"
	"github.com/northbeam/site/internal/sitetest"
	"github.com/northbeam/site/internal/store"
)

// TestStaffSeesWhyMailToAnInternationalAddressFailed: a mail to an address
// whose part before the @ is not ASCII, sent through a real SMTP server
// that does not offer SMTPUTF8, is kept as failed, and the workspace's mail
// page says why (a reason it translates) beside the error.
func TestStaffSeesWhyMailToAnInternationalAddressFailed(t *testing.T) {
	forEachBackend(t, func(t *testing.T, backend store.Backend) {
		env := newStaffEnv(t, backend, staffOptions{})
		ctx := context.Background()
		cookie := env.signIn(t, "ada@northbeam.test")
		if err := env.st.InTx(ctx, func(tx *store.Tx) error {
			return mail.Enqueue(ctx, tx, mail.Message{Kind: "booking.confirmation", To: "Jörg <jörg@äxample.de>", Subject: "Ihr Termin",
				Text: "Bis bald.", Lang: "de"})
		}); err != nil {
			t.Fatal(err)
		}
		srv := mailtest.Start(t)
		sender, err := mail.NewSMTPSender(mail.SMTPConfig{URL: srv.URL(), From: "Northbeam <hello@northbeam.dev>", Timeout: 5 * time.Second, TLSConfig: srv.ClientTLS()})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := mail.NewWorker(env.st, sender, mail.WorkerConfig{Logger: sitetest.QuietLog()}).DrainOnce(ctx); err != nil {
			t.Fatal(err)
		}
		list := staffJSON[struct {
			Mail []staffMail `json:"mail"`
		}](t, env.do(t, "GET", "/staff/api/mail", "", cookie))
		var found *staffMail
		for i, m := range list.Mail {
			if m.Subject == "Ihr Termin" {
				found = &list.Mail[i]
			}
		}
		if found == nil || found.State != "failed" || found.Reason != "smtputf8" || !strings.Contains(found.LastError, "SMTPUTF8") {
			t.Errorf("the mail to jörg@äxample.de in the workspace: %+v", found)
		}
		for _, r := range srv.Received() {
			if r.Subject == "Ihr Termin" {
				t.Error("the mail reached a server that does not offer SMTPUTF8")
			}
		}
	})
}
