package booking

import (
	"errors"
	"maps"
	"net/url"
	"strings"
	"testing"
	"time"
)

func TestParseSlotsQuery(t *testing.T) {
	av := fixture(t)
	// 20:00 UTC on 1 March: already 2 March in Auckland, still 1 March in
	// Los Angeles.
	now := utc(t, "2027-03-01T20:00:00Z")
	tests := []struct {
		name     string
		query    string
		want     SlotsQuery // Location compared by name through TimeZone
		wantErrs FieldErrors
	}{
		{
			name:  "all given",
			query: "service=discovery&from=2027-03-02&days=14&tz=Pacific/Auckland",
			want:  SlotsQuery{Service: "discovery", From: Date{2027, 3, 2}, Days: 14, TimeZone: "Pacific/Auckland"},
		},
		{
			name:  "defaults: today in the visitor's zone, a week",
			query: "service=strategy&tz=Pacific/Auckland",
			want:  SlotsQuery{Service: "strategy", From: Date{2027, 3, 2}, Days: DefaultQueryDays, TimeZone: "Pacific/Auckland"},
		},
		{
			name:  "defaults in a zone behind",
			query: "service=strategy&tz=America/Los_Angeles",
			want:  SlotsQuery{Service: "strategy", From: Date{2027, 3, 1}, Days: DefaultQueryDays, TimeZone: "America/Los_Angeles"},
		},
		{
			name:  "yesterday in the visitor's zone is allowed",
			query: "service=discovery&from=2027-02-28&days=1&tz=America/Los_Angeles",
			want:  SlotsQuery{Service: "discovery", From: Date{2027, 2, 28}, Days: 1, TimeZone: "America/Los_Angeles"},
		},
		{
			name:  "31 days",
			query: "service=discovery&days=31&tz=UTC",
			want:  SlotsQuery{Service: "discovery", From: Date{2027, 3, 1}, Days: 31, TimeZone: "UTC"},
		},
		{
			name:  "unknown parameters are ignored",
			query: "service=discovery&tz=UTC&_=12345",
			want:  SlotsQuery{Service: "discovery", From: Date{2027, 3, 1}, Days: DefaultQueryDays, TimeZone: "UTC"},
		},
		{name: "no service", query: "tz=UTC", wantErrs: FieldErrors{"service": KeyService}},
		{name: "unknown service", query: "service=lunch&tz=UTC", wantErrs: FieldErrors{"service": KeyService}},
		{name: "service in another case", query: "service=Discovery&tz=UTC", wantErrs: FieldErrors{"service": KeyService}},
		{name: "no zone", query: "service=discovery", wantErrs: FieldErrors{"tz": KeyTimeZone}},
		{name: "unknown zone", query: "service=discovery&tz=Mars/Olympus", wantErrs: FieldErrors{"tz": KeyTimeZone}},
		{name: "the server's zone", query: "service=discovery&tz=Local", wantErrs: FieldErrors{"tz": KeyTimeZone}},
		{name: "a path as a zone", query: "service=discovery&tz=../../etc/passwd", wantErrs: FieldErrors{"tz": KeyTimeZone}},
		{name: "zero days", query: "service=discovery&tz=UTC&days=0", wantErrs: FieldErrors{"days": KeyDays}},
		{name: "32 days", query: "service=discovery&tz=UTC&days=32", wantErrs: FieldErrors{"days": KeyDays}},
		{name: "days not a number", query: "service=discovery&tz=UTC&days=week", wantErrs: FieldErrors{"days": KeyDays}},
		{name: "negative days", query: "service=discovery&tz=UTC&days=-3", wantErrs: FieldErrors{"days": KeyDays}},
		{name: "from not a date", query: "service=discovery&tz=UTC&from=2027-3-1", wantErrs: FieldErrors{"from": KeyFrom}},
		{name: "from impossible", query: "service=discovery&tz=UTC&from=2027-02-30", wantErrs: FieldErrors{"from": KeyFrom}},
		{
			name:     "from two days ago in the visitor's zone",
			query:    "service=discovery&tz=Pacific/Auckland&from=2027-02-28",
			wantErrs: FieldErrors{"from": KeyFrom},
		},
		{name: "from too far ahead", query: "service=discovery&tz=UTC&from=2028-03-02", wantErrs: FieldErrors{"from": KeyFrom}},
		{
			name:     "everything wrong",
			query:    "service=&tz=Nowhere&days=100&from=yesterday",
			wantErrs: FieldErrors{"service": KeyService, "tz": KeyTimeZone, "days": KeyDays, "from": KeyFrom},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q, err := url.ParseQuery(tt.query)
			if err != nil {
				t.Fatal(err)
			}
			got, errs := ParseSlotsQuery(q, av, now)
			if !maps.Equal(errs, tt.wantErrs) {
				t.Fatalf("errors = %v, want %v", errs, tt.wantErrs)
			}
			if tt.wantErrs != nil {
				return
			}
			if errs != nil {
				t.Errorf("valid query gave non-nil FieldErrors %#v", errs)
			}
			if got.Location == nil || got.Location.String() != tt.want.TimeZone {
				t.Errorf("Location = %v, want %s", got.Location, tt.want.TimeZone)
			}
			got.Location = nil
			if got != tt.want {
				t.Errorf("query = %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestDecodeBookingRequest(t *testing.T) {
	tests := []struct {
		name      string
		body      string
		want      BookingRequest
		wantErrs  FieldErrors
		malformed bool
	}{
		{
			name: "all fields",
			body: `{"service":"discovery","start":"2027-03-01T08:00:00Z","name":"Jane","email":"jane@example.com",
				"company":"Acme","topic":"Migration","timeZone":"Europe/Paris","lang":"fr"}`,
			want: BookingRequest{Service: "discovery", Start: "2027-03-01T08:00:00Z", Name: "Jane", Email: "jane@example.com",
				Company: "Acme", Topic: "Migration", TimeZone: "Europe/Paris", Lang: "fr"},
		},
		{
			name: "optional fields left out",
			body: `{"service":"discovery","start":"2027-03-01T08:00:00Z","name":"Jane","email":"jane@example.com","timeZone":"UTC"}`,
			want: BookingRequest{Service: "discovery", Start: "2027-03-01T08:00:00Z", Name: "Jane", Email: "jane@example.com", TimeZone: "UTC"},
		},
		{
			name:     "unknown field",
			body:     `{"service":"discovery","fax":"+49 30 1234"}`,
			wantErrs: FieldErrors{"fax": KeyUnknownField},
		},
		{
			name:     "a known field of the wrong type",
			body:     `{"service":"discovery","name":42}`,
			wantErrs: FieldErrors{"name": KeyName},
		},
		{
			name:     "start as a number",
			body:     `{"start":1772352000}`,
			wantErrs: FieldErrors{"start": KeyStart},
		},
		{name: "lang of the wrong type", body: `{"lang":["fr"]}`, malformed: true},
		{name: "not JSON", body: `service=discovery`, malformed: true},
		{name: "cut short", body: `{"service":"disc`, malformed: true},
		{name: "empty", body: ``, malformed: true},
		{name: "an array", body: `[{"service":"discovery"}]`, malformed: true},
		{name: "two objects", body: `{"service":"discovery"}{"service":"strategy"}`, malformed: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := DecodeBookingRequest(strings.NewReader(tt.body))
			var fe FieldErrors
			switch {
			case tt.malformed:
				if !errors.Is(err, ErrMalformed) {
					t.Errorf("error = %v, want ErrMalformed", err)
				}
			case tt.wantErrs != nil:
				if !errors.As(err, &fe) || !maps.Equal(fe, tt.wantErrs) {
					t.Errorf("error = %v, want %v", err, tt.wantErrs)
				}
			default:
				if err != nil {
					t.Fatal(err)
				}
				if got != tt.want {
					t.Errorf("request = %+v, want %+v", got, tt.want)
				}
			}
		})
	}
}

// validRequest asks for Monday 1 March 2027 09:00 in Berlin.
func validRequest() BookingRequest {
	return BookingRequest{
		Service:  "discovery",
		Start:    "2027-03-01T08:00:00Z",
		Name:     "Jane Doe",
		Email:    "jane@example.com",
		TimeZone: "America/Los_Angeles",
		Lang:     "en",
	}
}

func TestBookingRequestValidate(t *testing.T) {
	av := fixture(t)
	defaultNow := "2027-02-26 12:00" // Friday, Berlin

	tests := []struct {
		name string
		now  string // Berlin wall clock; defaultNow when empty
		edit func(*BookingRequest)
		want FieldErrors
	}{
		{name: "valid", edit: func(r *BookingRequest) {}},
		{name: "valid with an offset", edit: func(r *BookingRequest) { r.Start = "2027-03-01T09:00:00+01:00" }},
		{name: "valid in the visitor's offset", edit: func(r *BookingRequest) { r.Start = "2027-03-01T00:00:00-08:00" }},
		{name: "valid strategy", edit: func(r *BookingRequest) { r.Service = "strategy"; r.Start = "2027-03-01T16:00:00Z" }},
		{name: "valid with all optional fields", edit: func(r *BookingRequest) {
			r.Company = strings.Repeat("c", MaxCompanyLength)
			r.Topic = "Line one\nLine two\r\n\tindented" + strings.Repeat("t", MaxTopicLength-30)
		}},
		{name: "valid Arabic name at the limit", edit: func(r *BookingRequest) { r.Name = strings.Repeat("ع", MaxNameLength) }},
		{name: "valid name trimmed", edit: func(r *BookingRequest) { r.Name = "  Jane  " }},
		{name: "valid email trimmed", edit: func(r *BookingRequest) { r.Email = " jane@example.com\n" }},
		{name: "valid email with a tag and subdomains", edit: func(r *BookingRequest) { r.Email = "jane.doe+site@mail.example.co.uk" }},
		{name: "valid UTC zone", edit: func(r *BookingRequest) { r.TimeZone = "UTC" }},

		{name: "no service", edit: func(r *BookingRequest) { r.Service = "" }, want: FieldErrors{"service": KeyService}},
		{name: "unknown service", edit: func(r *BookingRequest) { r.Service = "lunch" }, want: FieldErrors{"service": KeyService}},

		{name: "no start", edit: func(r *BookingRequest) { r.Start = "" }, want: FieldErrors{"start": KeyStart}},
		{name: "start not RFC 3339", edit: func(r *BookingRequest) { r.Start = "2027-03-01 08:00" }, want: FieldErrors{"start": KeyStart}},
		{name: "start without offset", edit: func(r *BookingRequest) { r.Start = "2027-03-01T08:00:00" }, want: FieldErrors{"start": KeyStart}},
		{name: "start off the grid", edit: func(r *BookingRequest) { r.Start = "2027-03-01T08:05:00Z" }, want: FieldErrors{"start": KeySlotUnavailable}},
		{name: "start with seconds", edit: func(r *BookingRequest) { r.Start = "2027-03-01T08:00:30Z" }, want: FieldErrors{"start": KeySlotUnavailable}},
		{name: "start at lunch", edit: func(r *BookingRequest) { r.Start = "2027-03-01T11:30:00Z" }, want: FieldErrors{"start": KeySlotUnavailable}},
		{
			name: "strategy running into lunch",
			edit: func(r *BookingRequest) { r.Service = "strategy"; r.Start = "2027-03-01T11:15:00Z" },
			want: FieldErrors{"start": KeySlotUnavailable},
		},
		{name: "start on a weekend", edit: func(r *BookingRequest) { r.Start = "2027-02-27T08:00:00Z" }, want: FieldErrors{"start": KeySlotUnavailable}},
		{name: "start on a closed date", edit: func(r *BookingRequest) { r.Start = "2027-03-08T08:00:00Z" }, want: FieldErrors{"start": KeySlotUnavailable}},
		{name: "start in the past", edit: func(r *BookingRequest) { r.Start = "2027-02-26T08:00:00Z" }, want: FieldErrors{"start": KeySlotUnavailable}},
		{
			name: "start inside the notice window",
			now:  "2027-02-28 22:00",
			edit: func(r *BookingRequest) {},
			want: FieldErrors{"start": KeySlotUnavailable},
		},
		{name: "start beyond the horizon", edit: func(r *BookingRequest) { r.Start = "2027-04-05T07:00:00Z" }, want: FieldErrors{"start": KeySlotUnavailable}},

		{name: "no name", edit: func(r *BookingRequest) { r.Name = "" }, want: FieldErrors{"name": KeyName}},
		{name: "blank name", edit: func(r *BookingRequest) { r.Name = " \t " }, want: FieldErrors{"name": KeyName}},
		{name: "name too long", edit: func(r *BookingRequest) { r.Name = strings.Repeat("ع", MaxNameLength+1) }, want: FieldErrors{"name": KeyName}},
		{name: "name with a line break", edit: func(r *BookingRequest) { r.Name = "Jane\nBcc: x@example.com" }, want: FieldErrors{"name": KeyName}},
		{name: "name with a line separator", edit: func(r *BookingRequest) { r.Name = "Jane\u2028Bcc: x@example.com" }, want: FieldErrors{"name": KeyName}},
		{name: "name of format characters only", edit: func(r *BookingRequest) { r.Name = "\u202e\ufeff" }, want: FieldErrors{"name": KeyName}},
		{name: "company with a paragraph separator", edit: func(r *BookingRequest) { r.Company = "Acme\u2029Ltd" }, want: FieldErrors{"company": KeyCompany}},
		{name: "valid name with an override, removed", edit: func(r *BookingRequest) { r.Name = "Jane\u202eeoD" }},
		{name: "valid topic with a line separator", edit: func(r *BookingRequest) { r.Topic = "one\u2028two" }},

		{name: "no email", edit: func(r *BookingRequest) { r.Email = "" }, want: FieldErrors{"email": KeyEmail}},
		{name: "email without domain", edit: func(r *BookingRequest) { r.Email = "jane" }, want: FieldErrors{"email": KeyEmail}},
		{name: "email without dot", edit: func(r *BookingRequest) { r.Email = "jane@localhost" }, want: FieldErrors{"email": KeyEmail}},
		{name: "email with a display name", edit: func(r *BookingRequest) { r.Email = "Jane <jane@example.com>" }, want: FieldErrors{"email": KeyEmail}},
		{name: "email with two @", edit: func(r *BookingRequest) { r.Email = "jane@@example.com" }, want: FieldErrors{"email": KeyEmail}},
		{name: "email with a space", edit: func(r *BookingRequest) { r.Email = "jane doe@example.com" }, want: FieldErrors{"email": KeyEmail}},
		{name: "email with an empty label", edit: func(r *BookingRequest) { r.Email = "jane@example..com" }, want: FieldErrors{"email": KeyEmail}},
		{name: "email with a hyphen-led label", edit: func(r *BookingRequest) { r.Email = "jane@-example.com" }, want: FieldErrors{"email": KeyEmail}},
		{name: "email with an IP literal", edit: func(r *BookingRequest) { r.Email = "jane@[192.0.2.1]" }, want: FieldErrors{"email": KeyEmail}},
		{name: "valid email of 254 bytes", edit: func(r *BookingRequest) { r.Email = longEmail(t, 254) }},
		{name: "email of 255 bytes", edit: func(r *BookingRequest) { r.Email = longEmail(t, 255) }, want: FieldErrors{"email": KeyEmail}},
		{
			name: "email with a local part of 65 bytes",
			edit: func(r *BookingRequest) { r.Email = strings.Repeat("j", 65) + "@example.com" },
			want: FieldErrors{"email": KeyEmail},
		},

		{name: "company too long", edit: func(r *BookingRequest) { r.Company = strings.Repeat("c", MaxCompanyLength+1) }, want: FieldErrors{"company": KeyCompany}},
		{name: "company with a control character", edit: func(r *BookingRequest) { r.Company = "Acme\x00" }, want: FieldErrors{"company": KeyCompany}},
		{name: "topic too long", edit: func(r *BookingRequest) { r.Topic = strings.Repeat("t", MaxTopicLength+1) }, want: FieldErrors{"topic": KeyTopic}},
		{name: "topic with a control character", edit: func(r *BookingRequest) { r.Topic = "bell\a" }, want: FieldErrors{"topic": KeyTopic}},

		{name: "no time zone", edit: func(r *BookingRequest) { r.TimeZone = "" }, want: FieldErrors{"timeZone": KeyTimeZone}},
		{name: "unknown time zone", edit: func(r *BookingRequest) { r.TimeZone = "Europe/Atlantis" }, want: FieldErrors{"timeZone": KeyTimeZone}},
		{name: "the server's zone", edit: func(r *BookingRequest) { r.TimeZone = "Local" }, want: FieldErrors{"timeZone": KeyTimeZone}},
		{name: "an offset instead of a zone", edit: func(r *BookingRequest) { r.TimeZone = "+01:00" }, want: FieldErrors{"timeZone": KeyTimeZone}},

		{
			name: "several at once",
			edit: func(r *BookingRequest) { *r = BookingRequest{Service: "strategy", Start: "soon"} },
			want: FieldErrors{"start": KeyStart, "name": KeyName, "email": KeyEmail, "timeZone": KeyTimeZone},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			nowText := tt.now
			if nowText == "" {
				nowText = defaultNow
			}
			now := wall(t, "Europe/Berlin", nowText)
			r := validRequest()
			tt.edit(&r)
			got := r.Validate(av, now)
			if !maps.Equal(got, tt.want) {
				t.Errorf("Validate = %v, want %v", got, tt.want)
			}
			if tt.want == nil && got != nil {
				t.Errorf("valid request gave non-nil FieldErrors %#v", got)
			}
		})
	}
}

// longEmail returns a well-formed address of n bytes (n from 200 to 256),
// with a local part of 64 bytes and domain labels of at most 63.
func longEmail(t *testing.T, n int) string {
	t.Helper()
	local := strings.Repeat("j", 64)
	rest := n - len(local) - len("@") - len(".com")
	domain := strings.Repeat("a", 63) + "." + strings.Repeat("b", 63) + "." + strings.Repeat("c", rest-2*64) + ".com"
	e := local + "@" + domain
	if len(e) != n {
		t.Fatalf("longEmail(%d) has %d bytes", n, len(e))
	}
	return e
}

func TestNewBooking(t *testing.T) {
	av := fixture(t)
	now := wall(t, "Europe/Berlin", "2027-02-26 12:00")
	r := validRequest()
	r.Service = "strategy"
	r.Start = "2027-03-01T01:00:00-07:00" // 09:00 in Berlin
	r.Name = "  Jane\u202e Doe\u200b "
	r.Company = " \u2066Acme\u2069 "
	r.Topic = "Line one\u2028line two\u202e"

	b, err := NewBooking(r, av, now)
	if err != nil {
		t.Fatal(err)
	}
	if !ValidToken(b.Token) || !ValidToken(b.CancelToken) || b.Token == b.CancelToken {
		t.Errorf("tokens %q and %q", b.Token, b.CancelToken)
	}
	want := Booking{
		Token: b.Token, CancelToken: b.CancelToken,
		Service:  "strategy",
		Start:    utc(t, "2027-03-01T08:00:00Z"),
		End:      utc(t, "2027-03-01T08:30:00Z"),
		Name:     "Jane Doe",
		Email:    "jane@example.com",
		Company:  "Acme",
		Topic:    "Line one\nline two",
		TimeZone: "America/Los_Angeles",
		Lang:     "en",
		Created:  now.UTC(),
	}
	if b != want {
		t.Errorf("booking =\n %+v\nwant\n %+v", b, want)
	}
	if b.Start.Location() != time.UTC || b.End.Location() != time.UTC || b.Created.Location() != time.UTC {
		t.Error("booking times not in UTC")
	}
	if b.IsCancelled() {
		t.Error("new booking is cancelled")
	}

	r.Email = "nope"
	_, err = NewBooking(r, av, now)
	var fe FieldErrors
	if !errors.As(err, &fe) || fe["email"] != KeyEmail {
		t.Errorf("invalid request: error %v, want FieldErrors with email", err)
	}
}

func TestFieldErrorsError(t *testing.T) {
	fe := FieldErrors{"name": KeyName, "email": KeyEmail}
	if got, want := fe.Error(), "invalid request: email: validation.email, name: validation.name"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
}
