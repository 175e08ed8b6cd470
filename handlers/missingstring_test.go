package handlers

import (
	"context"
	"net/http"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/northbeam/site/internal/assets"
	"github.com/northbeam/site/internal/devserver"
	"github.com/northbeam/site/internal/logtest"
	"github.com/northbeam/site/internal/site"
	"github.com/northbeam/site/internal/sitebuild"
	"github.com/northbeam/site/internal/sitetest"
	"github.com/northbeam/site/render"
)

// TestAMissingStringNamesTheLineThatAskedForIt: a component that asks for
// a key no language defines renders (the page shows the key, as i18next
// does), the render engine tells of it with the TSX file and line of the
// t call, in every language, at every render, also when the memo answers
// (as -dev keeps renders across builds), and the log says it once per
// language.
func TestAMissingStringNamesTheLineThatAskedForIt(t *testing.T) {
	root := t.TempDir()
	if err := devserver.CopyTree(sitetest.Root(), root); err != nil {
		t.Fatal(err)
	}
	footer := root + "/frontend/components/Footer.tsx"
	data, err := os.ReadFile(footer)
	if err != nil {
		t.Fatal(err)
	}
	const line = "          <p>{t(\"footer.tagline\")}</p>\n"
	src := string(data)
	at := strings.Index(src, line)
	if at < 0 {
		t.Fatalf("Footer.tsx holds no %q", line)
	}
	askedOn := strings.Count(src[:at], "\n") + 2 // the line after it
	src = strings.Replace(src, line, line+"          <p>{t(\"footer.devxMissingKey\")}</p>\n", 1)
	if err := os.WriteFile(footer, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	bundle, err := assets.Build(root)
	if err != nil {
		t.Fatal(err)
	}
	info, err := site.Load(sitetest.Content(), site.File)
	if err != nil {
		t.Fatal(err)
	}

	var mu sync.Mutex
	var told []render.MissingString
	missing := func(ms []render.MissingString) {
		mu.Lock()
		defer mu.Unlock()
		told = append(told, ms...)
	}
	var log logtest.Buffer
	memo := render.NewMemo()
	serve := func() http.Handler {
		engine, err := render.NewEngine(bundle.Server, render.Options{Logger: log.Logger(), SourceMap: bundle.ServerMap, Memo: memo, Missing: missing, Strings: bundle.Strings})
		if err != nil {
			t.Fatal(err)
		}
		s, err := sitebuild.New(context.Background(), sitetest.Content(), bundle, engine, sitebuild.Options{BaseURL: sitetest.BaseURL, Lazy: true})
		if err != nil {
			t.Fatal(err)
		}
		return New(NewServer(s, Services{Log: log.Logger()}))
	}
	check := func(when string, h http.Handler) {
		t.Helper()
		mu.Lock()
		told = nil
		mu.Unlock()
		for _, l := range info.Languages {
			res := sitetest.Get(t, h, l.LocalPath("/team"))
			if res.Code != http.StatusOK || !strings.Contains(res.Body.String(), "<p>footer.devxMissingKey</p>") {
				t.Errorf("%s: %s: %d, want 200 with the key shown", when, l.LocalPath("/team"), res.Code)
			}
			want := render.MissingString{Key: "footer.devxMissingKey", Lang: l.Code, File: "frontend/components/Footer.tsx", Line: askedOn, Column: 16}
			mu.Lock()
			if !slices.Contains(told, want) {
				t.Errorf("%s: %s: the engine told %+v, want %+v", when, l.LocalPath("/team"), told, want)
			}
			mu.Unlock()
		}
	}
	check("rendered", serve())
	check("answered by the memo", serve())

	for _, l := range info.Languages {
		re := regexp.MustCompile(`level=WARN msg="render: a string is missing; the page shows its key" missing="frontend/components/Footer\.tsx:` +
			strconv.Itoa(askedOn) + `:16: no string \\"footer\.devxMissingKey\\" in ` + l.Code + `"`)
		if n := len(re.FindAllString(log.String(), -1)); n != 2 {
			t.Errorf("the log names the missing string in %s %d times, want once per engine (2):\n%s", l.Code, n, log.String())
		}
	}
}
