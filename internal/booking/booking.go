package booking

import (
	"time"

	"github.com/northbeam/site/internal/randtoken"
)

// Booking is one booked consultation. Times are UTC.
type Booking struct {
	// Token identifies the booking in URLs (the confirmation and
	// /api/bookings/<token>.ics). It is unguessable; see [NewToken].
	Token string
	// CancelToken authorizes cancelling, and is only ever sent to the
	// visitor's email address. It is unguessable and distinct from Token.
	CancelToken string
	// Service is a key of Availability.Services, such as "discovery".
	Service string
	// Start and End bound the meeting; End is Start plus the service length.
	Start time.Time
	End   time.Time
	// Name and Email are the visitor's, trimmed.
	Name  string
	Email string
	// Company and Topic are optional, trimmed, empty when not given.
	Company string
	Topic   string
	// TimeZone is the visitor's IANA zone name, used to show times in
	// mails and on the confirmation.
	TimeZone string
	// Lang is the visitor's language code (en, fr, de, ar), for mails.
	Lang string
	// Phone is the visitor's number in E.164 form (+4930123456), for a
	// service whose meetings are phone calls; empty otherwise.
	Phone string
	// MeetingURL is the video room of the meeting, for a service whose
	// meetings are video calls; empty otherwise.
	MeetingURL string
	// Created is when the booking was made.
	Created time.Time
	// Updated is when the booking was last moved; zero until then.
	Updated time.Time
	// Sequence counts the moves: the SEQUENCE of the invite.
	Sequence int
	// Cancelled is when the booking was cancelled; zero while it stands.
	Cancelled time.Time
	// CancelReason is why the visitor cancelled, in their words; "" when
	// they gave none.
	CancelReason string
	// ReminderRef is the outbox reference of the reminder waiting to be
	// sent; empty when none waits.
	ReminderRef string
	// BookedBy is the staff member who booked it for the visitor (who
	// called in); empty when the visitor booked it.
	BookedBy string
	// Host is the slug of the person who takes the call (a key of
	// Availability.Hosts); empty for a service without hosts.
	Host string
}

// Stamp is the time of the booking's latest change: the DTSTAMP of its
// invite.
func (b Booking) Stamp() time.Time {
	if !b.Updated.IsZero() {
		return b.Updated
	}
	return b.Created
}

// Interval returns the span of the meeting, without any buffer.
func (b Booking) Interval() Interval { return Interval{Start: b.Start, End: b.End} }

// IsCancelled reports whether b has been cancelled.
func (b Booking) IsCancelled() bool { return !b.Cancelled.IsZero() }

// tokenBytes is the entropy of a token: 192 bits, 32 characters in base64url.
const tokenBytes = 24

// NewToken returns a fresh random token of 192 bits from crypto/rand,
// encoded as 32 characters of unpadded base64url (A-Z a-z 0-9 - _), safe in
// paths, query strings and file names.
func NewToken() string { return randtoken.New(tokenBytes) }

// ValidToken reports whether s has the form of a token from [NewToken], so a
// handler can answer 404 without a database query for anything else.
func ValidToken(s string) bool { return randtoken.Valid(s, tokenBytes) }
