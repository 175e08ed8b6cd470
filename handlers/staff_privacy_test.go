package handlers

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/northbeam/site/internal/contact"
	"github.com/northbeam/site/internal/staff"
	"github.com/northbeam/site/internal/store"
)

// TestStaffPrivacyKeepsPeopleApart: over HTTP, a privacy search for
// straße@ never finds strasse@'s data (nor ſam@ sam@'s, ﬀoo@ ffoo@'s, ς@
// σ@'s, the Kelvin sign's kevin@'s); spellings of one address that differ
// by case are listed as typed, and the download and the erasure take only
// the ones the member confirmed, refusing with a 422 when several are
// stored and none is confirmed, or when one confirmed is another address.
func TestStaffPrivacyKeepsPeopleApart(t *testing.T) {
	forEachBackend(t, func(t *testing.T, backend store.Backend) {
		env := newStaffEnv(t, backend, staffOptions{})
		ctx := context.Background()
		cookie := env.signIn(t, "ada@northbeam.test")
		received := env.clock.Now().Add(-time.Hour)
		people := []struct{ name, email string }{
			{"Evil Ann", "straße@example.de"}, {"Zed", "strasse@example.de"},
			{"Sam Long", "ſam@example.com"}, {"Sam", "sam@example.com"},
			{"Foo Ligature", "ﬀoo@example.com"}, {"Foo", "ffoo@example.com"},
			{"Final Sigma", "ς@example.gr"}, {"Sigma", "σ@example.gr"},
			{"Kelvin", "\u212Aevin@example.com"}, {"Kevin", "kevin@example.com"},
			{"Zoë Capital", "Zoë@Example.com"}, {"Zoë Small", "zoë@example.com"},
		}
		for _, p := range people {
			if _, err := contact.Save(ctx, env.st, contact.Record{Ref: uuid.NewString(), CreatedAt: received, Name: p.name, Email: p.email,
				Message: "Message of " + p.name, Lang: "en"}, nil); err != nil {
				t.Fatal(err)
			}
		}
		search := func(email string) staff.Person {
			t.Helper()
			body, _ := json.Marshal(map[string]string{"email": email})
			rec := env.do(t, "POST", "/staff/api/privacy/search", string(body), cookie)
			if rec.Code != http.StatusOK {
				t.Fatalf("search %q: %d %s", email, rec.Code, rec.Body)
			}
			return staffJSON[map[string]staff.Person](t, rec)["person"]
		}
		for _, p := range people[:10] {
			found := search(p.email)
			if len(found.Messages) != 1 || found.Messages[0].Name != p.name || len(found.Addresses) != 1 {
				t.Errorf("the search for %q finds %+v", p.email, found.Messages)
			}
		}
		zoe := search("ZOË@example.com")
		var spellings []string
		for _, a := range zoe.Addresses {
			spellings = append(spellings, a.Email)
		}
		if !slices.Equal(spellings, []string{"Zoë@Example.com", "zoë@example.com"}) || len(zoe.Messages) != 2 {
			t.Errorf("the spellings of zoë@: %q, %d messages", spellings, len(zoe.Messages))
		}

		download := func(form url.Values) *httptest.ResponseRecorder {
			req := httptest.NewRequest("POST", "/staff/export/person.json", strings.NewReader(form.Encode()))
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			req.Header.Set("Sec-Fetch-Site", "same-origin")
			req.Header.Set("Cookie", cookie)
			rec := httptest.NewRecorder()
			env.h.ServeHTTP(rec, req)
			return rec
		}
		refused := func(what string, rec *httptest.ResponseRecorder) {
			t.Helper()
			if e := decodeAPIError(t, rec); rec.Code != http.StatusUnprocessableEntity || e.Fields["addresses"] == "" ||
				strings.HasPrefix(e.Fields["addresses"], "errors.") {
				t.Errorf("%s: %d %+v, want 422 with a message on the addresses", what, rec.Code, e)
			}
		}
		refused("a download of two spellings, none confirmed", download(url.Values{"email": {"zoë@example.com"}}))
		refused("a download confirming another address", download(url.Values{"email": {"zoë@example.com"}, "address": {"zoe@example.com"}}))
		rec := download(url.Values{"email": {"zoë@example.com"}, "address": {"Zoë@Example.com"}})
		if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "Message of Zoë Capital") || strings.Contains(rec.Body.String(), "Zoë Small") {
			t.Errorf("the download of Zoë@Example.com alone: %d %s", rec.Code, rec.Body)
		}
		rec = download(url.Values{"email": {"strasse@example.de"}})
		if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "Message of Zed") || strings.Contains(rec.Body.String(), "Evil Ann") {
			t.Errorf("the download of strasse@example.de: %d %s", rec.Code, rec.Body)
		}

		refused("an erasure of two spellings, none confirmed",
			env.do(t, "POST", "/staff/api/privacy/erase", `{"email":"zoë@example.com","confirm":"zoë@example.com"}`, cookie))
		refused("an erasure of strasse@ confirming straße@",
			env.do(t, "POST", "/staff/api/privacy/erase", `{"email":"strasse@example.de","confirm":"strasse@example.de","addresses":["straße@example.de"]}`, cookie))
		rec = env.do(t, "POST", "/staff/api/privacy/erase", `{"email":"zoë@example.com","confirm":"ZOË@example.com","addresses":["zoë@example.com"]}`, cookie)
		if e := staffJSON[map[string]staff.Erased](t, rec)["erased"]; rec.Code != http.StatusOK || e.Messages != 1 {
			t.Errorf("erasing zoë@example.com alone: %d %+v", rec.Code, e)
		}
		rec = env.do(t, "POST", "/staff/api/privacy/erase", `{"email":"straße@example.de","confirm":"straße@example.de"}`, cookie)
		if e := staffJSON[map[string]staff.Erased](t, rec)["erased"]; rec.Code != http.StatusOK || e.Messages != 1 {
			t.Errorf("erasing straße@example.de: %d %+v", rec.Code, e)
		}
		for email, name := range map[string]string{"zoë@example.com": "Zoë Capital", "strasse@example.de": "Zed"} {
			if left := search(email); len(left.Messages) != 1 || left.Messages[0].Name != name {
				t.Errorf("after the erasures, %q finds %+v, want %s's message alone", email, left.Messages, name)
			}
		}
	})
}
