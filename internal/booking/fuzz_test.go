package booking

import (
	"bytes"
	"errors"
	"net/url"
	"testing"
	"time"
)

// fuzzNow is the clock of the fuzz tests: a Monday morning in Berlin.
var fuzzNow = time.Date(2027, 6, 7, 5, 0, 0, 0, time.UTC)

// FuzzBookingRequest decodes and validates arbitrary bodies of POST
// /api/bookings: no panic; an error is field errors with locale keys or
// ErrMalformed; what validates becomes a booking inside the schedule.
func FuzzBookingRequest(f *testing.F) {
	f.Add([]byte(`{"service":"discovery","start":"2027-06-08T08:00:00Z","name":"Amira","email":"amira@example.com","timeZone":"America/New_York","lang":"ar"}`))
	f.Add([]byte(`{"service":"strategy","start":"2027-06-08T10:00:00+02:00","name":"Jo","email":"jo@example.de","company":"X","topic":"a\nb","timeZone":"Europe/Berlin"}`))
	f.Add([]byte(`{"service":"discovery","start":"2027-06-08T08:00:00Z","name":"Eve\r\nBcc: x@y.z","email":"eve@x.test","timeZone":"UTC"}`))
	f.Add([]byte(`{"service":"lunch","start":"yesterday","name":"","email":"nope","timeZone":"Mars/Olympus"}`))
	f.Add([]byte(`{"service":1}`))
	f.Add([]byte(`{"unknown":true}`))
	f.Add([]byte(`{"service":"discovery"} {"again":1}`))
	f.Add([]byte(`[]`))
	f.Add([]byte(`{"start":"9999-12-31T23:59:59Z","timeZone":"../../etc/passwd"}`))
	f.Add([]byte("\xff\xfe"))
	av, err := ParseAvailability([]byte(fixtureJSON))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		req, err := DecodeBookingRequest(bytes.NewReader(body))
		var fe FieldErrors
		switch {
		case errors.As(err, &fe):
			checkFieldErrors(t, fe)
			return
		case err != nil:
			if !errors.Is(err, ErrMalformed) {
				t.Fatalf("decode error %v is neither field errors nor malformed", err)
			}
			return
		}
		if fe := req.Validate(av, fuzzNow); fe != nil {
			checkFieldErrors(t, fe)
			return
		}
		req.Lang = "en"
		b, err := NewBooking(req, av, fuzzNow)
		if err != nil {
			t.Fatalf("validated request refused by NewBooking: %v", err)
		}
		if !b.End.After(b.Start) || b.Start.Before(fuzzNow) {
			t.Fatalf("booking %v to %v at %v", b.Start, b.End, fuzzNow)
		}
	})
}

// FuzzParseSlotsQuery parses arbitrary query strings of GET /api/slots:
// no panic; a valid query has a zone, a known service and days in range.
func FuzzParseSlotsQuery(f *testing.F) {
	f.Add("service=discovery&tz=Europe/Paris&from=2027-06-08&days=7")
	f.Add("service=strategy&tz=Asia/Tokyo")
	f.Add("service=lunch&tz=Nowhere&from=2027-02-30&days=40")
	f.Add("service=discovery&tz=UTC&days=-1&from=0000-01-01")
	f.Add("service=discovery&tz=Local&days=99999999999999999999")
	f.Add("tz=%2E%2E%2Fetc&service=&from=2027-6-8")
	f.Add("service=discovery&service=strategy&tz=America/New_York&from=2028-06-08")
	f.Add(";;&&==%zz")
	av, err := ParseAvailability([]byte(fixtureJSON))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		values, _ := url.ParseQuery(raw)
		q, fe := ParseSlotsQuery(values, av, fuzzNow)
		if fe != nil {
			checkFieldErrors(t, fe)
			return
		}
		if q.Location == nil || q.Days < 1 || q.Days > MaxQueryDays {
			t.Fatalf("accepted %q as %+v", raw, q)
		}
		if _, ok := av.ServiceLength(q.Service); !ok {
			t.Fatalf("accepted service %q", q.Service)
		}
		_ = Slots(av, q.Service, fuzzNow, q.From, q.Days, q.Location, nil)
	})
}

func checkFieldErrors(t *testing.T, fe FieldErrors) {
	t.Helper()
	if len(fe) == 0 {
		t.Fatal("empty FieldErrors returned as an error")
	}
	for field, key := range fe {
		if key == "" {
			t.Fatalf("field %q without a locale key", field)
		}
	}
}
