package site

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
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

// languageProblems compares each language's strings with the default
// language's, the reference, and checks that plurals have every form the
// language needs: what one language lacks would show as another's text,
// what only one has is a string no code asks for.
func languageProblems(s *Info, l *Locales, dir string) []string {
	var problems []string
	def := s.DefaultLanguage
	ref, _ := bases(l, def)
	for _, lang := range s.Languages {
		keys, forms := bases(l, lang.Code)
		for k := range ref {
			if !keys[k] {
				problems = append(problems, fmt.Sprintf("%s/%s.json lacks %s", dir, lang.Code, k))
			}
		}
		for k := range keys {
			if !ref[k] {
				problems = append(problems, fmt.Sprintf("%s/%s.json has %s, which %s.json does not", dir, lang.Code, k, def))
			}
		}
		for base, got := range forms {
			sort.Strings(got)
			want := pluralForms(lang.Code)
			sort.Strings(want)
			if strings.Join(got, ",") != strings.Join(want, ",") {
				problems = append(problems, fmt.Sprintf("%s/%s.json: %s has plural forms %v, want %v", dir, lang.Code, base, got, want))
			}
		}
		for _, k := range l.Keys(lang.Code) {
			if strings.TrimSpace(l.T(lang.Code, k)) == "" {
				problems = append(problems, fmt.Sprintf("%s/%s.json: %s is empty", dir, lang.Code, k))
			}
		}
	}
	sort.Strings(problems)
	return problems
}

// TestEveryLanguageHasEveryKey holds every language of content/site.json
// to the reference's keys and to its plural forms.
func TestEveryLanguageHasEveryKey(t *testing.T) {
	s, l := loadShipped(t)
	for _, p := range languageProblems(s, l, "locales") {
		t.Error(p)
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
	// A translation asked for by name in TypeScript: t("nav.home"),
	// i18n.t('nav.home'), <Trans i18nKey="nav.home">, t(`services.${key}.title`).
	callKey = regexp.MustCompile("(?:\\bt\\(\\s*|i18nKey=\\{?)[\"'`]([^\"'`]*)[\"'`]")
	// The ending of a file's name, which a dotted literal may be rather
	// than a key ("privacy.md").
	fileName = regexp.MustCompile(`\.(md|json|txt|js|ts|tsx|css|html|xml|png|webp|svg|go|ics|csv)$`)
)

// keyPattern is a key that code builds: the pattern the keys it may build
// match, where, and the line that builds it.
type keyPattern struct {
	re          *regexp.Regexp
	where, line string
}

// sourceKeys is what the source files name as strings: every quoted
// dotted name (where it is first), the names passed to a translate call
// (TypeScript's t and i18nKey), and the keys built from parts.
type sourceKeys struct {
	literals map[string]string
	calls    map[string]string
	patterns []keyPattern
}

// notKey says whether a dotted name on a line of Go is something else
// than a string's key: an outbox mail's kind ("booking.moved").
var notKey = regexp.MustCompile(`^\s*Kind\w*\s*=`)

// translates finds a Go call that translates: Locales.T(lang, "meta."+r.Meta+".title").
var translates = regexp.MustCompile(`\.(T|Plural)\(`)

// scanSources reads the Go, TypeScript and TSX files (tests aside) under
// the given paths of the project at root, those skip refuses aside.
func scanSources(t *testing.T, root string, paths []string, skip func(rel string) bool) sourceKeys {
	t.Helper()
	keys := sourceKeys{literals: map[string]string{}, calls: map[string]string{}}
	for _, dir := range paths {
		err := filepath.WalkDir(filepath.Join(root, dir), func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || strings.HasSuffix(p, "_test.go") {
				return err
			}
			ext := filepath.Ext(p)
			rel, _ := filepath.Rel(root, p)
			if ext != ".go" && ext != ".ts" && ext != ".tsx" || skip != nil && skip(rel) {
				return nil
			}
			raw, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			src := string(raw)
			where := func(offset int) string {
				return fmt.Sprintf("%s:%d", rel, strings.Count(src[:offset], "\n")+1)
			}
			lineOf := func(offset int) string {
				start := strings.LastIndexByte(src[:offset], '\n') + 1
				end, _, _ := strings.Cut(src[start:], "\n")
				return end
			}
			for _, m := range literalKey.FindAllStringSubmatchIndex(src, -1) {
				line := lineOf(m[0])
				if comment := strings.TrimSpace(line); strings.HasPrefix(comment, "//") || strings.HasPrefix(comment, "*") {
					continue
				}
				if k := src[m[2]:m[3]]; keys.literals[k] == "" && !(ext == ".go" && notKey.MatchString(line)) {
					keys.literals[k] = where(m[0])
				}
			}
			for _, m := range templateKey.FindAllStringSubmatchIndex(src, -1) {
				parts := substitution.Split(src[m[2]:m[3]], -1)
				for i := range parts {
					parts[i] = regexp.QuoteMeta(parts[i])
				}
				keys.patterns = append(keys.patterns, keyPattern{regexp.MustCompile("^" + strings.Join(parts, `[a-zA-Z0-9_]+`) + "$"), where(m[0]), lineOf(m[0])})
			}
			for _, m := range concatKey.FindAllStringSubmatchIndex(src, -1) {
				re := "^" + regexp.QuoteMeta(src[m[2]:m[3]]) + `[a-zA-Z0-9_]+` + regexp.QuoteMeta(src[m[4]:m[5]]) + "$"
				keys.patterns = append(keys.patterns, keyPattern{regexp.MustCompile(re), where(m[0]), lineOf(m[0])})
			}
			if ext != ".go" {
				for _, m := range callKey.FindAllStringSubmatchIndex(src, -1) {
					if k := src[m[2]:m[3]]; !strings.Contains(k, "${") {
						keys.calls[k] = where(m[0])
					}
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return keys
}

// unusedKeys returns the reference language's keys that no source file
// under root names: keys are found as literals, as template literals and
// as Go concatenations in frontend/, handlers/, render/ and internal/.
// Every other language holds the reference's keys and no other
// (languageProblems), so a key unused there is unused in all.
func unusedKeys(t *testing.T, root string, s *Info, l *Locales) []string {
	src := scanSources(t, root, []string{"frontend", "handlers", "render", "internal", "main.go"}, nil)
	refKeys, _ := bases(l, s.DefaultLanguage)
	var unused []string
	for k := range refKeys {
		if src.literals[k] != "" {
			continue
		}
		matched := false
		for _, p := range src.patterns {
			if p.re.MatchString(k) {
				matched = true
				break
			}
		}
		if !matched {
			unused = append(unused, fmt.Sprintf("%s.json: %s is used nowhere", s.DefaultLanguage, k))
		}
	}
	sort.Strings(unused)
	return unused
}

// TestEveryKeyIsUsed fails when a string of content/locales is used by no
// source file.
func TestEveryKeyIsUsed(t *testing.T) {
	s, l := loadShipped(t)
	for _, p := range unusedKeys(t, projectRoot, s, l) {
		t.Error(p)
	}
}

// stringTree is a locale file's keys as code may name them: each string,
// a plural by its base ("months" for months_one, months_other), and each
// group of strings ("booking.invite", as frontend/lib/strings.json names
// groups).
type stringTree struct {
	file  string
	names map[string]bool
	top   map[string]bool // the first part of every key: "nav", "booking"
}

func treeOf(l *Locales, file, lang string) stringTree {
	tree := stringTree{file: file, names: map[string]bool{}, top: map[string]bool{}}
	keys, _ := bases(l, lang)
	for k := range keys {
		tree.names[k] = true
		parts := strings.Split(k, ".")
		tree.top[parts[0]] = true
		for i := 1; i < len(parts); i++ {
			tree.names[strings.Join(parts[:i], ".")] = true
		}
	}
	return tree
}

// looksLikeKey reports whether a dotted name in code is meant as a key of
// the tree: it starts with one of its areas and is not a file's name.
func (tree stringTree) looksLikeKey(name string) bool {
	area, _, dotted := strings.Cut(name, ".")
	return dotted && tree.top[area] && !fileName.MatchString(name)
}

// missingKeys returns what code under root asks for that the reference
// language's strings lack, and so every language's (languageProblems):
// such a key would show as itself on the page or in a mail. The visitors'
// strings (content/locales) are asked for by the public front end and by
// Go (mails, errors, titles); the workspace's (content/staff/locales) by
// frontend/staff/ and by Go. Checked: every name given to t or i18nKey in
// TypeScript, every quoted dotted name that starts with an area of the
// strings ("booking.invite.topic"), and every key built from parts
// ("services.${key}.title", "meta." + r.Meta + ".title"), which must match
// at least one string. Not seen: a key held in a variable whose value
// comes from elsewhere (data, the API), as code passes it through.
// It also returns how many translate calls it read in the public front
// end and in the workspace.
func missingKeys(t *testing.T, root string, s *Info, public, staff *Locales) (missing []string, frontCalls, workspaceCalls int) {
	t.Helper()
	def := s.DefaultLanguage
	pub, ws := treeOf(public, "locales/"+def+".json", def), treeOf(staff, staffLocales+"/"+def+".json", def)
	files := func(trees []stringTree) string {
		var names []string
		for _, tree := range trees {
			names = append(names, tree.file)
		}
		return strings.Join(names, " or ")
	}
	// A built key whose fixed start names an area of the strings is a key.
	checkPatterns := func(src sourceKeys, trees ...stringTree) {
		for _, p := range src.patterns {
			start := strings.TrimPrefix(p.re.String(), "^")
			start, _, _ = strings.Cut(start, `[a-zA-Z0-9_]+`)
			start = strings.ReplaceAll(start, `\.`, ".")
			area, _, dotted := strings.Cut(start, ".")
			meant := false
			for _, tree := range trees {
				meant = meant || dotted && tree.top[area]
			}
			// In Go, a key built outside a translating call may be a path
			// into a data file ("services." + name + ".meeting").
			if !meant || strings.HasSuffix(p.where[:strings.LastIndexByte(p.where, ':')], ".go") && !translates.MatchString(p.line) {
				continue
			}
			found := false
			for _, tree := range trees {
				for k := range tree.names {
					found = found || p.re.MatchString(k)
				}
			}
			if !found {
				missing = append(missing, fmt.Sprintf("%s: builds keys %s, which name no string of %s", p.where, p.re, files(trees)))
			}
		}
	}
	checkNames := func(src sourceKeys, trees ...stringTree) {
		for name, where := range src.literals {
			meant, found := false, false
			for _, tree := range trees {
				meant = meant || tree.looksLikeKey(name)
				found = found || tree.names[name]
			}
			if meant && !found {
				missing = append(missing, fmt.Sprintf("%s: %q names no string of %s", where, name, files(trees)))
			}
		}
		for name, where := range src.calls {
			found := false
			for _, tree := range trees {
				found = found || tree.names[name]
			}
			if !found {
				missing = append(missing, fmt.Sprintf("%s: t(%q) asks for a string %s lacks", where, name, files(trees)))
			}
		}
	}
	isStaff := func(rel string) bool { return strings.HasPrefix(filepath.ToSlash(rel), "frontend/staff/") }
	front := scanSources(t, root, []string{"frontend"}, isStaff)
	checkNames(front, pub)
	checkPatterns(front, pub)
	workspace := scanSources(t, root, []string{"frontend/staff"}, nil)
	checkNames(workspace, ws)
	checkPatterns(workspace, ws)
	// Go asks both: a name must be a string of one of them.
	server := scanSources(t, root, []string{"handlers", "render", "internal", "main.go"}, nil)
	checkNames(server, pub, ws)
	checkPatterns(server, pub, ws)
	sort.Strings(missing)
	return missing, len(front.calls), len(workspace.calls)
}

// TestEveryUsedKeyExists fails when code asks for a string that
// content/locales or content/staff/locales lacks.
func TestEveryUsedKeyExists(t *testing.T) {
	s, public := loadShipped(t)
	staff, err := LoadLocales(os.DirFS(filepath.Join(projectRoot, "content")), staffLocales, s)
	if err != nil {
		t.Fatal(err)
	}
	missing, front, workspace := missingKeys(t, projectRoot, s, public, staff)
	for _, m := range missing {
		t.Error(m)
	}
	if front < 100 || workspace < 50 {
		t.Errorf("%d translate calls found in the public front end, %d in the workspace: the test cannot see the code", front, workspace)
	}
}

// TestMissingStringsAreCaught runs the checks above on a small project of
// their own, with every kind of mistake in it: code that asks for a string
// no language has (in TypeScript, the workspace, a key built in Go), a
// language that lacks a string or has one of its own, and a string no code
// asks for.
func TestMissingStringsAreCaught(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"content/site.json": `{"name": "N", "email": "a@example.com", "defaultLanguage": "en", "languages": [
			{ "code": "en", "tag": "en", "label": "English", "dir": "ltr", "prefix": "" },
			{ "code": "nl", "tag": "nl", "label": "Nederlands", "dir": "ltr", "prefix": "/nl" }]}`,
		"content/locales/en.json":       `{"footer": {"tagline": "Software", "unused": "No one asks"}, "meta": {"home": {"title": "Home"}}, "errors": {"known": "Known"}}`,
		"content/locales/nl.json":       `{"footer": {"tagline": "Software", "unused": "Niemand", "extra": "Alleen hier"}, "meta": {"home": {"title": "Thuis"}}}`,
		"content/staff/locales/en.json": `{"signIn": {"title": "Sign in"}}`,
		"content/staff/locales/nl.json": `{"signIn": {"title": "Aanmelden"}}`,
		"frontend/components/Footer.tsx": `export const Footer = ({ t }: { t: (k: string) => string }) => (
  <p>{t("footer.tagline")}{t("footer.devxMissingKey")}<Trans i18nKey="footer.devxTrans" /></p>
);
`,
		"frontend/staff/pages/SignIn.tsx": "export const title = (t: (k: string) => string, step: string) => t(\"signIn.title\") + t(`signIn.${step}.devx`);\n",
		"main.go":                         "package main\n",
		"handlers/doc.go":                 "package handlers\n",
		"render/doc.go":                   "package render\n",
		"internal/pages/pages.go": `package pages

func title(l interface{ T(lang, key string) string }, lang, page string) string {
	return l.T(lang, "meta."+page+".title") + l.T(lang, "meta."+page+".devxHeading") + l.T(lang, "errors.known")
}

var code = "errors.devxUnknown"
`,
	}
	for name, data := range files {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(root, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	content := os.DirFS(filepath.Join(root, "content"))
	s, err := Load(content, File)
	if err != nil {
		t.Fatal(err)
	}
	public, err := LoadLocales(content, "locales", s)
	if err != nil {
		t.Fatal(err)
	}
	staff, err := LoadLocales(content, staffLocales, s)
	if err != nil {
		t.Fatal(err)
	}
	missing, _, _ := missingKeys(t, root, s, public, staff)
	problems := append(append(missing, languageProblems(s, public, "locales")...), unusedKeys(t, root, s, public)...)
	want := []string{
		`frontend/components/Footer.tsx:2: t("footer.devxMissingKey") asks for a string locales/en.json lacks`,
		`frontend/components/Footer.tsx:2: t("footer.devxTrans") asks for a string locales/en.json lacks`,
		`frontend/staff/pages/SignIn.tsx:1: builds keys ^signIn\.[a-zA-Z0-9_]+\.devx$, which name no string of staff/locales/en.json`,
		`internal/pages/pages.go:4: builds keys ^meta\.[a-zA-Z0-9_]+\.devxHeading$, which name no string of locales/en.json or staff/locales/en.json`,
		`internal/pages/pages.go:7: "errors.devxUnknown" names no string of locales/en.json or staff/locales/en.json`,
		"locales/nl.json lacks errors.known",
		"locales/nl.json has footer.extra, which en.json does not",
		"en.json: footer.unused is used nowhere",
	}
	for _, w := range want {
		if !slices.Contains(problems, w) {
			t.Errorf("not caught: %s", w)
		}
	}
	for _, p := range problems {
		if strings.Contains(p, "tagline") || strings.Contains(p, "home.title") || strings.Contains(p, "signIn.title") || strings.Contains(p, `"errors.known"`) {
			t.Errorf("a string that is there is reported: %s", p)
		}
	}
	if t.Failed() {
		t.Logf("reported:\n%s", strings.Join(problems, "\n"))
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
