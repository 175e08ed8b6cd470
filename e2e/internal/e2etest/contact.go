package e2etest

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/chromedp"
	"github.com/northbeam/site/internal/testwait"
)

// ContactBrowserServer serves the site with a contact service on a fresh
// database, for the shared browser. People in a test type faster than
// people do, so the minimum fill time is a millisecond.
func ContactBrowserServer(t *testing.T) (*contactEnv, string) {
	t.Helper()
	env := newContactEnv(t, time.Millisecond)
	srv := httptest.NewServer(env.h)
	t.Cleanup(srv.Close)
	return env, srv.URL
}

// HeldPosts makes the tab hold every request to /api/contact until the test
// lets it go, and returns them as they come.
func HeldPosts(t *testing.T, tb *Tab) <-chan *fetch.EventRequestPaused {
	t.Helper()
	held := make(chan *fetch.EventRequestPaused, 4)
	chromedp.ListenTarget(tb.Ctx, func(ev any) {
		if e, ok := ev.(*fetch.EventRequestPaused); ok {
			held <- e
		}
	})
	tb.Run(t, fetch.Enable().WithPatterns([]*fetch.RequestPattern{{URLPattern: "*/api/contact*", RequestStage: fetch.RequestStageRequest}}))
	return held
}

func NextPost(t *testing.T, held <-chan *fetch.EventRequestPaused) *fetch.EventRequestPaused {
	t.Helper()
	select {
	case e := <-held:
		return e
	case <-time.After(time.Until(testwait.Deadline(t))):
		t.Fatal("the form did not post")
		return nil
	}
}

// PostedJSON decodes the body of a held request.
func PostedJSON(t *testing.T, e *fetch.EventRequestPaused) map[string]any {
	t.Helper()
	var body strings.Builder
	for _, entry := range e.Request.PostDataEntries {
		b, err := base64.StdEncoding.DecodeString(entry.Bytes)
		if err != nil {
			t.Fatal(err)
		}
		body.Write(b)
	}
	var fields map[string]any
	if err := json.Unmarshal([]byte(body.String()), &fields); err != nil {
		t.Fatalf("the form posted %q: %v", body.String(), err)
	}
	return fields
}

// WaitText waits until the element at sel reads want.
func WaitText(sel, want string) chromedp.Action {
	return PollFunction(`(sel, want) => document.querySelector(sel)?.textContent === want`, nil,
		chromedp.WithPollingArgs(sel, want))
}

const (
	formSel   = `#contact-form`
	SubmitSel = `#contact-form button[type="submit"]`
	StatusSel = `#contact-status`
)

func FieldSel(name string) string { return fmt.Sprintf(`#contact-form [name=%q]`, name) }

// FillContactForm types into the form as a visitor does.
func FillContactForm(name, email, message, service string) chromedp.Tasks {
	return chromedp.Tasks{
		chromedp.SendKeys(FieldSel("name"), name, chromedp.ByQuery),
		chromedp.SendKeys(FieldSel("email"), email, chromedp.ByQuery),
		chromedp.SetValue(FieldSel("service"), service, chromedp.ByQuery),
		chromedp.SendKeys(FieldSel("message"), message, chromedp.ByQuery),
	}
}

// FieldError reads the error a field in error points to with aria-describedby.
func FieldError(field string, dst *string) chromedp.Action {
	return chromedp.Evaluate(fmt.Sprintf(`(() => {
		const f = document.querySelector(%q);
		const id = f.getAttribute("aria-describedby");
		return id && f.getAttribute("aria-invalid") === "true" ? document.getElementById(id).textContent : "";
	})()`, FieldSel(field)), dst)
}

// FormValues reads the fields the visitor sees.
func FormValues(dst *map[string]string) chromedp.Action {
	return chromedp.Evaluate(`Object.fromEntries(["name", "email", "message", "service"].map((n) => [n, document.querySelector('#contact-form [name="' + n + '"]').value]))`, dst)
}
