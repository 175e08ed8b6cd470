package handlers

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
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
	return newStaffBookingEnvWith(t, backend, sitetest.BookingFixture)
}

// newStaffBookingEnvWith is newStaffBookingEnv with the availability fixture.
func newStaffBookingEnvWith(t *testing.T, backend store.Backend, fixture string) (*bookingEnv, *staffEnv, string) {
	t.Helper()
	benv := newBookingEnvOn(t, backend, fixture, &monday7am)
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
			{Ref: "11111111-1111-4111-8111-111111111111", CreatedAt: received, Name: "Zoë", Email: "zoe@example.com", Message: "Bonjour", Lang: sitetest.OtherAt(t, 0).Code},
			{Ref: "22222222-2222-4222-8222-222222222222", CreatedAt: received, Name: "Kept", Email: "kept@example.com", Message: "Hallo", Lang: sitetest.OtherAt(t, 1).Code, Spam: true, SpamReason: contact.SpamTooFast},
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
		if n := sitetest.Count(t, env.st, `SELECT count(*) FROM outbox WHERE kind = 'contact.ack' AND to_addr = 'kept@example.com' AND lang = ?`, sitetest.OtherAt(t, 1).Code); n != 1 {
			t.Errorf("the rescued message's visitor got %d acknowledgements in their language, want 1", n)
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
		r := contact.Record{Ref: "33333333-3333-4333-8333-333333333333", CreatedAt: env.clock.Now(), Name: "Zoë", Email: "zoe@example.com", Message: "Bonjour", Lang: sitetest.OtherAt(t, 0).Code}
		mailer, err := contact.NewMailer(sitetest.Content(), sitetest.ContactBrand(t, sitetest.BaseURL), sitetest.Inbox)
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
		if read.Lang != sitetest.OtherAt(t, 0).Code || read.Subject == "" || !strings.Contains(read.Text, "Northbeam") {
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

// The mail that could not be sent comes in pages of 50, newest first,
// like the outbox: the next page by the cursor the page gave, alone.
func TestStaffPagesTheTroubledMail(t *testing.T) {
	forEachBackend(t, func(t *testing.T, backend store.Backend) {
		env := newStaffEnv(t, backend, staffOptions{})
		ctx := context.Background()
		cookie := env.signIn(t, "ada@northbeam.test")
		mailer, err := contact.NewMailer(sitetest.Content(), sitetest.ContactBrand(t, sitetest.BaseURL), sitetest.Inbox)
		if err != nil {
			t.Fatal(err)
		}
		for i := range 30 {
			r := contact.Record{Ref: fmt.Sprintf("33333333-3333-4333-8333-%012d", i), CreatedAt: env.clock.Now().Add(time.Duration(i) * time.Minute),
				Name: "Zoë", Email: fmt.Sprintf("zoe%d@example.com", i), Message: "Bonjour", Lang: sitetest.OtherAt(t, 0).Code}
			mails, err := mailer.Compose(r)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := contact.Save(ctx, env.st, r, mails); err != nil {
				t.Fatal(err)
			}
		}
		execSQL(t, env.st, `UPDATE outbox SET state = 'failed', last_error = 'smtp: 550'`)
		total := sitetest.Count(t, env.st, `SELECT count(*) FROM outbox`)
		type page struct {
			Mail     []staffMail `json:"mail"`
			MailNext string      `json:"mailNext"`
			Outbox   []staffMail `json:"outbox"`
		}
		first := staffJSON[page](t, env.do(t, "GET", "/staff/api/mail", "", cookie))
		if len(first.Mail) != 50 || first.MailNext != first.Mail[49].Ref || len(first.Outbox) == 0 {
			t.Fatalf("the first page: %d troubled mails, next %q, %d in the outbox; want 50 of %d and the outbox", len(first.Mail), first.MailNext, len(first.Outbox), total)
		}
		second := staffJSON[page](t, env.do(t, "GET", "/staff/api/mail?troubledBefore="+first.MailNext, "", cookie))
		seen := map[string]bool{}
		for _, m := range append(first.Mail, second.Mail...) {
			seen[m.Ref] = true
		}
		if len(seen) != total || second.MailNext != "" || len(second.Outbox) != 0 {
			t.Errorf("two pages hold %d different mails of %d, next %q, %d of the outbox beside", len(seen), total, second.MailNext, len(second.Outbox))
		}
		if rec := env.do(t, "GET", "/staff/api/mail?troubledBefore=nope", "", cookie); rec.Code != http.StatusBadRequest {
			t.Errorf("an unknown cursor: %d", rec.Code)
		}
	})
}

// The bookings file of the exports page, without a range, holds
// tomorrow's consultation with the number to call.
func TestStaffBookingsExportHoldsUpcoming(t *testing.T) {
	forEachBackend(t, func(t *testing.T, backend store.Backend) {
		benv, env, cookie := newStaffBookingEnv(t, backend)
		bookSlot(t, benv, validBooking(t, "09:00", sitetest.OtherAt(t, 0).Code))
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
		bookSlot(t, benv, validBooking(t, "09:00", sitetest.OtherAt(t, 0).Code))
		bookSlot(t, benv, validBooking(t, "10:00", sitetest.OtherAt(t, 1).Code))
		execSQL(t, env.st, `UPDATE bookings SET cancelled_at = created_at WHERE lang = ?`, sitetest.OtherAt(t, 1).Code)
		list := staffJSON[staffBookings](t, env.do(t, "GET", "/staff/api/bookings?view=past", "", cookie))
		if list.Counts["upcoming"] != 1 || list.Counts["cancelled"] != 1 || list.Counts["past"] != 0 {
			t.Errorf("counts %v", list.Counts)
		}
	})
}

// A booking moved on the visitor's behalf: the visitor's own rules (the
// minimum notice, the times offered) and mails (the "moved" notice in
// their language, with the new and the previous time and the updated
// invite), audited with the old and the new time.
func TestStaffMovesABooking(t *testing.T) {
	forEachBackend(t, func(t *testing.T, backend store.Backend) {
		benv, env, cookie := newStaffBookingEnv(t, backend)
		bookSlot(t, benv, validBooking(t, "09:00", sitetest.OtherAt(t, 0).Code))
		id := agendaFirst(t, env, cookie).ID
		target := "/staff/api/bookings/" + strconv.FormatInt(id, 10) + "/move"
		if rec := env.do(t, "POST", target, `{"start":"`+tuesdayAt(t, "09:07").Format(time.RFC3339)+`"}`, cookie); rec.Code != http.StatusConflict ||
			decodeAPIError(t, rec).Code != "slot_taken" {
			t.Errorf("a time that is not offered: %d %s", rec.Code, rec.Body)
		}
		if rec := env.do(t, "POST", target, `{"start":"soon"}`, cookie); rec.Code != http.StatusUnprocessableEntity || decodeAPIError(t, rec).Fields["start"] == "" {
			t.Errorf("no time: %d %s", rec.Code, rec.Body)
		}
		if rec := env.do(t, "POST", "/staff/api/bookings/999/move", `{"start":"`+tuesdayAt(t, "11:00").Format(time.RFC3339)+`"}`, cookie); rec.Code != http.StatusNotFound {
			t.Errorf("an unknown booking: %d", rec.Code)
		}
		newStart := tuesdayAt(t, "11:00")
		rec := env.do(t, "POST", target, `{"start":"`+newStart.Format(time.RFC3339)+`"}`, cookie)
		if b := staffJSON[map[string]staffBooking](t, rec)["booking"]; rec.Code != http.StatusOK || !b.Start.Equal(newStart) {
			t.Fatalf("moved: %d %+v", rec.Code, b)
		}
		ny, _ := time.LoadLocation("America/New_York")
		when := sitetest.Site(t).Dates.FormatDateTime(sitetest.OtherAt(t, 0).Code, newStart.In(ny))
		was := sitetest.Site(t).Dates.FormatDateTime(sitetest.OtherAt(t, 0).Code, tuesdayAt(t, "09:00").In(ny))
		var moved []string
		for _, m := range sitetest.Outbox(t, env.st) {
			if m[0] == booking.KindMoved && m[1] == "amira@example.com" {
				moved = append(moved, m[2])
			}
		}
		if len(moved) != 1 || !strings.Contains(moved[0], when) || !strings.Contains(moved[0], was) {
			t.Errorf("the visitor's \"moved\" mail (want the new time %q and the old one %q): %q", when, was, moved)
		}
		// The team moved it, and the mail says so, not "as you asked".
		if len(moved) == 1 && (!strings.Contains(moved[0], "Notre équipe a déplacé votre consultation") || strings.Contains(moved[0], "Comme vous l’avez demandé")) {
			t.Errorf("the visitor's \"moved\" mail does not say that the team moved it: %q", moved[0])
		}
		if n := sitetest.Count(t, env.st, `SELECT count(*) FROM outbox WHERE kind = ?`, booking.KindMovedNotify); n != 1 {
			t.Errorf("%d notices of the move to the consultancy", n)
		}
		var detail string
		if err := env.st.QueryRowContext(context.Background(), `SELECT detail FROM staff_audit WHERE action = 'booking-move' AND actor = 'ops@northbeam.test'`).Scan(&detail); err != nil ||
			detail != "2027-06-08 09:00 → 2027-06-08 11:00" {
			t.Errorf("the move's audit entry: %q %v", detail, err)
		}
		// Within the minimum notice, as for the visitor: refused.
		// (A request between the two steps keeps the session from its idle timeout.)
		benv.setNow(monday7am.Add(10 * time.Hour))
		env.do(t, "GET", "/staff/api/me", "", cookie)
		benv.setNow(monday7am.Add(20 * time.Hour))
		if rec := env.do(t, "POST", target, `{"start":"`+tuesdayAt(t, "14:00").Format(time.RFC3339)+`"}`, cookie); rec.Code != http.StatusConflict || decodeAPIError(t, rec).Code != "too_late" {
			t.Errorf("a move within the minimum notice: %d %s", rec.Code, rec.Body)
		}
	})
}

// agendaFirst returns the first consultation of the agenda.
func agendaFirst(t *testing.T, env *staffEnv, cookie string) staffBooking {
	t.Helper()
	agenda := staffJSON[staffBookings](t, env.do(t, "GET", "/staff/api/bookings", "", cookie))
	if len(agenda.Days) == 0 || len(agenda.Days[0].Bookings) == 0 {
		t.Fatalf("agenda %+v", agenda)
	}
	return agenda.Days[0].Bookings[0]
}

// A consultation booked by hand for someone who called in: the visitor
// gets the confirmation with the invite in their language, the booking
// says who made it, the audit log too; the visitor's rules hold.
func TestStaffBooksByHand(t *testing.T) {
	forEachBackend(t, func(t *testing.T, backend store.Backend) {
		_, env, cookie := newStaffBookingEnv(t, backend)
		body := `{"service":"discovery","start":"` + tuesdayAt(t, "10:00").Format(time.RFC3339) +
			`","name":"Jürgen Weiß","email":"juergen@example.com","timeZone":"Europe/Berlin","lang":"` + sitetest.OtherAt(t, 1).Code + `"}`
		rec := env.do(t, "POST", "/staff/api/bookings", body, cookie)
		b := staffJSON[map[string]staffBooking](t, rec)["booking"]
		if rec.Code != http.StatusCreated || b.Name != "Jürgen Weiß" || b.BookedBy != "ops@northbeam.test" || b.Status != "upcoming" {
			t.Fatalf("booked by hand: %d %+v %s", rec.Code, b, rec.Body)
		}
		if n := sitetest.Count(t, env.st, `SELECT count(*) FROM outbox WHERE kind = ? AND to_addr = 'juergen@example.com' AND lang = ?`, booking.KindConfirmation, sitetest.OtherAt(t, 1).Code); n != 1 {
			t.Errorf("%d confirmations to the caller in their language, want 1", n)
		}
		if n := sitetest.Count(t, env.st, `SELECT count(*) FROM outbox_attachments a JOIN outbox o ON o.id = a.outbox_id WHERE o.kind = ? AND a.content_type LIKE 'text/calendar%'`, booking.KindConfirmation); n != 1 {
			t.Errorf("the confirmation carries %d invites", n)
		}
		if n := sitetest.Count(t, env.st, `SELECT count(*) FROM staff_audit WHERE action = 'booking-by-staff' AND subject = ?`, strconv.FormatInt(b.ID, 10)); n != 1 {
			t.Errorf("%d audit entries for the booking", n)
		}
		// The same time again: taken; no name: a field error in the member's language.
		if rec := env.do(t, "POST", "/staff/api/bookings", body, cookie); rec.Code != http.StatusConflict || decodeAPIError(t, rec).Code != "slot_taken" {
			t.Errorf("the same time twice: %d %s", rec.Code, rec.Body)
		}
		noName := strings.Replace(body, `"name":"Jürgen Weiß",`, "", 1)
		if rec := env.do(t, "POST", "/staff/api/bookings", noName, cookie); rec.Code != http.StatusUnprocessableEntity || decodeAPIError(t, rec).Fields["name"] == "" {
			t.Errorf("no name: %d %s", rec.Code, rec.Body)
		}
		if rec := env.do(t, "POST", "/staff/api/bookings", `{"service":`, cookie); rec.Code != http.StatusBadRequest {
			t.Errorf("a body that is no JSON: %d", rec.Code)
		}
	})
}

// A consultation booked by hand where the service allows a phone or a
// video call: the member's choice decides, a phone call needs the number
// (in the member's language when missing), a video call makes its room.
func TestStaffBooksByHandPhoneOrVideo(t *testing.T) {
	const room = "https://meet.example.test/Northbeam-"
	fixture := strings.Replace(sitetest.BookingFixture, `"discovery": {"minutes": 15}`,
		`"discovery": {"minutes": 15, "meeting": {"type": "phone-or-video", "roomBase": "`+room+`"}}`, 1)
	forEachBackend(t, func(t *testing.T, backend store.Backend) {
		_, env, cookie := newStaffBookingEnvWith(t, backend, fixture)
		body := func(at, extra string) string {
			return `{"service":"discovery","start":"` + tuesdayAt(t, at).Format(time.RFC3339) +
				`","name":"Jürgen Weiß","email":"juergen@example.com","timeZone":"Europe/Berlin","lang":"en"` + extra + `}`
		}
		for _, c := range []struct{ name, extra, field string }{
			{"neither a choice nor a number", ``, "meeting"},
			{"a phone call without a number", `,"meeting":"phone"`, "phone"},
			{"a video call with a number nobody will call", `,"meeting":"video","phone":"+49 30 901820"`, "phone"},
		} {
			rec := env.do(t, "POST", "/staff/api/bookings", body("10:00", c.extra), cookie)
			if rec.Code != http.StatusUnprocessableEntity || decodeAPIError(t, rec).Fields[c.field] == "" {
				t.Errorf("%s: %d %s, want 422 at %s", c.name, rec.Code, rec.Body, c.field)
			}
		}
		rec := env.do(t, "POST", "/staff/api/bookings", body("10:00", `,"meeting":"video"`), cookie)
		video := staffJSON[map[string]staffBooking](t, rec)["booking"]
		if rec.Code != http.StatusCreated || !strings.HasPrefix(video.Meeting, room) || len(video.Meeting) == len(room) || video.Phone != "" {
			t.Errorf("a video call by hand: %d %+v, want its own room and no phone", rec.Code, video)
		}
		rec = env.do(t, "POST", "/staff/api/bookings", body("11:00", `,"meeting":"phone","phone":"+49 30 901820"`), cookie)
		phone := staffJSON[map[string]staffBooking](t, rec)["booking"]
		if rec.Code != http.StatusCreated || phone.Phone == "" || phone.Meeting != "" {
			t.Errorf("a phone call by hand: %d %+v, want the number and no room", rec.Code, phone)
		}
	})
}

// A no-show is marked once the consultation has begun, taken back, and
// shown in the bookings' CSV.
func TestStaffMarksANoShow(t *testing.T) {
	forEachBackend(t, func(t *testing.T, backend store.Backend) {
		benv, env, cookie := newStaffBookingEnv(t, backend)
		bookSlot(t, benv, validBooking(t, "09:00", sitetest.OtherAt(t, 0).Code))
		id := agendaFirst(t, env, cookie).ID
		target := "/staff/api/bookings/" + strconv.FormatInt(id, 10) + "/no-show"
		if rec := env.do(t, "POST", target, `{"noShow":true}`, cookie); rec.Code != http.StatusConflict || decodeAPIError(t, rec).Code != "not_yet" {
			t.Errorf("a no-show before the start: %d %s", rec.Code, rec.Body)
		}
		// Two days earlier, it is over.
		execSQL(t, env.st, `UPDATE bookings SET start_at = start_at - ?, end_at = end_at - ?, busy_until = busy_until - ?`,
			int64(48*time.Hour/time.Millisecond), int64(48*time.Hour/time.Millisecond), int64(48*time.Hour/time.Millisecond))
		rec := env.do(t, "POST", target, `{"noShow":true}`, cookie)
		if b := staffJSON[map[string]staffBooking](t, rec)["booking"]; b.Status != "noShow" || b.NoShow == nil {
			t.Errorf("marked: %d %+v", rec.Code, b)
		}
		csvRec := env.do(t, "GET", "/staff/export/bookings.csv", "", cookie)
		if !strings.Contains(csvRec.Body.String(), "No-show") {
			t.Errorf("the CSV does not say no-show:\n%s", csvRec.Body)
		}
		rec = env.do(t, "POST", target, `{"noShow":false}`, cookie)
		if b := staffJSON[map[string]staffBooking](t, rec)["booking"]; b.Status != "past" || b.NoShow != nil {
			t.Errorf("taken back: %+v", b)
		}
		if n := sitetest.Count(t, env.st, `SELECT count(*) FROM staff_audit WHERE action IN ('no-show', 'no-show-undone') AND subject = ?`, strconv.FormatInt(id, 10)); n != 2 {
			t.Errorf("%d audit entries for the no-show and its undoing", n)
		}
	})
}

// A note on a message and one on a booking: shown to staff, in the audit
// log with its text; gone, with its text in the log, when the person is
// erased.
func TestStaffNotes(t *testing.T) {
	forEachBackend(t, func(t *testing.T, backend store.Backend) {
		benv, env, cookie := newStaffBookingEnv(t, backend)
		bookSlot(t, benv, validBooking(t, "09:00", sitetest.OtherAt(t, 0).Code))
		id := strconv.FormatInt(agendaFirst(t, env, cookie).ID, 10)
		ref := "44444444-4444-4444-8444-444444444444"
		if _, err := contact.Save(context.Background(), env.st, contact.Record{Ref: ref, CreatedAt: env.clock.Now(), Name: "Amira", Email: "amira@example.com", Message: "Salut", Lang: sitetest.OtherAt(t, 0).Code}, nil); err != nil {
			t.Fatal(err)
		}
		type notes struct {
			Notes []staffNote `json:"notes"`
		}
		rec := env.do(t, "POST", "/staff/api/messages/"+ref+"/notes", `{"text":"Called back, wants a quote – سأرسل العرض غدًا"}`, cookie)
		if got := staffJSON[notes](t, rec).Notes; rec.Code != http.StatusCreated || len(got) != 1 || got[0].Author != "ops@northbeam.test" {
			t.Fatalf("a note on the message: %d %+v", rec.Code, got)
		}
		env.do(t, "POST", "/staff/api/bookings/"+id+"/notes", `{"text":"Prefers mornings."}`, cookie)
		if got := staffJSON[notes](t, env.do(t, "GET", "/staff/api/bookings/"+id+"/notes", "", cookie)).Notes; len(got) != 1 || got[0].Text != "Prefers mornings." {
			t.Errorf("the booking's notes: %+v", got)
		}
		audit := staffJSON[struct {
			Entries []staffAuditEntry `json:"entries"`
		}](t, env.do(t, "GET", "/staff/api/audit", "", cookie))
		if e := audit.Entries[0]; e.Action != "note" || e.Subject != "booking "+id || e.Detail != "Prefers mornings." {
			t.Errorf("the newest audit entry: %+v", e)
		}
		for _, bad := range []string{`{"text":"   "}`, `{"text":"` + strings.Repeat("x", 2001) + `"}`} {
			if rec := env.do(t, "POST", "/staff/api/bookings/"+id+"/notes", bad, cookie); rec.Code != http.StatusUnprocessableEntity {
				t.Errorf("note %.20s: %d", bad, rec.Code)
			}
		}
		if rec := env.do(t, "POST", "/staff/api/messages/nope/notes", `{"text":"x"}`, cookie); rec.Code != http.StatusNotFound {
			t.Errorf("a note on nothing: %d", rec.Code)
		}
		env.do(t, "POST", "/staff/api/privacy/erase", `{"email":"amira@example.com","confirm":"amira@example.com"}`, cookie)
		if n := sitetest.Count(t, env.st, `SELECT count(*) FROM staff_notes`) + sitetest.Count(t, env.st, `SELECT count(*) FROM staff_audit WHERE detail LIKE '%mornings%' OR detail LIKE '%quote%'`); n != 0 {
			t.Errorf("%d notes about the erased person left", n)
		}
	})
}

// Unread messages are counted until a member opens one; the week shows
// its seven days with their consultations.
func TestStaffUnreadAndWeek(t *testing.T) {
	forEachBackend(t, func(t *testing.T, backend store.Backend) {
		benv, env, cookie := newStaffBookingEnv(t, backend)
		ref := "55555555-5555-4555-8555-555555555555"
		if _, err := contact.Save(context.Background(), env.st, contact.Record{Ref: ref, CreatedAt: env.clock.Now(), Name: "Nina", Email: "nina@example.com", Message: "Hallo", Lang: sitetest.OtherAt(t, 1).Code}, nil); err != nil {
			t.Fatal(err)
		}
		unread := func() int {
			return staffJSON[map[string]int](t, env.do(t, "GET", "/staff/api/counts", "", cookie))["unread"]
		}
		if n := unread(); n != 1 {
			t.Errorf("%d unread before it is opened", n)
		}
		rec := env.do(t, "POST", "/staff/api/messages/"+ref+"/read", `{"read":true}`, cookie)
		if m := staffJSON[map[string]staffMessage](t, rec)["message"]; !m.Read || unread() != 0 {
			t.Errorf("read: %+v, %d unread", m, unread())
		}
		env.do(t, "POST", "/staff/api/messages/"+ref+"/read", `{"read":false}`, cookie)
		if n := unread(); n != 1 {
			t.Errorf("%d unread after marking it unread again", n)
		}

		bookSlot(t, benv, validBooking(t, "09:00", sitetest.OtherAt(t, 0).Code))
		week := staffJSON[staffWeek](t, env.do(t, "GET", "/staff/api/week?date=2027-06-10", "", cookie))
		if len(week.Days) != 7 || week.Days[0].Date != "2027-06-07" || week.Days[6].Date != "2027-06-13" || week.Prev != "2027-05-31" || week.Next != "2027-06-14" {
			t.Fatalf("the week: %+v", week)
		}
		if len(week.Days[1].Bookings) != 1 || week.Days[1].Bookings[0].Name != "Amira Haddad" {
			t.Errorf("Tuesday: %+v", week.Days[1])
		}
		if rec := env.do(t, "GET", "/staff/api/week?date=soon", "", cookie); rec.Code != http.StatusBadRequest {
			t.Errorf("a week that is no date: %d", rec.Code)
		}
	})
}
