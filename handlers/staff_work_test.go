package handlers

import (
	"bytes"
	"context"
	"encoding/csv"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/northbeam/site/internal/booking"
	"github.com/northbeam/site/internal/contact"
	"github.com/northbeam/site/internal/sitetest"
	"github.com/northbeam/site/internal/store"
)

// newStaffBookingEnv is the site with its booking service and a workspace
// that acts on its bookings, at monday7am, and a member signed in.
func newStaffBookingEnv(t *testing.T, backend store.Backend) (*bookingEnv, *staffEnv, string) {
	t.Helper()
	benv := newBookingEnvOn(t, backend, sitetest.BookingFixture, &monday7am)
	cancellation, err := booking.NewStaffCancellation(benv.service, sitetest.Content())
	if err != nil {
		t.Fatal(err)
	}
	ws := staffWithBookings(t, benv.store, benv.service.Now, cancellation)
	clock := sitetest.NewClock(monday7am)
	env := &staffEnv{st: benv.store, ws: ws, clock: clock,
		h: New(NewServer(sitetest.Site(t), Services{Log: sitetest.QuietLog(), Store: benv.store, Booking: benv.service, Staff: ws, Now: clock.Now}))}
	return benv, env, env.signIn(t, "ops@northbeam.test")
}

// A new message filed as spam by hand: nothing is mailed, then or when it
// is taken out again (its mails went out when it came); one the filter
// kept gets the team's notification and the visitor's acknowledgement
// when rescued. Both are in the audit log.
func TestStaffMarksSpam(t *testing.T) {
	forEachBackend(t, func(t *testing.T, backend store.Backend) {
		env := newStaffEnv(t, backend, staffOptions{})
		ctx := context.Background()
		cookie := env.signIn(t, "ada@northbeam.test")
		received := env.clock.Now().Add(-time.Hour)
		for _, r := range []contact.Record{
			{Ref: "11111111-1111-4111-8111-111111111111", CreatedAt: received, Name: "Zoë", Email: "zoe@example.com", Message: "Bonjour", Lang: "fr"},
			{Ref: "22222222-2222-4222-8222-222222222222", CreatedAt: received, Name: "Kept", Email: "kept@example.com", Message: "Hallo", Lang: "de", Spam: true, SpamReason: contact.SpamTooFast},
		} {
			if _, err := contact.Save(ctx, env.st, r, nil); err != nil {
				t.Fatal(err)
			}
		}
		mails := func() int {
			return sitetest.Count(t, env.st, `SELECT count(*) FROM outbox WHERE kind LIKE 'contact.%'`)
		}
		rec := env.do(t, "POST", "/staff/api/messages/11111111-1111-4111-8111-111111111111/spam", "{}", cookie)
		if m := staffJSON[map[string]staffMessage](t, rec)["message"]; m.Folder != "spam" || m.SpamReason != "staff" {
			t.Errorf("marked as spam: %d %+v", rec.Code, m)
		}
		list := staffJSON[staffMessages](t, env.do(t, "GET", "/staff/api/messages?folder=spam", "", cookie))
		if list.Counts["new"] != 0 || list.Counts["spam"] != 2 {
			t.Errorf("counts after marking: %v", list.Counts)
		}
		rec = env.do(t, "POST", "/staff/api/messages/11111111-1111-4111-8111-111111111111/not-spam", "{}", cookie)
		if m := staffJSON[map[string]staffMessage](t, rec)["message"]; m.Folder != "new" || mails() != 0 {
			t.Errorf("taken out of spam again: %+v, %d mails", m, mails())
		}
		rec = env.do(t, "POST", "/staff/api/messages/22222222-2222-4222-8222-222222222222/not-spam", "{}", cookie)
		if m := staffJSON[map[string]staffMessage](t, rec)["message"]; m.Folder != "new" {
			t.Errorf("rescued: %+v", m)
		}
		if n := sitetest.Count(t, env.st, `SELECT count(*) FROM outbox WHERE kind = 'contact.ack' AND to_addr = 'kept@example.com' AND lang = 'de'`); n != 1 {
			t.Errorf("the rescued message's visitor got %d acknowledgements in German, want 1", n)
		}
		if n := sitetest.Count(t, env.st, `SELECT count(*) FROM outbox WHERE kind = 'contact.notify' AND reply_to = 'kept@example.com'`); n != 1 {
			t.Errorf("%d notifications of the rescued message, want 1", n)
		}
		if rec := env.do(t, "POST", "/staff/api/messages/nope/spam", "{}", cookie); rec.Code != http.StatusNotFound {
			t.Errorf("an unknown message: %d", rec.Code)
		}
		if n := sitetest.Count(t, env.st, `SELECT count(*) FROM staff_audit WHERE action = 'marked-spam' AND subject = '11111111-1111-4111-8111-111111111111'`); n != 1 {
			t.Errorf("%d audit entries for the marking", n)
		}
	})
}

// The outbox read from the workspace: every mail with its text; an erased
// one says so, has no text left, and is no mail that could not be sent.
func TestStaffReadsTheOutbox(t *testing.T) {
	forEachBackend(t, func(t *testing.T, backend store.Backend) {
		env := newStaffEnv(t, backend, staffOptions{})
		ctx := context.Background()
		cookie := env.signIn(t, "ada@northbeam.test")
		r := contact.Record{Ref: "33333333-3333-4333-8333-333333333333", CreatedAt: env.clock.Now(), Name: "Zoë", Email: "zoe@example.com", Message: "Bonjour", Lang: "fr"}
		mailer, err := contact.NewMailer(sitetest.Content(), contact.Brand{Name: "Northbeam", Email: "hello@northbeam.test", BaseURL: sitetest.BaseURL, ResponseHours: 24}, sitetest.Inbox)
		if err != nil {
			t.Fatal(err)
		}
		mails, err := mailer.Compose(r)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := contact.Save(ctx, env.st, r, mails); err != nil {
			t.Fatal(err)
		}
		list := staffJSON[struct {
			Mail   []staffMail `json:"mail"`
			Outbox []staffMail `json:"outbox"`
		}](t, env.do(t, "GET", "/staff/api/mail", "", cookie))
		var ack staffMail
		for _, m := range list.Outbox {
			if m.Kind == contact.KindAck {
				ack = m
			}
		}
		if len(list.Outbox) != 3 || ack.To != "zoe@example.com" || ack.State != "pending" {
			t.Fatalf("the outbox: %+v", list.Outbox)
		}
		read := staffJSON[map[string]staffMailText](t, env.do(t, "GET", "/staff/api/mail/"+ack.Ref, "", cookie))["mail"]
		if read.Lang != "fr" || read.Subject == "" || !strings.Contains(read.Text, "Northbeam") {
			t.Errorf("the acknowledgement's text: %+v", read)
		}
		if rec := env.do(t, "GET", "/staff/api/mail/nope", "", cookie); rec.Code != http.StatusNotFound {
			t.Errorf("an unknown mail: %d", rec.Code)
		}
		// Given up, then erased: no longer in trouble, erased, no text.
		execSQL(t, env.st, `UPDATE outbox SET state = 'failed', last_error = 'smtp: 550' WHERE ref = ?`, ack.Ref)
		list.Mail = staffJSON[struct {
			Mail []staffMail `json:"mail"`
		}](t, env.do(t, "GET", "/staff/api/mail", "", cookie)).Mail
		if len(list.Mail) != 1 || list.Mail[0].Ref != ack.Ref {
			t.Errorf("a mail given up is not in trouble: %+v", list.Mail)
		}
		rec := env.do(t, "POST", "/staff/api/privacy/erase", `{"email":"zoe@example.com","confirm":"zoe@example.com"}`, cookie)
		if rec.Code != http.StatusOK {
			t.Fatalf("erase: %d %s", rec.Code, rec.Body)
		}
		after := staffJSON[struct {
			Mail   []staffMail `json:"mail"`
			Outbox []staffMail `json:"outbox"`
		}](t, env.do(t, "GET", "/staff/api/mail", "", cookie))
		if len(after.Mail) != 0 {
			t.Errorf("erased mail is still listed as not sent: %+v", after.Mail)
		}
		read = staffJSON[map[string]staffMailText](t, env.do(t, "GET", "/staff/api/mail/"+ack.Ref, "", cookie))["mail"]
		if read.State != "erased" || read.LastError != "" || read.Text != "" || read.To != "" {
			t.Errorf("an erased mail: %+v", read)
		}
	})
}

// The bookings file of the exports page, without a range, holds
// tomorrow's consultation with the number to call.
func TestStaffBookingsExportHoldsUpcoming(t *testing.T) {
	forEachBackend(t, func(t *testing.T, backend store.Backend) {
		benv, env, cookie := newStaffBookingEnv(t, backend)
		bookSlot(t, benv, validBooking(t, "09:00", "fr"))
		execSQL(t, env.st, `UPDATE bookings SET phone = '+4930901820'`)
		rec := env.do(t, "GET", "/staff/export/bookings.csv", "", cookie)
		if rec.Code != http.StatusOK {
			t.Fatalf("export: %d %s", rec.Code, rec.Body)
		}
		rows, err := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(rec.Body.Bytes(), []byte("\uFEFF")))).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		if len(rows) != 2 {
			t.Fatalf("the default range's bookings: %q", rows)
		}
		col := map[string]int{}
		for i, name := range rows[0] {
			col[name] = i
		}
		phone, ok := col["Phone"]
		if !ok || rows[1][col["Name"]] != "Amira Haddad" || !strings.Contains(rows[1][phone], "+49 30 901820") {
			t.Errorf("tomorrow's booking: %q", rows)
		}
	})
}

// execSQL runs a statement on st.
func execSQL(t testing.TB, st *store.Store, query string, args ...any) {
	t.Helper()
	if _, err := st.ExecContext(context.Background(), query, args...); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
}

// The account lists the member's sessions by browser and system, this one
// marked; another one is signed out from there, and audited.
func TestStaffSessionsListed(t *testing.T) {
	forEachBackend(t, func(t *testing.T, backend store.Backend) {
		env := newStaffEnv(t, backend, staffOptions{})
		laptop := env.signIn(t, "ada@northbeam.test")
		// The phone signs in through a link of its own, as Safari on an iPhone.
		if rec := env.do(t, "POST", "/staff/api/sign-in/link", `{"email":"ada@northbeam.test"}`); rec.Code != http.StatusAccepted {
			t.Fatalf("asking for a link: %d", rec.Code)
		}
		req := httptest.NewRequest("POST", "/staff/api/sign-in/link/use", strings.NewReader(`{"token":"`+sitetest.MailedSignInToken(t, env.st)+`"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Sec-Fetch-Site", "same-origin")
		req.Header.Set("User-Agent", "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1")
		rec := httptest.NewRecorder()
		env.h.ServeHTTP(rec, req)
		ck, ok := setCookie(rec, staffSession)
		if !ok {
			t.Fatalf("the phone's sign-in: %d %s", rec.Code, rec.Body)
		}
		phone := staffSession + "=" + ck.Value

		account := staffJSON[staffAccount](t, env.do(t, "GET", "/staff/api/me", "", laptop))
		if len(account.Sessions) != 2 {
			t.Fatalf("sessions %+v", account.Sessions)
		}
		var other staffSessionView
		for _, s := range account.Sessions {
			if !s.Current {
				other = s
			}
		}
		if other.Browser != "Safari" || other.Platform != "iPhone" {
			t.Errorf("the phone's session is listed as %+v", other)
		}
		rec = env.do(t, "DELETE", "/staff/api/sessions/"+strconv.FormatInt(other.ID, 10), "", laptop)
		if after := staffJSON[staffAccount](t, rec); len(after.Sessions) != 1 || !after.Sessions[0].Current {
			t.Errorf("after signing the phone out: %+v", after.Sessions)
		}
		if rec := env.do(t, "GET", "/staff/api/me", "", phone); rec.Code != http.StatusUnauthorized {
			t.Errorf("the phone's session after it was signed out: %d", rec.Code)
		}
		if rec := env.do(t, "DELETE", "/staff/api/sessions/999999", "", laptop); rec.Code != http.StatusNotFound {
			t.Errorf("an unknown session: %d", rec.Code)
		}
		if n := sitetest.Count(t, env.st, `SELECT count(*) FROM staff_audit WHERE action = 'sign-out' AND subject = ?`, strconv.FormatInt(other.ID, 10)); n != 1 {
			t.Errorf("%d audit entries for the session's end", n)
		}
		if rec := env.do(t, "POST", "/staff/api/passkeys/1/name", `{"name":"`+strings.Repeat("x", 61)+`"}`, laptop); rec.Code != http.StatusUnprocessableEntity {
			t.Errorf("a passkey's name too long: %d", rec.Code)
		}
		if rec := env.do(t, "POST", "/staff/api/passkeys/1/name", `{"name":"Laptop"}`, laptop); rec.Code != http.StatusNotFound {
			t.Errorf("renaming a passkey that is not the member's: %d", rec.Code)
		}
	})
}

// The agenda's views say how many consultations each holds.
func TestStaffBookingCounts(t *testing.T) {
	forEachBackend(t, func(t *testing.T, backend store.Backend) {
		benv, env, cookie := newStaffBookingEnv(t, backend)
		bookSlot(t, benv, validBooking(t, "09:00", "fr"))
		bookSlot(t, benv, validBooking(t, "10:00", "de"))
		execSQL(t, env.st, `UPDATE bookings SET cancelled_at = created_at WHERE lang = 'de'`)
		list := staffJSON[staffBookings](t, env.do(t, "GET", "/staff/api/bookings?view=past", "", cookie))
		if list.Counts["upcoming"] != 1 || list.Counts["cancelled"] != 1 || list.Counts["past"] != 0 {
			t.Errorf("counts %v", list.Counts)
		}
	})
}
