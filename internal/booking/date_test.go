package booking

import (
	"encoding/json"
	"testing"
	"time"
)

func TestParseDate(t *testing.T) {
	tests := []struct {
		in      string
		want    Date
		wantErr bool
	}{
		{in: "2027-03-28", want: Date{2027, time.March, 28}},
		{in: "2028-02-29", want: Date{2028, time.February, 29}},
		{in: "2027-02-29", wantErr: true},
		{in: "2027-3-28", wantErr: true},
		{in: "28.03.2027", wantErr: true},
		{in: "2027-03-28T00:00:00Z", wantErr: true},
		{in: "", wantErr: true},
	}
	for _, tt := range tests {
		got, err := ParseDate(tt.in)
		if (err != nil) != tt.wantErr || got != tt.want {
			t.Errorf("ParseDate(%q) = %v, %v; want %v, error %v", tt.in, got, err, tt.want, tt.wantErr)
		}
		if err == nil && got.String() != tt.in {
			t.Errorf("ParseDate(%q).String() = %q", tt.in, got.String())
		}
	}
}

func TestDateArithmetic(t *testing.T) {
	tests := []struct {
		from string
		n    int
		want string
	}{
		{"2027-03-27", 1, "2027-03-28"}, // Berlin's 23-hour day follows
		{"2027-03-28", 1, "2027-03-29"},
		{"2027-10-31", 1, "2027-11-01"}, // Berlin's 25-hour day
		{"2027-12-31", 1, "2028-01-01"},
		{"2028-02-28", 1, "2028-02-29"},
		{"2028-03-01", -1, "2028-02-29"},
		{"2027-03-01", 30, "2027-03-31"},
		{"2027-03-01", 0, "2027-03-01"},
	}
	for _, tt := range tests {
		from, want := date(t, tt.from), date(t, tt.want)
		if got := from.AddDays(tt.n); got != want {
			t.Errorf("%s.AddDays(%d) = %s, want %s", from, tt.n, got, want)
		}
		if got := from.DaysUntil(want); got != tt.n {
			t.Errorf("%s.DaysUntil(%s) = %d, want %d", from, want, got, tt.n)
		}
		if c := from.Compare(want); (tt.n > 0 && c != -1) || (tt.n < 0 && c != 1) || (tt.n == 0 && c != 0) {
			t.Errorf("%s.Compare(%s) = %d", from, want, c)
		}
	}
	if got := date(t, "2027-03-28").Weekday(); got != time.Sunday {
		t.Errorf("2027-03-28 is a %s, want Sunday", got)
	}
}

func TestDateInZones(t *testing.T) {
	berlin := zone(t, "Europe/Berlin")
	tests := []struct {
		d    string
		c    Clock
		want string // UTC, or "" when the wall-clock time does not exist
	}{
		{"2027-03-27", 9 * 60, "2027-03-27T08:00:00Z"},
		{"2027-03-28", 9 * 60, "2027-03-28T07:00:00Z"},
		{"2027-03-28", 2*60 + 30, ""}, // skipped by the spring change
		{"2027-03-28", 3 * 60, "2027-03-28T01:00:00Z"},
		{"2027-10-31", 9 * 60, "2027-10-31T08:00:00Z"},
		{"2027-10-31", 24 * 60, "2027-10-31T23:00:00Z"}, // end of day: next midnight
	}
	for _, tt := range tests {
		d := date(t, tt.d)
		if tt.c < 24*60 {
			if exists := d.HasClock(tt.c, berlin); exists != (tt.want != "") {
				t.Errorf("%s %s exists in Berlin = %v", d, tt.c, exists)
			}
		}
		if tt.want != "" {
			if got := d.At(tt.c, berlin); !got.Equal(utc(t, tt.want)) {
				t.Errorf("%s %s in Berlin = %s, want %s", d, tt.c, got.UTC(), tt.want)
			}
		}
	}
	// Midnight in a zone is that zone's day.
	auckland := zone(t, "Pacific/Auckland")
	if got := DateOf(date(t, "2027-04-04").In(auckland).In(auckland)); got != date(t, "2027-04-04") {
		t.Errorf("DateOf(In) = %s", got)
	}
}

func TestDateJSON(t *testing.T) {
	b, err := json.Marshal(Day{Date: Date{2027, time.March, 1}, Slots: []Slot{}})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(b), `{"date":"2027-03-01","slots":[]}`; got != want {
		t.Errorf("Day JSON = %s, want %s", got, want)
	}
	var d Date
	if err := json.Unmarshal([]byte(`"2027-02-30"`), &d); err == nil {
		t.Error("Unmarshal of 2027-02-30 succeeded")
	}
}

func TestParseClock(t *testing.T) {
	tests := []struct {
		in      string
		want    Clock
		wantErr bool
	}{
		{in: "00:00", want: 0},
		{in: "09:30", want: 570},
		{in: "23:59", want: 1439},
		{in: "24:00", want: 1440},
		{in: "9:30", wantErr: true},
		{in: "24:01", wantErr: true},
		{in: "12:60", wantErr: true},
		{in: "noon", wantErr: true},
		{in: "", wantErr: true},
	}
	for _, tt := range tests {
		got, err := ParseClock(tt.in)
		if (err != nil) != tt.wantErr || got != tt.want {
			t.Errorf("ParseClock(%q) = %v, %v; want %v, error %v", tt.in, got, err, tt.want, tt.wantErr)
		}
		if err == nil && got.String() != tt.in {
			t.Errorf("ParseClock(%q).String() = %q", tt.in, got)
		}
	}
}
