package render

import (
	"bytes"
	"context"
	"fmt"
	goruntime "runtime"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

// The build renders with a recording memo and ships it; a start with the
// same bundle answers the same payloads from it without running goja, and
// renders anything else.
func TestMemoSparesTheStartItsRenders(t *testing.T) {
	ctx := context.Background()
	memo := NewMemo()
	build, err := NewEngine([]byte(echoBundle), Options{Runtimes: 1, Memo: memo})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{`{"text":"home"}`, `{"text":"blog"}`} {
		if _, err := build.Render(ctx, []byte(p)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := build.Render(ctx, []byte(`{"fail":true}`)); err == nil {
		t.Fatal("a failing render succeeded")
	}
	if memo.Len() != 2 {
		t.Fatalf("the memo holds %d bodies, want the 2 that rendered", memo.Len())
	}
	var file bytes.Buffer
	if _, err := memo.WriteTo(&file); err != nil {
		t.Fatal(err)
	}

	shipped, err := ReadMemo(bytes.NewReader(file.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	start, err := NewEngine([]byte(echoBundle), Options{Runtimes: 1, Memo: shipped})
	if err != nil {
		t.Fatal(err)
	}
	if html, err := start.Render(ctx, []byte(`{"text":"home"}`)); err != nil || html != "<p>home</p>" {
		t.Fatalf("from the memo: %q, %v", html, err)
	}
	if html, err := start.Render(ctx, []byte(`{"text":"a visitor's form"}`)); err != nil || html != "<p>a visitor's form</p>" {
		t.Fatalf("a new payload: %q, %v", html, err)
	}
	if rendered, remembered := start.Counts(); rendered != 1 || remembered != 1 {
		t.Errorf("rendered %d and remembered %d, want 1 and 1", rendered, remembered)
	}
	if shipped.Len() != 2 {
		t.Errorf("a shipped memo recorded a render: %d bodies", shipped.Len())
	}

	// Another bundle never takes a body rendered by this one.
	other, err := NewEngine([]byte(`globalThis.renderPage = function (p) { return "<p>other</p>"; };`), Options{Runtimes: 1, Memo: shipped})
	if err != nil {
		t.Fatal(err)
	}
	if html, _ := other.Render(ctx, []byte(`{"text":"home"}`)); html != "<p>other</p>" {
		t.Errorf("another bundle got %q from the memo", html)
	}
}

func TestReadMemoRefusesGarbage(t *testing.T) {
	if _, err := ReadMemo(bytes.NewReader([]byte("not a memo"))); err == nil {
		t.Error("garbage read as a memo")
	}
}

// TestADevSessionKeepsTheRendersOfItsBundleOnly: -dev records every
// render in one memo; after an edit makes a new server bundle, the
// renders of the bundle before are let go, and those of the new one stay.
func TestADevSessionKeepsTheRendersOfItsBundleOnly(t *testing.T) {
	ctx := context.Background()
	memo := NewMemo()
	before := []byte(echoBundle)
	after := []byte(`globalThis.renderPage = function (p) { return "<p>edited</p>"; };`)
	var last *Engine
	for _, bundle := range [][]byte{before, after} {
		e, err := NewEngine(bundle, Options{Runtimes: 1, Memo: memo})
		if err != nil {
			t.Fatal(err)
		}
		last = e
		for _, p := range []string{`{"text":"home"}`, `{"text":"blog"}`} {
			if _, err := e.Render(ctx, []byte(p)); err != nil {
				t.Fatal(err)
			}
		}
	}
	if memo.Len() != 4 {
		t.Fatalf("the memo holds %d bodies, want 4", memo.Len())
	}
	memo.KeepOnly(last)
	if memo.Len() != 2 {
		t.Fatalf("after the edit, the memo holds %d bodies, want the new bundle's 2", memo.Len())
	}
	e, err := NewEngine(after, Options{Runtimes: 1, Memo: memo})
	if err != nil {
		t.Fatal(err)
	}
	if html, err := e.Render(ctx, []byte(`{"text":"home"}`)); err != nil || html != "<p>edited</p>" {
		t.Fatalf("the new bundle's page: %q, %v", html, err)
	}
	if rendered, remembered := e.Counts(); rendered != 0 || remembered != 1 {
		t.Errorf("rendered %d and remembered %d, want 0 and 1: the new bundle's renders were let go", rendered, remembered)
	}
}

// TestADevMemoKeepsItsBodiesOnDisk: -dev's memo spilled to a file answers
// every render it recorded, byte for byte, without holding the bodies in
// the heap, before and after an edit lets the renders of a bundle go.
func TestADevMemoKeepsItsBodiesOnDisk(t *testing.T) {
	ctx := context.Background()
	memo := NewMemo()
	if err := memo.SpillTo(t.TempDir()); err != nil {
		t.Fatal(err)
	}
	payloads := []string{`{"text":"home"}`, `{"text":"blog"}`, `{"text":"` + strings.Repeat("long ", 5000) + `"}`}
	render := func(bundle []byte) (*Engine, []string) {
		e, err := NewEngine(bundle, Options{Runtimes: 1, Memo: memo})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, p := range payloads {
			html, err := e.Render(ctx, []byte(p))
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, html)
		}
		return e, out
	}
	before, first := render([]byte(echoBundle))
	if len(memo.bodies) != 0 || memo.Len() != 3 {
		t.Fatalf("the memo holds %d bodies in the heap and %d in all, want 0 and 3", len(memo.bodies), memo.Len())
	}
	again, second := render([]byte(echoBundle))
	if !slices.Equal(first, second) {
		t.Fatal("the memo's answers differ from the renders")
	}
	if rendered, remembered := again.Counts(); rendered != 0 || remembered != 3 {
		t.Fatalf("rendered %d and remembered %d, want 0 and 3", rendered, remembered)
	}

	// An edit: a new bundle, whose renders alone stay; the file is
	// emptied of the others and takes new ones.
	after := []byte(`globalThis.renderPage = function (p) { return "<p>edited " + p.text + "</p>"; };`)
	edited, _ := render(after)
	memo.KeepOnly(edited)
	memo.KeepOnly(edited)
	if memo.Len() != 3 {
		t.Fatalf("after the edit the memo holds %d bodies, want 3", memo.Len())
	}
	memo.KeepOnly(before) // the edit undone: nothing of the edited bundle stays
	if memo.Len() != 0 || memo.spill.end != 0 {
		t.Fatalf("the memo holds %d bodies in %d bytes, want none", memo.Len(), memo.spill.end)
	}
	e, third := render([]byte(echoBundle))
	if !slices.Equal(first, third) {
		t.Fatal("the renders after the file was emptied differ")
	}
	if _, third = render([]byte(echoBundle)); !slices.Equal(first, third) {
		t.Fatal("the memo's answers after the file was emptied differ")
	}
	if rendered, _ := e.Counts(); rendered != 3 {
		t.Errorf("rendered %d, want 3", rendered)
	}
}

// TestAShippedMemoIsReadABodyAtATime: a production binary's memo, read
// from its file, holds only where each body is; each is read when a render
// asks for it, the same as it was written; the same memo writes the same
// bytes; a body whose bytes are damaged is rendered again, never served.
func TestAShippedMemoIsReadABodyAtATime(t *testing.T) {
	ctx := context.Background()
	memo := NewMemo()
	build, err := NewEngine([]byte(echoBundle), Options{Runtimes: 1, Memo: memo})
	if err != nil {
		t.Fatal(err)
	}
	// 200 pages of 64 KB each: 12.5 MB of bodies.
	filler := strings.Repeat("a line of a long page, ", 64<<10/23)
	payloads := make([]string, 200)
	for i := range payloads {
		payloads[i] = fmt.Sprintf(`{"text":"page %d %s"}`, i, filler)
		if _, err := build.Render(ctx, []byte(payloads[i])); err != nil {
			t.Fatal(err)
		}
	}
	var file, again bytes.Buffer
	if _, err := memo.WriteTo(&file); err != nil {
		t.Fatal(err)
	}
	if _, err := memo.WriteTo(&again); err != nil || !bytes.Equal(file.Bytes(), again.Bytes()) {
		t.Errorf("the same memo wrote other bytes (%v)", err)
	}
	fsys := fstest.MapFS{"renders.memo": {Data: file.Bytes()}}

	var before, after goruntime.MemStats
	goruntime.GC()
	goruntime.ReadMemStats(&before)
	shipped, err := ReadMemoFS(fsys, "renders.memo")
	if err != nil {
		t.Fatal(err)
	}
	goruntime.GC()
	goruntime.ReadMemStats(&after)
	if after.HeapAlloc > before.HeapAlloc+1<<20 {
		t.Errorf("reading a memo of 12.5 MB of bodies took %d KB of the heap, want its index alone", (after.HeapAlloc-before.HeapAlloc)>>10)
	}
	start, err := NewEngine([]byte(echoBundle), Options{Runtimes: 1, Memo: shipped})
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range payloads {
		html, err := start.Render(ctx, []byte(p))
		if want := fmt.Sprintf("<p>page %d %s</p>", i, filler); err != nil || html != want {
			t.Fatalf("page %d from the memo: %.40q, %v", i, html, err)
		}
	}
	if rendered, remembered := start.Counts(); rendered != 0 || remembered != int64(len(payloads)) {
		t.Errorf("rendered %d and remembered %d, want 0 and %d", rendered, remembered, len(payloads))
	}
	goruntime.KeepAlive(shipped)

	// The last body's bytes damaged: that page renders, the same HTML.
	damaged := bytes.Clone(file.Bytes())
	for i := len(damaged) - 64; i < len(damaged); i++ {
		damaged[i] ^= 0xff
	}
	broken, err := ReadMemo(bytes.NewReader(damaged))
	if err != nil {
		t.Fatal(err)
	}
	e, err := NewEngine([]byte(echoBundle), Options{Runtimes: 1, Memo: broken})
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range payloads {
		if html, err := e.Render(ctx, []byte(p)); err != nil || html != fmt.Sprintf("<p>page %d %s</p>", i, filler) {
			t.Fatalf("page %d from a damaged memo: %.40q, %v", i, html, err)
		}
	}
	if rendered, _ := e.Counts(); rendered != 1 {
		t.Errorf("a damaged memo: %d pages rendered, want the damaged one", rendered)
	}
	if _, err := ReadMemo(bytes.NewReader(file.Bytes()[:40])); err == nil {
		t.Error("a memo cut short in its index was read")
	}
}
