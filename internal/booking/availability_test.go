package booking

import (
	"errors"
	"io/fs"
	"os"
	"strings"
	"testing"
	"testing/fstest"
	"time"
)

func TestLoadAvailability(t *testing.T) {
	fsys := fstest.MapFS{"availability.json": {Data: []byte(fixtureJSON)}}
	av, err := LoadAvailability(fsys, "availability.json")
	if err != nil {
		t.Fatal(err)
	}
	if av.Location.String() != "Europe/Berlin" {
		t.Errorf("Location = %s", av.Location)
	}
	wantWeek := []ClockRange{{9 * 60, 12*60 + 30}, {13*60 + 30, 17*60 + 30}}
	for wd := time.Monday; wd <= time.Friday; wd++ {
		if got := av.Weekly[wd]; len(got) != 2 || got[0] != wantWeek[0] || got[1] != wantWeek[1] {
			t.Errorf("%s = %v, want %v", wd, got, wantWeek)
		}
	}
	if len(av.Weekly[time.Saturday])+len(av.Weekly[time.Sunday]) != 0 {
		t.Errorf("weekend has hours: %v %v", av.Weekly[time.Saturday], av.Weekly[time.Sunday])
	}
	if d, _ := av.ServiceLength("discovery"); d != 15*time.Minute {
		t.Errorf("discovery = %v", d)
	}
	if d, _ := av.ServiceLength("strategy"); d != 30*time.Minute {
		t.Errorf("strategy = %v", d)
	}
	if got := av.ServiceNames(); strings.Join(got, ",") != "discovery,strategy" {
		t.Errorf("ServiceNames = %v", got)
	}
	if av.SlotInterval != 15*time.Minute || av.Buffer != 10*time.Minute || av.MinimumNotice != 12*time.Hour || av.DaysAhead != 30 {
		t.Errorf("interval %v, buffer %v, notice %v, days ahead %d", av.SlotInterval, av.Buffer, av.MinimumNotice, av.DaysAhead)
	}
	if _, closed := av.Closed[Date{2027, time.March, 8}]; !closed || len(av.Closed) != 1 {
		t.Errorf("Closed = %v", av.Closed)
	}

	_, err = LoadAvailability(fsys, "missing.json")
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: %v, want fs.ErrNotExist", err)
	}
}

// TestShippedAvailability checks the file the consultancy edits.
func TestShippedAvailability(t *testing.T) {
	av, err := LoadAvailability(os.DirFS("../../content"), "availability.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"discovery", "strategy"} {
		if _, ok := av.ServiceLength(s); !ok {
			t.Errorf("service %q missing", s)
		}
	}
	if d, _ := av.ServiceLength("discovery"); d != 15*time.Minute {
		t.Errorf("discovery lasts %v, want 15m", d)
	}
	if d, _ := av.ServiceLength("strategy"); d != 30*time.Minute {
		t.Errorf("strategy lasts %v, want 30m", d)
	}
}

func TestAvailabilityErrors(t *testing.T) {
	// edit replaces one fragment of the fixture.
	edit := func(old, new string) string {
		if !strings.Contains(fixtureJSON, old) {
			t.Fatalf("fixture has no %q", old)
		}
		return strings.Replace(fixtureJSON, old, new, 1)
	}
	tests := []struct {
		name string
		json string
		want []string // fragments of the error
	}{
		{
			name: "unknown zone",
			json: edit(`"Europe/Berlin"`, `"Europe/Berln"`),
			want: []string{"timeZone:", "Europe/Berln"},
		},
		{
			name: "missing zone",
			json: edit(`"timeZone": "Europe/Berlin",`, ``),
			want: []string{"timeZone: required"},
		},
		{
			name: "the server's zone",
			json: edit(`"Europe/Berlin"`, `"Local"`),
			want: []string{`timeZone: "Local"`},
		},
		{
			name: "overlapping ranges",
			json: edit(`"monday": [{"start": "09:00", "end": "12:30"}`, `"monday": [{"start": "09:00", "end": "13:45"}`),
			want: []string{"weeklyHours.monday: 09:00-13:45 overlaps 13:30-17:30"},
		},
		{
			name: "overlapping ranges out of order",
			json: edit(`"tuesday": [{"start": "09:00", "end": "12:30"}, {"start": "13:30", "end": "17:30"}]`,
				`"tuesday": [{"start": "13:30", "end": "17:30"}, {"start": "09:00", "end": "14:00"}]`),
			want: []string{"weeklyHours.tuesday: 09:00-14:00 overlaps 13:30-17:30"},
		},
		{
			name: "end before start",
			json: edit(`{"start": "13:30", "end": "17:30"}]`, `{"start": "17:30", "end": "13:30"}]`),
			want: []string{"weeklyHours.monday[1]: end 13:30 is not after start 17:30"},
		},
		{
			name: "empty range",
			json: edit(`{"start": "13:30", "end": "17:30"}]`, `{"start": "13:30", "end": "13:30"}]`),
			want: []string{"weeklyHours.monday[1]: end 13:30 is not after start 13:30"},
		},
		{
			name: "unknown weekday",
			json: edit(`"saturday": [],`, `"samstag": [],`),
			want: []string{`weeklyHours: unknown weekday "samstag"`},
		},
		{
			name: "weekday not in lower case",
			json: edit(`"saturday": [],`, `"Saturday": [],`),
			want: []string{`unknown weekday "Saturday"`},
		},
		{
			name: "bad time of day",
			json: edit(`"start": "09:00"`, `"start": "9am"`),
			want: []string{"weeklyHours.monday[0].start", `"9am"`},
		},
		{
			name: "range starting at 24:00",
			json: edit(`"saturday": []`, `"saturday": [{"start": "24:00", "end": "24:00"}]`),
			want: []string{"weeklyHours.saturday[0].start: 24:00 can only end a range"},
		},
		{
			name: "service without length",
			json: edit(`"strategy": {"minutes": 30}`, `"strategy": {"minutes": 0}`),
			want: []string{"services.strategy.minutes: 0"},
		},
		{
			name: "service with a bad name",
			json: edit(`"strategy": {`, `"Strategy Session": {`),
			want: []string{`services: name "Strategy Session"`},
		},
		{
			name: "no services",
			json: edit(`"services": {"discovery": {"minutes": 15}, "strategy": {"minutes": 30}},`, `"services": {},`),
			want: []string{"services: required"},
		},
		{
			name: "zero interval",
			json: edit(`"slotIntervalMinutes": 15`, `"slotIntervalMinutes": 0`),
			want: []string{"slotIntervalMinutes: 0"},
		},
		{
			name: "negative buffer",
			json: edit(`"bufferMinutes": 10`, `"bufferMinutes": -5`),
			want: []string{"bufferMinutes: -5"},
		},
		{
			name: "negative notice",
			json: edit(`"minimumNoticeHours": 12`, `"minimumNoticeHours": -1`),
			want: []string{"minimumNoticeHours: -1"},
		},
		{
			name: "no horizon",
			json: edit(`"daysAhead": 30`, `"daysAhead": 0`),
			want: []string{"daysAhead: 0"},
		},
		{
			name: "impossible closed date",
			json: edit(`"2027-03-08"`, `"2027-02-30"`),
			want: []string{"closedDates[0]:", `"2027-02-30"`},
		},
		{
			name: "closed date twice",
			json: edit(`"closedDates": [`, `"closedDates": [{"date": "2027-03-08", "note": "again"}, `),
			want: []string{"closedDates[1]: 2027-03-08 is listed twice"},
		},
		{
			name: "misspelt key",
			json: edit(`"bufferMinutes"`, `"bufferMinute"`),
			want: []string{`unknown field "bufferMinute"`},
		},
		{
			name: "a duration as a string",
			json: edit(`"bufferMinutes": 10`, `"bufferMinutes": "10m"`),
			want: []string{"bufferMinutes"},
		},
		{
			name: "trailing data",
			json: fixtureJSON + `{}`,
			want: []string{"after the top-level object"},
		},
		{
			name: "several problems at once",
			json: strings.NewReplacer(`"Europe/Berlin"`, `"Mars/Olympus"`, `"daysAhead": 30`, `"daysAhead": 1000`).Replace(fixtureJSON),
			want: []string{"timeZone:", "daysAhead: 1000"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fsys := fstest.MapFS{"availability.json": {Data: []byte(tt.json)}}
			_, err := LoadAvailability(fsys, "availability.json")
			if err == nil {
				t.Fatal("no error")
			}
			if !strings.Contains(err.Error(), "availability.json") {
				t.Errorf("error %q does not name the file", err)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
		})
	}
}

func TestAvailabilityErrorsAreInvalidAvailability(t *testing.T) {
	_, err := ParseAvailability([]byte(strings.Replace(fixtureJSON, `"Europe/Berlin"`, `"Nowhere/Town"`, 1)))
	if !errors.Is(err, ErrInvalidAvailability) {
		t.Errorf("error %v does not wrap ErrInvalidAvailability", err)
	}
}
