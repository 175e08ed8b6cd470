package contact

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/evanw/esbuild/pkg/api"

	"github.com/northbeam/site/e2e/internal/e2etest"
	"github.com/northbeam/site/internal/contact"
	"github.com/northbeam/site/internal/sitetest"
)

// TestContactFormSends fills in and sends the form in English and Arabic:
// the button reads "Sending..." and takes no second press while the post
// is held, then the success message shows, the form is cleared and the
// message is stored in the page's language.
func TestContactFormSends(t *testing.T) {
	b, _ := e2etest.Browser(t)
	s := sitetest.Site(t)
	for _, tc := range []struct{ lang, name, message string }{
		{"en", "Ada Lovelace", "We would like to modernise our platform."},
		{"ar", "ليلى حداد", "نودّ تحديث منصتنا البرمجية هذا العام."},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			env, base := e2etest.ContactBrowserServer(t)
			lang, _ := s.Info.Language(tc.lang)
			tb := e2etest.NewTab(t, b)
			held := e2etest.HeldPosts(t, tb)
			tb.Run(t,
				chromedp.Navigate(base+lang.LocalPath("/")),
				e2etest.WaitHydrated(),
				e2etest.FillContactForm(tc.name, "ada@example.com", tc.message, "strategic-consulting"),
				chromedp.Click(e2etest.SubmitSel, chromedp.ByQuery),
			)
			post := e2etest.NextPost(t, held)
			var button, disabled string
			tb.Run(t,
				e2etest.WaitText(e2etest.SubmitSel, s.Locales.T(tc.lang, "contact.form.sending")),
				chromedp.Text(e2etest.SubmitSel, &button, chromedp.ByQuery),
				chromedp.Evaluate(`document.querySelector('#contact-form button[type="submit"]').getAttribute("aria-disabled") ?? ""`, &disabled),
				// A second press, and Enter in a field, while sending.
				chromedp.Click(e2etest.SubmitSel, chromedp.ByQuery),
				chromedp.SendKeys(e2etest.FieldSel("name"), "\r", chromedp.ByQuery),
			)
			if button != s.Locales.T(tc.lang, "contact.form.sending") || disabled != "true" {
				t.Errorf("while sending the button reads %q, aria-disabled=%q", button, disabled)
			}
			select {
			case e := <-held:
				t.Errorf("a second post while the first is sending: %s", e.Request.URL)
				tb.Run(t, fetch.ContinueRequest(e.RequestID))
			case <-time.After(300 * time.Millisecond):
			}
			body := e2etest.PostedJSON(t, post)
			if body["lang"] != tc.lang || body["website"] != "" || body["name"] != tc.name || body["service"] != "strategic-consulting" {
				t.Errorf("posted %v", body)
			}
			if at, ok := body["rendered_at"].(float64); !ok || time.Since(time.UnixMilli(int64(at))) > time.Minute || time.Since(time.UnixMilli(int64(at))) < 0 {
				t.Errorf("rendered_at %v is not the time the form was rendered", body["rendered_at"])
			}

			var values map[string]string
			tb.Run(t,
				fetch.ContinueRequest(post.RequestID),
				e2etest.WaitText(e2etest.StatusSel, s.Locales.T(tc.lang, "contact.sent")),
				e2etest.WaitText(e2etest.SubmitSel, s.Locales.T(tc.lang, "contact.form.submit")),
				e2etest.FormValues(&values),
			)
			if !maps.Equal(values, map[string]string{"name": "", "email": "", "message": "", "service": ""}) {
				t.Errorf("after success the form holds %v", values)
			}
			if n := sitetest.Count(t, env.St, `SELECT count(*) FROM messages WHERE lang = ? AND name = ? AND spam = 0`, tc.lang, tc.name); n != 1 {
				t.Errorf("%d messages stored in %s", n, tc.lang)
			}
			if problems := tb.ConsoleProblems(); len(problems) > 0 {
				t.Errorf("console:\n%s", strings.Join(problems, "\n"))
			}
		})
	}
}

// TestContactFormKeepsTheInputOnError: when the server fails or cannot be
// reached, the error message shows and what the visitor typed stays.
func TestContactFormKeepsTheInputOnError(t *testing.T) {
	b, _ := e2etest.Browser(t)
	s := sitetest.Site(t)
	for _, tc := range []struct {
		name, lang string
		answer     func(fetch.RequestID) chromedp.Action
		reason     string
	}{
		{"server error", "fr", func(id fetch.RequestID) chromedp.Action {
			return fetch.FulfillRequest(id, 500).
				WithResponseHeaders([]*fetch.HeaderEntry{{Name: "Content-Type", Value: "application/json"}}).
				WithBody(base64.StdEncoding.EncodeToString([]byte(`{"error":{"code":"server_error","message":"x"}}`)))
		}, ""},
		{"network failure", "de", func(id fetch.RequestID) chromedp.Action {
			return fetch.FailRequest(id, network.ErrorReasonConnectionRefused)
		}, ""},
		{"rate limited", "ar", func(id fetch.RequestID) chromedp.Action {
			body := fmt.Sprintf(`{"error":{"code":"rate_limited","message":%q}}`, s.Locales.T("ar", "errors.rateLimited"))
			return fetch.FulfillRequest(id, 429).
				WithResponseHeaders([]*fetch.HeaderEntry{{Name: "Content-Type", Value: "application/json"}, {Name: "Retry-After", Value: "60"}}).
				WithBody(base64.StdEncoding.EncodeToString([]byte(body)))
		}, "errors.rateLimited"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env, base := e2etest.ContactBrowserServer(t)
			lang, _ := s.Info.Language(tc.lang)
			tb := e2etest.NewTab(t, b)
			held := e2etest.HeldPosts(t, tb)
			typed := map[string]string{"name": "Zoë Martin", "email": "zoe@example.com", "message": "Un projet de plateforme pour 2027.", "service": "not-sure"}
			tb.Run(t,
				chromedp.Navigate(base+lang.LocalPath("/")),
				e2etest.WaitHydrated(),
				e2etest.FillContactForm(typed["name"], typed["email"], typed["message"], typed["service"]),
				chromedp.Click(e2etest.SubmitSel, chromedp.ByQuery),
				e2etest.WaitText(e2etest.SubmitSel, s.Locales.T(tc.lang, "contact.form.sending")),
			)
			post := e2etest.NextPost(t, held)
			want := s.Locales.T(tc.lang, "contact.error")
			if tc.reason != "" {
				want += " " + s.Locales.T(tc.lang, tc.reason)
			}
			var values map[string]string
			tb.Run(t,
				tc.answer(post.RequestID),
				e2etest.WaitText(e2etest.StatusSel, want),
				e2etest.WaitText(e2etest.SubmitSel, s.Locales.T(tc.lang, "contact.form.submit")),
				e2etest.FormValues(&values),
			)
			if !maps.Equal(values, typed) {
				t.Errorf("after the error the form holds %v, the visitor typed %v", values, typed)
			}
			if n := sitetest.Count(t, env.St, `SELECT count(*) FROM messages`); n != 0 {
				t.Errorf("%d messages stored", n)
			}
		})
	}
}

// TestContactFormShowsErrorsBesideTheFields: the form's own checks, then
// the server's, tie each error to its field and move focus to the first.
func TestContactFormShowsErrorsBesideTheFields(t *testing.T) {
	b, _ := e2etest.Browser(t)
	s := sitetest.Site(t)
	_, base := e2etest.ContactBrowserServer(t)
	tb := e2etest.NewTab(t, b)
	held := e2etest.HeldPosts(t, tb)

	var nameErr, emailErr, messageErr, focused, status string
	tb.Run(t,
		chromedp.Navigate(base+"/de"),
		e2etest.WaitHydrated(),
		chromedp.SendKeys(e2etest.FieldSel("name"), "   ", chromedp.ByQuery),
		chromedp.SendKeys(e2etest.FieldSel("email"), "max@localhost", chromedp.ByQuery),
		chromedp.SendKeys(e2etest.FieldSel("message"), "Zu kurz", chromedp.ByQuery),
		chromedp.Click(e2etest.SubmitSel, chromedp.ByQuery),
		e2etest.WaitText(e2etest.StatusSel, s.Locales.T("de", "validation.invalid")),
		e2etest.FieldError("name", &nameErr),
		e2etest.FieldError("email", &emailErr),
		e2etest.FieldError("message", &messageErr),
		chromedp.Evaluate(`document.activeElement.name`, &focused),
	)
	if nameErr != s.Locales.T("de", contact.KeyName) || emailErr != s.Locales.T("de", contact.KeyEmail) || messageErr != s.Locales.T("de", contact.KeyMessage) {
		t.Errorf("errors: name %q, email %q, message %q", nameErr, emailErr, messageErr)
	}
	if focused != "name" {
		t.Errorf("focus is on %q, want the first field in error", focused)
	}
	select {
	case <-held:
		t.Fatal("an invalid form was posted")
	case <-time.After(200 * time.Millisecond):
	}

	// Fixing a field clears its error as the visitor types.
	tb.Run(t,
		chromedp.SendKeys(e2etest.FieldSel("name"), "Max Muster", chromedp.ByQuery),
		e2etest.FieldError("name", &nameErr),
	)
	if nameErr != "" {
		t.Errorf("the name's error stays after it was fixed: %q", nameErr)
	}

	// The server's own field errors show the same way.
	tb.Run(t,
		chromedp.SetValue(e2etest.FieldSel("email"), "max@example.com", chromedp.ByQuery),
		chromedp.SendKeys(e2etest.FieldSel("message"), ", aber jetzt lang genug.", chromedp.ByQuery),
		chromedp.Click(e2etest.SubmitSel, chromedp.ByQuery),
	)
	post := e2etest.NextPost(t, held)
	serverSays := "Diese Adresse nimmt keine Post an."
	body := fmt.Sprintf(`{"error":{"code":"invalid","message":%q,"fields":{"email":%q}}}`, s.Locales.T("de", "validation.invalid"), serverSays)
	tb.Run(t,
		fetch.FulfillRequest(post.RequestID, 422).
			WithResponseHeaders([]*fetch.HeaderEntry{{Name: "Content-Type", Value: "application/json"}}).
			WithBody(base64.StdEncoding.EncodeToString([]byte(body))),
		e2etest.WaitText(e2etest.StatusSel, s.Locales.T("de", "validation.invalid")),
		e2etest.FieldError("email", &emailErr),
		e2etest.FieldError("message", &messageErr),
		chromedp.Evaluate(`document.activeElement.name`, &focused),
		chromedp.Text(e2etest.StatusSel, &status, chromedp.ByQuery),
	)
	if emailErr != serverSays || messageErr != "" || focused != "email" {
		t.Errorf("after the server's 422: email %q, message %q, focus on %q", emailErr, messageErr, focused)
	}
	if problems := tb.ConsoleProblems(); len(problems) > 0 {
		t.Errorf("console:\n%s", strings.Join(problems, "\n"))
	}
}

// TestContactFormWithoutJavaScript posts the same form as plain HTML: the
// server answers with the page showing the outcome, keeping what was typed
// when something is wrong.
func TestContactFormWithoutJavaScript(t *testing.T) {
	b, _ := e2etest.Browser(t)
	s := sitetest.Site(t)
	env, base := e2etest.ContactBrowserServer(t)
	tb := e2etest.NewTab(t, b)
	var path, status string
	tb.Run(t,
		emulation.SetScriptExecutionDisabled(true),
		chromedp.Navigate(base+"/fr"),
		e2etest.FillContactForm("Zoë Martin", "zoe@example.com", "Nous aimerions refondre notre plateforme.", "custom-software"),
		chromedp.Click(e2etest.SubmitSel, chromedp.ByQuery),
		// The answer is a new page: wait for its nodes rather than poll the old one.
		chromedp.WaitReady(e2etest.StatusSel+".form-status-sent", chromedp.ByQuery),
		e2etest.Location(&path),
		chromedp.Text(e2etest.StatusSel, &status, chromedp.ByQuery),
	)
	if path != "/api/contact" || status != s.Locales.T("fr", "contact.sent") {
		t.Errorf("the form posted to %s and says %q", path, status)
	}
	var values map[string]string
	tb.Run(t, e2etest.FormValues(&values))
	if !maps.Equal(values, map[string]string{"name": "", "email": "", "message": "", "service": ""}) {
		t.Errorf("after success the form holds %v", values)
	}
	if n := sitetest.Count(t, env.St, `SELECT count(*) FROM messages WHERE lang = 'fr' AND service = 'custom-software' AND spam = 0`); n != 1 {
		t.Errorf("%d messages stored", n)
	}

	// Invalid for the server, though the browser's own checks let it through.
	var nameErr, emailErr string
	tb.Run(t,
		chromedp.Navigate(base+"/ar"),
		e2etest.FillContactForm("   ", "layla@localhost", "قصيرة", "not-sure"),
		chromedp.Click(e2etest.SubmitSel, chromedp.ByQuery),
		chromedp.WaitReady(e2etest.StatusSel+".form-status-invalid", chromedp.ByQuery),
		chromedp.Text(e2etest.StatusSel, &status, chromedp.ByQuery),
		e2etest.FormValues(&values),
		e2etest.FieldError("name", &nameErr),
		e2etest.FieldError("email", &emailErr),
	)
	if want := map[string]string{"name": "   ", "email": "layla@localhost", "message": "قصيرة", "service": "not-sure"}; !maps.Equal(values, want) {
		t.Errorf("the page holds %v, the visitor typed %v", values, want)
	}
	if status != s.Locales.T("ar", "validation.invalid") || nameErr != s.Locales.T("ar", contact.KeyName) || emailErr != s.Locales.T("ar", contact.KeyEmail) {
		t.Errorf("status %q; errors beside the fields: name %q, email %q", status, nameErr, emailErr)
	}
	if n := sitetest.Count(t, env.St, `SELECT count(*) FROM messages`); n != 1 {
		t.Errorf("%d messages stored, want only the first", n)
	}
}

// TestContactRulesMatchTheServer runs the form's own checks
// (frontend/lib/contact.ts, compiled by esbuild) in Chromium on the inputs
// below and compares them with the server's.
func TestContactRulesMatchTheServer(t *testing.T) {
	b, _ := e2etest.Browser(t)
	src, err := os.ReadFile(filepath.Join(sitetest.Root(), "frontend", "lib", "contact.ts"))
	if err != nil {
		t.Fatal(err)
	}
	out := api.Transform(string(src), api.TransformOptions{Loader: api.LoaderTS, Format: api.FormatIIFE, GlobalName: "contactRules", Target: api.ES2020})
	if len(out.Errors) > 0 {
		t.Fatalf("esbuild: %v", out.Errors)
	}

	long := strings.Repeat
	cases := map[string][]string{
		contact.FieldName: {
			"", " ", "A", "Ada Lovelace", long("n", 100), long("n", 101), long("é", 100), long("🙂", 100), long("🙂", 101),
			"Ada\nLovelace", "Ada\tLovelace", "Ada\x00", "Ada\x7f", "Ada\u0085", "\u0085Ada\u0085", "Ada\u0085Lovelace",
			"\ufeffAda", "\u00a0Ada\u3000", "\u2028Ada\u2029", "\u200bAda", "  " + long("n", 100) + "  ", "\u180eAda",
		},
		contact.FieldEmail: {
			"", "a@b.co", "ada@example.com", " ada@example.com ", "A@B.DE", "a.b@c.de", ".a@b.cd", "a..b@c.de", "a.@b.cd",
			"a@b..cd", "a@.b.cd", "a@b.cd.", "a@-b.cd", "a@b-.cd", "a@b-c.de", "a@b_c.de", "a+tag@b.de", "ü@example.de",
			"a@exämple.de", "a@例え.jp", "a@e\u0301x.de", `"quoted"@x.de`, `"a b"@x.de`, "a@[1.2.3.4]", "a b@c.de", "a@b.c d",
			"(c)a@b.de", "a@b.de (c)", "Ada <a@b.de>", "ab@c", "@c.de", "a@", "a@@b.de", "a@b@c.de", "a@123.45",
			long("a", 64) + "@b.de", long("a", 65) + "@b.de", long("é", 32) + "@b.de", long("é", 33) + "@b.de",
			"a@" + long("b", 63) + ".de", "a@" + long("b", 64) + ".de", "a@" + long("é", 31) + ".de", "a@" + long("é", 32) + ".de",
			long("a", 64) + "@" + long("b", 63) + "." + long("c", 63) + "." + long("d", 57) + ".com",
			long("a", 64) + "@" + long("b", 63) + "." + long("c", 63) + "." + long("d", 58) + ".com",
			"a!#$%&'*+-/=?^_`{|}~@b.de", `a\b@c.de`, "a,b@c.de", "a;b@c.de", "a:b@c.de", "a<b@c.de", "a@b.de>", "a[b]@c.de",
			"a\tb@c.de", "a@b.de\n", "a@b.de\r\nBcc: eve@x.de", "🙂@b.de", "a@🙂.de", "a@b.🙂", "a\u00a0b@c.de", "a\u0085b@c.de",
			"a@b\u200b.de", "a@b.d-e", "a@b.de-", "-a@b.de", "a@1.2", "a@b.c0m", "a@xn--bcher-kva.de", "a@b.de\u0085",
		},
		contact.FieldMessage: {
			"", "123456789", "0123456789", " 0123456789 ", "12345\r\n6789", "12345\r6789", "1234\r\n\r\n6789", long("m", 5000),
			long("m", 5001), long("م", 5000), long("🙂", 5000), long("🙂", 5001), "Hello\tthere, friend", "Hello\x00there, friend",
			"Hello\x1b[2Jthere", "Hello\x7fthere, friend", "Hello\u0085there, friend", "\u3000\u3000short\u3000\u3000",
			"\u2028twelve chars\u2029", "\ufeff123456789", long(" ", 20), "\n\n\n0123456789\n\n\n", long("\r\n", 3) + "abc",
		},
		contact.FieldService: {
			"", "custom-software", "platform-engineering", "strategic-consulting", "not-sure", " not-sure ", "Not-Sure",
			"web-design", "custom-software\n",
		},
	}
	base := map[string]string{"name": "Ada Lovelace", "email": "ada@example.com", "message": "We would like to modernise our platform.", "service": "not-sure"}
	var inputs []map[string]string
	var server []map[string]string
	for field, values := range cases {
		for _, v := range values {
			in := maps.Clone(base)
			in[field] = v
			inputs = append(inputs, in)
			sub := contact.Submission{Name: in["name"], Email: in["email"], Message: in["message"], Service: in["service"]}
			errs := map[string]string(sub.Validate())
			if errs == nil {
				errs = map[string]string{}
			}
			server = append(server, errs)
		}
	}
	js, err := json.Marshal(inputs)
	if err != nil {
		t.Fatal(err)
	}
	var client []map[string]string
	tb := e2etest.NewTab(t, b)
	tb.Run(t, chromedp.Evaluate(string(out.Code)+";"+string(js)+".map((v) => contactRules.validateContact(v))", &client))
	if len(client) != len(inputs) {
		t.Fatalf("%d answers for %d inputs", len(client), len(inputs))
	}
	for i, in := range inputs {
		if !maps.Equal(client[i], server[i]) {
			t.Errorf("%.80q: the form says %v, the server %v", in, client[i], server[i])
		}
	}
}
