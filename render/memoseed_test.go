package render

import (
	"bytes"
	"context"
	"testing"
)

// TestBuildTakesTheLastBuildsRenders: a build seeded with the memo of the
// build before renders only the payloads that changed, and ships the
// bodies of its own pages alone, not those of pages that are gone.
func TestBuildTakesTheLastBuildsRenders(t *testing.T) {
	ctx := context.Background()
	last := NewMemo()
	engine, err := NewEngine([]byte(echoBundle), Options{Runtimes: 1, Memo: last})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{`{"text":"home"}`, `{"text":"a post since deleted"}`} {
		if _, err := engine.Render(ctx, []byte(p)); err != nil {
			t.Fatal(err)
		}
	}
	var file bytes.Buffer
	if _, err := last.WriteTo(&file); err != nil {
		t.Fatal(err)
	}
	shipped, err := ReadMemo(bytes.NewReader(file.Bytes()))
	if err != nil {
		t.Fatal(err)
	}

	next := NewMemo()
	next.Seed(shipped)
	engine, err = NewEngine([]byte(echoBundle), Options{Runtimes: 1, Memo: next})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{`{"text":"home"}`, `{"text":"a new post"}`} {
		if _, err := engine.Render(ctx, []byte(p)); err != nil {
			t.Fatal(err)
		}
	}
	if rendered, remembered := engine.Counts(); rendered != 1 || remembered != 1 {
		t.Errorf("rendered %d and took %d from the last build, want 1 and 1", rendered, remembered)
	}
	if next.Len() != 2 {
		t.Errorf("the new build's memo holds %d bodies, want its own 2", next.Len())
	}
}
