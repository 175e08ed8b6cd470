package handlers

import (
	"net/http"
	"strings"
	"testing"

	"github.com/northbeam/site/internal/booking"
	"github.com/northbeam/site/internal/sitetest"
	"github.com/northbeam/site/internal/store"
)

// TestCancelWithAReason: the cancel page may say why; a reason too long is
// a 422 in the page's language that cancels nothing, and a reason given is
// kept with the booking and told to the consultancy.
func TestCancelWithAReason(t *testing.T) {
	env := newBookingEnv(t, sitetest.BookingFixture, &monday7am)
	bookSlot(t, env, validBooking(t, "10:00", sitetest.OtherAt(t, 0).Code))
	token := sitetest.EmailedCancelToken(t, env.store, sitetest.OtherAt(t, 0).Prefix)
	rec := sitetest.PostJSON(t, env.handler, "/api/bookings/cancel", map[string]string{"token": token, "lang": sitetest.OtherAt(t, 0).Code, "reason": strings.Repeat("é", 501)})
	if e := decodeAPIError(t, rec); rec.Code != http.StatusUnprocessableEntity || e.Fields["reason"] != sitetest.Site(t).Locales.T(sitetest.OtherAt(t, 0).Code, booking.KeyCancelReason) {
		t.Errorf("a reason of 501 characters: %d %+v", rec.Code, e)
	}
	if n := sitetest.Count(t, env.store, `SELECT count(*) FROM bookings WHERE cancelled_at IS NOT NULL`); n != 0 {
		t.Fatalf("%d bookings cancelled by a refused post", n)
	}
	rec = sitetest.PostJSON(t, env.handler, "/api/bookings/cancel", map[string]string{"token": token, "lang": sitetest.OtherAt(t, 0).Code, "reason": "Nous avons trouvé une autre date."})
	if rec.Code != http.StatusOK {
		t.Fatalf("cancel: %d %s", rec.Code, rec.Body.String())
	}
	if n := sitetest.Count(t, env.store, `SELECT count(*) FROM bookings WHERE cancel_reason = 'Nous avons trouvé une autre date.' AND cancelled_at IS NOT NULL`); n != 1 {
		t.Errorf("the reason is not kept with the cancelled booking (%d rows)", n)
	}
	var notice string
	for _, m := range sitetest.Outbox(t, env.store) {
		if m[0] == booking.KindCancelNotify {
			notice = m[2]
		}
	}
	if !strings.Contains(notice, "Their reason:\n> Nous avons trouvé une autre date.") {
		t.Errorf("the consultancy's notice:\n%s", notice)
	}
}

// TestStaffSeesTheCancelReason: the workspace's booking shows why its
// visitor cancelled.
func TestStaffSeesTheCancelReason(t *testing.T) {
	benv, env, cookie := newStaffBookingEnv(t, store.SQLite)
	bookSlot(t, benv, validBooking(t, "09:00", sitetest.OtherAt(t, 1).Code))
	token := sitetest.EmailedCancelToken(t, benv.store, sitetest.OtherAt(t, 1).Prefix)
	if rec := sitetest.PostJSON(t, benv.handler, "/api/bookings/cancel", map[string]string{"token": token, "reason": "Termin doppelt gebucht."}); rec.Code != http.StatusOK {
		t.Fatalf("cancel: %d %s", rec.Code, rec.Body.String())
	}
	got := staffJSON[map[string]staffBooking](t, env.do(t, "GET", "/staff/api/bookings/1", "", cookie))["booking"]
	if got.CancelReason != "Termin doppelt gebucht." || got.Cancelled == nil {
		t.Errorf("the workspace's booking: %+v", got)
	}
}
