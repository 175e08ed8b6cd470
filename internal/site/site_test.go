package site

import (
	"cmp"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

// unlisted is a language code that no site lists: ISO 639's "no
// linguistic content".
const unlisted = "zxx"

// TestLanguageMatching finds a language by its code, by a tag whose primary
// subtag is its code, and falls back on the default language.
func TestLanguageMatching(t *testing.T) {
	s, err := Load(os.DirFS(filepath.Join(projectRoot, "content")), File)
	if err != nil {
		t.Fatal(err)
	}
	def := s.DefaultLanguage
	tests := map[string]string{unlisted: def, unlisted + "-FR": def, "": def, "  ": def}
	for _, l := range s.Languages {
		c := l.Code
		tests[c] = c
		tests[c+"-CA"] = c
		tests[strings.ToUpper(c)+"_be"] = c
		tests[" "+c+" "] = c
		if _, ok := s.Languages.Find(c + "x"); !ok {
			tests[c+"x"] = def
		}
		if _, ok := s.Languages.Find(c + "-CA"); ok {
			t.Errorf("Find(%q) takes a tag for a code", c+"-CA")
		}
	}
	for tag, want := range tests {
		if got := s.Languages.Match(tag).Code; got != want {
			t.Errorf("Match(%q) = %s, want %s", tag, got, want)
		}
	}
	// Codes keeps site.json's order, read here on its own.
	raw, err := os.ReadFile(filepath.Join(projectRoot, "content", File))
	if err != nil {
		t.Fatal(err)
	}
	var listed struct {
		Languages []struct{ Code string } `json:"languages"`
	}
	if err := json.Unmarshal(raw, &listed); err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, l := range listed.Languages {
		want = append(want, l.Code)
	}
	if got := s.Languages.Codes(); !slices.Equal(got, want) {
		t.Errorf("codes %v, want site.json's %v", got, want)
	}
	if s.Default().Code != s.DefaultLanguage || s.Default().Prefix != "" {
		t.Errorf("default %s, want %s without a prefix", s.Default().Code, s.DefaultLanguage)
	}
}

// TestLanguageFormatsAreChecked refuses at start what a language says about
// its dates and times that no formatter could follow.
func TestLanguageFormatsAreChecked(t *testing.T) {
	const valid = `{ "code": "nl", "tag": "nl", "label": "Nederlands", "dir": "ltr", "prefix": "/nl", "locale": "nl-NL", "openGraph": "nl_NL" %s }`
	for extra, want := range map[string]string{
		``:                                  "",
		`, "hourCycle": "h12"`:              "",
		`, "dates": {"days": {"1": "1e"}}`:  "",
		`, "locale": "not a locale!"`:       "locale",
		`, "hourCycle": "h24"`:              "hourCycle",
		`, "openGraph": "nl-NL"`:            "openGraph",
		`, "dates": {"dateTime": "{1} om"}`: "dateTime",
		`, "dates": {"days": {"32": "x"}}`:  "days",
	} {
		doc := `{"name": "N", "email": "a@example.com", "defaultLanguage": "en", "languages": [
			{ "code": "en", "tag": "en", "label": "English", "dir": "ltr", "prefix": "", "locale": "en-GB", "openGraph": "en_GB" },
			` + strings.Replace(valid, "%s", extra, 1) + `]}`
		// A repeated key takes the last value: the test's changes win.
		_, err := Load(fstest.MapFS{File: {Data: []byte(doc)}}, File)
		switch {
		case want == "" && err != nil:
			t.Errorf("%s: %v", extra, err)
		case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
			t.Errorf("%s: error %v, want one about %s", extra, err, want)
		}
	}
}

// TestPlural picks the form of a count by the language's CLDR rules, as
// i18next does in the browser, and the other form where a language has
// none of its own.
func TestPlural(t *testing.T) {
	l := &Locales{fallback: "en", strings: map[string]map[string]string{
		"en": {"n_one": "{{count}} month", "n_other": "{{count}} months"},
		"ar": {"n_zero": "{{count}} z", "n_one": "one", "n_two": "two", "n_few": "{{count}} few", "n_many": "{{count}} many", "n_other": "{{count}} other"},
		"fr": {"n_one": "{{count}} mois", "n_other": "{{count}} mois ({{x}})"},
	}}
	for _, tc := range []struct {
		lang string
		n    int
		want string
	}{
		{"en", 1, "1 month"}, {"en", 0, "0 months"}, {"en", 2, "2 months"},
		{"ar", 0, "0 z"}, {"ar", 1, "one"}, {"ar", 2, "two"}, {"ar", 103, "103 few"}, {"ar", 111, "111 many"}, {"ar", 100, "100 other"},
		{"fr", 0, "0 mois"}, {"fr", 1, "1 mois"}, {"fr", 2, "2 mois (y)"},
		{unlisted, 1, "1 month"}, // a language it does not have: the default language's
	} {
		if got := l.Plural(tc.lang, "n", tc.n, "x", "y"); got != tc.want {
			t.Errorf("Plural(%s, %d) = %q, want %q", tc.lang, tc.n, got, tc.want)
		}
	}
}

// TestLanguageDefaults gives a language declared as before (code, tag,
// label, direction, prefix) its tag as its locale and an Open Graph locale
// of its likely region.
func TestLanguageDefaults(t *testing.T) {
	doc := `{"name": "N", "email": "a@example.com", "defaultLanguage": "en", "languages": [
		{ "code": "en", "tag": "en", "label": "English", "dir": "ltr", "prefix": "" },
		{ "code": "nl", "tag": "nl", "label": "Nederlands", "dir": "ltr", "prefix": "/nl" },
		{ "code": "pt", "tag": "pt-PT", "label": "Português", "dir": "ltr", "prefix": "/pt" }]}`
	s, err := Load(fstest.MapFS{File: {Data: []byte(doc)}}, File)
	if err != nil {
		t.Fatal(err)
	}
	for code, want := range map[string][2]string{"en": {"en", "en_US"}, "nl": {"nl", "nl_NL"}, "pt": {"pt-PT", "pt_PT"}} {
		l, _ := s.Language(code)
		if l.Locale != want[0] || l.OpenGraph != want[1] {
			t.Errorf("%s: locale %q, Open Graph %q; want %q, %q", code, l.Locale, l.OpenGraph, want[0], want[1])
		}
	}
}

// TestNoticeLanguages names each language as the staff workspace's English
// strings do, and one they do not name yet by its own label.
func TestNoticeLanguages(t *testing.T) {
	shipped := os.DirFS(filepath.Join(projectRoot, "content"))
	info, err := Load(shipped, File)
	if err != nil {
		t.Fatal(err)
	}
	langs, names, err := NoticeLanguages(shipped)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(langs.Codes(), info.Languages.Codes()) {
		t.Errorf("languages %v, want site.json's %v", langs.Codes(), info.Languages.Codes())
	}
	// The English strings' name of a language, where they give one.
	raw, err := os.ReadFile(filepath.Join(projectRoot, "content", "staff", "locales", NoticeLanguage+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var english struct {
		Languages map[string]string `json:"languages"`
	}
	if err := json.Unmarshal(raw, &english); err != nil {
		t.Fatal(err)
	}
	for _, l := range info.Languages {
		want := cmp.Or(english.Languages[l.Code], l.Label)
		if names[l.Code] != want {
			t.Errorf("%s is named %q in the notices, want %q", l.Code, names[l.Code], want)
		}
	}
	doc := `{"name": "N", "email": "a@example.com", "defaultLanguage": "en", "languages": [
		{ "code": "en", "tag": "en", "label": "English", "dir": "ltr", "prefix": "" },
		{ "code": "nl", "tag": "nl", "label": "Nederlands", "dir": "ltr", "prefix": "/nl" }]}`
	fsys := fstest.MapFS{File: {Data: []byte(doc)}, "staff/locales/en.json": {Data: []byte(`{"languages": {"en": "English", "fr": "French"}}`)}}
	if _, names, err = NoticeLanguages(fsys); err != nil || names["nl"] != "Nederlands" || names["en"] != "English" || names["fr"] != "" {
		t.Errorf("names %v, %v", names, err)
	}
}
