package site

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
)

// Locales holds the translated strings of every language, flattened to
// dotted keys ("contact.form.email"), as loaded from content/locales.
type Locales struct {
	strings map[string]map[string]string // lang -> key -> text
}

// LoadLocales reads dir/<code>.json for every language of s.
func LoadLocales(fsys fs.FS, dir string, s *Info) (*Locales, error) {
	l := &Locales{strings: map[string]map[string]string{}}
	for _, lang := range s.Languages {
		name := path.Join(dir, lang.Code+".json")
		b, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, fmt.Errorf("locales: %w", err)
		}
		var tree map[string]any
		if err := json.Unmarshal(b, &tree); err != nil {
			return nil, fmt.Errorf("locales: %s: %w", name, err)
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
// from vars (pairs of name, value). A missing key falls back to English and
// then to the key itself, so a gap is visible rather than blank.
func (l *Locales) T(lang, key string, vars ...string) string {
	s, ok := l.strings[lang][key]
	if !ok {
		if s, ok = l.strings["en"][key]; !ok {
			return key
		}
	}
	for i := 0; i+1 < len(vars); i += 2 {
		s = strings.ReplaceAll(s, "{{"+vars[i]+"}}", vars[i+1])
	}
	return s
}
