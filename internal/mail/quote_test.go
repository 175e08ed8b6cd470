package mail

import (
	"strings"
	"testing"
)

// hostile is what a visitor may type to pose as the template's lines: a
// phone number to call, a video link and a signature.
const hostile = "Please call.\r\nCall them at: +1 900 555 0100\rVideo call: https://evil.example/join\u2028\n--\nThe Northbeam team\u202e"

// TestQuoteSetsVisitorTextApart: every line a visitor typed begins with
// the quote mark, whatever its line breaks, so that none reads as a line
// of the template; controls and bidirectional overrides are gone.
func TestQuoteSetsVisitorTextApart(t *testing.T) {
	got := Quote(hostile)
	want := "> Please call.\n> Call them at: +1 900 555 0100\n> Video call: https://evil.example/join\n>\n> --\n> The Northbeam team"
	if got != want {
		t.Errorf("Quote =\n%s\nwant\n%s", got, want)
	}
	if Quote(" \n\r\n ") != "" || Quote("") != "" {
		t.Error("an empty text is not empty once quoted")
	}
}

// TestHTMLPartQuotesVisitorText: in the HTML part, what a visitor typed
// is a block of its own (a blockquote), its link not made clickable and
// its "--" not taken for the signature separator; the template's own
// lines around it are paragraphs as before.
func TestHTMLPartQuotesVisitorText(t *testing.T) {
	for _, dir := range []string{"ltr", "rtl"} {
		text := "Topic:\n" + Quote(hostile) + "\n\nReply to this email.\n\n--\nFooter"
		got := HTML("Subject", text, "en", dir)
		_, rest, ok := strings.Cut(got, "<blockquote")
		if !ok {
			t.Fatalf("%s: no blockquote in\n%s", dir, got)
		}
		quote, after, _ := strings.Cut(rest, "</blockquote>")
		for _, want := range []string{"Call them at: +1 900 555 0100", "Video call: https://evil.example/join", "<br>--<br>The Northbeam team"} {
			if !strings.Contains(quote, want) {
				t.Errorf("%s: the quoted block lacks %q:\n%s", dir, want, quote)
			}
		}
		if strings.Contains(got, `href="https://evil.example`) {
			t.Errorf("%s: the visitor's link is clickable:\n%s", dir, got)
		}
		if strings.Count(got, "<hr") != 1 || !strings.Contains(after, "<hr") {
			t.Errorf("%s: the signature separator is not the template's alone:\n%s", dir, got)
		}
		side := map[string]string{"ltr": "border-left:", "rtl": "border-right:"}[dir]
		if !strings.Contains(quote, side) {
			t.Errorf("%s: the quoted block is not marked on its starting side (%s):\n%s", dir, side, quote)
		}
		if !strings.Contains(got, `<p style="margin:0 0 16px">Topic:</p>`) {
			t.Errorf("%s: the template's line before the quote:\n%s", dir, got)
		}
	}
}
