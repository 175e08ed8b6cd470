// Package intl formats dates and times in the site's languages (en, fr, de,
// ar) the way a native reader expects them.
//
// The server renders React inside goja, which has no Intl object, so these
// functions are the date formatting on the server. Whatever they produce is
// sent to the client with the page data and displayed as is: the client must
// not re-format the same dates with Intl, or hydration would see two
// different strings.
//
// Every function formats t in its own location; convert it first with
// t.In(loc) to show a time in another zone. An unknown language falls back to
// English, and a regional tag such as "fr-CA" or "de_AT" uses its base
// language.
//
// Arabic uses the Gregorian month names يناير … ديسمبر (borrowed from the
// European names) with Western digits (0-9). Those month names are the ones
// used in Egypt, Sudan, Libya, Yemen and the Gulf, and understood everywhere:
// the Levant and Iraq also know the Syriac names (كانون الثاني …) and the
// Maghreb writes جانفي or يناير, but a pan-Arab site cannot pick a regional
// set without confusing the others. CLDR's default for "ar" also uses these
// names. Western digits are what Maghreb and Gulf business sites, and most
// pan-Arab tech media, use; they keep dates consistent with the prices,
// phone numbers and code samples on the same page, and match what the
// browser gives for the locale "ar-u-nu-latn" should the client ever need to
// format a date itself.
package intl

import (
	"strconv"
	"strings"
	"time"
)

// Languages lists the languages with their own names and patterns, in the
// site's order.
func Languages() []string { return []string{"en", "fr", "de", "ar"} }

// Supported reports whether lang (or its base language, for a tag such as
// "fr-CA") has its own names and patterns rather than the English fallback.
func Supported(lang string) bool {
	switch base(lang) {
	case "en", "fr", "de", "ar":
		return true
	}
	return false
}

// base returns the primary language subtag of lang in lower case.
func base(lang string) string {
	if i := strings.IndexAny(lang, "-_"); i >= 0 {
		lang = lang[:i]
	}
	return strings.ToLower(lang)
}

// monthNames returns the month names of a supported base language,
// January first. A function rather than a table keeps the package free of
// mutable state.
func monthNames(lang string) [12]string {
	switch lang {
	case "fr":
		return [12]string{"janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre", "novembre", "décembre"}
	case "de":
		return [12]string{"Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September", "Oktober", "November", "Dezember"}
	case "ar":
		return [12]string{"يناير", "فبراير", "مارس", "أبريل", "مايو", "يونيو", "يوليو", "أغسطس", "سبتمبر", "أكتوبر", "نوفمبر", "ديسمبر"}
	default:
		return [12]string{"January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"}
	}
}

// weekdayNames returns the weekday names of a supported base language,
// indexed by time.Weekday (Sunday first).
func weekdayNames(lang string) [7]string {
	switch lang {
	case "fr":
		return [7]string{"dimanche", "lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi"}
	case "de":
		return [7]string{"Sonntag", "Montag", "Dienstag", "Mittwoch", "Donnerstag", "Freitag", "Samstag"}
	case "ar":
		return [7]string{"الأحد", "الاثنين", "الثلاثاء", "الأربعاء", "الخميس", "الجمعة", "السبت"}
	default:
		return [7]string{"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"}
	}
}

// known returns the base language of lang if it is supported, else "en".
func known(lang string) string {
	if b := base(lang); Supported(b) {
		return b
	}
	return "en"
}

// Month returns the name of m in lang, as it appears inside a date
// (lower case in French).
func Month(lang string, m time.Month) string {
	if m < time.January || m > time.December {
		return strconv.Itoa(int(m))
	}
	return monthNames(known(lang))[m-1]
}

// Weekday returns the name of d in lang (lower case in French).
func Weekday(lang string, d time.Weekday) string {
	if d < time.Sunday || d > time.Saturday {
		return strconv.Itoa(int(d))
	}
	return weekdayNames(known(lang))[d]
}

// FormatDate returns the long date of t in lang: "20 November 2026",
// "20 novembre 2026" ("1er novembre 2026" on the first), "20. November 2026",
// "20 نوفمبر 2026".
func FormatDate(lang string, t time.Time) string {
	lang = known(lang)
	day := strconv.Itoa(t.Day())
	month := Month(lang, t.Month())
	year := strconv.Itoa(t.Year())
	switch lang {
	case "fr":
		if t.Day() == 1 {
			day = "1er" // French writes the first of the month as an ordinal.
		}
		return day + " " + month + " " + year
	case "de":
		return day + ". " + month + " " + year
	default: // en, ar
		return day + " " + month + " " + year
	}
}

// FormatFullDate returns the long date of t with its weekday:
// "Friday, 20 November 2026", "vendredi 20 novembre 2026",
// "Freitag, 20. November 2026", "الجمعة، 20 نوفمبر 2026".
func FormatFullDate(lang string, t time.Time) string {
	lang = known(lang)
	weekday := Weekday(lang, t.Weekday())
	switch lang {
	case "fr":
		return weekday + " " + FormatDate(lang, t)
	case "ar":
		return weekday + "، " + FormatDate(lang, t)
	default: // en, de
		return weekday + ", " + FormatDate(lang, t)
	}
}

// FormatTime returns the clock time of t in lang, as the site writes it
// (the browser's Intl for en-GB and ar): "3:30 pm" in English, "15:30" in
// French and German, "3:30 م" in Arabic (ص before noon, م from noon on).
// The clock and its day period are joined by a no-break space (U+00A0),
// so that "3:30 pm" never breaks across two lines.
func FormatTime(lang string, t time.Time) string {
	lang = known(lang)
	minute := t.Format("04")
	switch lang {
	case "fr", "de":
		return t.Format("15") + ":" + minute
	}
	hour := t.Hour() % 12
	if hour == 0 {
		hour = 12
	}
	clock := strconv.Itoa(hour) + ":" + minute + "\u00a0"
	pm := t.Hour() >= 12
	if lang == "ar" {
		if pm {
			return clock + "م"
		}
		return clock + "ص"
	}
	if pm {
		return clock + "pm"
	}
	return clock + "am"
}

// FormatDateTime returns the full date and clock time of t in lang, as a
// booking confirmation states it: "Friday, 20 November 2026 at 3:30 pm",
// "vendredi 20 novembre 2026 à 15:30", "Freitag, 20. November 2026 um 15:30",
// "الجمعة، 20 نوفمبر 2026، الساعة 3:30 م".
func FormatDateTime(lang string, t time.Time) string {
	lang = known(lang)
	date, clock := FormatFullDate(lang, t), FormatTime(lang, t)
	switch lang {
	case "fr":
		return date + " à " + clock
	case "de":
		return date + " um " + clock
	case "ar":
		return date + "، الساعة " + clock
	default:
		return date + " at " + clock
	}
}

// FormatMonths returns a count of months in lang, as a duration reads in a
// sentence: "12 months", "12 mois", "12 Monate", "12 شهرًا". Arabic counts
// by CLDR's plural categories and takes the form that follows a noun or a
// preposition (مدة شهرين, مدة 3 أشهر, مدة 12 شهرًا), as the privacy
// policy writes it.
func FormatMonths(lang string, n int) string {
	count := strconv.Itoa(n)
	switch known(lang) {
	case "fr":
		return count + " mois"
	case "de":
		if n == 1 {
			return "1 Monat"
		}
		return count + " Monate"
	case "ar":
		switch r := n % 100; {
		case n == 1:
			return "شهر واحد"
		case n == 2:
			return "شهرين"
		case r >= 3 && r <= 10:
			return count + " أشهر"
		case r >= 11 && r <= 99:
			return count + " شهرًا"
		default:
			return count + " شهر"
		}
	default:
		if n == 1 {
			return "1 month"
		}
		return count + " months"
	}
}
