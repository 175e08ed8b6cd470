package mail

import (
	"strings"
	"testing"
)

// TestHTMLPart writes a mail's HTML part from its text: paragraphs and
// lines, links, the footer, escaped text, and the isolates as <bdi>
// elements, balanced whatever the text holds.
func TestHTMLPart(t *testing.T) {
	text := "مرحبًا،\n\nالموعد: " + Isolate("الجمعة، 3:30 م") + "\nسنتصل بك على الرقم " + IsolateLTR("+971 4 234 5678") +
		"\n\nاختر وقتًا آخر:\nhttps://example.test/ar/schedule/reschedule?token=a_b-c.\n\n<script>&\u2069\u2066open\n\n--\nتذييل"
	got := HTML("تأكيد "+Isolate("3:30"), text, "ar", "rtl")
	for _, want := range []string{
		`<html lang="ar" dir="rtl">`,
		`<title>تأكيد 3:30</title>`,
		`<p style="margin:0 0 16px">مرحبًا،</p>`,
		`الموعد: <bdi>الجمعة، 3:30 م</bdi><br>سنتصل بك على الرقم <bdi dir="ltr" style="white-space:nowrap">+971 4 234 5678</bdi>`,
		`<a href="https://example.test/ar/schedule/reschedule?token=a_b-c" dir="ltr" style="color:#1d4ed8">https://example.test/ar/schedule/reschedule?token=a_b-c</a>.`,
		`&lt;script&gt;&amp;<bdi dir="ltr" style="white-space:nowrap">open</bdi></p>`,
		`<hr style=`,
		`<p style="margin:0 0 16px;color:#5b6575;font-size:13px">تذييل</p>`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("no %s in\n%s", want, got)
		}
	}
	if strings.Count(got, "<bdi") != strings.Count(got, "</bdi>") {
		t.Errorf("unbalanced <bdi> in\n%s", got)
	}
	if strings.ContainsAny(got, fsi+lri+pdi) {
		t.Errorf("isolate characters left in the HTML:\n%s", got)
	}
}
