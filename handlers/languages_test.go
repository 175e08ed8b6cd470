package handlers

import (
	"context"
	"encoding/json"
	"encoding/xml"
	"io"
	"io/fs"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/northbeam/site/internal/assets"
	"github.com/northbeam/site/internal/booking"
	"github.com/northbeam/site/internal/site"
	"github.com/northbeam/site/internal/sitebuild"
	"github.com/northbeam/site/internal/sitetest"
	"github.com/northbeam/site/internal/store"
	"github.com/northbeam/site/internal/store/storetest"
	"github.com/northbeam/site/render"
)

// buildInputs are the files and directories of the project, besides
// content/ and node_modules/, that the bundles are built from.
var buildInputs = []string{"frontend", "esbuild.config.mjs", "package.json", "tsconfig.json"}

// projectWithLanguage copies the project's build inputs and content/ to a
// temporary directory, and adds the language l there as a maintainer
// would: an entry in content/site.json, and each of the default language's
// content files copied under l's code (every directory and file of
// content/ named after the default language). It returns the directory and
// the language files it wrote, as paths with "<code>" for the code.
func projectWithLanguage(t *testing.T, l site.Language) (string, []string) {
	t.Helper()
	root := t.TempDir()
	for _, name := range append([]string{"content"}, buildInputs...) {
		if err := os.CopyFS(filepath.Join(root, name), os.DirFS(filepath.Join(sitetest.Root(), name))); err != nil {
			// CopyFS takes a directory; a file is copied as it is.
			data, ferr := os.ReadFile(filepath.Join(sitetest.Root(), name))
			if ferr != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(root, name), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := os.Symlink(filepath.Join(sitetest.Root(), "node_modules"), filepath.Join(root, "node_modules")); err != nil {
		t.Fatal(err)
	}
	content := filepath.Join(root, "content")
	raw, err := os.ReadFile(filepath.Join(content, site.File))
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	def := doc["defaultLanguage"].(string)
	doc["languages"] = append(doc["languages"].([]any), l)
	if raw, err = json.MarshalIndent(doc, "", "  "); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(content, site.File), raw, 0o644); err != nil {
		t.Fatal(err)
	}
	var written []string
	err = fs.WalkDir(os.DirFS(content), ".", func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && d.Name() == def:
			written = append(written, renamed("content/"+p, def, "<code>")+"/")
			return skipCopied(os.CopyFS(filepath.Join(content, renamed(p, def, l.Code)), os.DirFS(filepath.Join(content, p))))
		case !d.IsDir() && d.Name() == def+".json":
			data, err := os.ReadFile(filepath.Join(content, p))
			if err != nil {
				return err
			}
			written = append(written, renamed("content/"+p, def+".json", "<code>.json"))
			return os.WriteFile(filepath.Join(content, renamed(p, def+".json", l.Code+".json")), data, 0o644)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(written)
	return root, written
}

// renamed replaces the last element of p, old, by new.
func renamed(p, old, new string) string { return strings.TrimSuffix(p, old) + new }

// skipCopied goes on past a directory the walk has copied, unless the copy
// failed.
func skipCopied(err error) error {
	if err != nil {
		return err
	}
	return fs.SkipDir
}

// startSiteAt builds the bundles and the site from the project at root as
// a start does, and serves the site with a booking service over a fresh
// SQLite database, its clock at monday7am, on a real HTTP server. It is
// the one place the test constructs the site.
func startSiteAt(t *testing.T, root string) (*httptest.Server, *sitebuild.Build, *store.Store) {
	t.Helper()
	bundle, err := assets.Build(root)
	if err != nil {
		t.Fatal(err)
	}
	engine, err := render.NewEngine(bundle.Server, render.Options{Logger: sitetest.QuietLog(), Strings: bundle.Strings})
	if err != nil {
		t.Fatal(err)
	}
	content := os.DirFS(filepath.Join(root, "content"))
	s, err := sitebuild.New(context.Background(), content, bundle, engine, sitebuild.Options{BaseURL: "https://example.test", ConsentHideFromBots: true})
	if err != nil {
		t.Fatalf("starting the site: %v", err)
	}
	av, err := booking.LoadAvailability(content, "availability.json")
	if err != nil {
		t.Fatal(err)
	}
	st := storetest.Open(t, store.SQLite)
	bookings, err := booking.NewService(st, content, sitetest.BookingConfig(s, av, func() time.Time { return monday7am }))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(New(NewServer(s, Services{Log: sitetest.QuietLog(), Store: st, Booking: bookings})))
	t.Cleanup(srv.Close)
	return srv, s, st
}

// TestAFifthLanguage adds Dutch to a copy of content/ (site.json's entry as
// a maintainer writes it, and copies of the English files), starts the
// site on it, and reads every page type in Dutch over HTTP: the language
// and direction of the document, the alternates of every language, the
// sitemap, and a booking's confirmation in Dutch, its dates from CLDR.
// The README's recipe names the files the test had to write.
func TestAFifthLanguage(t *testing.T) {
	// Dutch, or, once the site speaks it, another language it lacks.
	var nl site.Language
	for _, l := range []site.Language{
		{Code: "nl", Tag: "nl", Label: "Nederlands", Dir: "ltr", Prefix: "/nl"},
		{Code: "sv", Tag: "sv", Label: "Svenska", Dir: "ltr", Prefix: "/sv"},
		{Code: "pt", Tag: "pt", Label: "Português", Dir: "ltr", Prefix: "/pt"},
	} {
		if _, taken := sitetest.Info(t).Language(l.Code); !taken {
			nl = l
			break
		}
	}
	if nl.Code == "" {
		t.Fatal("the site speaks every language this test could add")
	}
	root, written := projectWithLanguage(t, nl)
	srv, s, st := startSiteAt(t, root)

	fetch := func(t *testing.T, target string) (int, string) {
		t.Helper()
		res, err := http.Get(srv.URL + target)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		body, err := io.ReadAll(res.Body)
		if err != nil {
			t.Fatal(err)
		}
		return res.StatusCode, string(body)
	}

	// The sitemap lists each page in Dutch too, with the alternates its
	// English original has, Dutch among them.
	status, body := fetch(t, "/sitemap.xml")
	if status != http.StatusOK {
		t.Fatalf("sitemap: %d", status)
	}
	var sitemap struct {
		URLs []struct {
			Loc   string `xml:"loc"`
			Links []struct {
				Hreflang string `xml:"hreflang,attr"`
				Href     string `xml:"href,attr"`
			} `xml:"link"`
		} `xml:"url"`
	}
	if err := xml.Unmarshal([]byte(body), &sitemap); err != nil {
		t.Fatal(err)
	}
	const base = "https://example.test"
	listed := map[string]map[string]string{} // path -> hreflang -> URL
	for _, u := range sitemap.URLs {
		links := map[string]string{}
		for _, l := range u.Links {
			links[l.Hreflang] = l.Href
		}
		listed[strings.TrimPrefix(u.Loc, base)] = links
	}
	def := s.Info.Default()
	pairs := map[string]string{} // an English page -> its Dutch version
	for p, links := range listed {
		if lang, _ := s.Info.SplitPath(p); lang.Code != def.Code {
			continue
		}
		dutch, ok := links[nl.Tag]
		if !ok {
			t.Errorf("sitemap: %s has no Dutch alternate", p)
			continue
		}
		pairs[p] = strings.TrimPrefix(dutch, base)
		if !maps.Equal(listed[pairs[p]], links) {
			t.Errorf("sitemap: %s has the alternates %v, its English original %v", pairs[p], listed[pairs[p]], links)
		}
	}
	if len(pairs) < 20 {
		t.Fatalf("sitemap: %d pages in English with a Dutch version", len(pairs))
	}
	// The booking links' pages, kept out of the sitemap, and the page of
	// no page.
	for _, rest := range []string{"/schedule/cancel", "/schedule/reschedule", "/no-such-page"} {
		pairs[def.LocalPath(rest)] = nl.LocalPath(rest)
	}

	// Every page type in Dutch, as in English: the document's language and
	// direction, a complete render, the Open Graph locale, the same
	// alternates, the page's payload.
	types := map[string][]string{}
	read := func(t *testing.T, l site.Language, p string) map[string]string {
		t.Helper()
		l, _ = s.Info.Language(l.Code)
		status, page := fetch(t, p)
		want := http.StatusOK
		if strings.HasSuffix(p, "/no-such-page") {
			want = http.StatusNotFound
		}
		if status != want {
			t.Errorf("%s: %d, want %d", p, status, want)
		}
		if m := htmlTag.FindStringSubmatch(page); m == nil || m[1] != l.Tag || m[2] != l.Dir {
			t.Errorf("%s: html tag %v, want lang=%s dir=%s", p, m, l.Tag, l.Dir)
		}
		assertCompleteRender(t, s, l.Code, page)
		if !strings.Contains(page, `<meta property="og:locale" content="`+l.OpenGraph+`">`) {
			t.Errorf("%s: no og:locale %s", p, l.OpenGraph)
		}
		alternates := map[string]string{}
		for _, a := range hreflangTags.FindAllStringSubmatch(page, -1) {
			alternates[a[1]] = a[2]
		}
		_, payload := fetch(t, "/api/page?path="+url.QueryEscape(p))
		var pl struct {
			Lang string `json:"lang"`
			Page string `json:"page"`
		}
		if err := json.Unmarshal([]byte(payload), &pl); err != nil || pl.Lang != l.Code {
			t.Errorf("/api/page?path=%s: %v, language %q", p, err, pl.Lang)
		}
		if !slices.Contains(types[l.Code], pl.Page) {
			types[l.Code] = append(types[l.Code], pl.Page)
		}
		return alternates
	}
	for english, dutch := range pairs {
		want := read(t, def, english)
		got := read(t, nl, dutch)
		if !maps.Equal(got, want) {
			t.Errorf("%s: alternates %v, its English original %v", dutch, got, want)
		}
		if _, listed := listed[english]; listed && got[nl.Tag] != base+dutch {
			t.Errorf("%s: hreflang nl %q", english, got[nl.Tag])
		}
	}
	slices.Sort(types[nl.Code])
	slices.Sort(types[def.Code])
	t.Logf("%d pages in each language, of the types %v", len(pairs), types[nl.Code])
	if !slices.Equal(types[nl.Code], types[def.Code]) || len(types[nl.Code]) < 12 {
		t.Errorf("page types in Dutch %v, in English %v", types[nl.Code], types[def.Code])
	}

	// A booking made on a Dutch page is confirmed in Dutch: the mail's
	// language, its dates (CLDR's Dutch) and its links.
	req := validBooking(t, "10:00", nl.Code)
	req["phone"] = "+4930901820"
	body2, err := json.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	res, err := http.Post(srv.URL+"/api/bookings", "application/json", strings.NewReader(string(body2)))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusCreated {
		t.Fatalf("booking in Dutch: %d", res.StatusCode)
	}
	var lang, subject, text string
	err = st.QueryRowContext(context.Background(), `SELECT lang, subject, text_body FROM outbox WHERE kind = ?`, booking.KindConfirmation).Scan(&lang, &subject, &text)
	if err != nil {
		t.Fatal(err)
	}
	const when = "dinsdag 8 juni 2027 om 04:00" // 10:00 in Berlin, in New York
	if lang != nl.Code || !strings.Contains(subject, when) || !strings.Contains(text, when) || !strings.Contains(text, "https://example.test"+nl.LocalPath("/schedule/cancel?token=")) {
		t.Errorf("the confirmation in %s, %q:\n%s", lang, subject, text)
	}

	// The README's recipe names every file the language needed.
	readme, err := os.ReadFile(filepath.Join(sitetest.Root(), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, recipe, _ := strings.Cut(string(readme), "\n## Adding a language\n")
	recipe, _, _ = strings.Cut(recipe, "\n## ")
	named := map[string]bool{}
	for _, m := range regexp.MustCompile("`(content/[^`]*<code>[^`]*)`").FindAllStringSubmatch(recipe, -1) {
		named[m[1]] = true
	}
	for _, f := range written {
		if !named[f] {
			t.Errorf("README, Adding a language: %s is not named", f)
		}
		delete(named, f)
	}
	for f := range named {
		t.Errorf("README, Adding a language: names %s, which a language does not need", f)
	}
}
