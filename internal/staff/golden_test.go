package staff

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/northbeam/site/internal/goldentest"
	"github.com/northbeam/site/internal/site"
)

// TestGoldenSignInMail holds the sign-in link's mail, in every language,
// written from the shipped templates, to what testdata/sign-in.golden
// recorded.
func TestGoldenSignInMail(t *testing.T) {
	content := os.DirFS(contentDir)
	info, err := site.Load(content, "site.json")
	if err != nil {
		t.Fatal(err)
	}
	texts, err := site.LoadLocales(content, "staff/locales", info)
	if err != nil {
		t.Fatal(err)
	}
	w, err := New(nil, Config{BaseURL: "https://northbeam.test", Name: info.Name, Texts: texts, Content: content})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	// Every language of content/site.json, and one it lacks ("zxx", ISO
	// 639's "no linguistic content"), which falls back on the default.
	for _, lang := range append(info.Languages.Codes(), "zxx") {
		msg, err := w.signInMail("ada@northbeam.test", lang, "token-"+lang)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "=== %s to %s, in %s\nSubject: %s\n\n%s", msg.Kind, msg.To, msg.Lang, msg.Subject, msg.Text)
	}
	goldentest.Check(t, filepath.Join("testdata", "sign-in.golden"), b.String())
}
