package sitebuild

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/northbeam/site/render"
)

// TestCompactLDWritesTheSameDocument: a page's structured data kept as its
// JSON (compactLD) writes the same document, byte for byte, as the values
// it was made from, so that the renders' cache keys and the pages stay
// the same; titles with characters that HTML and JSON escape included.
func TestCompactLDWritesTheSameDocument(t *testing.T) {
	ld := func() []any {
		return []any{
			map[string]any{"@type": "BlogPosting", "headline": `Ship <fast> & "safe" — 'ok' </script>`, "n": 3,
				"author": map[string]string{"name": "Zoë\u2028Ünal"}},
			map[string]any{"@type": "BreadcrumbList", "itemListElement": []any{map[string]any{"position": 1, "name": "مرحبا"}}},
		}
	}
	write := func(values []any) ([]byte, []byte) {
		doc := render.Document{Lang: "en", Title: "t", JSONLD: values}
		html, err := doc.HTML()
		if err != nil {
			t.Fatal(err)
		}
		key, err := json.Marshal(doc)
		if err != nil {
			t.Fatal(err)
		}
		return html, key
	}
	wantHTML, wantKey := write(ld())
	gotHTML, gotKey := write(compactLD(ld()))
	if !bytes.Equal(gotHTML, wantHTML) {
		t.Errorf("document differs:\n got %s\nwant %s", gotHTML, wantHTML)
	}
	if !bytes.Equal(gotKey, wantKey) {
		t.Errorf("cache key's JSON differs:\n got %s\nwant %s", gotKey, wantKey)
	}
}
