package booking

import (
	"strings"
	"testing"
	"time"
)

// posing is what a visitor may type as a topic or a reason, to pose as
// the lines of the consultancy's notice and invite: a number to call, a
// video link, a signature.
var posing = []string{"Call them at: +1 900 555 0100", "Video call: https://evil.example/join", "--", "The Northbeam team"}

const posingText = "Let us talk.\nCall them at: +1 900 555 0100\nVideo call: https://evil.example/join\n--\nThe Northbeam team"

// assertQuoted fails unless every line of posing is in text only as a
// quoted line ("> …").
func assertQuoted(t *testing.T, what, text string) {
	t.Helper()
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	for _, p := range posing {
		quoted := false
		for _, l := range lines {
			if strings.TrimSpace(l) == p {
				t.Errorf("%s: the visitor's %q stands as a line of its own:\n%s", what, p, text)
			}
			quoted = quoted || l == "> "+p
		}
		if !quoted {
			t.Errorf("%s: no quoted line %q in\n%s", what, "> "+p, text)
		}
	}
}

// icsDescription is the DESCRIPTION of an iCalendar file, unfolded and
// unescaped.
func icsDescription(t *testing.T, ics string) string {
	t.Helper()
	unfolded := strings.ReplaceAll(strings.ReplaceAll(ics, "\r\n ", ""), "\n ", "")
	for _, l := range strings.Split(strings.ReplaceAll(unfolded, "\r\n", "\n"), "\n") {
		if v, ok := strings.CutPrefix(l, "DESCRIPTION:"); ok {
			return strings.NewReplacer(`\n`, "\n", `\N`, "\n", `\,`, ",", `\;`, ";", `\\`, `\`).Replace(v)
		}
	}
	t.Fatalf("no DESCRIPTION in\n%s", ics)
	return ""
}

// TestVisitorTextIsQuoted: a topic or a cancellation reason whose lines
// pose as the template's ("Call them at: …", "Video call: …", a "--"
// signature) is quoted, line by line, in the consultancy's notices (the
// shipped templates) and in the invite's description, never copied as
// lines of their own.
func TestVisitorTextIsQuoted(t *testing.T) {
	content, info, texts, av := shippedContent(t)
	now := time.Date(2026, time.November, 16, 8, 0, 0, 0, time.UTC)
	svc, err := NewService(nil, content, Config{
		Availability: av, Inbox: "team@northbeam.test",
		Brand: Brand{Name: info.Name, Email: info.Email, BaseURL: "https://northbeam.test"},
		Texts: texts, Dates: shippedDates(t),
		LocalURL: func(lang, path string) string { return "https://northbeam.test/" + lang + path },
		Now:      func() time.Time { return now },
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, service := range []string{"discovery", "strategy"} { // by phone, by video
		start := time.Date(2026, time.December, 1, 8, 0, 0, 0, time.UTC)
		b := Booking{Token: "token", CancelToken: "cancel", Service: service, Start: start, End: start.Add(av.Services[service]),
			Name: "Jane Doe", Email: "jane@example.com", Topic: posingText, TimeZone: "Europe/Berlin", Lang: info.Default().Code,
			Created: now, Phone: "+4930901820", MeetingURL: "https://meet.example/northbeam"}
		mails, err := svc.mailer.confirmationMails(av, b)
		if err != nil {
			t.Fatal(err)
		}
		notice := mails[1]
		if notice.Kind != KindNotify {
			t.Fatalf("the second mail is %s", notice.Kind)
		}
		assertQuoted(t, service+": the notice of the booking", notice.Text)
		assertQuoted(t, service+": the invite the consultancy keeps", icsDescription(t, string(notice.Attachments[0].Data)))
		assertQuoted(t, service+": the invite the visitor downloads", icsDescription(t, string(svc.ICSFile(b))))

		b.Topic, b.CancelReason, b.Cancelled = "", posingText, now
		mails, err = svc.mailer.cancellationMails(av, b)
		if err != nil {
			t.Fatal(err)
		}
		assertQuoted(t, service+": the notice of the cancellation", mails[1].Text)
	}
}
