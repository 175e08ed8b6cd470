package booking

import (
	"bytes"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	ics "github.com/arran4/golang-ical"

	"github.com/northbeam/site/internal/icaljs"
)

const testToken = "q3Yh0f4k9Vb2Xc7Zt1Lm5Np8Rs6Wd0Ea"

func testBooking(t *testing.T) Booking {
	return Booking{
		Token:       testToken,
		CancelToken: "c4nc3lc4nc3lc4nc3lc4nc3lc4nc3lc4",
		Service:     "discovery",
		Start:       utc(t, "2027-03-01T08:00:00Z"),
		End:         utc(t, "2027-03-01T08:15:00Z"),
		Name:        "Jane Doe",
		Email:       "jane@example.com",
		TimeZone:    "America/Los_Angeles",
		Lang:        "en",
		Created:     utc(t, "2027-02-26T11:00:00Z"),
	}
}

func testInvite() Invite {
	return Invite{
		ProdID:      "-//Northbeam//Consultation booking//EN",
		Host:        "northbeam.dev",
		Organizer:   Person{Name: "Northbeam", Email: "hello@northbeam.dev"},
		Summary:     "Discovery call with Northbeam",
		Description: "Free, no obligation.",
	}
}

func TestICSGolden(t *testing.T) {
	got := string(ICS(testBooking(t), testInvite()))
	want := strings.Join([]string{
		"BEGIN:VCALENDAR",
		"PRODID:-//Northbeam//Consultation booking//EN",
		"VERSION:2.0",
		"CALSCALE:GREGORIAN",
		"METHOD:REQUEST",
		"BEGIN:VEVENT",
		// The UID must never change for a given token: calendars match
		// the cancellation to the invite by it.
		"UID:b5b65d26e5b79809fad6155174d6a113@northbeam.dev",
		"DTSTAMP:20270226T110000Z",
		"DTSTART:20270301T080000Z",
		"DTEND:20270301T081500Z",
		"SUMMARY:Discovery call with Northbeam",
		`DESCRIPTION:Free\, no obligation.`,
		`ORGANIZER;CN="Northbeam":mailto:hello@northbeam.dev`,
		`ATTENDEE;CN="Jane Doe";ROLE=REQ-PARTICIPANT;PARTSTAT=NEEDS-ACTION;RSVP=TRUE`,
		" :mailto:jane@example.com",
		"STATUS:CONFIRMED",
		"SEQUENCE:0",
		"TRANSP:OPAQUE",
		"END:VEVENT",
		"END:VCALENDAR",
		"",
	}, "\r\n")
	if got != want {
		t.Errorf("ICS =\n%s\nwant\n%s", got, want)
	}
}

func TestICSParsesBack(t *testing.T) {
	b := testBooking(t)
	b.Name = `زينب "الحسيني", م.`
	b.Email = "zainab@example.com"
	b.Company = "شركة المثال"
	inv := testInvite()
	inv.Summary = "مكالمة استكشافية مع نورثبيم; ١٥ دقيقة, مجانية"
	inv.Description = "شكراً لحجزك.\nالموضوع: ترحيل الأنظمة القديمة إلى السحابة\\الحاويات; التكلفة, الجدول الزمني.\r\nسنتصل بك في الموعد المحدد. " +
		strings.Repeat("نص عربي طويل لاختبار طي الأسطر دون كسر الأحرف متعددة البايتات. ", 4) + "🙂 日本語"
	inv.Location = "https://meet.example.com/northbeam, room 1"
	inv.URL = "https://northbeam.dev/schedule/confirmed/" + b.Token
	inv.Sequence = 2

	data := ICS(b, inv)
	checkLines(t, data)

	cal, err := ics.ParseCalendar(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("parse: %v\n%s", err, data)
	}
	calProps := map[string]string{}
	for _, p := range cal.CalendarProperties {
		calProps[p.IANAToken] = p.Value
	}
	for k, want := range map[string]string{"METHOD": "REQUEST", "VERSION": "2.0", "PRODID": inv.ProdID} {
		if calProps[k] != want {
			t.Errorf("%s = %q, want %q", k, calProps[k], want)
		}
	}
	events := cal.Events()
	if len(events) != 1 {
		t.Fatalf("%d events, want 1", len(events))
	}
	ev := events[0]
	if got, want := ev.Id(), UID(b, inv.Host); got != want {
		t.Errorf("UID = %q, want %q", got, want)
	}
	start, err := ev.GetStartAt()
	if err != nil || !start.Equal(b.Start) || start.Location() != time.UTC {
		t.Errorf("DTSTART = %v (%v), want %v in UTC", start, err, b.Start)
	}
	end, err := ev.GetEndAt()
	if err != nil || !end.Equal(b.End) {
		t.Errorf("DTEND = %v (%v), want %v", end, err, b.End)
	}
	stamp, err := ev.GetDtStampTime()
	if err != nil || !stamp.Equal(b.Created) {
		t.Errorf("DTSTAMP = %v (%v), want %v", stamp, err, b.Created)
	}
	text := func(p ics.ComponentProperty) string {
		if prop := ev.GetProperty(p); prop != nil {
			return prop.Value
		}
		return ""
	}
	wantDescription := strings.ReplaceAll(inv.Description, "\r\n", "\n")
	for p, want := range map[ics.ComponentProperty]string{
		ics.ComponentPropertySummary:     inv.Summary,
		ics.ComponentPropertyDescription: wantDescription,
		ics.ComponentPropertyLocation:    inv.Location,
		ics.ComponentPropertyUrl:         inv.URL,
		ics.ComponentPropertyStatus:      "CONFIRMED",
		ics.ComponentPropertySequence:    "2",
	} {
		if got := text(p); got != want {
			t.Errorf("%s = %q, want %q", p, got, want)
		}
	}

	org := ev.GetProperty(ics.ComponentPropertyOrganizer)
	if org == nil || org.Value != "mailto:hello@northbeam.dev" || first(org.ICalParameters["CN"]) != "Northbeam" {
		t.Errorf("ORGANIZER = %+v", org)
	}
	attendees := ev.Attendees()
	if len(attendees) != 1 {
		t.Fatalf("%d attendees, want 1", len(attendees))
	}
	a := attendees[0]
	if a.Email() != b.Email {
		t.Errorf("attendee email = %q", a.Email())
	}
	// A double quote is written ^' (RFC 6868), which this library does not
	// decode (TestInviteParametersRFC6868 reads it back with one that does).
	if got, want := first(a.ICalParameters["CN"]), `زينب ^'الحسيني^', م.`; got != want {
		t.Errorf("attendee CN = %q, want %q", got, want)
	}
	for param, want := range map[string]string{"ROLE": "REQ-PARTICIPANT", "PARTSTAT": "NEEDS-ACTION", "RSVP": "TRUE"} {
		if got := first(a.ICalParameters[param]); got != want {
			t.Errorf("attendee %s = %q, want %q", param, got, want)
		}
	}

	if again := ICS(b, inv); !bytes.Equal(again, data) {
		t.Error("ICS is not deterministic")
	}
}

func first(s []string) string {
	if len(s) == 0 {
		return ""
	}
	return s[0]
}

func TestCancelICS(t *testing.T) {
	b := testBooking(t)
	b.Cancelled = utc(t, "2027-02-27T09:30:00Z")
	inv := testInvite()
	inv.Sequence = 0

	data := CancelICS(b, inv)
	checkLines(t, data)
	cal, err := ics.ParseCalendar(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	var method string
	for _, p := range cal.CalendarProperties {
		if p.IANAToken == "METHOD" {
			method = p.Value
		}
	}
	if method != "CANCEL" {
		t.Errorf("METHOD = %q, want CANCEL", method)
	}
	ev := cal.Events()[0]
	if ev.Id() != UID(b, inv.Host) {
		t.Errorf("cancel UID %q differs from the invite's %q", ev.Id(), UID(b, inv.Host))
	}
	for p, want := range map[ics.ComponentProperty]string{
		ics.ComponentPropertyStatus:   "CANCELLED",
		ics.ComponentPropertySequence: "1",
		ics.ComponentPropertyDtstamp:  "20270227T093000Z",
		ics.ComponentPropertyDtStart:  "20270301T080000Z",
	} {
		if got := ev.GetProperty(p); got == nil || got.Value != want {
			t.Errorf("%s = %+v, want %q", p, got, want)
		}
	}
	if got := first(ev.Attendees()[0].ICalParameters["RSVP"]); got != "FALSE" {
		t.Errorf("cancel asks for a reply: RSVP=%s", got)
	}
}

func TestUIDIsStableAndHidesTheToken(t *testing.T) {
	b := testBooking(t)
	uid := UID(b, "northbeam.dev")
	if uid != UID(b, "northbeam.dev") {
		t.Error("UID not stable")
	}
	if strings.Contains(uid, b.Token) {
		t.Errorf("UID %q reveals the token", uid)
	}
	other := b
	other.Token = NewToken()
	if UID(other, "northbeam.dev") == uid {
		t.Error("two tokens, one UID")
	}
	// Nothing but the token matters: a rescheduled or cancelled booking
	// keeps its UID.
	moved := b
	moved.Start, moved.End, moved.Cancelled = b.Start.Add(time.Hour), b.End.Add(time.Hour), b.Created
	if UID(moved, "northbeam.dev") != uid {
		t.Error("UID depends on more than the token")
	}
}

// checkLines checks the physical form of an iCalendar stream: CRLF only,
// at most 75 octets per line, whole UTF-8 characters on every line.
func checkLines(t *testing.T, data []byte) {
	t.Helper()
	if !bytes.HasSuffix(data, []byte("\r\n")) {
		t.Error("does not end in CRLF")
	}
	if n := bytes.Count(data, []byte("\n")); n != bytes.Count(data, []byte("\r\n")) {
		t.Error("has a line feed without carriage return")
	}
	if n := bytes.Count(data, []byte("\r")); n != bytes.Count(data, []byte("\r\n")) {
		t.Error("has a carriage return without line feed")
	}
	for i, line := range strings.Split(strings.TrimSuffix(string(data), "\r\n"), "\r\n") {
		if len(line) > maxLineOctets {
			t.Errorf("line %d has %d octets: %q", i+1, len(line), line)
		}
		if !utf8.ValidString(line) {
			t.Errorf("line %d splits a UTF-8 sequence: %q", i+1, line)
		}
		if line == "" || line == " " {
			t.Errorf("line %d is empty", i+1)
		}
	}
}

func TestFolding(t *testing.T) {
	tests := []struct {
		name  string
		line  string
		lines int // physical lines expected
	}{
		{"75 octets stay on one line", strings.Repeat("a", 75), 1},
		{"76 octets fold once", strings.Repeat("a", 76), 2},
		{"75 + 74 octets fold once", strings.Repeat("a", 75+74), 2},
		{"75 + 75 octets fold twice", strings.Repeat("a", 75+75), 3},
		{"Arabic, two octets a letter, odd cut", "X" + strings.Repeat("ع", 100), 0},
		{"Arabic, two octets a letter, even cut", strings.Repeat("ع", 100), 0},
		{"Japanese, three octets", strings.Repeat("語", 80), 0},
		{"emoji, four octets", "AB" + strings.Repeat("🙂", 60), 0},
		{"mixed", strings.Repeat("aع語🙂", 40), 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var w icsWriter
			w.line(tt.line)
			out := w.buf.String()
			checkLines(t, []byte(out))
			physical := strings.Split(strings.TrimSuffix(out, "\r\n"), "\r\n")
			if tt.lines != 0 && len(physical) != tt.lines {
				t.Errorf("%d physical lines, want %d", len(physical), tt.lines)
			}
			for i, p := range physical[1:] {
				if !strings.HasPrefix(p, " ") {
					t.Errorf("continuation line %d does not start with a space: %q", i+2, p)
				}
			}
			// Folding uses the room it has: only the last line, or a line
			// that stops before a character that would not fit, is short.
			for i, p := range physical[:len(physical)-1] {
				next := physical[i+1][1:]
				_, size := utf8.DecodeRuneInString(next)
				if len(p)+size <= maxLineOctets {
					t.Errorf("line %d (%d octets) could have held the next character", i+1, len(p))
				}
			}
			if unfolded := strings.ReplaceAll(strings.TrimSuffix(out, "\r\n"), "\r\n ", ""); unfolded != tt.line {
				t.Errorf("unfolds to %q, want %q", unfolded, tt.line)
			}
		})
	}
}

func TestParamValue(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Jane Doe", `"Jane Doe"`},
		{"Doe, Jane; PhD: CTO", `"Doe, Jane; PhD: CTO"`},
		{`Jane "JD" Doe`, `"Jane ^'JD^' Doe"`},
		{"Jane^n Doe", `"Jane^^n Doe"`},
		{"Jane^'", `"Jane^^'"`},
		{`Jane\ Doe`, `"Jane Doe"`},
		{"Jane\nDoe\r\nX\rY\x00\t", `"Jane^nDoe^nX^nY"`},
		{"زينب الحسيني", `"زينب الحسيني"`},
	}
	for _, tt := range tests {
		if got := paramValue(tt.in); got != tt.want {
			t.Errorf("paramValue(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

// The invite's parameters follow RFC 6868: read back by ical.js (the
// library of Thunderbird, which decodes it), a name with double quotes, an
// apostrophe, a caret and a line break is the name the visitor typed.
func TestInviteParametersRFC6868(t *testing.T) {
	b := testBooking(t)
	inv := testInvite()
	for _, name := range []string{`Anna "AJ" O'Neil`, "Ana ^n Mar\u00eda ^' ^^", "Zeynep\nAl-Husseini", `"Doe; Jane", CTO: ^`} {
		b.Name = name
		inv.Organizer.Name = "Northbeam " + name
		jcal, err := icaljs.JCal(string(ICS(b, inv)))
		if err != nil {
			t.Fatal(err)
		}
		cn := map[string]string{}
		for _, ev := range jcal[2].([]any) {
			for _, p := range ev.([]any)[1].([]any) {
				prop := p.([]any)
				if params, ok := prop[1].(map[string]any); ok && params["cn"] != nil {
					cn[prop[0].(string)] = params["cn"].(string)
				}
			}
		}
		if cn["attendee"] != name || cn["organizer"] != "Northbeam "+name {
			t.Errorf("%q reads back as attendee %q, organizer %q", name, cn["attendee"], cn["organizer"])
		}
	}
}

func TestEscapeText(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain", "plain"},
		{`a\b`, `a\\b`},
		{"a;b,c", `a\;b\,c`},
		{"one\ntwo\r\nthree\rfour", `one\ntwo\nthree\nfour`},
		{"tab\there", "tab\there"},
		{"bell\a null\x00 del\x7f", "bell null del"},
		{`:"colon and quote"`, `:"colon and quote"`},
		{"عربي، نص؛ هنا", "عربي، نص؛ هنا"}, // Arabic comma and semicolon are not special
		{`\n literally`, `\\n literally`},
	}
	for _, tt := range tests {
		if got := escapeText(tt.in); got != tt.want {
			t.Errorf("escapeText(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestCalendarURLs(t *testing.T) {
	b := testBooking(t)
	inv := testInvite()
	inv.Summary = "مكالمة استكشافية + أسئلة"
	inv.Description = "Line one\r\nLine two & more"
	inv.Location = "https://meet.example.com/x?y=1"

	google, err := url.Parse(GoogleCalendarURL(b, inv))
	if err != nil {
		t.Fatal(err)
	}
	if google.Scheme != "https" || google.Host != "calendar.google.com" || google.Path != "/calendar/render" {
		t.Errorf("Google URL = %s", google)
	}
	gq := google.Query()
	for k, want := range map[string]string{
		"action":   "TEMPLATE",
		"text":     inv.Summary,
		"dates":    "20270301T080000Z/20270301T081500Z",
		"details":  "Line one\nLine two & more",
		"location": inv.Location,
	} {
		if got := gq.Get(k); got != want {
			t.Errorf("Google %s = %q, want %q", k, got, want)
		}
	}

	outlook, err := url.Parse(OutlookCalendarURL(b, inv))
	if err != nil {
		t.Fatal(err)
	}
	if outlook.Host != "outlook.live.com" || outlook.Path != "/calendar/0/deeplink/compose" {
		t.Errorf("Outlook URL = %s", outlook)
	}
	oq := outlook.Query()
	for k, want := range map[string]string{
		"path":     "/calendar/action/compose",
		"rru":      "addevent",
		"subject":  inv.Summary,
		"startdt":  "2027-03-01T08:00:00Z",
		"enddt":    "2027-03-01T08:15:00Z",
		"body":     "Line one\nLine two & more",
		"location": inv.Location,
	} {
		if got := oq.Get(k); got != want {
			t.Errorf("Outlook %s = %q, want %q", k, got, want)
		}
	}

	for _, u := range []*url.URL{google, outlook} {
		if strings.Contains(u.RawQuery, "+") {
			t.Errorf("query %q encodes a space as +", u.RawQuery)
		}
	}
}

// FuzzICS checks that no text a visitor or an editor can supply breaks the
// physical form of the invite or survives unescaped into it.
func FuzzICS(f *testing.F) {
	f.Add("Discovery call", "Line one\nLine two; a, b \\ c", "Jane \"JD\" Doe")
	f.Add(strings.Repeat("ع", 90), strings.Repeat("🙂語a", 50), "زينب")
	f.Add("\x00\a\r\r\n", "\u2028\u202e", "")
	f.Add("0", "0", `\`) // a backslash in a CN broke a lenient parser
	f.Fuzz(func(t *testing.T, summary, description, name string) {
		b := testBooking(t)
		b.Name = name
		inv := testInvite()
		inv.Summary, inv.Description = summary, description
		if !utf8.ValidString(summary + description + name) {
			t.Skip("JSON decoding never hands over invalid UTF-8")
		}
		wantLines := 19 // as in TestICSGolden
		if description == "" {
			wantLines-- // no DESCRIPTION
		}
		for _, data := range [][]byte{ICS(b, inv), CancelICS(b, inv)} {
			checkLines(t, data)
			unfolded := strings.ReplaceAll(string(data), "\r\n ", "")
			if got := strings.Count(unfolded, "\r\n"); got != wantLines {
				t.Errorf("%d logical lines, want %d: a line break escaped unescaped", got, wantLines)
			}
			if _, err := ics.ParseCalendar(bytes.NewReader(data)); err != nil {
				t.Errorf("parse: %v", err)
			}
		}
	})
}

// The host of a booking is an attendee of its invite who has accepted and
// is asked for no reply, beside the visitor: ical.js (the library of
// Thunderbird) and golang-ical read both back, with the host's name in
// any script.
func TestInviteHasTheHostAsAttendee(t *testing.T) {
	b := testBooking(t)
	inv := testInvite()
	inv.Team = []Person{{Name: `سميرة "سام" حدّاد`, Email: "samira@northbeam.dev"}}
	for _, data := range [][]byte{ICS(b, inv), FileICS(b, inv), CancelICS(b, inv)} {
		checkLines(t, data)
		jcal, err := icaljs.JCal(string(data))
		if err != nil {
			t.Fatalf("ical.js: %v\n%s", err, data)
		}
		var attendees []string
		for _, ev := range jcal[2].([]any) {
			for _, p := range ev.([]any)[1].([]any) {
				prop := p.([]any)
				if prop[0] != "attendee" {
					continue
				}
				params := prop[1].(map[string]any)
				attendees = append(attendees, fmt.Sprintf("%v|%v|%v|%v", prop[3], params["cn"], params["partstat"], params["rsvp"]))
			}
		}
		host := `mailto:samira@northbeam.dev|سميرة "سام" حدّاد|ACCEPTED|FALSE`
		if len(attendees) != 2 || attendees[0] != host || !strings.HasPrefix(attendees[1], "mailto:jane@example.com|Jane Doe|") {
			t.Errorf("attendees read by ical.js: %q, want the host %q and the visitor", attendees, host)
		}
		cal, err := ics.ParseCalendar(bytes.NewReader(data))
		if err != nil || len(cal.Events()) != 1 || len(cal.Events()[0].Attendees()) != 2 {
			t.Errorf("golang-ical: %v", err)
		}
	}
}
