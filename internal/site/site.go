// Package site holds the consultancy's brand facts and the languages the site
// is published in, as declared in content/site.json.
package site

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"net/mail"
	"strings"
)

// Language is one published language: its code, BCP 47 tag, own name,
// writing direction and URL prefix ("" for the default language).
type Language struct {
	Code   string `json:"code"`
	Tag    string `json:"tag"`
	Label  string `json:"label"`
	Dir    string `json:"dir"`
	Prefix string `json:"prefix"`
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
	Languages          []Language        `json:"languages"`
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
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return nil, fmt.Errorf("site: %s: %w", name, err)
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
	for _, l := range s.Languages {
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
		seen[l.Code] = true
	}
	if !seen[s.DefaultLanguage] {
		return fmt.Errorf("defaultLanguage %q is not among the languages", s.DefaultLanguage)
	}
	return nil
}

// Language returns the language with the given code.
func (s *Info) Language(code string) (Language, bool) {
	for _, l := range s.Languages {
		if l.Code == code {
			return l, true
		}
	}
	return Language{}, false
}

// Default returns the default (unprefixed) language.
func (s *Info) Default() Language {
	l, _ := s.Language(s.DefaultLanguage)
	return l
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
