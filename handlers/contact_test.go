package handlers

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"html"
	"log/slog"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/northbeam/site/internal/contact"
	"github.com/northbeam/site/internal/mail"
	"github.com/northbeam/site/internal/mail/mailtest"
	"github.com/northbeam/site/internal/sitebuild"
	"github.com/northbeam/site/internal/sitetest"
	"github.com/northbeam/site/internal/store"
	"github.com/northbeam/site/internal/store/storetest"
	"github.com/northbeam/site/internal/testwait"
)

// contactEnv is the whole site with a contact service on a fresh database.
type contactEnv struct {
	h     http.Handler
	st    *store.Store
	clock *sitetest.Clock
}

type contactOptions struct {
	rate        RateLimit
	minFillTime time.Duration
	queued      func()
	log         *slog.Logger  // default sitetest.QuietLog()
	backend     store.Backend // default SQLite
}

// forEachBackend runs test once per database back-end, as a subtest.
func forEachBackend(t *testing.T, test func(t *testing.T, backend store.Backend)) {
	t.Helper()
	for _, b := range storetest.Backends {
		t.Run(string(b), func(t *testing.T) { test(t, b) })
	}
}

// newContactEnv opens a database in a temporary directory and serves the
// built site with a contact service on it.
func newContactEnv(t testing.TB, opts contactOptions) *contactEnv {
	t.Helper()
	if opts.backend == "" {
		opts.backend = store.SQLite
	}
	st := storetest.Open(t, opts.backend)
	svc := sitetest.ContactService(t, st, opts.minFillTime, opts.queued)
	clock := sitetest.NewClock(time.Now())
	log := opts.log
	if log == nil {
		log = sitetest.QuietLog()
	}
	srv := NewServer(sitetest.Site(t), Services{Log: log, Store: st, Contact: svc, Now: clock.Now, ContactRate: opts.rate})
	return &contactEnv{h: New(srv), st: st, clock: clock}
}

// post sends body to /api/contact with a content type and header pairs.
func (env *contactEnv) post(t testing.TB, contentType, body string, header ...string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(http.MethodPost, "/api/contact", strings.NewReader(body))
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	env.h.ServeHTTP(rec, req)
	return rec
}

// contactFields is a contact form as a test posts it; a nil value leaves
// the field out.
type contactFields map[string]any

// humanForm is a valid form filled in at human speed.
func humanForm(lang string) contactFields {
	return contactFields{
		"name":        "Ada Lovelace",
		"email":       "ada@example.com",
		"message":     "We would like to modernise our platform.",
		"service":     "platform-engineering",
		"lang":        lang,
		"website":     "",
		"rendered_at": time.Now().Add(-time.Minute).UnixMilli(),
	}
}

func (f contactFields) with(pairs ...any) contactFields {
	out := contactFields{}
	for k, v := range f {
		out[k] = v
	}
	for i := 0; i+1 < len(pairs); i += 2 {
		if pairs[i+1] == nil {
			delete(out, pairs[i].(string))
		} else {
			out[pairs[i].(string)] = pairs[i+1]
		}
	}
	return out
}

func (f contactFields) json() string {
	b, _ := json.Marshal(map[string]any(f))
	return string(b)
}

func (f contactFields) form() string {
	v := url.Values{}
	for k, x := range f {
		v.Set(k, fmt.Sprint(x))
	}
	return v.Encode()
}

// decodeAPIError reads a JSON error answer.
func decodeAPIError(t testing.TB, rec *httptest.ResponseRecorder) apiErrorBody {
	t.Helper()
	var body apiError
	if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
		t.Fatalf("not a JSON error (%v): %s", err, rec.Body)
	}
	return body.Error
}

// pageField finds a field of the contact form in a page: its value and
// the text of the error it is tied to by aria-describedby.
func pageField(t testing.TB, page, name string) (value, errorText string) {
	t.Helper()
	tag := regexp.MustCompile(`<(input|select|textarea)\b[^>]*\bname="` + regexp.QuoteMeta(name) + `"[^>]*>`).FindStringSubmatch(page)
	if tag == nil {
		t.Fatalf("no field %q in the page", name)
	}
	switch tag[1] {
	case "input":
		if m := regexp.MustCompile(`\bvalue="([^"]*)"`).FindStringSubmatch(tag[0]); m != nil {
			value = m[1]
		}
	case "textarea":
		rest := page[strings.Index(page, tag[0])+len(tag[0]):]
		value, _, _ = strings.Cut(rest, "</textarea>")
	case "select":
		rest := page[strings.Index(page, tag[0]):]
		rest, _, _ = strings.Cut(rest, "</select>")
		if m := regexp.MustCompile(`<option value="([^"]*)" selected=""`).FindStringSubmatch(rest); m != nil {
			value = m[1]
		}
	}
	if m := regexp.MustCompile(`\baria-describedby="([^"]+)"`).FindStringSubmatch(tag[0]); m != nil {
		if !strings.Contains(tag[0], `aria-invalid="true"`) {
			t.Errorf("field %s describes an error but is not aria-invalid", name)
		}
		p := regexp.MustCompile(`<p id="` + regexp.QuoteMeta(m[1]) + `"[^>]*>([^<]*)</p>`).FindStringSubmatch(page)
		if p == nil {
			t.Fatalf("field %s points to %s, which is not in the page", name, m[1])
		}
		errorText = html.UnescapeString(p[1])
	}
	// As a browser reads the page: a line end is "\n".
	return strings.ReplaceAll(html.UnescapeString(value), "\r\n", "\n"), errorText
}

// pageStatus is the text of the form's status line.
func pageStatus(page string) string {
	m := regexp.MustCompile(`<p id="contact-status"[^>]*>([^<]*)</p>`).FindStringSubmatch(page)
	if m == nil {
		return "(no status line)"
	}
	return html.UnescapeString(m[1])
}

// contactRule is one way to get a field wrong.
type contactRule struct {
	name  string
	field string
	value any
	key   string // the locale key of the error
}

var contactRules = []contactRule{
	{"name missing", "name", nil, contact.KeyName},
	{"name empty", "name", "", contact.KeyName},
	{"name only spaces", "name", " \t\u00a0 ", contact.KeyName},
	{"name of 101 characters", "name", strings.Repeat("é", 101), contact.KeyName},
	{"name with a line break", "name", "Ada\r\nBcc: eve@attacker.test", contact.KeyName},
	{"name with a line separator", "name", "Ada\u2028Bcc: eve@attacker.test", contact.KeyName},
	{"email missing", "email", nil, contact.KeyEmail},
	{"email without @", "email", "ada.example.com", contact.KeyEmail},
	{"email without a dot in the domain", "email", "ada@localhost", contact.KeyEmail},
	{"email with a display name", "email", "Ada <ada@example.com>", contact.KeyEmail},
	{"email with a line break", "email", "ada@example.com\r\nBcc: eve@attacker.test", contact.KeyEmail},
	{"email of 255 characters", "email", strings.Repeat("a", 64) + "@" + strings.Repeat("b", 63) + "." + strings.Repeat("c", 63) + "." + strings.Repeat("d", 58) + ".com", contact.KeyEmail},
	{"message missing", "message", nil, contact.KeyMessage},
	{"message of 9 characters", "message", "Too short", contact.KeyMessage},
	{"message of spaces", "message", "          \n          ", contact.KeyMessage},
	{"message of 5001 characters", "message", strings.Repeat("م", 5001), contact.KeyMessage},
	{"message with an escape sequence", "message", "Hello there \x1b[2J, we need help.", contact.KeyMessage},
	{"service unknown", "service", "web-design", contact.KeyService},
	{"unknown field", "company", "Acme", contact.KeyUnknownField},
}

// TestContactValidationInEveryLanguage posts each invalid form as JSON (in
// the language of its lang field, or of Accept-Language when it has none)
// and as an HTML form, in every language, each on a fresh database.
func TestContactValidationInEveryLanguage(t *testing.T) {
	s := sitetest.Site(t)
	if n := len(strings.Repeat("a", 64) + "@" + strings.Repeat("b", 63) + "." + strings.Repeat("c", 63) + "." + strings.Repeat("d", 58) + ".com"); n != 255 {
		t.Fatalf("the long address has %d characters", n)
	}
	for _, lang := range s.Info.Languages {
		for _, rule := range contactRules {
			form := humanForm(lang.Code).with(rule.field, rule.value)
			want := s.Locales.T(lang.Code, rule.key)
			t.Run(lang.Code+"/json/"+rule.name, func(t *testing.T) {
				env := newContactEnv(t, contactOptions{})
				rec := env.post(t, "application/json", form.json())
				assertInvalidJSON(t, s, rec, lang.Code, rule.field, want)
				assertNoRows(t, env)
			})
			t.Run(lang.Code+"/json-accept-language/"+rule.name, func(t *testing.T) {
				env := newContactEnv(t, contactOptions{})
				rec := env.post(t, "application/json; charset=utf-8", form.with("lang", nil).json(), "Accept-Language", lang.Tag+"-XX;q=0.9, "+sitetest.Unlisted+";q=0.5")
				assertInvalidJSON(t, s, rec, lang.Code, rule.field, want)
				assertNoRows(t, env)
			})
			t.Run(lang.Code+"/form/"+rule.name, func(t *testing.T) {
				env := newContactEnv(t, contactOptions{})
				posted := form
				if rule.value == nil {
					posted = form.with(rule.field, "") // a form always sends its fields
				}
				rec := env.post(t, "application/x-www-form-urlencoded", posted.form())
				if rec.Code != http.StatusUnprocessableEntity || !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/html") {
					t.Fatalf("status %d, %s", rec.Code, rec.Header().Get("Content-Type"))
				}
				page := rec.Body.String()
				if m := htmlTag.FindStringSubmatch(page); m == nil || m[1] != lang.Tag || m[2] != lang.Dir {
					t.Errorf("html tag %v, want the page in %s", m, lang.Code)
				}
				if got := pageStatus(page); got != s.Locales.T(lang.Code, "validation.invalid") {
					t.Errorf("status line %q", got)
				}
				for _, f := range []string{"name", "email", "message", "service"} {
					value, errText := pageField(t, page, f)
					if f == rule.field {
						if errText != want {
							t.Errorf("%s: error %q, want %q", f, errText, want)
						}
					} else if errText != "" {
						t.Errorf("%s: unexpected error %q", f, errText)
					}
					// A select shows only the values it offers.
					if typed := fmt.Sprint(posted[f]); value != strings.ReplaceAll(typed, "\r\n", "\n") && rule.key != contact.KeyService {
						t.Errorf("%s: the page shows %q, the visitor typed %q", f, value, typed)
					}
				}
				assertNoScript(t, page)
				assertNoRows(t, env)
			})
		}
	}
}

func assertInvalidJSON(t *testing.T, s *sitebuild.Build, rec *httptest.ResponseRecorder, lang, field, want string) {
	t.Helper()
	if rec.Code != http.StatusUnprocessableEntity {
		t.Fatalf("status %d: %s", rec.Code, rec.Body)
	}
	e := decodeAPIError(t, rec)
	if e.Code != "invalid" || e.Message != s.Locales.T(lang, "validation.invalid") {
		t.Errorf("error %q %q", e.Code, e.Message)
	}
	if len(e.Fields) != 1 || e.Fields[field] != want {
		t.Errorf("fields %v, want {%s: %q}", e.Fields, field, want)
	}
}

func assertNoRows(t *testing.T, env *contactEnv) {
	t.Helper()
	if n := sitetest.Count(t, env.st, `SELECT count(*) FROM messages`) + sitetest.Count(t, env.st, `SELECT count(*) FROM outbox`); n != 0 {
		t.Errorf("%d rows stored for a refused post", n)
	}
}

func assertNoScript(t *testing.T, page string) {
	t.Helper()
	if strings.Contains(page, `<script type="module"`) || strings.Contains(page, `rel="modulepreload"`) {
		t.Error("a form's result page must not start the client app: its address is the endpoint, not the page")
	}
}

// TestContactPosts covers the endpoint's answers, each on a fresh
// database, and checks that every 2xx left its message behind and nothing
// else did.
func TestContactPosts(t *testing.T) { forEachBackend(t, testContactPosts) }

func testContactPosts(t *testing.T, backend store.Backend) {
	s := sitetest.Site(t)
	const (
		jsonType = "application/json"
		formType = "application/x-www-form-urlencoded"
	)
	long := humanForm(sitetest.Default(t).Code).with("message", strings.Repeat("x", 70<<10))
	for _, tc := range []struct {
		name        string
		contentType string
		body        string
		header      []string
		status      int
		code        string        // of a JSON error
		lang        string        // of the answer
		spam        string        // the stored spam reason of a 2xx, "" for a person
		page        string        // a text the answering page shows
		minFill     time.Duration // the least time a person takes, when not the default
	}{
		{name: "JSON", contentType: jsonType, body: humanForm(sitetest.Default(t).Code).json(), status: 201},
		{name: "JSON in another language", contentType: jsonType, body: humanForm(sitetest.OtherAt(t, 1).Code).json(), status: 201, lang: sitetest.OtherAt(t, 1).Code},
		{name: "JSON without lang: the language of Accept-Language", contentType: jsonType, body: humanForm(sitetest.Default(t).Code).with("lang", nil).json(), header: []string{"Accept-Language", sitetest.OtherAt(t, 2).Code + "-EG, " + sitetest.Default(t).Code + ";q=0.8"}, status: 201, lang: sitetest.OtherAt(t, 2).Code},
		{name: "JSON without the optional fields", contentType: jsonType, body: humanForm(sitetest.OtherAt(t, 0).Code).with("service", nil, "website", nil, "rendered_at", nil).json(), status: 201, lang: sitetest.OtherAt(t, 0).Code},
		{name: "JSON at the upper limits", contentType: jsonType, body: humanForm(sitetest.Default(t).Code).with("name", strings.Repeat("n", 100), "message", strings.Repeat("🙂", 5000), "email", strings.Repeat("a", 64)+"@"+strings.Repeat("b", 63)+"."+strings.Repeat("c", 63)+"."+strings.Repeat("d", 57)+".com").json(), status: 201},
		{name: "JSON at the lower limits", contentType: jsonType, body: humanForm(sitetest.Default(t).Code).with("name", "A", "message", "0123456789", "email", "a@b.co").json(), status: 201},
		{name: "JSON with rendered_at as a string", contentType: jsonType, body: humanForm(sitetest.Default(t).Code).with("rendered_at", strconv.FormatInt(time.Now().Add(-time.Minute).UnixMilli(), 10)).json(), status: 201},
		{name: "form post", contentType: formType, body: humanForm(sitetest.Default(t).Code).form(), status: 201, page: "contact.sent"},
		{name: "form post in another language", contentType: formType, body: humanForm(sitetest.OtherAt(t, 2).Code).form(), status: 201, lang: sitetest.OtherAt(t, 2).Code, page: "contact.sent"},
		{name: "form post without JavaScript: no rendered_at", contentType: formType, body: humanForm(sitetest.OtherAt(t, 1).Code).with("rendered_at", "").form(), status: 201, lang: sitetest.OtherAt(t, 1).Code, page: "contact.sent"},
		{name: "honeypot, JSON", contentType: jsonType, body: humanForm(sitetest.Default(t).Code).with("website", "https://cheap-pills.example").json(), status: 201, spam: contact.SpamHoneypot},
		{name: "honeypot, form", contentType: formType, body: humanForm(sitetest.OtherAt(t, 0).Code).with("website", "https://cheap-pills.example").form(), status: 201, lang: sitetest.OtherAt(t, 0).Code, spam: contact.SpamHoneypot, page: "contact.sent"},
		// Filled a minute before, where a person takes an hour: the table
		// is made once, and its times must not age into being human.
		{name: "filled too fast, JSON", contentType: jsonType, body: humanForm(sitetest.Default(t).Code).json(), status: 201, spam: contact.SpamTooFast, minFill: time.Hour},
		{name: "filled too fast, form", contentType: formType, body: humanForm(sitetest.OtherAt(t, 2).Code).form(), status: 201, lang: sitetest.OtherAt(t, 2).Code, spam: contact.SpamTooFast, page: "contact.sent", minFill: time.Hour},
		{name: "rendered in the future", contentType: jsonType, body: humanForm(sitetest.Default(t).Code).with("rendered_at", time.Now().Add(time.Hour).UnixMilli()).json(), status: 201, spam: contact.SpamTooFast},
		{name: "body over 64 KB, JSON", contentType: jsonType, body: long.json(), header: []string{"Accept-Language", sitetest.OtherAt(t, 1).Code}, status: 413, code: "too_large", lang: sitetest.OtherAt(t, 1).Code},
		{name: "body over 64 KB, form", contentType: formType, body: long.form(), header: []string{"Accept-Language", sitetest.OtherAt(t, 0).Code}, status: 413, lang: sitetest.OtherAt(t, 0).Code, page: "contact.error"},
		{name: "plain text", contentType: "text/plain", body: humanForm(sitetest.Default(t).Code).json(), header: []string{"Accept-Language", sitetest.OtherAt(t, 2).Code}, status: 415, code: "unsupported_type", lang: sitetest.OtherAt(t, 2).Code},
		{name: "multipart form", contentType: "multipart/form-data; boundary=x", body: "--x--", status: 415, code: "unsupported_type"},
		{name: "no content type", body: humanForm(sitetest.Default(t).Code).json(), status: 415, code: "unsupported_type"},
		{name: "JSON in another charset", contentType: "application/json; charset=iso-8859-1", body: humanForm(sitetest.Default(t).Code).json(), status: 415, code: "unsupported_type"},
		{name: "malformed JSON", contentType: jsonType, body: `{"name": "Ada"`, status: 400, code: "bad_request"},
		{name: "JSON array", contentType: jsonType, body: `[]`, status: 400, code: "bad_request"},
		{name: "JSON null", contentType: jsonType, body: `null`, status: 400, code: "bad_request"},
		{name: "two JSON objects", contentType: jsonType, body: humanForm(sitetest.Default(t).Code).json() + `{}`, status: 400, code: "bad_request"},
		{name: "a number for a name", contentType: jsonType, body: humanForm(sitetest.OtherAt(t, 0).Code).with("name", 42).json(), status: 400, code: "bad_request", lang: sitetest.OtherAt(t, 0).Code},
		{name: "field names are exact", contentType: jsonType, body: humanForm(sitetest.Default(t).Code).with("name", nil, "Name", "Ada").json(), status: 422, code: "invalid"},
		{name: "a form field sent twice", contentType: formType, body: humanForm(sitetest.OtherAt(t, 1).Code).form() + "&name=Eve", status: 400, lang: sitetest.OtherAt(t, 1).Code, page: "contact.error"},
		{name: "malformed form", contentType: formType, body: "name=%zz", status: 400, page: "contact.error"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := newContactEnv(t, contactOptions{backend: backend, minFillTime: tc.minFill})
			rec := env.post(t, tc.contentType, tc.body, tc.header...)
			if rec.Code != tc.status {
				t.Fatalf("status %d, want %d: %.300s", rec.Code, tc.status, rec.Body)
			}
			lang := tc.lang
			if lang == "" {
				lang = sitetest.Default(t).Code
			}
			if cc := rec.Header().Get("Cache-Control"); tc.status != 415 && cc != "no-store" {
				t.Errorf("Cache-Control %q: a contact answer holds what a visitor typed", cc)
			}
			switch {
			case tc.page != "":
				page := rec.Body.String()
				if got, want := pageStatus(page), s.Locales.T(lang, tc.page); !strings.HasPrefix(got, want) {
					t.Errorf("status line %q, want %q", got, want)
				}
				if m := htmlTag.FindStringSubmatch(page); m == nil || m[1] != lang {
					t.Errorf("html tag %v, want lang %s", m, lang)
				}
				assertNoScript(t, page)
				assertCompleteRender(t, s, lang, page)
			case tc.status == 201:
				var body struct {
					Message struct {
						Ref string `json:"ref"`
					} `json:"message"`
				}
				if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil || body.Message.Ref == "" {
					t.Fatalf("body %s: %v", rec.Body, err)
				}
				if n := sitetest.Count(t, env.st, `SELECT count(*) FROM messages WHERE ref = ?`, body.Message.Ref); n != 1 {
					t.Errorf("no message stored under the ref %s", body.Message.Ref)
				}
			default:
				e := decodeAPIError(t, rec)
				if e.Code != tc.code || e.Message != s.Locales.T(lang, errorCodes[tc.status][1]) {
					t.Errorf("error %q %q, want %q in %s", e.Code, e.Message, tc.code, lang)
				}
			}

			messages := sitetest.Count(t, env.st, `SELECT count(*) FROM messages`)
			if tc.status/100 != 2 {
				assertNoRows(t, env)
				return
			}
			// Every 2xx left its message behind; a bot's without mail.
			if messages != 1 {
				t.Fatalf("%d messages stored, want 1", messages)
			}
			var spam bool
			var reason, storedLang string
			if err := env.st.DB().QueryRow(`SELECT spam, spam_reason, lang FROM messages`).Scan(&spam, &reason, &storedLang); err != nil {
				t.Fatal(err)
			}
			if spam != (tc.spam != "") || reason != tc.spam || storedLang != lang {
				t.Errorf("stored spam=%v reason=%q lang=%s, want reason %q lang %s", spam, reason, storedLang, tc.spam, lang)
			}
			wantMails := 2
			if tc.spam != "" {
				wantMails = 0
			}
			if n := sitetest.Count(t, env.st, `SELECT count(*) FROM outbox`); n != wantMails {
				t.Errorf("%d mails queued, want %d", n, wantMails)
			}
		})
	}
}

// TestContactSpamLooksLikeSuccess: a bot cannot tell from the answer that
// it was caught.
func TestContactSpamLooksLikeSuccess(t *testing.T) {
	answers := func(f contactFields) (jsonRec, formRec *httptest.ResponseRecorder) {
		env := newContactEnv(t, contactOptions{})
		return env.post(t, "application/json", f.json()), env.post(t, "application/x-www-form-urlencoded", f.form())
	}
	personJSON, personForm := answers(humanForm(sitetest.OtherAt(t, 0).Code))
	for name, f := range map[string]contactFields{
		"honeypot": humanForm(sitetest.OtherAt(t, 0).Code).with("website", "spam.example"),
		"too fast": humanForm(sitetest.OtherAt(t, 0).Code).with("rendered_at", time.Now().UnixMilli()),
	} {
		botJSON, botForm := answers(f)
		refPattern := regexp.MustCompile(`"ref":"[0-9a-f-]{36}"`)
		if botJSON.Code != personJSON.Code || refPattern.ReplaceAllString(botJSON.Body.String(), "") != refPattern.ReplaceAllString(personJSON.Body.String(), "") {
			t.Errorf("%s: JSON %d %s, a person gets %d %s", name, botJSON.Code, botJSON.Body, personJSON.Code, personJSON.Body)
		}
		if botForm.Code != personForm.Code || botForm.Body.String() != personForm.Body.String() {
			t.Errorf("%s: the form's page differs from a person's", name)
		}
		for _, h := range []string{"Content-Type", "Cache-Control"} {
			if botJSON.Header().Get(h) != personJSON.Header().Get(h) || botForm.Header().Get(h) != personForm.Header().Get(h) {
				t.Errorf("%s: header %s differs", name, h)
			}
		}
	}
}

// TestContactFormPageKeepsTheValues checks what a visitor without
// JavaScript sees after each outcome.
func TestContactFormPageKeepsTheValues(t *testing.T) {
	s := sitetest.Site(t)
	env := newContactEnv(t, contactOptions{})
	typed := humanForm(sitetest.OtherAt(t, 1).Code).with("name", `Zoë "Z" <O'Neil>`, "email", "zoe@localhost", "message", "Zwei Zeilen:\r\n<b>fett</b> & mehr.", "service", "strategic-consulting")
	rec := env.post(t, "application/x-www-form-urlencoded", typed.form())
	if rec.Code != http.StatusUnprocessableEntity {
		t.Fatalf("status %d", rec.Code)
	}
	page := rec.Body.String()
	want := map[string]string{"name": `Zoë "Z" <O'Neil>`, "email": "zoe@localhost", "message": "Zwei Zeilen:\n<b>fett</b> & mehr.", "service": "strategic-consulting"}
	for f, v := range want {
		value, errText := pageField(t, page, f)
		if value != v {
			t.Errorf("%s: %q, want %q", f, value, v)
		}
		if (f == "email") != (errText == s.Locales.T(sitetest.OtherAt(t, 1).Code, contact.KeyEmail)) {
			t.Errorf("%s: error %q", f, errText)
		}
	}
	if strings.Contains(page, "<b>fett</b>") {
		t.Error("the typed message is not escaped")
	}
	if !strings.Contains(page, `action="/api/contact#contact-status"`) || !strings.Contains(page, `name="lang" value="`+sitetest.OtherAt(t, 1).Code+`"`) {
		t.Error("the page's form does not post again in its language")
	}

	rec = env.post(t, "application/x-www-form-urlencoded", typed.with("email", "zoe@example.com").form())
	if rec.Code != http.StatusCreated {
		t.Fatalf("status %d", rec.Code)
	}
	page = rec.Body.String()
	if got := pageStatus(page); got != s.Locales.T(sitetest.OtherAt(t, 1).Code, "contact.sent") {
		t.Errorf("status line %q", got)
	}
	for _, f := range []string{"name", "email", "message", "service"} {
		if value, _ := pageField(t, page, f); value != "" {
			t.Errorf("after success %s still shows %q", f, value)
		}
	}
}

// TestContactRateLimit allows a few posts per client and window, then
// answers 429 with Retry-After and a localized message, JSON or page.
func TestContactRateLimit(t *testing.T) { forEachBackend(t, testContactRateLimit) }

func testContactRateLimit(t *testing.T, backend store.Backend) {
	s := sitetest.Site(t)
	env := newContactEnv(t, contactOptions{backend: backend, rate: RateLimit{Requests: 2, Window: time.Minute}})
	postFrom := func(ip, contentType, body string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodPost, "/api/contact", strings.NewReader(body))
		req.Header.Set("Content-Type", contentType)
		req.RemoteAddr = ip + ":1234"
		rec := httptest.NewRecorder()
		env.h.ServeHTTP(rec, req)
		return rec
	}
	for i := range 2 {
		if rec := postFrom("198.51.100.7", "application/json", humanForm(sitetest.Default(t).Code).json()); rec.Code != http.StatusCreated {
			t.Fatalf("post %d: %d", i+1, rec.Code)
		}
	}
	env.clock.Advance(20 * time.Second)

	rec := postFrom("198.51.100.7", "application/json", humanForm(sitetest.OtherAt(t, 2).Code).json())
	if rec.Code != http.StatusTooManyRequests || rec.Header().Get("Retry-After") != "40" {
		t.Fatalf("third post: %d, Retry-After %q", rec.Code, rec.Header().Get("Retry-After"))
	}
	if e := decodeAPIError(t, rec); e.Code != "rate_limited" || e.Message != s.Locales.T(sitetest.OtherAt(t, 2).Code, "errors.rateLimited") {
		t.Errorf("error %+v", e)
	}

	typed := humanForm(sitetest.OtherAt(t, 0).Code).with("message", "Un message que je ne veux pas retaper.")
	rec = postFrom("198.51.100.7", "application/x-www-form-urlencoded", typed.form())
	if rec.Code != http.StatusTooManyRequests || rec.Header().Get("Retry-After") != "40" {
		t.Fatalf("form post: %d, Retry-After %q", rec.Code, rec.Header().Get("Retry-After"))
	}
	page := rec.Body.String()
	if got, want := pageStatus(page), s.Locales.T(sitetest.OtherAt(t, 0).Code, "contact.error")+" "+s.Locales.T(sitetest.OtherAt(t, 0).Code, "errors.rateLimited"); got != want {
		t.Errorf("status line %q, want %q", got, want)
	}
	// The refusal is the page rendered at start: nothing of the post.
	if value, _ := pageField(t, page, "message"); value != "" {
		t.Errorf("the refusal shows the message posted: %q", value)
	}

	// Another client is counted apart, and so is a whole IPv6 /64.
	if rec := postFrom("198.51.100.8", "application/json", humanForm(sitetest.Default(t).Code).json()); rec.Code != http.StatusCreated {
		t.Errorf("another client: %d", rec.Code)
	}
	for i, ip := range []string{"[2001:db8:1:2::1]", "[2001:db8:1:2::ffff]", "[2001:db8:1:2:abcd::9]"} {
		want := http.StatusCreated
		if i == 2 {
			want = http.StatusTooManyRequests
		}
		if rec := postFrom(ip, "application/json", humanForm(sitetest.Default(t).Code).json()); rec.Code != want {
			t.Errorf("%s: %d, want %d", ip, rec.Code, want)
		}
	}

	env.clock.Advance(40 * time.Second)
	if rec := postFrom("198.51.100.7", "application/json", humanForm(sitetest.Default(t).Code).json()); rec.Code != http.StatusCreated {
		t.Errorf("after Retry-After: %d", rec.Code)
	}
	if n := sitetest.Count(t, env.st, `SELECT count(*) FROM messages`); n != 6 {
		t.Errorf("%d messages stored, want the 6 accepted", n)
	}
}

func TestRateLimiter(t *testing.T) {
	l := newRateLimiter(RateLimit{Requests: 3, Window: 10 * time.Minute})
	start := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	at := func(d time.Duration) time.Time { return start.Add(d) }
	for _, step := range []struct {
		client string
		at     time.Duration
		ok     bool
		wait   time.Duration
	}{
		{"a", 0, true, 0},
		{"a", time.Minute, true, 0},
		{"a", 2 * time.Minute, true, 0},
		{"a", 3 * time.Minute, false, 7 * time.Minute},
		{"b", 3 * time.Minute, true, 0},
		{"a", 9 * time.Minute, false, time.Minute}, // refusals are not counted
		{"a", 10 * time.Minute, true, 0},           // the first request left the window
		{"a", 10*time.Minute + time.Second, false, 59 * time.Second},
		{"a", 30 * time.Minute, true, 0},
	} {
		ok, wait := l.allow(step.client, at(step.at))
		if ok != step.ok || wait != step.wait {
			t.Errorf("%s at %v: %v %v, want %v %v", step.client, step.at, ok, wait, step.ok, step.wait)
		}
	}
	// Clients quiet for a window are forgotten.
	l.allow("c", at(2*time.Hour))
	if len(l.hits) != 1 {
		t.Errorf("%d clients remembered, want 1", len(l.hits))
	}
}

func TestClientKey(t *testing.T) {
	for ip, want := range map[string]string{
		"192.0.2.1":               "192.0.2.1",
		"::ffff:192.0.2.1":        "192.0.2.1",
		"2001:db8:1:2:3:4:5:6":    "2001:db8:1:2::/64",
		"2001:db8:1:2::1%eth0":    "2001:db8:1:2::/64",
		"not an address":          "not an address",
		"2001:db8:ffff:ffff::abc": "2001:db8:ffff:ffff::/64",
	} {
		if got := clientKey(ip); got != want {
			t.Errorf("clientKey(%q) = %q, want %q", ip, got, want)
		}
	}
}

// TestContactMailArrives posts through HTTP and lets the real worker
// deliver to a real SMTP server: both mails arrive, the acknowledgement in
// the visitor's language.
func TestContactMailArrives(t *testing.T) {
	smtpServer := mailtest.Start(t)
	sender, err := mail.NewSMTPSender(mail.SMTPConfig{URL: smtpServer.URL(), From: "hello@northbeam.dev"})
	if err != nil {
		t.Fatal(err)
	}
	var worker *mail.Worker
	env := newContactEnv(t, contactOptions{queued: func() { worker.Wake() }})
	worker = mail.NewWorker(env.st, sender, mail.WorkerConfig{Logger: sitetest.QuietLog()})
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- worker.Run(ctx) }()
	t.Cleanup(func() {
		stop()
		if err := <-done; err != nil {
			t.Error(err)
		}
	})

	if rec := env.post(t, "application/x-www-form-urlencoded", humanForm("ar").with("name", "ليلى").form()); rec.Code != http.StatusCreated {
		t.Fatalf("Arabic form post: %d", rec.Code)
	}
	if rec := env.post(t, "application/json", humanForm("fr").with("name", "Zoë").json()); rec.Code != http.StatusCreated {
		t.Fatalf("French JSON post: %d", rec.Code)
	}
	got := smtpServer.WaitFor(4)
	type mailSeen struct{ subject, lang string }
	var acks []mailSeen
	notifications := 0
	for _, m := range got {
		switch strings.Join(m.To, ",") {
		case sitetest.ContactInbox:
			notifications++
			if m.Header.Get("Content-Language") != "en" || !strings.HasPrefix(m.Subject, "New contact message from ") {
				t.Errorf("notification %q in %q", m.Subject, m.Header.Get("Content-Language"))
			}
		case "ada@example.com":
			lang := m.Header.Get("Content-Language")
			acks = append(acks, mailSeen{m.Subject, lang})
			text, _ := m.Text()
			// A fixed text in the visitor's language: nothing they wrote
			// reaches an address nobody verified.
			greeting := map[string]string{"ar": "مرحبًا،\n", "fr": "Bonjour,\n"}[lang]
			if greeting == "" || !strings.HasPrefix(text, greeting) {
				t.Errorf("acknowledgement in %q:\n%s", lang, text)
			}
			for _, typed := range []string{"ليلى", "Zoë", "modernise"} {
				if strings.Contains(text, typed) || strings.Contains(m.Subject, typed) {
					t.Errorf("the acknowledgement in %q repeats %q:\n%s", lang, typed, text)
				}
			}
		default:
			t.Errorf("mail to %v", m.To)
		}
	}
	if notifications != 2 || len(acks) != 2 {
		t.Fatalf("%d notifications and %d acknowledgements, want 2 and 2", notifications, len(acks))
	}
	langs := map[string]string{}
	for _, a := range acks {
		langs[a.lang] = a.subject
	}
	if langs["ar"] != "تلقّينا رسالتكم – Northbeam" || langs["fr"] != "Nous avons bien reçu votre message – Northbeam" {
		t.Errorf("acknowledgements %v", langs)
	}
	// The worker records a delivery just after the server has it.
	testwait.Until(t, "the outbox to record the four mails as sent", func() bool {
		return sitetest.Count(t, env.st, `SELECT count(*) FROM outbox WHERE state = 'sent'`) == 4
	})
}

// floodPost is a form post that refuses itself: not a form, a field twice,
// too large, or (with a valid form) one over the limit.
func floodPost(t testing.TB, h http.Handler, body, lang string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(http.MethodPost, "/api/contact", strings.NewReader(body))
	req.Header.Set("Content-Type", echo.MIMEApplicationForm)
	req.Header.Set("Accept-Language", lang)
	req.RemoteAddr = "198.51.100.20:4321"
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// TestContactRefusalsRenderNothing: malformed, oversized and over-limit
// form posts are answered with pages rendered at start, in the post's
// language; malformed posts count against the limit; only an invalid form,
// counted first, is rendered for its post.
func TestContactRefusalsRenderNothing(t *testing.T) {
	s := sitetest.Site(t)
	env := newContactEnv(t, contactOptions{rate: RateLimit{Requests: 3, Window: time.Minute}})
	before, _ := s.Engine.Counts()
	large := humanForm(sitetest.OtherAt(t, 1).Code).with("message", strings.Repeat("x", 70<<10)).form()
	for _, tc := range []struct {
		name, body, lang string
		status           int
		reason           string
	}{
		{"not a form", "name=%zz", sitetest.OtherAt(t, 0).Code, 400, ""},
		{"a field twice", humanForm(sitetest.OtherAt(t, 2).Code).form() + "&name=Eve", sitetest.OtherAt(t, 2).Code, 400, ""},
		{"too large", large, sitetest.OtherAt(t, 1).Code, 413, ""},
		{"over the limit", humanForm(sitetest.OtherAt(t, 0).Code).form(), sitetest.OtherAt(t, 0).Code, 429, "errors.rateLimited"},
		{"over the limit, not a form", "%", sitetest.OtherAt(t, 1).Code, 429, "errors.rateLimited"},
	} {
		rec := floodPost(t, env.h, tc.body, tc.lang)
		if rec.Code != tc.status {
			t.Errorf("%s: status %d, want %d", tc.name, rec.Code, tc.status)
			continue
		}
		want := s.Locales.T(tc.lang, "contact.error")
		if tc.reason != "" {
			want += " " + s.Locales.T(tc.lang, tc.reason)
		}
		page := rec.Body.String()
		if got := pageStatus(page); got != want {
			t.Errorf("%s: status line %q, want %q", tc.name, got, want)
		}
		if m := htmlTag.FindStringSubmatch(page); m == nil || m[1] != tc.lang {
			t.Errorf("%s: html tag %v, want lang %s", tc.name, m, tc.lang)
		}
		if rec.Header().Get("Cache-Control") != "no-store" || rec.Header().Get("ETag") != "" {
			t.Errorf("%s: Cache-Control %q, ETag %q", tc.name, rec.Header().Get("Cache-Control"), rec.Header().Get("ETag"))
		}
		if tc.status == 429 && rec.Header().Get("Retry-After") == "" {
			t.Errorf("%s: no Retry-After", tc.name)
		}
		assertNoScript(t, page)
	}
	if after, _ := s.Engine.Counts(); after != before {
		t.Errorf("%d renders for posts refused", after-before)
	}
	assertNoRows(t, env)

	// A post the form can show again is answered from its shell, rendered
	// by the first post of its kind (here, or in another test of the
	// shared site), once counted.
	env = newContactEnv(t, contactOptions{rate: RateLimit{Requests: 1, Window: time.Minute}})
	if rec := floodPost(t, env.h, humanForm(sitetest.Default(t).Code).with("email", "nope").form(), sitetest.Default(t).Code); rec.Code != 422 {
		t.Fatalf("invalid form: %d", rec.Code)
	}
	counted, _ := s.Engine.Counts()
	if counted > before+1 {
		t.Errorf("%d renders for one invalid form, want 1 at most", counted-before)
	}
	if rec := floodPost(t, env.h, humanForm(sitetest.Default(t).Code).with("email", "nope").form(), sitetest.Default(t).Code); rec.Code != 429 {
		t.Errorf("second invalid form over the limit: %d", rec.Code)
	}
	if after, _ := s.Engine.Counts(); after != counted {
		t.Errorf("an invalid form over the limit was rendered")
	}
}

// BenchmarkContactFlood posts form posts that are refused, as a flood
// would: each costs a page rendered at start, never a render in goja
// (renders/op).
func BenchmarkContactFlood(b *testing.B) {
	s := sitetest.Site(b)
	for _, tc := range []struct {
		name string
		rate RateLimit
		body string
		want int
	}{
		{"malformed", RateLimit{Requests: 1 << 30, Window: time.Minute}, "name=%zz&lang=fr", 400},
		{"over-limit", RateLimit{Requests: 1, Window: time.Hour}, humanForm("fr").form(), 429},
	} {
		b.Run(tc.name, func(b *testing.B) {
			env := newContactEnv(b, contactOptions{rate: tc.rate})
			floodPost(b, env.h, tc.body, "fr") // the one post within the limit
			before, _ := s.Engine.Counts()
			b.ReportAllocs()
			for b.Loop() {
				if rec := floodPost(b, env.h, tc.body, "fr"); rec.Code != tc.want {
					b.Fatalf("status %d, want %d", rec.Code, tc.want)
				}
			}
			after, _ := s.Engine.Counts()
			b.ReportMetric(float64(after-before)/float64(b.N), "renders/op")
		})
	}
}

// BenchmarkContactRefusedForm compares an invalid contact post (a wrong
// address) sent as an HTML form, answered with the home page showing the
// errors and what was typed, with the same post as JSON (issue 27, M3):
// the page must cost about what the JSON answer does, not a render of the
// home page in goja. renders/op counts the renders. The first post of its
// kind is sent before the loop: it renders the page's shell, once per
// language and set of errors.
//
// go test ./handlers -run X -bench ContactRefusedForm
func BenchmarkContactRefusedForm(b *testing.B) {
	s := sitetest.Site(b)
	env := newContactEnv(b, contactOptions{rate: RateLimit{Requests: 1 << 30, Window: time.Minute}})
	invalid := humanForm("fr").with("email", "pas-une-adresse", "message", "Bonjour <b>l'équipe</b> & merci.")
	for _, tc := range []struct{ name, contentType, body string }{
		{"form", echo.MIMEApplicationForm, invalid.form()},
		{"json", echo.MIMEApplicationJSON, invalid.json()},
	} {
		b.Run(tc.name, func(b *testing.B) {
			env.post(b, tc.contentType, tc.body) // the first of its kind, outside the loop
			before, _ := s.Engine.Counts()
			b.ReportAllocs()
			for b.Loop() {
				if rec := env.post(b, tc.contentType, tc.body); rec.Code != http.StatusUnprocessableEntity {
					b.Fatalf("status %d", rec.Code)
				}
			}
			after, _ := s.Engine.Counts()
			b.ReportMetric(float64(after-before)/float64(b.N), "renders/op")
		})
	}
}

// TestContactInvalidFormFromShell: the page answering an invalid form
// post is filled in from a shell rendered once per kind of outcome, and
// is byte for byte the page a render for the post makes, whatever was
// typed (markup, quotes, line breaks, other scripts, bytes that are not
// UTF-8); later posts of the same kind render nothing (issue 27, M3;
// the times are in BenchmarkContactRefusedForm).
func TestContactInvalidFormFromShell(t *testing.T) {
	s := sitetest.Site(t)
	ctx := context.Background()
	base := sitebuild.ContactOutcome{Status: http.StatusUnprocessableEntity, Name: "Ada", Email: "nope", Message: "Hello", Service: "platform-engineering",
		Errors: map[string]string{"email": contact.KeyEmail}}
	with := func(f func(o *sitebuild.ContactOutcome)) sitebuild.ContactOutcome {
		o := base
		o.Errors = maps.Clone(base.Errors)
		f(&o)
		return o
	}
	cases := []struct {
		lang string
		out  sitebuild.ContactOutcome
	}{
		{sitetest.Default(t).Code, base},
		{sitetest.OtherAt(t, 0).Code, with(func(o *sitebuild.ContactOutcome) { o.Name = `Zoë "Z" <O'Neil> & co` })},
		{sitetest.OtherAt(t, 1).Code, with(func(o *sitebuild.ContactOutcome) {
			o.Message = "\nZwei Zeilen:\r\n<b>fett</b> & mehr.</textarea><script>x</script>"
		})},
		{sitetest.OtherAt(t, 2).Code, with(func(o *sitebuild.ContactOutcome) {
			o.Name, o.Message = "ليلى \u2028 \u202e", "رسالة 👩\u200d💻 \x00 \x1f"
		})},
		{sitetest.Default(t).Code, with(func(o *sitebuild.ContactOutcome) { o.Email = "bad\xff\xfe@x"; o.Message = "a\xc3" })},
		{sitetest.Default(t).Code, with(func(o *sitebuild.ContactOutcome) { o.Name, o.Email, o.Message, o.Service = "", "", "", "" })},
		{sitetest.OtherAt(t, 0).Code, with(func(o *sitebuild.ContactOutcome) {
			o.Service = `evil" selected="x`
			o.Errors = map[string]string{"service": contact.KeyService, "name": contact.KeyName, "surprise": contact.KeyUnknownField}
		})},
		{sitetest.OtherAt(t, 1).Code, with(func(o *sitebuild.ContactOutcome) {
			o.Service = "not-sure"
			o.Errors = map[string]string{"message": contact.KeyMessage}
		})},
		{sitetest.Default(t).Code, with(func(o *sitebuild.ContactOutcome) { o.Name = "nbShellEmail7c41f" })}, // a marker typed is a value like any
	}
	for i, tc := range cases {
		// The page shows the errors of the form's fields; an unknown
		// field's is left out of its payload too.
		shown := tc.out
		shown.Errors = maps.Clone(tc.out.Errors)
		maps.DeleteFunc(shown.Errors, func(f, _ string) bool { return !slices.Contains([]string{"name", "email", "message", "service"}, f) })
		want, err := s.RenderContactAnswer(ctx, tc.lang, shown)
		if err != nil {
			t.Fatal(err)
		}
		got, err := s.InvalidContactAnswer(ctx, tc.lang, tc.out)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			at := 0
			for at < len(got) && at < len(want) && got[at] == want[at] {
				at++
			}
			t.Errorf("case %d (%s): the page from the shell differs from the render at byte %d:\nshell:  %q\nrender: %q",
				i, tc.lang, at, got[max(0, at-80):min(len(got), at+80)], want[max(0, at-80):min(len(want), at+80)])
		}
	}
	// Over HTTP: once a kind of invalid post has been answered, the next
	// ones are answered without a render, each with its own values.
	env := newContactEnv(t, contactOptions{})
	post := func(name string) {
		rec := env.post(t, echo.MIMEApplicationForm, humanForm(sitetest.OtherAt(t, 1).Code).with("name", name, "email", "nope").form())
		if value, _ := pageField(t, rec.Body.String(), "name"); rec.Code != http.StatusUnprocessableEntity || value != name {
			t.Errorf("%s: %d, the page shows %q", name, rec.Code, value)
		}
	}
	post("Ada")
	before, _ := s.Engine.Counts()
	for _, name := range []string{"Grace", "Hedy", "Katherine"} {
		post(name)
	}
	if after, _ := s.Engine.Counts(); after != before {
		t.Errorf("%d renders for 3 invalid posts of a kind already answered", after-before)
	}
}
