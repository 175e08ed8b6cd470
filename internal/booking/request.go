package booking

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/mail"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/nyaruka/phonenumbers"

	"github.com/northbeam/site/internal/textfield"
)

// Locale keys of validation errors. They are the values of [FieldErrors];
// content/locales/<lang>.json translates them.
const (
	KeyService         = "validation.service"
	KeyStart           = "validation.start"
	KeyName            = "validation.name"
	KeyEmail           = "validation.email"
	KeyCompany         = "validation.company"
	KeyTopic           = "validation.topic"
	KeyCancelReason    = "validation.cancelReason"
	KeyTimeZone        = "validation.timeZone"
	KeyPhone           = "validation.phone"
	KeySlotUnavailable = "validation.slotUnavailable"
	KeyUnknownField    = "validation.unknownField"
	KeyFrom            = "validation.from"
	KeyDays            = "validation.days"
	KeyPerson          = "validation.person"
	KeyMeeting         = "validation.meeting"
)

// Limits of the booking request, in runes after trimming spaces, except
// MaxEmailLength which is in bytes (RFC 5321's path limit).
const (
	MaxNameLength    = 100
	MaxEmailLength   = 254
	MaxCompanyLength = 120
	MaxTopicLength   = 1000
	// MaxCancelReasonLength bounds why a visitor cancels.
	MaxCancelReasonLength = 500
)

// Limits of the slots query.
const (
	// MaxQueryDays is the most days one slots query may ask for.
	MaxQueryDays = 31
	// DefaultQueryDays is the number of days when the query names none.
	DefaultQueryDays = 7
	// maxQueryLead is how far after today a query may start; beyond any
	// sensible horizon, and it keeps date arithmetic far from overflow.
	maxQueryLead = 366
)

// FieldErrors maps a request field (its JSON or query name) to the locale key
// of what is wrong with it. A nil or empty FieldErrors means valid.
// FieldErrors implements error so that it can travel up a call chain; find it
// with errors.As.
type FieldErrors map[string]string

// Error lists the fields and their keys, sorted by field.
func (fe FieldErrors) Error() string {
	var b strings.Builder
	b.WriteString("invalid request: ")
	for i, field := range slices.Sorted(maps.Keys(fe)) {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s: %s", field, fe[field])
	}
	return b.String()
}

// ErrMalformed is wrapped by [DecodeBookingRequest] when the body is not one
// JSON object (a 400, not a field error).
var ErrMalformed = errors.New("malformed request body")

// SlotsQuery is a validated GET /api/slots query.
type SlotsQuery struct {
	// Service is a key of Availability.Services.
	Service string
	// From is the first day, in the visitor's zone.
	From Date
	// Days is the number of days, 1 to MaxQueryDays.
	Days int
	// TimeZone is the visitor's zone name as given; Location is it loaded.
	TimeZone string
	Location *time.Location
	// Person restricts the slots to one host of the service (their
	// slug); "" offers the times at which any host is free.
	Person string
}

// ParseSlotsQuery reads and validates the query of GET /api/slots:
// service=discovery|strategy (required), tz=<IANA zone> (required),
// from=YYYY-MM-DD (optional, default today in tz; not before yesterday in
// tz, nor more than a year ahead) and days=N (optional, default
// DefaultQueryDays, 1 to MaxQueryDays). Field errors are keyed by query
// parameter; unknown parameters are ignored (caches and tools add them). The
// returned FieldErrors is nil when the query is valid.
func ParseSlotsQuery(q url.Values, av Availability, now time.Time) (SlotsQuery, FieldErrors) {
	errs := FieldErrors{}
	var sq SlotsQuery

	sq.Service = q.Get("service")
	if _, ok := av.ServiceLength(sq.Service); !ok {
		errs["service"] = KeyService
	}

	sq.Person = q.Get("person")
	if sq.Person != "" && !av.Hosting(sq.Service, sq.Person) {
		errs["person"] = KeyPerson
	}

	sq.TimeZone = q.Get("tz")
	loc, ok := loadZone(sq.TimeZone)
	if !ok {
		errs["tz"] = KeyTimeZone
	}
	sq.Location = loc

	sq.Days = DefaultQueryDays
	if s := q.Get("days"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > MaxQueryDays {
			errs["days"] = KeyDays
		}
		sq.Days = n
	}

	if ok {
		// "from" is only meaningful relative to today in the visitor's
		// zone, so it is checked only once the zone is known.
		today := DateOf(now.In(loc))
		sq.From = today
		if s := q.Get("from"); s != "" {
			d, err := ParseDate(s)
			if err != nil || d.Before(today.AddDays(-1)) || d.After(today.AddDays(maxQueryLead)) {
				errs["from"] = KeyFrom
			}
			sq.From = d
		}
	} else if s := q.Get("from"); s != "" {
		d, err := ParseDate(s)
		if err != nil {
			errs["from"] = KeyFrom
		}
		sq.From = d
	}

	if len(errs) > 0 {
		return sq, errs
	}
	return sq, nil
}

// loadZone loads an IANA zone named by a visitor. The empty name and "Local"
// are refused: time.LoadLocation maps them to UTC and to the server's zone.
func loadZone(name string) (*time.Location, bool) {
	if name == "" || name == "Local" || len(name) > 64 {
		return nil, false
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil, false
	}
	return loc, true
}

// BookingRequest is the JSON body of POST /api/bookings, as received.
type BookingRequest struct {
	Service  string `json:"service"`
	Start    string `json:"start"`
	Name     string `json:"name"`
	Email    string `json:"email"`
	Company  string `json:"company,omitempty"`
	Topic    string `json:"topic,omitempty"`
	TimeZone string `json:"timeZone"`
	// Lang is not validated here: the handler resolves the response
	// language from it (else Accept-Language, else English) against the
	// site's languages, and stores that resolved code in the request before
	// calling NewBooking.
	Lang string `json:"lang,omitempty"`
	// Phone is the visitor's number, with its country code, for a service
	// whose meetings are phone calls.
	Phone string `json:"phone,omitempty"`
	// Person is the host the visitor chose (a person's slug), for a
	// service with hosts; "" lets the service assign one.
	Person string `json:"person,omitempty"`
	// Meeting is "phone" or "video", the visitor's choice for a service
	// whose meetings may be either (MeetingEither); without it, a request
	// with a phone number asks for a call.
	Meeting string `json:"meeting,omitempty"`
	// Website is a field people never see and bots fill in (a honeypot).
	Website string `json:"website,omitempty"`
	// RenderedAt is when the details step was shown, in Unix
	// milliseconds: a person takes a few seconds to fill it in.
	RenderedAt int64 `json:"renderedAt,omitempty"`
}

// Reasons a booking request looks automated; see [BookingRequest.SpamReason].
const (
	SpamHoneypot = "honeypot"
	SpamTooFast  = "too-fast"
)

// DefaultMinFillTime is the least time a person takes to fill in the
// details step.
const DefaultMinFillTime = 3 * time.Second

// SpamReason says why r looks sent by a program rather than a person, or
// "": the honeypot field is filled in, or the details step was sent less
// than minFill after it was shown (or "shown" in the future). A request
// without a time (from a client that does not send one) is not suspected.
func (r BookingRequest) SpamReason(now time.Time, minFill time.Duration) string {
	if strings.TrimSpace(r.Website) != "" {
		return SpamHoneypot
	}
	if r.RenderedAt > 0 {
		shown := time.UnixMilli(r.RenderedAt)
		if shown.After(now) || now.Sub(shown) < minFill {
			return SpamTooFast
		}
	}
	return ""
}

// fieldKey returns the locale key of a JSON field of BookingRequest, and
// false for fields without one.
func fieldKey(field string) (string, bool) {
	switch field {
	case "service":
		return KeyService, true
	case "start":
		return KeyStart, true
	case "name":
		return KeyName, true
	case "email":
		return KeyEmail, true
	case "company":
		return KeyCompany, true
	case "topic":
		return KeyTopic, true
	case "timeZone":
		return KeyTimeZone, true
	case "phone":
		return KeyPhone, true
	case "person":
		return KeyPerson, true
	case "meeting":
		return KeyMeeting, true
	}
	return "", false
}

// DecodeBookingRequest decodes one JSON object from r into a BookingRequest.
// An unknown field gives FieldErrors{field: KeyUnknownField}; a value of the
// wrong JSON type for a known field gives that field's key; anything else
// that is not exactly one JSON object gives an error wrapping ErrMalformed.
// The caller limits the size of r.
func DecodeBookingRequest(r io.Reader) (BookingRequest, error) {
	var req BookingRequest
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		if field, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
			if name, uerr := strconv.Unquote(field); uerr == nil {
				field = name
			}
			return BookingRequest{}, FieldErrors{field: KeyUnknownField}
		}
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) {
			if key, ok := fieldKey(typeErr.Field); ok {
				return BookingRequest{}, FieldErrors{typeErr.Field: key}
			}
		}
		return BookingRequest{}, fmt.Errorf("%w: %w", ErrMalformed, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return BookingRequest{}, fmt.Errorf("%w: data after the JSON object", ErrMalformed)
	}
	return req, nil
}

// checkedRequest is a BookingRequest that passed validation, with its values
// parsed and trimmed.
type checkedRequest struct {
	slot                        Slot
	name, email, company, topic string
	service, timeZone, lang     string
	phone                       string // E.164
	person                      string
	video                       bool // a video call (the service's, or the visitor's choice)
}

// Validate checks r against av at now and returns the problems by JSON field,
// or nil when there are none. The start must be a slot currently offered by
// the schedule (KeySlotUnavailable otherwise); collisions with other
// bookings are not checked here but by the store, in the transaction that
// inserts the booking, so that a lost race is a 409 and not a 422.
func (r BookingRequest) Validate(av Availability, now time.Time) FieldErrors {
	_, errs := r.check(av, now)
	return errs
}

func (r BookingRequest) check(av Availability, now time.Time) (checkedRequest, FieldErrors) {
	errs := FieldErrors{}
	c := checkedRequest{service: r.Service, timeZone: r.TimeZone, lang: r.Lang, person: strings.TrimSpace(r.Person)}

	_, serviceOK := av.ServiceLength(r.Service)
	if !serviceOK {
		errs["service"] = KeyService
	}
	if c.person != "" && serviceOK && !av.Hosting(r.Service, c.person) {
		errs["person"] = KeyPerson
		serviceOK = false // no host's hours to check the start against
	}

	start, err := time.Parse(time.RFC3339, strings.TrimSpace(r.Start))
	switch {
	case err != nil:
		errs["start"] = KeyStart
	case serviceOK:
		slot, ok := offeredByHosts(av, r.Service, c.person, start, now)
		if !ok {
			errs["start"] = KeySlotUnavailable
		}
		c.slot = slot
	}

	// The name, company and topic reach mail subjects and the invite's CN:
	// the invisible characters that reorder or hide text are removed, and
	// a line separator is a line break (refused on one line).
	c.name = strings.TrimSpace(textfield.Clean(r.Name))
	if n := utf8.RuneCountInString(c.name); n < 1 || n > MaxNameLength || hasControl(c.name, false) {
		errs["name"] = KeyName
	}

	c.email = strings.TrimSpace(r.Email)
	if !ValidEmail(c.email) {
		errs["email"] = KeyEmail
	}

	c.company = strings.TrimSpace(textfield.Clean(r.Company))
	if utf8.RuneCountInString(c.company) > MaxCompanyLength || hasControl(c.company, false) {
		errs["company"] = KeyCompany
	}

	c.topic = strings.TrimSpace(textfield.Clean(r.Topic))
	if utf8.RuneCountInString(c.topic) > MaxTopicLength || hasControl(c.topic, true) {
		errs["topic"] = KeyTopic
	}

	if _, ok := loadZone(r.TimeZone); !ok {
		errs["timeZone"] = KeyTimeZone
	}

	meeting, _ := av.MeetingOf(r.Service)
	kind := meeting.Kind
	if kind == MeetingEither {
		switch {
		case r.Meeting == MeetingPhone, r.Meeting == MeetingVideo:
			kind = r.Meeting
		case r.Meeting == "" && strings.TrimSpace(r.Phone) != "":
			// A client that knows only phone calls still books one.
			kind = MeetingPhone
		default:
			errs["meeting"] = KeyMeeting
		}
	} else if r.Meeting != "" && r.Meeting != kind {
		errs["meeting"] = KeyMeeting
	}
	c.video = kind == MeetingVideo
	switch {
	case kind == MeetingPhone:
		phone, ok := NormalizePhone(r.Phone)
		if !ok {
			errs["phone"] = KeyPhone
		}
		c.phone = phone
	case strings.TrimSpace(r.Phone) != "":
		// A number nobody will call is not kept.
		errs["phone"] = KeyUnknownField
	}

	if len(errs) > 0 {
		return checkedRequest{}, errs
	}
	return c, nil
}

// NormalizePhone reads a phone number written with its country code
// ("+49 30 1234 5678", "0049 30 12345678", "+1 (415) 555-0100") and
// returns it in E.164 form, or false when it is not a number that can be
// dialled. The number is checked against libphonenumber's metadata
// (nyaruka/phonenumbers): length and prefixes per country.
func NormalizePhone(raw string) (string, bool) {
	raw = strings.TrimSpace(raw)
	if strings.HasPrefix(raw, "00") {
		raw = "+" + raw[2:]
	}
	if !strings.HasPrefix(raw, "+") || utf8.RuneCountInString(raw) > 32 {
		return "", false
	}
	num, err := phonenumbers.Parse(raw, "")
	if err != nil || !phonenumbers.IsValidNumber(num) {
		return "", false
	}
	return phonenumbers.Format(num, phonenumbers.E164), true
}

// FormatPhone writes an E.164 number as people read it: international
// format with the country's grouping ("+49 30 12345678").
func FormatPhone(e164 string) string {
	num, err := phonenumbers.Parse(e164, "")
	if err != nil {
		return e164
	}
	return phonenumbers.Format(num, phonenumbers.INTERNATIONAL)
}

// hasControl reports whether s holds a control character; with multiline,
// line breaks and tabs are allowed.
func hasControl(s string, multiline bool) bool {
	return strings.ContainsFunc(s, func(r rune) bool {
		if multiline && (r == '\n' || r == '\r' || r == '\t') {
			return false
		}
		return unicode.IsControl(r)
	})
}

// ValidEmail reports whether s is a plain address (local@domain, no display
// name, no quoting, no comments, no IP literal) of at most MaxEmailLength
// bytes, whose domain has at least two labels.
func ValidEmail(s string) bool {
	if s == "" || len(s) > MaxEmailLength {
		return false
	}
	addr, err := mail.ParseAddress(s)
	if err != nil || addr.Name != "" || addr.Address != s {
		return false
	}
	at := strings.LastIndexByte(s, '@')
	local, domain := s[:at], s[at+1:]
	if local == "" || len(local) > 64 {
		return false
	}
	labels := strings.Split(domain, ".")
	if len(labels) < 2 {
		return false
	}
	for _, l := range labels {
		if l == "" || len(l) > 63 || l[0] == '-' || l[len(l)-1] == '-' {
			return false
		}
		for _, r := range l {
			if r != '-' && !unicode.IsLetter(r) && !unicode.IsDigit(r) {
				return false
			}
		}
	}
	return true
}

// NewBooking validates r against av at now and returns the booking it asks
// for, with fresh tokens, trimmed fields, the slot's UTC start and end, and
// Created set to now. When r is invalid the error is its FieldErrors.
// Whether the slot is still free is for the store to decide; see
// [Conflicts].
func NewBooking(r BookingRequest, av Availability, now time.Time) (Booking, error) {
	c, errs := r.check(av, now)
	if errs != nil {
		return Booking{}, errs
	}
	b := Booking{
		Token:       NewToken(),
		CancelToken: NewToken(),
		Service:     c.service,
		Start:       c.slot.Start,
		End:         c.slot.End,
		Name:        c.name,
		Email:       c.email,
		Company:     c.company,
		Topic:       c.topic,
		TimeZone:    c.timeZone,
		Lang:        c.lang,
		Phone:       c.phone,
		Created:     now.UTC(),
	}
	if m, ok := av.MeetingOf(c.service); ok && c.video {
		b.MeetingURL = m.URL
		if m.RoomBase != "" {
			// A room of its own: the name is unguessable, so nobody walks
			// into another visitor's meeting.
			b.MeetingURL = m.RoomBase + NewToken()[:20]
		}
	}
	return b, nil
}
