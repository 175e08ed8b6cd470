package booking

import (
	"strings"
	"testing"
)

// unfoldICS joins an iCalendar file's folded lines.
func unfoldICS(data []byte) []string {
	return strings.Split(strings.ReplaceAll(string(data), "\r\n ", ""), "\r\n")
}

// TestFileICSIsNoSchedulingMessage: the file a visitor downloads to import
// has no METHOD and asks its attendee for no reply (RFC 5545 §3.7.2), so
// that a calendar program imports it rather than answering an invitation;
// the invite a mail carries keeps METHOD:REQUEST and RSVP=TRUE (iMIP). Both
// are the same event: same UID, times and sequence; once the booking is
// cancelled the file cancels it too.
func TestFileICSIsNoSchedulingMessage(t *testing.T) {
	b, inv := testBooking(t), testInvite()
	inv.Alarm = inviteAlarm
	line := func(lines []string, prefix string) string {
		for _, l := range lines {
			if strings.HasPrefix(l, prefix) {
				return l
			}
		}
		return ""
	}
	file, mailed := unfoldICS(FileICS(b, inv)), unfoldICS(ICS(b, inv))
	checkLines(t, FileICS(b, inv))
	if m := line(file, "METHOD"); m != "" {
		t.Errorf("the file to import carries %s", m)
	}
	if a := line(file, "ATTENDEE"); !strings.Contains(a, ";PARTSTAT=ACCEPTED;RSVP=FALSE:") {
		t.Errorf("the file's attendee: %s", a)
	}
	if m, a := line(mailed, "METHOD"), line(mailed, "ATTENDEE"); m != "METHOD:REQUEST" || !strings.Contains(a, ";RSVP=TRUE:") {
		t.Errorf("the mailed invite: %s, %s", m, a)
	}
	for _, p := range []string{"UID:", "DTSTART:", "DTEND:", "SEQUENCE:", "STATUS:", "BEGIN:VALARM"} {
		if line(file, p) != line(mailed, p) {
			t.Errorf("%s: file %q, mailed %q", p, line(file, p), line(mailed, p))
		}
	}

	b.Cancelled = utc(t, "2027-02-27T09:30:00Z")
	file, cancel := unfoldICS(FileICS(b, inv)), unfoldICS(CancelICS(b, inv))
	if m := line(file, "METHOD"); m != "" {
		t.Errorf("the cancelled booking's file carries %s", m)
	}
	for _, p := range []string{"UID:", "STATUS:", "SEQUENCE:", "DTSTAMP:"} {
		if line(file, p) != line(cancel, p) {
			t.Errorf("%s: file %q, mailed cancellation %q", p, line(file, p), line(cancel, p))
		}
	}
	if line(file, "STATUS:") != "STATUS:CANCELLED" || line(file, "BEGIN:VALARM") != "" {
		t.Errorf("the cancelled booking's file: %q", file)
	}
}
