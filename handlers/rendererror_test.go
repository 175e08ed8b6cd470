package handlers

import (
	"context"
	"net/http"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/northbeam/site/internal/assets"
	"github.com/northbeam/site/internal/devserver"
	"github.com/northbeam/site/internal/logtest"
	"github.com/northbeam/site/internal/sitebuild"
	"github.com/northbeam/site/internal/sitetest"
	"github.com/northbeam/site/render"
)

// TestAPageThatThrowsAnswers500: in production, a page whose component
// throws during the render answers the server error's page in the
// visitor's language, with no word of the error; the log names the thrown
// message and its TSX file and line; the other pages answer 200.
func TestAPageThatThrowsAnswers500(t *testing.T) {
	root := t.TempDir()
	if err := devserver.CopyTree(sitetest.Root(), root); err != nil {
		t.Fatal(err)
	}
	team := root + "/frontend/pages/Team.tsx"
	data, err := os.ReadFile(team)
	if err != nil {
		t.Fatal(err)
	}
	src := string(data)
	const line = "  const data = payload.data as TeamData;\n"
	if !strings.Contains(src, line) {
		t.Fatalf("Team.tsx holds no %q", line)
	}
	src = strings.Replace(src, line, line+"  if (data.people.length > 0) throw new Error(\"the team is on a break\");\n", 1)
	if err := os.WriteFile(team, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	bundle, err := assets.Build(root)
	if err != nil {
		t.Fatal(err)
	}
	var log logtest.Buffer
	logger := log.Logger()
	engine, err := render.NewEngine(bundle.Server, render.Options{Logger: logger, SourceMap: bundle.ServerMap, Strings: bundle.Strings})
	if err != nil {
		t.Fatal(err)
	}
	s, err := sitebuild.New(context.Background(), sitetest.Content(), bundle, engine, sitebuild.Options{BaseURL: sitetest.BaseURL, Lazy: true})
	if err != nil {
		t.Fatal(err)
	}
	h := New(NewServer(s, Services{Log: logger}))
	for _, tc := range []struct{ path, lang, message string }{
		{"/team", "en", "Something went wrong on our side."},
		{"/fr/team", "fr", "Une erreur s’est produite de notre côté."},
		{"/de/team", "de", "Bei uns ist ein Fehler aufgetreten."},
		{"/ar/team", "ar", "حدث خطأ من جهتنا."},
	} {
		res := sitetest.Get(t, h, tc.path)
		body := res.Body.String()
		if res.Code != http.StatusInternalServerError || !strings.Contains(body, `lang="`+tc.lang) || !strings.Contains(body, tc.message) {
			t.Errorf("%s: %d, want 500 with the %s error page; body:\n%s", tc.path, res.Code, tc.lang, body)
		}
		for _, leak := range []string{"team is on a break", "Team.tsx", "at ", "Error:"} {
			if strings.Contains(body, leak) {
				t.Errorf("%s: the page says %q", tc.path, leak)
			}
		}
	}
	if !regexp.MustCompile(`the team is on a break at frontend/pages/Team\.tsx:16:\d+`).MatchString(log.String()) {
		t.Errorf("the log does not name the thrown message and frontend/pages/Team.tsx:16:\n%s", log.String())
	}
	for i, l := range sitetest.Languages(t) {
		path := l.LocalPath([]string{"/", "/work", "/privacy", "/blog"}[i%4])
		if res := sitetest.Get(t, h, path); res.Code != http.StatusOK {
			t.Errorf("%s: %d, want 200", path, res.Code)
		}
	}
}
