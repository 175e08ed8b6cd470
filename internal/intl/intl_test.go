package intl

import (
	"testing"
	"time"
)

func TestFormatting(t *testing.T) {
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	afternoon := time.Date(2026, time.November, 20, 15, 30, 0, 0, time.UTC) // a Friday
	morning := time.Date(2026, time.March, 1, 9, 5, 0, 0, time.UTC)         // a Sunday
	midnight := time.Date(2026, time.May, 4, 0, 0, 0, 0, time.UTC)          // a Monday
	noon := time.Date(2026, time.August, 12, 12, 0, 0, 0, time.UTC)         // a Wednesday

	tests := []struct {
		lang     string
		t        time.Time
		date     string
		fullDate string
		clock    string
		dateTime string
	}{
		{"en", afternoon, "20 November 2026", "Friday, 20 November 2026", "3:30\u00a0pm", "Friday, 20 November 2026 at 3:30\u00a0pm"},
		{"en", morning, "1 March 2026", "Sunday, 1 March 2026", "9:05\u00a0am", "Sunday, 1 March 2026 at 9:05\u00a0am"},
		{"en", midnight, "4 May 2026", "Monday, 4 May 2026", "12:00\u00a0am", "Monday, 4 May 2026 at 12:00\u00a0am"},
		{"en", noon, "12 August 2026", "Wednesday, 12 August 2026", "12:00\u00a0pm", "Wednesday, 12 August 2026 at 12:00\u00a0pm"},

		{"fr", afternoon, "20 novembre 2026", "vendredi 20 novembre 2026", "15:30", "vendredi 20 novembre 2026 à 15:30"},
		{"fr", morning, "1er mars 2026", "dimanche 1er mars 2026", "09:05", "dimanche 1er mars 2026 à 09:05"},
		{"fr", midnight, "4 mai 2026", "lundi 4 mai 2026", "00:00", "lundi 4 mai 2026 à 00:00"},
		{"fr", noon, "12 août 2026", "mercredi 12 août 2026", "12:00", "mercredi 12 août 2026 à 12:00"},

		{"de", afternoon, "20. November 2026", "Freitag, 20. November 2026", "15:30", "Freitag, 20. November 2026 um 15:30"},
		{"de", morning, "1. März 2026", "Sonntag, 1. März 2026", "09:05", "Sonntag, 1. März 2026 um 09:05"},
		{"de", midnight, "4. Mai 2026", "Montag, 4. Mai 2026", "00:00", "Montag, 4. Mai 2026 um 00:00"},

		{"ar", afternoon, "20 نوفمبر 2026", "الجمعة، 20 نوفمبر 2026", "3:30\u00a0م", "الجمعة، 20 نوفمبر 2026، الساعة 3:30\u00a0م"},
		{"ar", morning, "1 مارس 2026", "الأحد، 1 مارس 2026", "9:05\u00a0ص", "الأحد، 1 مارس 2026، الساعة 9:05\u00a0ص"},
		{"ar", midnight, "4 مايو 2026", "الاثنين، 4 مايو 2026", "12:00\u00a0ص", "الاثنين، 4 مايو 2026، الساعة 12:00\u00a0ص"},
		{"ar", noon, "12 أغسطس 2026", "الأربعاء، 12 أغسطس 2026", "12:00\u00a0م", "الأربعاء، 12 أغسطس 2026، الساعة 12:00\u00a0م"},

		// Regional tags use their base language; unknown languages fall back to English.
		{"fr-CA", afternoon, "20 novembre 2026", "vendredi 20 novembre 2026", "15:30", "vendredi 20 novembre 2026 à 15:30"},
		{"de_AT", afternoon, "20. November 2026", "Freitag, 20. November 2026", "15:30", "Freitag, 20. November 2026 um 15:30"},
		{"AR-EG", afternoon, "20 نوفمبر 2026", "الجمعة، 20 نوفمبر 2026", "3:30\u00a0م", "الجمعة، 20 نوفمبر 2026، الساعة 3:30\u00a0م"},
		{"tr", afternoon, "20 November 2026", "Friday, 20 November 2026", "3:30\u00a0pm", "Friday, 20 November 2026 at 3:30\u00a0pm"},
		{"", afternoon, "20 November 2026", "Friday, 20 November 2026", "3:30\u00a0pm", "Friday, 20 November 2026 at 3:30\u00a0pm"},

		// The time is formatted in its own location: 23:30 UTC is already Saturday in Berlin.
		{"de", time.Date(2026, time.November, 20, 23, 30, 0, 0, time.UTC).In(berlin), "21. November 2026", "Samstag, 21. November 2026", "00:30", "Samstag, 21. November 2026 um 00:30"},
	}
	for _, tt := range tests {
		t.Run(tt.lang+"/"+tt.t.Format(time.RFC3339), func(t *testing.T) {
			if got := FormatDate(tt.lang, tt.t); got != tt.date {
				t.Errorf("FormatDate = %q, want %q", got, tt.date)
			}
			if got := FormatFullDate(tt.lang, tt.t); got != tt.fullDate {
				t.Errorf("FormatFullDate = %q, want %q", got, tt.fullDate)
			}
			if got := FormatTime(tt.lang, tt.t); got != tt.clock {
				t.Errorf("FormatTime = %q, want %q", got, tt.clock)
			}
			if got := FormatDateTime(tt.lang, tt.t); got != tt.dateTime {
				t.Errorf("FormatDateTime = %q, want %q", got, tt.dateTime)
			}
		})
	}
}

func TestNames(t *testing.T) {
	tests := []struct {
		lang          string
		firstMonth    string
		lastMonth     string
		sunday        string
		saturday      string
		wantSupported bool
	}{
		{"en", "January", "December", "Sunday", "Saturday", true},
		{"fr", "janvier", "décembre", "dimanche", "samedi", true},
		{"de", "Januar", "Dezember", "Sonntag", "Samstag", true},
		{"ar", "يناير", "ديسمبر", "الأحد", "السبت", true},
		{"xx", "January", "December", "Sunday", "Saturday", false},
	}
	for _, tt := range tests {
		t.Run(tt.lang, func(t *testing.T) {
			if got := Month(tt.lang, time.January); got != tt.firstMonth {
				t.Errorf("Month(January) = %q, want %q", got, tt.firstMonth)
			}
			if got := Month(tt.lang, time.December); got != tt.lastMonth {
				t.Errorf("Month(December) = %q, want %q", got, tt.lastMonth)
			}
			if got := Weekday(tt.lang, time.Sunday); got != tt.sunday {
				t.Errorf("Weekday(Sunday) = %q, want %q", got, tt.sunday)
			}
			if got := Weekday(tt.lang, time.Saturday); got != tt.saturday {
				t.Errorf("Weekday(Saturday) = %q, want %q", got, tt.saturday)
			}
			if got := Supported(tt.lang); got != tt.wantSupported {
				t.Errorf("Supported = %v, want %v", got, tt.wantSupported)
			}
		})
	}
	if got := Month("en", 13); got != "13" {
		t.Errorf("Month(13) = %q, want %q", got, "13")
	}
	if got := Weekday("en", 7); got != "7" {
		t.Errorf("Weekday(7) = %q, want %q", got, "7")
	}
}

func TestEveryMonthAndWeekdayNamed(t *testing.T) {
	for _, lang := range Languages() {
		seen := map[string]bool{}
		for m := time.January; m <= time.December; m++ {
			name := Month(lang, m)
			if name == "" || seen[name] {
				t.Errorf("%s: month %d has an empty or repeated name %q", lang, m, name)
			}
			seen[name] = true
		}
		for d := time.Sunday; d <= time.Saturday; d++ {
			name := Weekday(lang, d)
			if name == "" || seen[name] {
				t.Errorf("%s: weekday %d has an empty or repeated name %q", lang, d, name)
			}
			seen[name] = true
		}
	}
}

func TestFormatMonths(t *testing.T) {
	for _, tt := range []struct {
		lang string
		n    int
		want string
	}{
		{"en", 12, "12 months"}, {"en", 1, "1 month"},
		{"fr", 12, "12 mois"}, {"fr", 1, "1 mois"},
		{"de", 12, "12 Monate"}, {"de", 1, "1 Monat"},
		{"ar", 1, "شهر واحد"}, {"ar", 2, "شهرين"}, {"ar", 6, "6 أشهر"}, {"ar", 12, "12 شهرًا"},
		{"ar", 100, "100 شهر"}, {"ar", 110, "110 أشهر"}, {"ar", 111, "111 شهرًا"},
		{"es", 12, "12 months"},
	} {
		if got := FormatMonths(tt.lang, tt.n); got != tt.want {
			t.Errorf("FormatMonths(%q, %d) = %q, want %q", tt.lang, tt.n, got, tt.want)
		}
	}
}
