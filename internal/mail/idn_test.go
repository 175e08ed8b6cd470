package mail

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/northbeam/site/internal/logtest"
	"github.com/northbeam/site/internal/mail/mailtest"
	"github.com/northbeam/site/internal/store"
	"github.com/northbeam/site/internal/store/storetest"
)

// TestWorkerSendsToInternationalAddresses: a domain that is not ASCII
// travels as its A-label (xn--), in the envelope and the headers. A mailbox
// name that is not ASCII needs SMTPUTF8: a server that offers it gets the
// mail with SMTPUTF8 asked for; to one that does not, the mail is never
// sent malformed but kept in the outbox as failed, with the reason; the
// consultancy's notice that only answers to such an address goes without
// its Reply-To. Both with the project's SMTP server, both engines.
func TestWorkerSendsToInternationalAddresses(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		for _, offers := range []bool{false, true} {
			var opts []mailtest.Option
			if offers {
				opts = append(opts, mailtest.WithSMTPUTF8())
			}
			srv := mailtest.Start(t, opts...)
			if _, err := st.ExecContext(context.Background(), `DELETE FROM outbox`); err != nil {
				t.Fatal(err)
			}
			w := NewWorker(st, smtpSender(t, srv), WorkerConfig{Logger: (&logtest.Buffer{}).Logger()})
			jorg, anna, notice := validMessage(), validMessage(), validMessage()
			jorg.To, jorg.Subject = "Jörg <jörg@äxample.de>", "to Jörg"
			anna.To, anna.Subject = "anna@äxample.de", "to Anna"
			notice.To, notice.ReplyTo, notice.Subject = "team@northbeam.dev", "jörg@äxample.de", "about Jörg"
			enqueue(t, st, jorg, anna, notice)
			if _, err := w.DrainOnce(context.Background()); err != nil {
				t.Fatal(err)
			}

			got := map[string]mailtest.Received{}
			for _, r := range srv.Received() {
				got[r.Subject] = r
			}
			if r, ok := got["to Anna"]; !ok || !slices.Equal(r.To, []string{"anna@xn--xample-9ta.de"}) ||
				!strings.Contains(r.Header.Get("To"), "anna@xn--xample-9ta.de") {
				t.Errorf("SMTPUTF8 offered %v: Anna's mail %v, To: %q", offers, r.To, r.Header.Get("To"))
			}
			r, ok := got["about Jörg"]
			replyTo := r.Header.Get("Reply-To")
			if !ok || offers != strings.Contains(replyTo, "jörg@xn--xample-9ta.de") || !offers && replyTo != "" {
				t.Errorf("SMTPUTF8 offered %v: the notice about Jörg arrived %v with Reply-To %q", offers, ok, replyTo)
			}
			rows := outboxRows(t, st)
			if offers {
				r, ok := got["to Jörg"]
				if !ok || !r.SMTPUTF8 || !slices.Equal(r.To, []string{"jörg@xn--xample-9ta.de"}) {
					t.Errorf("to a server with SMTPUTF8, Jörg's mail: %v, SMTPUTF8 %v, %v", ok, r.SMTPUTF8, r.To)
				}
				for _, row := range rows {
					if row.state != "sent" {
						t.Errorf("row %+v, want sent", row)
					}
				}
				continue
			}
			if _, sent := got["to Jörg"]; sent || len(got) != 2 {
				t.Errorf("to a server without SMTPUTF8, %d mails arrived, Jörg's among them: %v", len(got), sent)
			}
			for _, r := range got {
				if i := bytes.IndexFunc(r.Raw, func(c rune) bool { return c >= 0x80 }); i >= 0 || strings.ContainsFunc(r.From+strings.Join(r.To, ""), func(c rune) bool { return c >= 0x80 }) {
					t.Errorf("a mail to a server without SMTPUTF8 is not ASCII (at %d):\n%s", i, r.Raw)
				}
			}
			if row := rows[0]; row.state != "failed" || !strings.Contains(row.lastError, ReasonNeedsSMTPUTF8) {
				t.Errorf("Jörg's mail: %+v, want failed with the reason", row)
			}
			for _, row := range rows[1:] {
				if row.state != "sent" {
					t.Errorf("row %+v, want sent", row)
				}
			}
		}
	})
}
