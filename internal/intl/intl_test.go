package intl

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/northbeam/site/internal/site"
)

var projectRoot, _ = filepath.Abs("../..")

// shipped returns the formatter of the shipped languages, from the
// project's CLDR packages.
func shipped(t *testing.T) *Formatter {
	t.Helper()
	info, err := site.Load(os.DirFS(filepath.Join(projectRoot, "content")), site.File)
	if err != nil {
		t.Fatal(err)
	}
	f, err := Load(os.DirFS(filepath.Join(projectRoot, "node_modules")), info.Languages)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func TestFormatting(t *testing.T) {
	f := shipped(t)
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
			if got := f.FormatDate(tt.lang, tt.t); got != tt.date {
				t.Errorf("FormatDate = %q, want %q", got, tt.date)
			}
			if got := f.FormatFullDate(tt.lang, tt.t); got != tt.fullDate {
				t.Errorf("FormatFullDate = %q, want %q", got, tt.fullDate)
			}
			if got := f.FormatTime(tt.lang, tt.t); got != tt.clock {
				t.Errorf("FormatTime = %q, want %q", got, tt.clock)
			}
			if got := f.FormatDateTime(tt.lang, tt.t); got != tt.dateTime {
				t.Errorf("FormatDateTime = %q, want %q", got, tt.dateTime)
			}
		})
	}
}

func TestNames(t *testing.T) {
	f := shipped(t)
	tests := []struct {
		lang       string
		firstMonth string
		lastMonth  string
		sunday     string
		saturday   string
	}{
		{"en", "January", "December", "Sunday", "Saturday"},
		{"fr", "janvier", "décembre", "dimanche", "samedi"},
		{"de", "Januar", "Dezember", "Sonntag", "Samstag"},
		{"ar", "يناير", "ديسمبر", "الأحد", "السبت"},
		{"xx", "January", "December", "Sunday", "Saturday"},
	}
	for _, tt := range tests {
		t.Run(tt.lang, func(t *testing.T) {
			if got := f.Month(tt.lang, time.January); got != tt.firstMonth {
				t.Errorf("Month(January) = %q, want %q", got, tt.firstMonth)
			}
			if got := f.Month(tt.lang, time.December); got != tt.lastMonth {
				t.Errorf("Month(December) = %q, want %q", got, tt.lastMonth)
			}
			if got := f.Weekday(tt.lang, time.Sunday); got != tt.sunday {
				t.Errorf("Weekday(Sunday) = %q, want %q", got, tt.sunday)
			}
			if got := f.Weekday(tt.lang, time.Saturday); got != tt.saturday {
				t.Errorf("Weekday(Saturday) = %q, want %q", got, tt.saturday)
			}
		})
	}
	if got := f.Month("en", 13); got != "13" {
		t.Errorf("Month(13) = %q, want %q", got, "13")
	}
	if got := f.Weekday("en", 7); got != "7" {
		t.Errorf("Weekday(7) = %q, want %q", got, "7")
	}
}

func TestEveryMonthAndWeekdayNamed(t *testing.T) {
	f := shipped(t)
	for _, lang := range f.langs.Codes() {
		seen := map[string]bool{}
		for m := time.January; m <= time.December; m++ {
			name := f.Month(lang, m)
			if name == "" || seen[name] {
				t.Errorf("%s: month %d has an empty or repeated name %q", lang, m, name)
			}
			seen[name] = true
		}
		for d := time.Sunday; d <= time.Saturday; d++ {
			name := f.Weekday(lang, d)
			if name == "" || seen[name] {
				t.Errorf("%s: weekday %d has an empty or repeated name %q", lang, d, name)
			}
			seen[name] = true
		}
	}
}

// lang is a language of the site as site.json would declare it.
func lang(code, locale, hourCycle string) site.Language {
	return site.Language{Code: code, Tag: code, Label: code, Dir: "ltr", Prefix: "/" + code, Locale: locale, HourCycle: hourCycle, OpenGraph: "xx_XX"}
}

// TestAnotherLanguageNeedsNoCode writes the dates of languages the site
// does not ship, from their CLDR data alone: their names, patterns, clocks
// and digits.
func TestAnotherLanguageNeedsNoCode(t *testing.T) {
	cldr := os.DirFS(filepath.Join(projectRoot, "node_modules"))
	en := lang("en", "en-GB", "h12")
	en.Prefix = ""
	f, err := Load(cldr, site.Languages{en,
		lang("nl", "nl-NL", ""), lang("es", "es-ES", ""), lang("fa", "fa-IR", ""),
		lang("de", "de-DE", "h12"), lang("uk", "en-GB", "h23"), lang("ja", "ja", "")})
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, time.November, 20, 15, 30, 0, 0, time.UTC)
	for _, tc := range []struct{ lang, date, clock, dateTime string }{
		{"nl", "20 november 2026", "15:30", "vrijdag 20 november 2026 om 15:30"},
		{"es", "20 de noviembre de 2026", "15:30", "viernes, 20 de noviembre de 2026, 15:30"},
		{"fa", "۲۰ نوامبر ۲۰۲۶", "۱۵:۳۰", "جمعه ۲۰ نوامبر ۲۰۲۶ ساعت ۱۵:۳۰"},
		{"de", "20. November 2026", "3:30\u00a0PM", "Freitag, 20. November 2026 um 3:30\u00a0PM"},
		{"uk", "20 November 2026", "15:30", "Friday, 20 November 2026 at 15:30"},
		{"ja", "2026年11月20日", "15:30", "2026年11月20日金曜日 15:30"},
	} {
		if got := f.FormatDate(tc.lang, at); got != tc.date {
			t.Errorf("%s: date %q, want %q", tc.lang, got, tc.date)
		}
		if got := f.FormatTime(tc.lang, at); got != tc.clock {
			t.Errorf("%s: time %q, want %q", tc.lang, got, tc.clock)
		}
		if got := f.FormatDateTime(tc.lang, at); got != tc.dateTime {
			t.Errorf("%s: date and time %q, want %q", tc.lang, got, tc.dateTime)
		}
	}
}

// TestLanguagesCLDRCannotWriteStopTheStart refuses a locale without data
// and a pattern with a field this package does not write, naming the
// language.
func TestLanguagesCLDRCannotWriteStopTheStart(t *testing.T) {
	cldr := os.DirFS(filepath.Join(projectRoot, "node_modules"))
	en := lang("en", "en-GB", "")
	en.Prefix = ""
	for _, l := range []site.Language{lang("xx", "xx-YY", ""), lang("zh", "zh-Hant", "")} {
		_, err := Load(cldr, site.Languages{en, l})
		if err == nil || !strings.Contains(err.Error(), l.Code) {
			t.Errorf("%s (%s): error %v, want one naming the language", l.Code, l.Locale, err)
		}
	}
	// What CLDR's pattern asks for (B, flexible day periods), site.json
	// can write otherwise.
	zh := lang("zh", "zh-Hant", "")
	zh.Dates = &site.DateStyle{Time: "ah:mm"}
	f, err := Load(cldr, site.Languages{en, zh})
	if err != nil {
		t.Fatal(err)
	}
	if got := f.FormatTime("zh", time.Date(2026, time.November, 20, 15, 30, 0, 0, time.UTC)); got != "下午3:30" {
		t.Errorf("zh-Hant with its own time pattern: %q", got)
	}
}

// TestSourcesAreEnough loads the shipped languages from the files Sources
// lists alone, as a production binary carries them.
func TestSourcesAreEnough(t *testing.T) {
	info, err := site.Load(os.DirFS(filepath.Join(projectRoot, "content")), site.File)
	if err != nil {
		t.Fatal(err)
	}
	cldr := os.DirFS(filepath.Join(projectRoot, "node_modules"))
	files, err := Sources(cldr, info.Languages)
	if err != nil {
		t.Fatal(err)
	}
	only := fstest.MapFS{}
	for _, name := range files {
		data, err := fs.ReadFile(cldr, name)
		if err != nil {
			t.Fatal(err)
		}
		only[name] = &fstest.MapFile{Data: data}
	}
	// Per language its dates and zone names (and numbers where its digits
	// are its locale's), and three shared files.
	if len(files) > 3*len(info.Languages)+3 {
		t.Errorf("%d files for %d languages: %v", len(files), len(info.Languages), files)
	}
	f, err := Load(only, info.Languages)
	if err != nil {
		t.Fatal(err)
	}
	if got := f.FormatDateTime("fr", time.Date(2026, time.March, 1, 9, 5, 0, 0, time.UTC)); got != "dimanche 1er mars 2026 à 09:05" {
		t.Errorf("from the sources alone: %q", got)
	}
}

// TestFirstDayOfWeek reads the first day of the week of a locale's region
// from CLDR, or from the locale's own -u-fw-.
func TestFirstDayOfWeek(t *testing.T) {
	cldr := os.DirFS(filepath.Join(projectRoot, "node_modules"))
	for locale, want := range map[string]time.Weekday{
		"en-GB": time.Monday, "fr-FR": time.Monday, "de-DE": time.Monday, "ar-u-nu-latn": time.Saturday,
		"en-US": time.Sunday, "ar-SA": time.Sunday, "nl": time.Monday, "en-GB-u-fw-sun": time.Sunday,
	} {
		got, err := FirstDayOfWeek(cldr, locale)
		if err != nil || got != want {
			t.Errorf("FirstDayOfWeek(%s) = %v, %v; want %v", locale, got, err, want)
		}
	}
}

// TestDataLocale finds the most specific CLDR data of a locale.
func TestDataLocale(t *testing.T) {
	cldr := os.DirFS(filepath.Join(projectRoot, "node_modules"))
	for locale, want := range map[string]string{
		"en-GB": "en-GB", "en": "en", "fr-FR": "fr", "ar-u-nu-latn": "ar", "zh-Hant-TW": "zh-Hant", "sr-Latn-ME": "sr-Latn-ME", "pt-BR": "pt",
	} {
		if got, err := DataLocale(cldr, locale); err != nil || got != want {
			t.Errorf("DataLocale(%s) = %q, %v; want %q", locale, got, err, want)
		}
	}
	if got, err := DataLocale(cldr, "xx-YY"); err == nil {
		t.Errorf("DataLocale(xx-YY) = %q, want an error", got)
	}
}

// TestZoneNames names zones as the booking page does, in each language:
// the city and the generic name, the current and the former IANA names
// alike, UTC by its own name.
func TestZoneNames(t *testing.T) {
	f := shipped(t)
	at := time.Date(2026, time.November, 20, 12, 0, 0, 0, time.UTC)
	for _, c := range []struct{ lang, zone, want string }{
		{"en", "Asia/Tokyo", "Tokyo (Japan Standard Time)"},
		{"fr", "Asia/Tokyo", "Tokyo (heure normale du Japon)"},
		{"de", "Europe/Berlin", "Berlin (Mitteleuropäische Zeit)"},
		{"ar", "Europe/Berlin", "برلين (توقيت وسط أوروبا)"},
		{"en", "America/New_York", "New York (Eastern Time)"},
		{"fr", "Europe/Kyiv", "Kiev (heure d’Europe de l’Est)"}, // CLDR's French city, as on the page
		{"en", "Asia/Calcutta", "Kolkata (India Standard Time)"},
		{"en", "Etc/UTC", "UTC (Coordinated Universal Time)"},
		{"en", "Mars/Olympus_Mons", "Mars/Olympus_Mons"},
	} {
		if got := f.ZoneName(c.lang, c.zone, at); got != c.want {
			t.Errorf("ZoneName(%s, %s) = %q, want %q", c.lang, c.zone, got, c.want)
		}
	}
}
