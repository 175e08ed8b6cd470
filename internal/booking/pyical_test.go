package booking

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// pythonICalendar is a Python that can import python-icalendar, the
// library behind many Python calendar tools (Debian's python3-icalendar,
// which .ci/run installs). Without one the test says so loudly and skips;
// under CI=true it fails instead.
func pythonICalendar(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"python3", "/usr/bin/python3"} {
		path, err := exec.LookPath(name)
		if err != nil {
			continue
		}
		if exec.Command(path, "-c", "import icalendar").Run() == nil {
			return path
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("CI=true but no python3 with python-icalendar was found: install Debian's python3-icalendar (see .ci/run)")
	}
	t.Skip("SKIPPED LOUDLY: no python3 with python-icalendar (apt-get install python3-icalendar); the invite was not read by it")
	return ""
}

// readAttendees is the script that reads an invite on stdin with
// python-icalendar and prints each event's attendees, one a line:
// address|name|participation|reply asked.
const readAttendees = `
import sys, icalendar
cal = icalendar.Calendar.from_ical(sys.stdin.buffer.read())
for ev in cal.walk("VEVENT"):
    atts = ev.get("ATTENDEE")
    if atts is None:
        continue
    if not isinstance(atts, list):
        atts = [atts]
    for a in atts:
        print("%s|%s|%s|%s" % (a, a.params.get("CN", ""), a.params.get("PARTSTAT", ""), a.params.get("RSVP", "")))
`

// The invite, its file and its cancellation, read by python-icalendar:
// the host is an attendee who has accepted and is asked for no reply, with
// their name in any script, beside the visitor. (A double quote in a name
// is written as RFC 6868 says, ^', which ical.js reads back and Debian's
// python-icalendar 4 leaves as it is; TestInviteHasTheHostAsAttendee holds
// that case.)
func TestPythonICalendarReadsTheHostAsAttendee(t *testing.T) {
	python := pythonICalendar(t)
	b := testBooking(t)
	inv := testInvite()
	inv.Team = []Person{{Name: "سميرة حدّاد", Email: "samira@northbeam.dev"}}
	for _, data := range [][]byte{ICS(b, inv), FileICS(b, inv), CancelICS(b, inv)} {
		cmd := exec.Command(python, "-c", readAttendees)
		cmd.Stdin = bytes.NewReader(data)
		cmd.Env = append(os.Environ(), "PYTHONIOENCODING=utf-8")
		out, err := cmd.Output()
		if err != nil {
			var stderr string
			if ee, ok := err.(*exec.ExitError); ok {
				stderr = string(ee.Stderr)
			}
			t.Fatalf("python-icalendar could not read the invite: %v\n%s\n%s", err, stderr, data)
		}
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		host := "mailto:samira@northbeam.dev|سميرة حدّاد|ACCEPTED|FALSE"
		if len(lines) != 2 || lines[0] != host || !strings.HasPrefix(lines[1], "mailto:jane@example.com|Jane Doe|") {
			t.Errorf("attendees read by python-icalendar: %q, want the host %q and the visitor", lines, host)
		}
	}
}
