package site

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/text/feature/plural"
	"golang.org/x/text/language"

	"github.com/northbeam/site/internal/jsonpos"
)

// Locales holds the translated strings of every language, flattened to
// dotted keys ("contact.form.email"), as loaded from content/locales.
type Locales struct {
	strings  map[string]map[string]string // lang -> key -> text
	fallback string                       // the default language, whose strings stand in for missing ones
}

// LoadLocales reads dir/<code>.json for every language of s.
func LoadLocales(fsys fs.FS, dir string, s *Info) (*Locales, error) {
	l := &Locales{strings: map[string]map[string]string{}, fallback: s.DefaultLanguage}
	for _, lang := range s.Languages {
		name := path.Join(dir, lang.Code+".json")
		b, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, fmt.Errorf("locales: %w", err)
		}
		var tree map[string]any
		if err := json.Unmarshal(b, &tree); err != nil {
			return nil, fmt.Errorf("locales: %w", jsonpos.Wrap(name, b, err))
		}
		flat := map[string]string{}
		if err := flatten("", tree, flat); err != nil {
			return nil, fmt.Errorf("locales: %s: %w", name, err)
		}
		l.strings[lang.Code] = flat
	}
	return l, nil
}

func flatten(prefix string, v any, out map[string]string) error {
	switch v := v.(type) {
	case string:
		out[prefix] = v
	case map[string]any:
		for k, child := range v {
			key := k
			if prefix != "" {
				key = prefix + "." + k
			}
			if err := flatten(key, child, out); err != nil {
				return err
			}
		}
	default:
		return fmt.Errorf("%s: only strings and objects are allowed, got %T", prefix, v)
	}
	return nil
}

// Keys returns the sorted keys of a language.
func (l *Locales) Keys(lang string) []string {
	keys := make([]string, 0, len(l.strings[lang]))
	for k := range l.strings[lang] {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Has reports whether lang has a string for key.
func (l *Locales) Has(lang, key string) bool {
	_, ok := l.strings[lang][key]
	return ok
}

// T returns the string for key in lang with {{name}} placeholders replaced
// from vars (pairs of name, value). A missing key falls back to the default
// language and then to the key itself, so a gap is visible rather than
// blank.
func (l *Locales) T(lang, key string, vars ...string) string {
	s, ok := l.strings[lang][key]
	if !ok {
		if s, ok = l.strings[l.fallback][key]; !ok {
			return key
		}
	}
	for i := 0; i+1 < len(vars); i += 2 {
		s = strings.ReplaceAll(s, "{{"+vars[i]+"}}", vars[i+1])
	}
	return s
}

// pluralCategories name CLDR's plural categories as i18next suffixes keys.
var pluralCategories = map[plural.Form]string{
	plural.Other: "other", plural.Zero: "zero", plural.One: "one",
	plural.Two: "two", plural.Few: "few", plural.Many: "many",
}

// Plural returns the form of key that counts n in lang, as i18next picks it
// in the browser: key_<category>, the category by CLDR's plural rules of
// lang (zero, one, two, few, many, other), key_other where lang has no such
// form. {{count}} is n. A language without the key counts in the default
// language.
func (l *Locales) Plural(lang, key string, n int, vars ...string) string {
	if !l.Has(lang, key+"_other") && lang != l.fallback {
		return l.Plural(l.fallback, key, n, vars...)
	}
	tag, err := language.Parse(lang)
	if err != nil {
		tag = language.Und
	}
	form := pluralCategories[plural.Cardinal.MatchPlural(tag, n, 0, 0, 0, 0)]
	k := key + "_" + form
	if !l.Has(lang, k) {
		k = key + "_other"
	}
	return l.T(lang, k, append([]string{"count", strconv.Itoa(n)}, vars...)...)
}

// staffLocales is where the staff workspace's strings are in the content
// directory.
const staffLocales = "staff/locales"

// NoticeLanguage is the language of the consultancy's own notices (the
// team's copy of a message, a booking, a move): the team reads English,
// whatever the visitor wrote in.
const NoticeLanguage = "en"

// NoticeLanguages reads the languages of the content directory's site.json,
// and each one's name as the consultancy's notices, written in English,
// give it: the staff workspace's English strings name it
// (staff/locales/en.json, "languages.<code>": "French"), or, where they do
// not yet, its own label.
func NoticeLanguages(content fs.FS) (Languages, map[string]string, error) {
	info, err := Load(content, File)
	if err != nil {
		return nil, nil, err
	}
	names := map[string]string{}
	for _, l := range info.Languages {
		names[l.Code] = l.Label
	}
	name := path.Join(staffLocales, "en.json")
	b, err := fs.ReadFile(content, name)
	if err != nil {
		return nil, nil, fmt.Errorf("locales: %w", err)
	}
	var file struct {
		Languages map[string]string `json:"languages"`
	}
	if err := json.Unmarshal(b, &file); err != nil {
		return nil, nil, fmt.Errorf("locales: %w", jsonpos.Wrap(name, b, err))
	}
	for code, n := range file.Languages {
		if _, ok := names[code]; ok && n != "" {
			names[code] = n
		}
	}
	return info.Languages, names, nil
}
