package site

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"golang.org/x/text/feature/plural"
	"golang.org/x/text/language"
)

var projectRoot, _ = filepath.Abs("../..")

func loadShipped(t *testing.T) (*Info, *Locales) {
	t.Helper()
	content := os.DirFS(filepath.Join(projectRoot, "content"))
	s, err := Load(content, "site.json")
	if err != nil {
		t.Fatal(err)
	}
	l, err := LoadLocales(content, "locales", s)
	if err != nil {
		t.Fatal(err)
	}
	return s, l
}

// pluralForms returns the CLDR categories i18next asks a language for: the
// ones its rules give the counts the site shows (whole numbers).
func pluralForms(lang string) []string {
	tag := language.MustParse(lang)
	seen := map[string]bool{}
	var forms []string
	for n := 0; n <= 1200; n++ {
		if f := pluralCategories[plural.Cardinal.MatchPlural(tag, n, 0, 0, 0, 0)]; !seen[f] {
			seen[f] = true
			forms = append(forms, f)
		}
	}
	return forms
}

var pluralSuffix = regexp.MustCompile(`_(zero|one|two|few|many|other)$`)

// bases returns a language's keys with plural suffixes removed, and the
// forms each plural key has.
func bases(l *Locales, lang string) (map[string]bool, map[string][]string) {
	keys := map[string]bool{}
	forms := map[string][]string{}
	for _, k := range l.Keys(lang) {
		if m := pluralSuffix.FindStringSubmatch(k); m != nil {
			base := strings.TrimSuffix(k, m[0])
			forms[base] = append(forms[base], m[1])
			k = base
		}
		keys[k] = true
	}
	return keys, forms
}

// TestEveryLanguageHasEveryKey compares each language with en.json, the
// reference, and checks that plurals have every form the language needs.
func TestEveryLanguageHasEveryKey(t *testing.T) {
	s, l := loadShipped(t)
	ref, _ := bases(l, "en")
	for _, lang := range s.Languages {
		keys, forms := bases(l, lang.Code)
		for k := range ref {
			if !keys[k] {
				t.Errorf("%s.json lacks %s", lang.Code, k)
			}
		}
		for k := range keys {
			if !ref[k] {
				t.Errorf("%s.json has %s, which en.json does not", lang.Code, k)
			}
		}
		for base, got := range forms {
			sort.Strings(got)
			want := pluralForms(lang.Code)
			sort.Strings(want)
			if strings.Join(got, ",") != strings.Join(want, ",") {
				t.Errorf("%s.json: %s has plural forms %v, want %v", lang.Code, base, got, want)
			}
		}
		for _, k := range l.Keys(lang.Code) {
			if strings.TrimSpace(l.T(lang.Code, k)) == "" {
				t.Errorf("%s.json: %s is empty", lang.Code, k)
			}
		}
	}
}

var (
	// A quoted dotted name: "contact.form.email", 'nav.home' or `loading`.
	literalKey = regexp.MustCompile("[\"'`]([a-zA-Z][a-zA-Z0-9_]*(?:\\.[a-zA-Z0-9_]+)*)[\"'`]")
	// A template literal with substitutions: `services.${key}.title`.
	templateKey = regexp.MustCompile("`([a-zA-Z0-9_.]*\\$\\{[^`]+)`")
	// A Go concatenation: "meta." + r.meta + ".title".
	concatKey    = regexp.MustCompile(`"([a-zA-Z0-9_.]+\.)"\s*\+\s*[\w.]+\s*\+\s*"(\.[a-zA-Z0-9_.]+)"`)
	substitution = regexp.MustCompile(`\$\{[^}]+\}`)
)

// TestEveryKeyIsUsed fails when a string in en.json is used by no source
// file: keys are found as literals, as template literals and as Go
// concatenations in frontend/, handlers/, render/ and internal/.
func TestEveryKeyIsUsed(t *testing.T) {
	_, l := loadShipped(t)
	used := map[string]bool{}
	var patterns []*regexp.Regexp
	for _, dir := range []string{"frontend", "handlers", "render", "internal", "main.go"} {
		err := filepath.WalkDir(filepath.Join(projectRoot, dir), func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || strings.HasSuffix(p, "_test.go") {
				return err
			}
			if ext := filepath.Ext(p); ext != ".go" && ext != ".ts" && ext != ".tsx" {
				return nil
			}
			src, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			for _, m := range literalKey.FindAllStringSubmatch(string(src), -1) {
				used[m[1]] = true
			}
			for _, m := range templateKey.FindAllStringSubmatch(string(src), -1) {
				parts := substitution.Split(m[1], -1)
				for i := range parts {
					parts[i] = regexp.QuoteMeta(parts[i])
				}
				patterns = append(patterns, regexp.MustCompile("^"+strings.Join(parts, `[a-zA-Z0-9_]+`)+"$"))
			}
			for _, m := range concatKey.FindAllStringSubmatch(string(src), -1) {
				patterns = append(patterns, regexp.MustCompile("^"+regexp.QuoteMeta(m[1])+`[a-zA-Z0-9_]+`+regexp.QuoteMeta(m[2])+"$"))
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	refKeys, _ := bases(l, "en")
	for k := range refKeys {
		if used[k] {
			continue
		}
		matched := false
		for _, p := range patterns {
			if p.MatchString(k) {
				matched = true
				break
			}
		}
		if !matched {
			t.Errorf("en.json: %s is used nowhere", k)
		}
	}
}

// TestEnglishIsInSentenceCase holds the English strings to sentence case:
// within a sentence, only names start with a capital. The product's seed
// strings stay as they were given, in title case, and so does a name
// quoted from the interface (“Cookie settings”).
func TestEnglishIsInSentenceCase(t *testing.T) {
	_, l := loadShipped(t)
	seed := map[string]bool{
		"home.hero.start": true, "home.hero.work": true, // "Start Your Project", "View Our Work"
		"schedule.time.title": true, "schedule.time.contact": true, // "Select Your Preferred Time", "Contact Us Directly"
	}
	names := regexp.MustCompile(`\b(Google Analytics|Google Calendar|Google|Outlook|Azure|Atom|JavaScript|Coordinated Universal Time|Northbeam)\b|“[^”]*”`)
	sentence := regexp.MustCompile(`[.!?:;]\s+|\n`)
	capital := regexp.MustCompile(`^[("]?[A-Z][a-z]`)
	for _, key := range l.Keys("en") {
		if seed[key] {
			continue
		}
		for _, s := range sentence.Split(names.ReplaceAllString(l.T("en", key), "name"), -1) {
			words := strings.Fields(s)
			for _, w := range words[min(1, len(words)):] {
				if capital.MatchString(w) {
					t.Errorf("%s: %q starts a word with a capital inside a sentence: %q", key, l.T("en", key), w)
				}
			}
		}
	}
}
