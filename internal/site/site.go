// Package site holds the consultancy's brand facts and the languages the site
// is published in, as declared in content/site.json: the one list of
// languages, from which the server's dates, mails and pages and the
// client's bundles all derive.
package site

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/mail"
	"regexp"
	"strings"

	"golang.org/x/text/language"

	"github.com/northbeam/site/internal/jsonpos"
)

// File is the name of site.json in the content directory.
const File = "site.json"

// Language is one published language: its code, BCP 47 tag, own name,
// writing direction and URL prefix ("" for the default language), and how
// it writes dates and times.
type Language struct {
	Code   string `json:"code"`
	Tag    string `json:"tag"`
	Label  string `json:"label"`
	Dir    string `json:"dir"`
	Prefix string `json:"prefix"`
	// Locale is the BCP 47 locale whose conventions the language's dates
	// and times follow, on the server (internal/intl, from CLDR) and in
	// the browser (Intl): a region picks among a language's conventions
	// ("en-GB": 20 November 2026), a Unicode extension among its digits
	// ("ar-u-nu-latn": Western digits). Default: the tag.
	Locale string `json:"locale,omitempty"`
	// HourCycle is the clock the site writes times on, "h12" or "h23",
	// where it is not the locale's own; empty keeps the locale's.
	HourCycle string `json:"hourCycle,omitempty"`
	// OpenGraph is the language's Open Graph locale (og:locale), "en_GB".
	// Default: the locale's language and its region, or its likely one
	// ("nl" is nl_NL).
	OpenGraph string `json:"openGraph,omitempty"`
	// Dates are the site's departures from CLDR in how the language writes
	// dates on the server (internal/intl); nil: none.
	Dates *DateStyle `json:"dates,omitempty"`
}

// DateStyle is how a language writes dates where the site departs from
// CLDR's patterns for its locale, in CLDR's pattern syntax
// (https://unicode.org/reports/tr35/tr35-dates.html#Date_Format_Patterns).
type DateStyle struct {
	// Date, FullDate and Time stand in for CLDR's long date ("d MMMM y"),
	// full date ("EEEE d MMMM y") and short time ("HH:mm").
	Date     string `json:"date,omitempty"`
	FullDate string `json:"fullDate,omitempty"`
	Time     string `json:"time,omitempty"`
	// DateTime joins a full date ({1}) and a time ({0}) in place of CLDR's
	// pattern for a date "at" a time.
	DateTime string `json:"dateTime,omitempty"`
	// Days writes days of the month otherwise than as a number, by day:
	// French writes the first as an ordinal, {"1": "1er"}.
	Days map[int]string `json:"days,omitempty"`
}

// Languages are the site's languages, in the order site.json lists them.
type Languages []Language

// Find returns the language with the given code.
func (ls Languages) Find(code string) (Language, bool) {
	for _, l := range ls {
		if l.Code == code {
			return l, true
		}
	}
	return Language{}, false
}

// Default returns the default language: the one without a URL prefix.
func (ls Languages) Default() Language {
	for _, l := range ls {
		if l.Prefix == "" {
			return l
		}
	}
	return Language{}
}

// Match returns the language a tag names by its primary subtag, in any
// case ("fr-CA" and "FR" are fr), or the default language.
func (ls Languages) Match(tag string) Language {
	primary, _, _ := strings.Cut(strings.ToLower(strings.TrimSpace(tag)), "-")
	primary, _, _ = strings.Cut(primary, "_")
	if l, ok := ls.Find(primary); ok {
		return l
	}
	return ls.Default()
}

// Codes returns the codes of the languages, in order.
func (ls Languages) Codes() []string {
	codes := make([]string, len(ls))
	for i, l := range ls {
		codes[i] = l.Code
	}
	return codes
}

// Address is the consultancy's postal address.
type Address struct {
	Street     string `json:"street"`
	PostalCode string `json:"postalCode"`
	City       string `json:"city"`
	Country    string `json:"country"`
}

// OneLine formats the address on one line, as legal pages quote it. The
// country is an ISO 3166 code (for structured data), so it is left out.
func (a Address) OneLine() string {
	return fmt.Sprintf("%s, %s %s", a.Street, a.PostalCode, a.City)
}

// Stats are the figures shown on the home page.
type Stats struct {
	Projects      int `json:"projects"`
	Years         int `json:"years"`
	Satisfaction  int `json:"satisfaction"`
	ResponseHours int `json:"responseHours"`
}

// Info is the content of site.json.
type Info struct {
	Name               string            `json:"name"`
	LegalName          string            `json:"legalName"`
	Email              string            `json:"email"`
	Phone              string            `json:"phone"`
	Address            Address           `json:"address"`
	Founded            int               `json:"founded"`
	Registration       string            `json:"registration"`
	VATID              string            `json:"vatId"`
	Representative     string            `json:"representative"`
	Stats              Stats             `json:"stats"`
	Social             map[string]string `json:"social"`
	Languages          Languages         `json:"languages"`
	DefaultLanguage    string            `json:"defaultLanguage"`
	LanguageStorageKey string            `json:"languageStorageKey"`
	LegalUpdated       string            `json:"legalUpdated"`
}

// Load reads and checks site.json from fsys.
func Load(fsys fs.FS, name string) (*Info, error) {
	raw, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, fmt.Errorf("site: %w", err)
	}
	var s Info
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return nil, fmt.Errorf("site: %w", jsonpos.Wrap(name, raw, err))
	}
	if err := s.check(); err != nil {
		return nil, fmt.Errorf("site: %s: %w", name, err)
	}
	return &s, nil
}

func (s *Info) check() error {
	if s.Name == "" {
		return fmt.Errorf("name is empty")
	}
	if _, err := mail.ParseAddress(s.Email); err != nil {
		return fmt.Errorf("email %q: %w", s.Email, err)
	}
	if len(s.Languages) == 0 {
		return fmt.Errorf("no languages")
	}
	seen := map[string]bool{}
	for i, l := range s.Languages {
		switch {
		case l.Code == "" || seen[l.Code]:
			return fmt.Errorf("language code %q is empty or repeated", l.Code)
		case l.Dir != "ltr" && l.Dir != "rtl":
			return fmt.Errorf("language %s: dir must be ltr or rtl", l.Code)
		case l.Code == s.DefaultLanguage && l.Prefix != "":
			return fmt.Errorf("the default language %s has no prefix", l.Code)
		case l.Code != s.DefaultLanguage && l.Prefix != "/"+l.Code:
			return fmt.Errorf("language %s: prefix must be /%s", l.Code, l.Code)
		}
		if err := s.Languages[i].completeFormats(); err != nil {
			return fmt.Errorf("language %s: %w", l.Code, err)
		}
		seen[l.Code] = true
	}
	if !seen[s.DefaultLanguage] {
		return fmt.Errorf("defaultLanguage %q is not among the languages", s.DefaultLanguage)
	}
	return nil
}

var openGraphLocale = regexp.MustCompile(`^[a-z]{2,3}_[A-Z]{2}$`)

// completeFormats fills in what the language leaves to its defaults, and
// checks what it says about its dates and times.
func (l *Language) completeFormats() error {
	if l.Locale == "" {
		l.Locale = l.Tag
	}
	tag, err := language.Parse(l.Locale)
	if err != nil || l.Locale == "" {
		return fmt.Errorf("locale %q is not a BCP 47 locale such as en-GB", l.Locale)
	}
	if l.OpenGraph == "" {
		base, _ := tag.Base()
		region, _ := tag.Region()
		l.OpenGraph = base.String() + "_" + region.String()
	}
	if l.HourCycle != "" && l.HourCycle != "h12" && l.HourCycle != "h23" {
		return fmt.Errorf("hourCycle %q: h12, h23 or nothing", l.HourCycle)
	}
	if !openGraphLocale.MatchString(l.OpenGraph) {
		return fmt.Errorf("openGraph %q is not an Open Graph locale such as en_GB", l.OpenGraph)
	}
	if d := l.Dates; d != nil {
		if d.DateTime != "" && (!strings.Contains(d.DateTime, "{0}") || !strings.Contains(d.DateTime, "{1}")) {
			return fmt.Errorf("dates.dateTime %q: want the date {1} and the time {0}", d.DateTime)
		}
		for day := range d.Days {
			if day < 1 || day > 31 {
				return fmt.Errorf("dates.days: no day %d in a month", day)
			}
		}
	}
	return nil
}

// Language returns the language with the given code.
func (s *Info) Language(code string) (Language, bool) {
	return s.Languages.Find(code)
}

// Default returns the default (unprefixed) language.
func (s *Info) Default() Language {
	return s.Languages.Default()
}

// SplitPath returns the language a path's prefix selects and the path without
// that prefix ("/" for a language root).
func (s *Info) SplitPath(p string) (Language, string) {
	for _, l := range s.Languages {
		if l.Prefix == "" {
			continue
		}
		if p == l.Prefix {
			return l, "/"
		}
		if rest, ok := strings.CutPrefix(p, l.Prefix+"/"); ok {
			return l, "/" + rest
		}
	}
	return s.Default(), p
}

// LocalPath returns the path of the unprefixed path p in language l.
func (l Language) LocalPath(p string) string {
	if p == "/" && l.Prefix != "" {
		return l.Prefix
	}
	return l.Prefix + p
}
