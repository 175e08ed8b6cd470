package legal

import (
	"os"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/northbeam/site/internal/site"
)

func testSite(t *testing.T) *site.Site {
	t.Helper()
	s, err := site.Load(os.DirFS("../../content"), "site.json")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestLoadFillsTheImprint: the shipped imprint of every language carries
// the VAT id and the register of site.json.
func TestLoadFillsTheImprint(t *testing.T) {
	s := testSite(t)
	docs, err := Load(os.DirFS("../../content"), "legal", s)
	if err != nil {
		t.Fatal(err)
	}
	for _, lang := range s.Languages {
		doc := docs[lang.Code]["imprint"]
		for _, want := range []string{s.VATID, s.Registration, s.Address.Street, s.Representative} {
			if !strings.Contains(doc.HTML, want) {
				t.Errorf("%s imprint lacks %q", lang.Code, want)
			}
		}
	}
}

// TestLoadRefusesAnUnknownPlaceholder: a mistyped placeholder stops the
// start with the file named, rather than reaching a visitor.
func TestLoadRefusesAnUnknownPlaceholder(t *testing.T) {
	s := testSite(t)
	fsys := fstest.MapFS{}
	for _, lang := range s.Languages {
		for _, name := range Names {
			fsys["legal/"+lang.Code+"/"+name+".md"] = &fstest.MapFile{Data: []byte("---\ntitle: T\ndescription: D\n---\n\n{{site.email}}\n")}
		}
	}
	fsys["legal/de/imprint.md"] = &fstest.MapFile{Data: []byte("---\ntitle: T\ndescription: D\n---\n\nUSt-ID: {{site.vatID}}\n")}
	_, err := Load(fsys, "legal", s)
	if err == nil || !strings.Contains(err.Error(), "legal/de/imprint.md") || !strings.Contains(err.Error(), "{{site.vatID}}") {
		t.Errorf("error %v, want one naming legal/de/imprint.md and the placeholder", err)
	}
}
