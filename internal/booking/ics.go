package booking

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Person is a participant of a meeting: a display name and an address.
type Person struct {
	Name  string
	Email string
}

// Invite is what a calendar invite says beyond the booking itself. Texts
// are already in the visitor's language; the attendee is the booking's
// visitor, named by their address alone when the booking has no name.
type Invite struct {
	// ProdID identifies the product that made the invite (PRODID), such as
	// "-//Northbeam//Consultation booking//EN".
	ProdID string
	// Host is the domain that makes UIDs globally unique, such as
	// "northbeam.dev".
	Host string
	// Organizer is the consultancy.
	Organizer Person
	// Team are the consultancy's people at the meeting (its host), each an
	// attendee who has accepted and is asked for no reply.
	Team []Person
	// Summary is the event's title; Description its body, line breaks
	// allowed; Location where it happens (a video link or a phone number),
	// optional; URL a page about it (the confirmation), optional.
	Summary     string
	Description string
	Location    string
	URL         string
	// Conference is the address of a video call (RFC 7986 CONFERENCE),
	// optional.
	Conference string
	// Sequence is the revision of the event: 0 for the first invite. The
	// cancel invite carries Sequence+1.
	Sequence int
	// Alarm, when positive, is how long before the start the calendar
	// reminds its owner (a VALARM that displays Summary); a cancellation
	// has none.
	Alarm time.Duration
}

// icsStamp is the UTC date-time form of RFC 5545 (FORM #2).
const icsStamp = "20060102T150405Z"

// maxLineOctets is RFC 5545's limit on a content line, excluding its CRLF.
const maxLineOctets = 75

// UID returns the stable iCalendar UID of b: derived from its token, so every
// invite and cancellation of the booking refers to the same event, but a
// hash of it, so calendars that store and forward the UID never hold the
// token that opens the booking's pages.
func UID(b Booking, host string) string {
	sum := sha256.Sum256([]byte("booking uid\x00" + b.Token))
	return hex.EncodeToString(sum[:16]) + "@" + host
}

// ICS returns the invite for b as an RFC 5545 calendar with METHOD:REQUEST
// and one confirmed event in UTC, the organizer and the visitor as a required
// attendee asked to reply. DTSTAMP is the booking's latest change
// ([Booking.Stamp]), so the same booking always yields the same bytes. Lines end in CRLF and are folded at 75 octets, never
// inside a UTF-8 sequence.
func ICS(b Booking, inv Invite) []byte {
	return icsCalendar(b, inv, icsForm{method: "REQUEST", status: "CONFIRMED", sequence: inv.Sequence, stamp: b.Stamp(), rsvp: true, alarm: true})
}

// CancelICS returns the cancellation of the invite made by [ICS]: the same
// UID with METHOD:CANCEL, STATUS:CANCELLED and SEQUENCE inv.Sequence+1.
// DTSTAMP is b.Cancelled, or b's latest change while b is not cancelled.
func CancelICS(b Booking, inv Invite) []byte {
	return icsCalendar(b, inv, icsForm{method: "CANCEL", status: "CANCELLED", sequence: inv.Sequence + 1, stamp: cancelStamp(b)})
}

// FileICS returns b as a file to import into a calendar (the invite a
// visitor downloads): the event of [ICS], or of [CancelICS] once b is
// cancelled, with no METHOD, since a file for importing is no scheduling
// message (RFC 5545 §3.7.2, RFC 5546), and the visitor as an attendee who
// has accepted and is asked for no reply, so that no calendar program
// answers the consultancy for an import. The mails keep their METHOD
// (iMIP, RFC 6047).
func FileICS(b Booking, inv Invite) []byte {
	if b.IsCancelled() {
		return icsCalendar(b, inv, icsForm{status: "CANCELLED", sequence: inv.Sequence + 1, stamp: cancelStamp(b), accepted: true})
	}
	return icsCalendar(b, inv, icsForm{status: "CONFIRMED", sequence: inv.Sequence, stamp: b.Stamp(), accepted: true, alarm: true})
}

func cancelStamp(b Booking) time.Time {
	if b.Cancelled.IsZero() {
		return b.Stamp()
	}
	return b.Cancelled
}

// icsForm is what differs between the calendars of a booking.
type icsForm struct {
	method   string // METHOD, "" for a file to import
	status   string // STATUS of the event
	sequence int
	stamp    time.Time
	rsvp     bool // the attendee is asked to reply
	accepted bool // the attendee has accepted (PARTSTAT), else NEEDS-ACTION
	alarm    bool // a VALARM, when the invite has one
}

func icsCalendar(b Booking, inv Invite, f icsForm) []byte {
	var w icsWriter
	w.line("BEGIN:VCALENDAR")
	w.line("PRODID:" + escapeText(inv.ProdID))
	w.line("VERSION:2.0")
	w.line("CALSCALE:GREGORIAN")
	if f.method != "" {
		w.line("METHOD:" + f.method)
	}
	w.line("BEGIN:VEVENT")
	w.line("UID:" + escapeText(UID(b, inv.Host)))
	w.line("DTSTAMP:" + f.stamp.UTC().Format(icsStamp))
	w.line("DTSTART:" + b.Start.UTC().Format(icsStamp))
	w.line("DTEND:" + b.End.UTC().Format(icsStamp))
	w.line("SUMMARY:" + escapeText(inv.Summary))
	if inv.Description != "" {
		w.line("DESCRIPTION:" + escapeText(inv.Description))
	}
	if inv.Location != "" {
		w.line("LOCATION:" + escapeText(inv.Location))
	}
	if inv.URL != "" {
		w.line("URL:" + stripControl(inv.URL))
	}
	if inv.Conference != "" {
		w.line("CONFERENCE;VALUE=URI;FEATURE=AUDIO,VIDEO:" + stripControl(inv.Conference))
	}
	w.line("ORGANIZER;CN=" + paramValue(inv.Organizer.Name) + ":mailto:" + stripControl(inv.Organizer.Email))
	reply, partstat := "FALSE", "NEEDS-ACTION"
	if f.rsvp {
		reply = "TRUE"
	}
	if f.accepted {
		partstat = "ACCEPTED"
	}
	for _, p := range inv.Team {
		line := "ATTENDEE"
		if p.Name != "" {
			line += ";CN=" + paramValue(p.Name)
		}
		w.line(line + ";ROLE=REQ-PARTICIPANT;PARTSTAT=ACCEPTED;RSVP=FALSE:mailto:" + stripControl(p.Email))
	}
	attendee := "ATTENDEE"
	if b.Name != "" {
		attendee += ";CN=" + paramValue(b.Name)
	}
	w.line(attendee + ";ROLE=REQ-PARTICIPANT;PARTSTAT=" + partstat + ";RSVP=" + reply + ":mailto:" + stripControl(b.Email))
	w.line("STATUS:" + f.status)
	w.line("SEQUENCE:" + strconv.Itoa(f.sequence))
	w.line("TRANSP:OPAQUE")
	if f.alarm && inv.Alarm > 0 {
		w.line("BEGIN:VALARM")
		w.line("ACTION:DISPLAY")
		w.line("DESCRIPTION:" + escapeText(inv.Summary))
		w.line("TRIGGER;RELATED=START:-PT" + strconv.Itoa(int(inv.Alarm/time.Minute)) + "M")
		w.line("END:VALARM")
	}
	w.line("END:VEVENT")
	w.line("END:VCALENDAR")
	return w.buf.Bytes()
}

// icsWriter writes content lines, folded and CRLF-terminated.
type icsWriter struct {
	buf bytes.Buffer
}

// line writes one content line, folding it so that no physical line exceeds
// maxLineOctets octets: a fold is CRLF followed by one space, which counts
// toward the next line's octets, and it is moved back to a rune boundary so
// a multi-byte character is never split.
func (w *icsWriter) line(s string) {
	limit := maxLineOctets
	for len(s) > limit {
		cut := limit
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		w.buf.WriteString(s[:cut])
		w.buf.WriteString("\r\n ")
		s = s[cut:]
		limit = maxLineOctets - 1
	}
	w.buf.WriteString(s)
	w.buf.WriteString("\r\n")
}

// escapeText escapes a TEXT value (RFC 5545 section 3.3.11): backslash,
// semicolon and comma get a backslash, every line break becomes \n, and
// other control characters, which TEXT cannot hold, are dropped.
func escapeText(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		switch r {
		case '\\':
			b.WriteString(`\\`)
		case ';':
			b.WriteString(`\;`)
		case ',':
			b.WriteString(`\,`)
		case '\n', '\r':
			b.WriteString(`\n`)
		case '\t':
			b.WriteRune(r)
		default:
			if !unicode.IsControl(r) {
				b.WriteRune(r)
			}
		}
	}
	return b.String()
}

// paramValue quotes a parameter value (RFC 5545 section 3.2), such as a
// CN, encoded as RFC 6868 says: a double quote, which RFC 5545 cannot hold
// in a parameter, is written ^', a line break ^n and a caret ^^. A quoted
// value may hold ':', ';' and ','. Other controls are dropped, as is a
// backslash, legal but taken for an escape by some parsers; names hardly
// ever hold one.
func paramValue(s string) string {
	s = strings.NewReplacer("\r\n", "^n", "\n", "^n", "\r", "^n", `"`, `^'`, `^`, `^^`, `\`, ``).Replace(s)
	return `"` + stripControl(s) + `"`
}

func stripControl(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return -1
		}
		return r
	}, s)
}

// GoogleCalendarURL returns a link that opens Google Calendar's "new event"
// form filled with b and inv (title, UTC times, details, location).
func GoogleCalendarURL(b Booking, inv Invite) string {
	q := url.Values{}
	q.Set("action", "TEMPLATE")
	q.Set("text", inv.Summary)
	q.Set("dates", b.Start.UTC().Format(icsStamp)+"/"+b.End.UTC().Format(icsStamp))
	if inv.Description != "" {
		q.Set("details", unixLines(inv.Description))
	}
	if inv.Location != "" {
		q.Set("location", inv.Location)
	}
	return "https://calendar.google.com/calendar/render?" + encodeQuery(q)
}

// OutlookCalendarURL returns an Outlook on the web (outlook.live.com)
// deeplink that opens the compose-event form filled with b and inv.
func OutlookCalendarURL(b Booking, inv Invite) string {
	q := url.Values{}
	q.Set("path", "/calendar/action/compose")
	q.Set("rru", "addevent")
	q.Set("subject", inv.Summary)
	q.Set("startdt", b.Start.UTC().Format(time.RFC3339))
	q.Set("enddt", b.End.UTC().Format(time.RFC3339))
	if inv.Description != "" {
		q.Set("body", unixLines(inv.Description))
	}
	if inv.Location != "" {
		q.Set("location", inv.Location)
	}
	return "https://outlook.live.com/calendar/0/deeplink/compose?" + encodeQuery(q)
}

// unixLines turns CRLF and CR line breaks into LF.
func unixLines(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
}

// encodeQuery encodes q with spaces as %20: both calendars decode it, while
// a '+' is shown literally by some.
func encodeQuery(q url.Values) string {
	// Encode writes a literal '+' as %2B, so every '+' left is a space.
	return strings.ReplaceAll(q.Encode(), "+", "%20")
}
