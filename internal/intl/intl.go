// Package intl formats dates and times in the site's languages the way a
// native reader expects them, from the Unicode Consortium's CLDR data for
// each language's locale (content/site.json): month and weekday names, the
// patterns of a long date, a full date, a time and a date at a time, the
// day periods and the digits.
//
// The server renders React inside goja, which has no Intl object, so these
// functions are the date formatting on the server. Whatever they produce is
// sent to the client with the page data and displayed as is: the client must
// not re-format the same dates with Intl, or hydration would see two
// different strings.
//
// A language's entry in site.json says which conventions it follows, as
// data: its locale picks CLDR's data ("en-GB": 20 November 2026) and its
// digits through a Unicode extension; hourCycle puts the clock on 12 or 24
// hours where the locale's own differs (British English on a 12-hour
// clock); dates (date, fullDate, time, dateTime, days) are the site's
// departures from CLDR ("1er" for the first of the month in French), and
// what a language whose CLDR patterns use a field this package does not
// write declares instead. The clock and its day
// period are joined by a no-break space (U+00A0), so that "3:30 pm" never
// breaks across two lines.
//
// Arabic uses the Gregorian month names يناير … ديسمبر (borrowed from the
// European names), CLDR's for "ar", with Western digits (0-9): its locale is
// "ar-u-nu-latn". Those month names are the ones used in Egypt, Sudan,
// Libya, Yemen and the Gulf, and understood everywhere: the Levant and Iraq
// also know the Syriac names (كانون الثاني …) and the Maghreb writes جانفي
// or يناير, but a pan-Arab site cannot pick a regional set without
// confusing the others. Western digits are what Maghreb and Gulf business
// sites, and most pan-Arab tech media, use; they keep dates consistent with
// the prices, phone numbers and code samples on the same page, and match
// what the browser gives for the same locale should the client ever need to
// format a date itself. A date at a time reads "الجمعة، 20 نوفمبر 2026،
// الساعة 3:30 م" (dates.dateTime), as the mails have always written it.
//
// Every method formats t in its own location; convert it first with
// t.In(loc) to show a time in another zone. A regional tag such as "fr-CA"
// or "de_AT" uses its base language; an unknown language, the site's
// default language.
package intl

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"strconv"
	"strings"
	"time"

	"golang.org/x/text/language"

	"github.com/northbeam/site/internal/site"
)

// Where the data lives under a file system laid out as node_modules: the
// npm packages of CLDR's JSON, cldr-dates-full (pinned in package.json)
// and cldr-numbers-full and cldr-core, which come with it at its version.
const (
	datesDir         = "cldr-dates-full/main"
	numbersDir       = "cldr-numbers-full/main"
	numberingSystems = "cldr-core/supplemental/numberingSystems.json"
)

// Formatter writes dates and times in each of the site's languages.
type Formatter struct {
	langs     site.Languages
	calendars map[string]*calendar // by language code
	zoneData  *zoneData
}

// calendar is what one language needs to write dates and times.
type calendar struct {
	months   [12]string // format wide, January first
	weekdays [7]string  // format wide, Sunday first
	am, pm   string     // abbreviated day periods
	digits   []string   // 0 to 9
	days     map[int]string
	date     pattern // long date
	fullDate pattern // full date, with the weekday
	time     pattern // short time, on the language's clock
	dateTime pattern // joins the full date ({1}) and the time ({0})
	zones    *zoneNames
}

// source says where a language's data is in the CLDR tree.
type source struct {
	locale    string // the CLDR locale: the most specific one the data has for the language's
	numbering string // the numbering system the locale asks for ("latn"), "" for its default
}

// Sources returns the files of cldr that Load reads for langs, for a
// production build to carry them.
func Sources(cldr fs.FS, langs site.Languages) ([]string, error) {
	files := []string{}
	seen := map[string]bool{}
	for _, l := range langs {
		src, err := find(cldr, l)
		if err != nil {
			return nil, err
		}
		for _, f := range src.files() {
			if !seen[f] {
				seen[f] = true
				files = append(files, f)
			}
		}
	}
	return files, nil
}

// files lists the files the source reads.
func (s source) files() []string {
	files := []string{s.datesFile(), numberingSystems, s.zoneNamesFile(), metaZonesFile, bcp47ZonesFile}
	if s.numbering == "" {
		files = append(files, s.numbersFile())
	}
	return files
}

func (s source) datesFile() string   { return path.Join(datesDir, s.locale, "ca-gregorian.json") }
func (s source) numbersFile() string { return path.Join(numbersDir, s.locale, "numbers.json") }

// find resolves a language's locale to the CLDR data of its dates.
func find(cldr fs.FS, l site.Language) (source, error) {
	tag, err := language.Parse(l.Locale)
	if err != nil {
		return source{}, fmt.Errorf("intl: %s: locale %q: %w", l.Code, l.Locale, err)
	}
	locale, err := DataLocale(cldr, l.Locale)
	if err != nil {
		return source{}, fmt.Errorf("intl: %s: %w", l.Code, err)
	}
	return source{locale: locale, numbering: tag.TypeForKey("nu")}, nil
}

// DataLocale returns the CLDR locale whose data stands for a BCP 47 locale:
// the most specific one the data has ("en-GB" is en-GB; "fr-FR" is fr,
// CLDR's French being France's).
func DataLocale(cldr fs.FS, locale string) (string, error) {
	tag, err := language.Parse(locale)
	if err != nil {
		return "", fmt.Errorf("locale %q: %w", locale, err)
	}
	base, script, region := tag.Raw()
	var candidates []string
	for _, parts := range [][]string{{base.String(), script.String(), region.String()}, {base.String(), region.String()}, {base.String(), script.String()}, {base.String()}} {
		var kept []string
		for _, p := range parts {
			if p != "" && p != "Zzzz" && p != "ZZ" {
				kept = append(kept, p)
			}
		}
		candidates = append(candidates, strings.Join(kept, "-"))
	}
	for _, c := range candidates {
		if _, err := fs.Stat(cldr, path.Join(datesDir, c, "ca-gregorian.json")); err == nil {
			return c, nil
		}
	}
	return "", fmt.Errorf("CLDR has no dates for the locale %q (looked for %s under %s)", locale, strings.Join(candidates, ", "), datesDir)
}

// weekData is CLDR's week conventions by region.
const weekData = "cldr-core/supplemental/weekData.json"

// FirstDayOfWeek returns the day a week starts on for a locale, by CLDR's
// week data for its region (the one it names, or its likely one): Monday
// in most of Europe, Saturday in Egypt, where "ar" is most likely written.
// A "-u-fw-" extension ("-u-fw-sun") chooses the day itself.
func FirstDayOfWeek(cldr fs.FS, locale string) (time.Weekday, error) {
	tag, err := language.Parse(locale)
	if err != nil {
		return 0, fmt.Errorf("intl: locale %q: %w", locale, err)
	}
	var wd struct {
		Supplemental struct {
			WeekData struct {
				FirstDay map[string]string `json:"firstDay"`
			} `json:"weekData"`
		} `json:"supplemental"`
	}
	if err := readJSON(cldr, weekData, &wd); err != nil {
		return 0, err
	}
	region, _ := tag.Region()
	day := tag.TypeForKey("fw")
	for _, r := range []string{region.String(), "001"} {
		if day == "" {
			day = wd.Supplemental.WeekData.FirstDay[r]
		}
	}
	for d, key := range weekdayKeys {
		if key == day {
			return time.Weekday(d), nil
		}
	}
	return 0, fmt.Errorf("intl: locale %q: no first day of the week in %s", locale, weekData)
}

// Load reads the calendar of every language of langs from cldr, a file
// system laid out as node_modules (the project's in development, the copy
// a production build carries; see Sources). A language whose data is
// missing, or whose patterns ask for a field this package does not write,
// is an error: the site stops at start rather than write a wrong date.
func Load(cldr fs.FS, langs site.Languages) (*Formatter, error) {
	f := &Formatter{langs: langs, calendars: map[string]*calendar{}}
	var err error
	if f.zoneData, err = loadZoneData(cldr); err != nil {
		return nil, err
	}
	for _, l := range langs {
		c, err := loadCalendar(cldr, l)
		if err != nil {
			return nil, err
		}
		src, err := find(cldr, l)
		if err != nil {
			return nil, err
		}
		if c.zones, err = loadZoneNames(cldr, src); err != nil {
			return nil, err
		}
		f.calendars[l.Code] = c
	}
	if _, ok := f.calendars[langs.Default().Code]; !ok {
		return nil, fmt.Errorf("intl: no default language")
	}
	return f, nil
}

// gregorianFile is the part of ca-gregorian.json the site writes from.
type gregorianFile struct {
	Main map[string]struct {
		Dates struct {
			Calendars struct {
				Gregorian struct {
					Months struct {
						Format struct {
							Wide map[string]string `json:"wide"`
						} `json:"format"`
					} `json:"months"`
					Days struct {
						Format struct {
							Wide map[string]string `json:"wide"`
						} `json:"format"`
					} `json:"days"`
					DayPeriods struct {
						Format struct {
							Abbreviated map[string]string `json:"abbreviated"`
						} `json:"format"`
					} `json:"dayPeriods"`
					DateFormats     map[string]string `json:"dateFormats"`
					TimeFormats     map[string]string `json:"timeFormats"`
					DateTimeFormats struct {
						Full             string            `json:"full"`
						AvailableFormats map[string]string `json:"availableFormats"`
					} `json:"dateTimeFormats"`
					AtTime struct {
						Standard map[string]string `json:"standard"`
					} `json:"dateTimeFormats-atTime"`
				} `json:"gregorian"`
			} `json:"calendars"`
		} `json:"dates"`
	} `json:"main"`
}

type numbersFile struct {
	Main map[string]struct {
		Numbers struct {
			DefaultNumberingSystem string `json:"defaultNumberingSystem"`
		} `json:"numbers"`
	} `json:"main"`
}

type numberingSystemsFile struct {
	Supplemental struct {
		NumberingSystems map[string]struct {
			Digits string `json:"_digits"`
			Type   string `json:"_type"`
		} `json:"numberingSystems"`
	} `json:"supplemental"`
}

var weekdayKeys = [7]string{"sun", "mon", "tue", "wed", "thu", "fri", "sat"}

func readJSON(cldr fs.FS, name string, v any) error {
	b, err := fs.ReadFile(cldr, name)
	if err != nil {
		return fmt.Errorf("intl: %w", err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("intl: %s: %w", name, err)
	}
	return nil
}

func loadCalendar(cldr fs.FS, l site.Language) (*calendar, error) {
	src, err := find(cldr, l)
	if err != nil {
		return nil, err
	}
	var gf gregorianFile
	if err := readJSON(cldr, src.datesFile(), &gf); err != nil {
		return nil, err
	}
	data, ok := gf.Main[src.locale]
	if !ok {
		return nil, fmt.Errorf("intl: %s: %s holds no data for %s", l.Code, src.datesFile(), src.locale)
	}
	g := data.Dates.Calendars.Gregorian
	c := &calendar{am: g.DayPeriods.Format.Abbreviated["am"], pm: g.DayPeriods.Format.Abbreviated["pm"]}
	for m := range c.months {
		c.months[m] = g.Months.Format.Wide[strconv.Itoa(m+1)]
	}
	for d, key := range weekdayKeys {
		c.weekdays[d] = g.Days.Format.Wide[key]
	}
	if c.digits, err = loadDigits(cldr, src); err != nil {
		return nil, fmt.Errorf("intl: %s: %w", l.Code, err)
	}
	timePattern := g.TimeFormats["short"]
	switch {
	case l.HourCycle == "h12" && strings.ContainsAny(timePattern, "Hk"):
		timePattern = g.DateTimeFormats.AvailableFormats["hm"]
	case l.HourCycle == "h23" && strings.ContainsAny(timePattern, "hK"):
		timePattern = g.DateTimeFormats.AvailableFormats["Hm"]
	}
	dateTimePattern := g.AtTime.Standard["full"]
	if dateTimePattern == "" {
		dateTimePattern = g.DateTimeFormats.Full
	}
	datePattern, fullDatePattern := g.DateFormats["long"], g.DateFormats["full"]
	if d := l.Dates; d != nil {
		c.days = d.Days
		for _, o := range []struct {
			dst *string
			src string
		}{
			{&datePattern, d.Date}, {&fullDatePattern, d.FullDate}, {&timePattern, d.Time}, {&dateTimePattern, d.DateTime},
		} {
			if o.src != "" {
				*o.dst = o.src
			}
		}
	}
	for _, p := range []struct {
		dst   *pattern
		name  string
		src   string
		slots bool
	}{
		{&c.date, "long date", datePattern, false},
		{&c.fullDate, "full date", fullDatePattern, false},
		{&c.time, "time", timePattern, false},
		{&c.dateTime, "date and time", dateTimePattern, true},
	} {
		if *p.dst, err = parsePattern(p.src, p.slots); err != nil {
			return nil, fmt.Errorf("intl: %s (%s): the %s pattern: %w", l.Code, src.locale, p.name, err)
		}
	}
	c.time = c.time.keepDayPeriodTogether()
	for _, name := range append(c.months[:], c.weekdays[:]...) {
		if name == "" {
			return nil, fmt.Errorf("intl: %s (%s): a month or weekday has no name", l.Code, src.locale)
		}
	}
	return c, nil
}

// loadDigits returns the digits of the numbering system the locale asks
// for, or of its default one.
func loadDigits(cldr fs.FS, src source) ([]string, error) {
	system := src.numbering
	if system == "" {
		var nf numbersFile
		if err := readJSON(cldr, src.numbersFile(), &nf); err != nil {
			return nil, err
		}
		system = nf.Main[src.locale].Numbers.DefaultNumberingSystem
	}
	var ns numberingSystemsFile
	if err := readJSON(cldr, numberingSystems, &ns); err != nil {
		return nil, err
	}
	sys, ok := ns.Supplemental.NumberingSystems[system]
	digits := strings.Split(sys.Digits, "")
	if !ok || sys.Type != "numeric" || len(digits) != 10 {
		return nil, fmt.Errorf("the numbering system %q has no ten digits", system)
	}
	return digits, nil
}

// calendarOf returns the calendar of lang: a language of the site by its
// code, or by its base language for a regional tag, else the default one.
func (f *Formatter) calendarOf(lang string) *calendar {
	if c, ok := f.calendars[lang]; ok {
		return c
	}
	return f.calendars[f.langs.Match(lang).Code]
}

// Month returns the name of m in lang, as it appears inside a date
// (lower case in French).
func (f *Formatter) Month(lang string, m time.Month) string {
	if m < time.January || m > time.December {
		return strconv.Itoa(int(m))
	}
	return f.calendarOf(lang).months[m-1]
}

// Weekday returns the name of d in lang (lower case in French).
func (f *Formatter) Weekday(lang string, d time.Weekday) string {
	if d < time.Sunday || d > time.Saturday {
		return strconv.Itoa(int(d))
	}
	return f.calendarOf(lang).weekdays[d]
}

// FormatDate returns the long date of t in lang: "20 November 2026",
// "20 novembre 2026" ("1er novembre 2026" on the first), "20. November 2026",
// "20 نوفمبر 2026".
func (f *Formatter) FormatDate(lang string, t time.Time) string {
	c := f.calendarOf(lang)
	return c.date.format(c, t)
}

// FormatFullDate returns the long date of t with its weekday:
// "Friday, 20 November 2026", "vendredi 20 novembre 2026",
// "Freitag, 20. November 2026", "الجمعة، 20 نوفمبر 2026".
func (f *Formatter) FormatFullDate(lang string, t time.Time) string {
	c := f.calendarOf(lang)
	return c.fullDate.format(c, t)
}

// FormatTime returns the clock time of t in lang: "3:30 pm" in English,
// "15:30" in French and German, "3:30 م" in Arabic.
func (f *Formatter) FormatTime(lang string, t time.Time) string {
	c := f.calendarOf(lang)
	return c.time.format(c, t)
}

// FormatDateTime returns the full date and clock time of t in lang, as a
// booking confirmation states it: "Friday, 20 November 2026 at 3:30 pm",
// "vendredi 20 novembre 2026 à 15:30", "Freitag, 20. November 2026 um 15:30",
// "الجمعة، 20 نوفمبر 2026، الساعة 3:30 م".
func (f *Formatter) FormatDateTime(lang string, t time.Time) string {
	c := f.calendarOf(lang)
	return c.dateTime.format(c, t, c.time.format(c, t), c.fullDate.format(c, t))
}
