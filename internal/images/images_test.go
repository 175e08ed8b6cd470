package images

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"golang.org/x/image/webp"
)

// drawnPNG is a w×h picture with a few flat shapes, drawn in the test (no
// binary file in the repository).
func drawnPNG(t testing.TB, w, h int) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			c := color.NRGBA{0xee, 0xf4, 0xff, 0xff}
			if (x-w/2)*(x-w/2)+(y-h/2)*(y-h/2) < h*h/9 {
				c = color.NRGBA{0x1d, 0x4e, 0xd8, 0xff}
			}
			img.Set(x, y, c)
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func testLibrary(t *testing.T) *Library {
	t.Helper()
	lib, err := Load(fstest.MapFS{
		"img/work/cover.png":  {Data: drawnPNG(t, 1600, 900)},
		"img/team/person.png": {Data: drawnPNG(t, 800, 800)},
		"img/small.png":       {Data: drawnPNG(t, 150, 100)},
		"img/anim.gif":        {Data: gifBytes(t)},
	}, "img", nil)
	if err != nil {
		t.Fatal(err)
	}
	return lib
}

func gifBytes(t *testing.T) []byte {
	t.Helper()
	// GIF89a, 1×1, one black pixel.
	return []byte("GIF89a\x01\x00\x01\x00\x80\x00\x00\x00\x00\x00\xff\xff\xff!\xf9\x04\x01\x00\x00\x00\x00,\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;")
}

// TestVariantsAreWebPAtEachWidthNeverUpscaled: every resizable picture gets
// WebP copies at the widths narrower than itself and at its own, each
// decodable, of the planned size and shape, at an address that differs
// from the original's; a GIF gets none.
func TestVariantsAreWebPAtEachWidthNeverUpscaled(t *testing.T) {
	lib := testLibrary(t)
	want := map[string]string{
		"/img/work/cover.png":  "[200x113 400x225 800x450 1200x675 1600x900]",
		"/img/team/person.png": "[200x200 400x400 800x800]",
		"/img/small.png":       "[150x100]",
		"/img/anim.gif":        "[]",
	}
	for path, sizes := range want {
		src, ok := lib.Source(path)
		if !ok {
			t.Fatalf("no %s", path)
		}
		var got []string
		for _, v := range src.Variants {
			got = append(got, fmt.Sprintf("%dx%d", v.Width, v.Height))
			if !strings.HasSuffix(v.Path, fmt.Sprintf("-%d.webp", v.Width)) || strings.HasPrefix(v.Path, src.Hashed[:len("/img/")+12]) {
				t.Errorf("%s: copy at %s", path, v.Path)
			}
			data, err := v.Data()
			if err != nil {
				t.Fatalf("%s: %v", v.Path, err)
			}
			img, err := webp.Decode(bytes.NewReader(data))
			if err != nil {
				t.Fatalf("%s does not decode: %v", v.Path, err)
			}
			if b := img.Bounds(); b.Dx() != v.Width || b.Dy() != v.Height {
				t.Errorf("%s is %dx%d, planned %dx%d", v.Path, b.Dx(), b.Dy(), v.Width, v.Height)
			}
			if len(data) >= len(src.Data) && v.Width < src.Width {
				t.Errorf("%s: %d bytes, the %d px original %d", v.Path, len(data), src.Width, len(src.Data))
			}
		}
		if fmt.Sprint(got) != sizes && !(sizes == "[]" && got == nil) {
			t.Errorf("%s: copies %v, want %s", path, got, sizes)
		}
	}
	cover, _ := lib.Source("/img/work/cover.png")
	if got := cover.Srcset(); !strings.HasPrefix(got, cover.Variants[0].Path+" 200w, ") || !strings.HasSuffix(got, " 1600w") {
		t.Errorf("srcset %q", got)
	}
}

// TestPictureRefusesWhatWouldShiftOrStretch: a picture needs alternative
// text, a size, a file, and a size of the file's shape no larger than it;
// every mistake is named.
func TestPictureRefusesWhatWouldShiftOrStretch(t *testing.T) {
	lib := testLibrary(t)
	p, err := lib.Picture(Ref{Src: "/img/work/cover.png", Alt: "A cover", Width: 800, Height: 450})
	if err != nil || p.Src == "/img/work/cover.png" || !strings.HasPrefix(p.Src, "/img/") || !strings.Contains(p.WebP, "-800.webp 800w") || p.Width != 800 {
		t.Errorf("%+v %v", p, err)
	}
	for _, tc := range []struct {
		ref  Ref
		want []string
	}{
		{Ref{Src: "/img/work/cover.png", Alt: " ", Width: 1600, Height: 900}, []string{"alt: required"}},
		{Ref{Src: "/img/work/cover.png", Alt: "A cover"}, []string{"width and height: required"}},
		{Ref{Src: "/img/work/missing.png", Alt: "A cover", Width: 1600, Height: 900}, []string{`no such image "/img/work/missing.png"`}},
		{Ref{Alt: "", Width: 10, Height: 10}, []string{"alt: required", "src: required"}},
		{Ref{Src: "/img/work/cover.png", Alt: "A cover", Width: 1600, Height: 1600}, []string{"1600×900: 1600×1600 is another shape"}},
		{Ref{Src: "/img/work/cover.png", Alt: "A cover", Width: 3200, Height: 1800}, []string{"3200×1800 is larger"}},
	} {
		_, err := lib.Picture(tc.ref)
		for _, want := range tc.want {
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%+v: error %v lacks %q", tc.ref, err, want)
			}
		}
	}
}

// TestPrebuiltCopiesAreServedAndRequired: the copies WriteVariants writes
// are the ones a library loaded with them returns, and a library whose
// build lacks a copy does not load, naming the picture.
func TestPrebuiltCopiesAreServedAndRequired(t *testing.T) {
	lib := testLibrary(t)
	dir := t.TempDir()
	written, err := lib.WriteVariants(dir, 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(written) != 5+3+1 {
		t.Fatalf("%d copies written", len(written))
	}
	content := fstest.MapFS{"img/work/cover.png": {Data: drawnPNG(t, 1600, 900)}}
	built, err := Load(content, "img", os.DirFS(dir))
	if err != nil {
		t.Fatal(err)
	}
	v := built.sources["/img/work/cover.png"].Variants[2]
	got, err := v.Data()
	want, _ := os.ReadFile(filepath.Join(dir, strings.TrimPrefix(v.Path, "/img/")))
	if err != nil || !bytes.Equal(got, want) {
		t.Errorf("prebuilt copy: %d bytes, %v; the file has %d", len(got), err, len(want))
	}
	if err := os.Remove(filepath.Join(dir, strings.TrimPrefix(v.Path, "/img/"))); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(content, "img", os.DirFS(dir)); err == nil || !strings.Contains(err.Error(), "/img/work/cover.png: the copy "+v.Path+" is not in the build") {
		t.Errorf("a build without a copy loads: %v", err)
	}
}

// TestAdoptKeepsTheCopiesMadeBefore: a library loaded again (after a
// change elsewhere in the content) takes the copies the earlier one made,
// and makes the others itself.
func TestAdoptKeepsTheCopiesMadeBefore(t *testing.T) {
	earlier := testLibrary(t)
	made, err := earlier.sources["/img/team/person.png"].Variants[0].Data()
	if err != nil {
		t.Fatal(err)
	}
	later := testLibrary(t)
	later.Adopt(earlier)
	v := later.sources["/img/team/person.png"].Variants
	if got, _ := v[0].Data(); &got[0] != &made[0] {
		t.Error("the copy made before is made again")
	}
	if !v[0].made.Load() || v[1].made.Load() {
		t.Errorf("made: %v %v", v[0].made.Load(), v[1].made.Load())
	}
	if data, err := v[1].Data(); err != nil || len(data) == 0 {
		t.Errorf("a copy not made before: %d bytes, %v", len(data), err)
	}
}

// TestKeptCopiesAreReadBack: a library that keeps its copies in a folder
// writes each it encodes there, and another library (another process)
// reads it from there rather than encoding it again.
func TestKeptCopiesAreReadBack(t *testing.T) {
	dir := t.TempDir()
	first := testLibrary(t)
	first.KeepCopiesIn(dir)
	v := first.sources["/img/work/cover.png"].Variants[1]
	made, err := v.Data()
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, strings.TrimPrefix(v.Path, "/img/"))
	if kept, err := os.ReadFile(file); err != nil || !bytes.Equal(kept, made) {
		t.Fatalf("kept copy: %d bytes, %v; encoded %d", len(kept), err, len(made))
	}
	// What the folder holds under a copy's address is that copy: marked
	// here, to tell it from an encoding.
	if err := os.WriteFile(file, []byte("kept"), 0o600); err != nil {
		t.Fatal(err)
	}
	second := testLibrary(t)
	second.KeepCopiesIn(dir)
	if got, err := second.sources["/img/work/cover.png"].Variants[1].Data(); err != nil || string(got) != "kept" {
		t.Errorf("second library: %q, %v; want the kept file", got, err)
	}
	if got, err := second.sources["/img/work/cover.png"].Variants[0].Data(); err != nil || !bytes.HasPrefix(got, []byte("RIFF")) {
		t.Errorf("a copy not kept: %d bytes, %v; want it encoded", len(got), err)
	}
}

// TestAFileThatIsNoPictureStopsTheLoad names it.
func TestAFileThatIsNoPictureStopsTheLoad(t *testing.T) {
	_, err := Load(fstest.MapFS{
		"img/notes.txt":  {Data: []byte("hello")},
		"img/broken.png": {Data: []byte("not a png")},
	}, "img", nil)
	for _, want := range []string{"img/notes.txt: not a picture", "img/broken.png: "} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v lacks %q", err, want)
		}
	}
}

// BenchmarkEncode measures one copy of a 1600×900 drawing at each width:
// go test ./internal/images -bench Encode -run ^$
func BenchmarkEncode(b *testing.B) {
	src := &Source{Path: "/img/cover.png", Data: drawnPNG(b, 1600, 900), Width: 1600, Height: 900}
	for _, w := range []int{400, 800, 1600} {
		b.Run(fmt.Sprint(w), func(b *testing.B) {
			var n int
			for b.Loop() {
				data, err := encodeVariant(src, w, w*900/1600)
				if err != nil {
					b.Fatal(err)
				}
				n = len(data)
			}
			b.ReportMetric(float64(n), "bytes")
		})
	}
}

// TestPruneRemovesTheCopiesTheContentNoLongerHas: after a picture changed
// and another was deleted, pruning the folder the copies were kept in
// removes their copies, and the folders they leave empty, and keeps the
// copies of the pictures unchanged, a file that is not a copy, and a
// write under way; a copy removed is encoded again when asked for.
func TestPruneRemovesTheCopiesTheContentNoLongerHas(t *testing.T) {
	dir := t.TempDir()
	files := fstest.MapFS{
		"img/work/cover.png":  {Data: drawnPNG(t, 1600, 900)},
		"img/team/person.png": {Data: drawnPNG(t, 800, 800)},
		"img/small.png":       {Data: drawnPNG(t, 150, 100)},
		"img/anim.gif":        {Data: gifBytes(t)},
	}
	load := func() *Library {
		t.Helper()
		lib, err := Load(files, "img", nil)
		if err != nil {
			t.Fatal(err)
		}
		lib.KeepCopiesIn(dir)
		return lib
	}
	before := load()
	if err := before.Warm(context.Background()); err != nil {
		t.Fatal(err)
	}
	kept := func() []string {
		t.Helper()
		var out []string
		err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				rel, _ := filepath.Rel(dir, p)
				out = append(out, filepath.ToSlash(rel))
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	if n := len(kept()); n != 5+3+1 {
		t.Fatalf("%d copies kept, want 9: %v", n, kept())
	}
	// Nothing the content has is removed.
	if removed, err := before.PruneCopies(); removed != 0 || err != nil {
		t.Fatalf("pruning with nothing changed removed %d (%v)", removed, err)
	}

	// Beside them: what is not a copy, and a write under way and one
	// that died an hour ago.
	hash := strings.Split(before.sources["/img/small.png"].Variants[0].Path, "/")[2]
	foreign := []string{"README.txt", "notes/cover-800.webp", "0123456789ab/work/cover.webp", "0123456789ab/cover-800.png"}
	for _, f := range append(foreign, hash+"/.put-123", hash+"/.put-456") {
		p := filepath.Join(dir, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("not a copy"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	old := time.Now().Add(-staleWrite - time.Minute)
	if err := os.Chtimes(filepath.Join(dir, hash, ".put-456"), old, old); err != nil {
		t.Fatal(err)
	}

	// The cover changes, the small picture goes.
	files["img/work/cover.png"] = &fstest.MapFile{Data: drawnPNG(t, 1600, 800)}
	delete(files, "img/small.png")
	after := load()
	if err := after.Warm(context.Background()); err != nil {
		t.Fatal(err)
	}
	removed, err := after.PruneCopies()
	if err != nil || removed != 5+1 {
		t.Errorf("pruning removed %d copies (%v), want the cover's 5 and the small picture's", removed, err)
	}
	var want []string
	for _, src := range after.Sources() {
		for _, v := range src.Variants {
			want = append(want, strings.TrimPrefix(v.Path, "/img/"))
		}
	}
	want = append(want, foreign...)
	want = append(want, hash+"/.put-123")
	got := kept()
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("kept after pruning:\n%v\nwant\n%v", got, want)
	}
	for _, v := range before.sources["/img/work/cover.png"].Variants {
		if _, err := os.Stat(filepath.Join(dir, strings.Split(v.Path, "/")[2])); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("the old cover's folder: %v, want it removed", err)
		}
	}

	// A copy removed under a library that had not made it is made again.
	again := load()
	want0 := before.sources["/img/team/person.png"].Variants[0]
	if err := os.Remove(filepath.Join(dir, strings.TrimPrefix(want0.Path, "/img/"))); err != nil {
		t.Fatal(err)
	}
	if got, err := again.sources["/img/team/person.png"].Variants[0].Data(); err != nil || !bytes.HasPrefix(got, []byte("RIFF")) {
		t.Errorf("a copy removed from the folder: %d bytes, %v; want it encoded", len(got), err)
	}
}

// TestPruneWithoutAFolderRemovesNothing: a library that keeps its copies
// in memory, or whose folder was never made, prunes nothing.
func TestPruneWithoutAFolderRemovesNothing(t *testing.T) {
	lib := testLibrary(t)
	if removed, err := lib.PruneCopies(); removed != 0 || err != nil {
		t.Errorf("without a folder: %d, %v", removed, err)
	}
	lib.KeepCopiesIn(filepath.Join(t.TempDir(), "never-made"))
	if removed, err := lib.PruneCopies(); removed != 0 || err != nil {
		t.Errorf("with a folder never made: %d, %v", removed, err)
	}
}
