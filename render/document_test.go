package render

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
)

func TestPayloadCannotBreakOutOfItsScript(t *testing.T) {
	hostile := `</script><script>alert(1)</script><!-- ` + "\u2028"
	d := Document{Lang: "en", Dir: "ltr", Title: `A "title" <b>`, Entry: "/assets/e.js", Payload: map[string]string{"text": hostile}}
	out, err := d.HTML()
	if err != nil {
		t.Fatal(err)
	}
	html := string(out)
	if strings.Count(html, "</script>") != 2 { // the entry module's and the payload's own
		t.Fatalf("payload closed its script element early:\n%s", html)
	}
	m := regexp.MustCompile(`(?s)<script type="application/json" id="page-data">(.*?)</script>`).FindStringSubmatch(html)
	if m == nil {
		t.Fatal("no payload script")
	}
	var back map[string]string
	if err := json.Unmarshal([]byte(m[1]), &back); err != nil || back["text"] != hostile {
		t.Errorf("payload does not round-trip: %v %q", err, back["text"])
	}
	if !strings.Contains(html, "<title>A &#34;title&#34; &lt;b&gt;</title>") {
		t.Errorf("title not escaped: %s", html)
	}
}

func TestDocumentHead(t *testing.T) {
	d := Document{
		Lang: "ar", Dir: "rtl", Title: "t", Description: "d", Canonical: "https://x.test/ar",
		Alternates: []Alternate{{"en", "https://x.test/"}, {"x-default", "https://x.test/"}},
		Boot:       "/assets/boot-B.js", Entry: "/assets/entry-ABC.js", CSS: []string{"/assets/entry-ABC.css"}, Preloads: []string{"/assets/chunks/Home-X.js"},
		Body: "<p>hi</p>",
	}
	out, err := d.HTML()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`<html lang="ar" dir="rtl">`,
		`<link rel="expect" href="#site-footer" blocking="render">`,
		`<link rel="canonical" href="https://x.test/ar">`,
		`<link rel="alternate" hreflang="x-default" href="https://x.test/">`,
		`<script type="module" src="/assets/boot-B.js" data-entry="/assets/entry-ABC.js" data-preload="/assets/chunks/Home-X.js"></script>`,
		`<div id="root"><p>hi</p></div>`,
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("missing %s", want)
		}
	}
}

// A page answering a form post is served at the form's endpoint, where the
// client app would route by the wrong address: it goes without the app.
func TestDocumentWithoutTheClientApp(t *testing.T) {
	d := Document{Lang: "en", Dir: "ltr", Title: "t", CSS: []string{"/assets/entry-ABC.css"}, Body: "<p>hi</p>", Payload: map[string]string{}}
	out, err := d.HTML()
	if err != nil {
		t.Fatal(err)
	}
	html := string(out)
	if strings.Contains(html, `<script type="module"`) || strings.Contains(html, "modulepreload") {
		t.Errorf("a document without an entry loads a script:\n%s", html)
	}
	if !strings.Contains(html, `<link rel="stylesheet" href="/assets/entry-ABC.css">`) {
		t.Errorf("the stylesheet is missing:\n%s", html)
	}
}
