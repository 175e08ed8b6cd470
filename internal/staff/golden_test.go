package staff

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/northbeam/site/internal/site"
)

var update = flag.Bool("update", false, "rewrite the golden files from the code")

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
	for _, lang := range []string{"en", "fr", "de", "ar", "es"} {
		msg, err := w.signInMail("ada@northbeam.test", lang, "token-"+lang)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "=== %s to %s, in %s\nSubject: %s\n\n%s", msg.Kind, msg.To, msg.Lang, msg.Subject, msg.Text)
	}
	path := filepath.Join("testdata", "sign-in.golden")
	if *update {
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if b.String() != string(want) {
		t.Errorf("the mails differ from %s:\n%s", path, b.String())
	}
}
