package main

import (
	"bufio"
	"bytes"
	"context"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"io"
	"io/fs"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/northbeam/site/internal/devserver"
	"github.com/northbeam/site/internal/images"
	"github.com/northbeam/site/internal/sitetest"
	"github.com/northbeam/site/internal/testwait"
)

// TestStaleImageCopiesGo: a picture deleted from the content and one
// changed while the server was stopped, the next start from the sources
// removes their copies from DATA_DIR/image-copies once it has made the
// new ones, and keeps the others and a file that is no copy; the page
// shows the changed picture's new copies, served as kept. Then under -dev
// an edit that replaces the picture again leaves no copy of the one
// before once the rebuild's copies are made.
func TestStaleImageCopiesGo(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the program")
	}
	root := t.TempDir()
	if err := devserver.CopyTree(sitetest.Root(), root); err != nil {
		t.Fatal(err)
	}
	const photo = "/img/team/lena-hartmann.png"
	photoFile := filepath.Join(root, "content", filepath.FromSlash(photo))
	extraFile := filepath.Join(root, "content", "img", "extra.png")
	if err := os.WriteFile(extraFile, drawnPicture(t, 300, 200, 0), 0o600); err != nil {
		t.Fatal(err)
	}
	dataDir := t.TempDir()
	copies := filepath.Join(dataDir, "image-copies")

	// The folder as a start before left it: every copy of the content
	// then, taken from those the tests share where they are there, the
	// others encoded.
	before := loadPictures(t, root)
	for _, src := range before.Sources() {
		for _, v := range src.Variants {
			rel := filepath.FromSlash(strings.TrimPrefix(v.Path, "/img/"))
			if data, err := os.ReadFile(filepath.Join(sitetest.ImageCopies(), rel)); err == nil {
				writeFile(t, filepath.Join(copies, rel), data)
			}
		}
	}
	before.KeepCopiesIn(copies)
	if err := before.Warm(context.Background()); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(copies, "README.txt"), []byte("not a copy"))

	// While the server is stopped, the extra picture goes and the photo
	// changes.
	if err := os.Remove(extraFile); err != nil {
		t.Fatal(err)
	}
	writeFile(t, photoFile, changedPicture(t, photoFile, 1))
	after := loadPictures(t, root)
	gone := len(before.Sources()[0].Variants) // extra.png, first by address
	if p := before.Sources()[0].Path; p != "/img/extra.png" {
		t.Fatalf("the first picture is %s", p)
	}
	old, _ := before.Source(photo)
	gone += len(old.Variants)

	p := startProgram(t, root, dataDir)
	p.wait(t, regexp.MustCompile(`msg="pictures' copies pruned" removed=`+strconv.Itoa(gone)+`$`))
	checkCopies(t, copies, after)
	checkPhotoServed(t, p.addr, copies, after.Sources(), photo, old)
	p.stop(t)

	// -dev, on the same folder: the photo replaced again.
	p = startProgram(t, root, dataDir, "-dev")
	p.wait(t, regexp.MustCompile(`msg=ready `))
	replaceFile(t, photoFile, changedPicture(t, photoFile, 2))
	edited := loadPictures(t, root)
	p.wait(t, regexp.MustCompile(`msg=rebuilt `))
	p.wait(t, regexp.MustCompile(`msg="pictures' copies pruned" removed=3$`))
	checkCopies(t, copies, edited)
	previous, _ := after.Source(photo)
	checkPhotoServed(t, p.addr, copies, edited.Sources(), photo, previous)
	p.stop(t)
}

// loadPictures loads the pictures of the project copy at root, as a
// start does.
func loadPictures(t *testing.T, root string) *images.Library {
	t.Helper()
	lib, err := images.Load(os.DirFS(filepath.Join(root, "content")), "img", nil)
	if err != nil {
		t.Fatal(err)
	}
	return lib
}

// checkCopies checks that the folder holds every copy of lib and, beside
// them, only README.txt.
func checkCopies(t *testing.T, dir string, lib *images.Library) {
	t.Helper()
	want := []string{"README.txt"}
	for _, src := range lib.Sources() {
		for _, v := range src.Variants {
			want = append(want, strings.TrimPrefix(v.Path, "/img/"))
		}
	}
	var got []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			got = append(got, filepath.ToSlash(rel))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("the copies kept:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// checkPhotoServed checks that the team page names the photo's copies of
// sources, not those of old, and that each is served as it is kept.
func checkPhotoServed(t *testing.T, addr, dir string, sources []*images.Source, photo string, old *images.Source) {
	t.Helper()
	var src *images.Source
	for _, s := range sources {
		if s.Path == photo {
			src = s
		}
	}
	get := func(path string) (*http.Response, []byte) {
		t.Helper()
		res, err := http.Get("http://" + addr + path)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		body, _ := io.ReadAll(res.Body)
		return res, body
	}
	page := sitetest.Other(t).LocalPath("/team")
	if res, body := get(page); res.StatusCode != http.StatusOK || !bytes.Contains(body, []byte(src.Srcset())) ||
		bytes.Contains(body, []byte(old.Variants[0].Path)) {
		t.Errorf("%s: %d; want the photo's new copies (%s), not the old ones", page, res.StatusCode, src.Srcset())
	}
	for _, v := range src.Variants {
		kept, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(strings.TrimPrefix(v.Path, "/img/"))))
		if err != nil {
			t.Fatal(err)
		}
		if res, body := get(v.Path); res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != images.ContentType ||
			!bytes.Equal(body, kept) {
			t.Errorf("%s: %d %q, %d bytes; want the kept copy's %d", v.Path, res.StatusCode, res.Header.Get("Content-Type"), len(body), len(kept))
		}
	}
	if res, body := get(src.Hashed); res.StatusCode != http.StatusOK || !bytes.Equal(body, src.Data) {
		t.Errorf("%s: %d, %d bytes; want the changed file", src.Hashed, res.StatusCode, len(body))
	}
}

// drawnPicture is a w×h PNG of one colour, told apart by shade.
func drawnPicture(t *testing.T, w, h int, shade uint8) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	draw.Draw(img, img.Bounds(), image.NewUniform(color.NRGBA{0x1d, 0x4e, shade, 0xff}), image.Point{}, draw.Src)
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// changedPicture returns the PNG file at p with its top left pixel set to
// a shade: the same size, other bytes.
func changedPicture(t *testing.T, p string, shade uint8) []byte {
	t.Helper()
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	src, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	img := image.NewNRGBA(src.Bounds())
	draw.Draw(img, img.Bounds(), src, src.Bounds().Min, draw.Src)
	img.SetNRGBA(0, 0, color.NRGBA{shade, shade, shade, 0xff})
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// replaceFile replaces the file at p whole, as an editor saves: written
// beside under a name the watcher ignores, then renamed.
func replaceFile(t *testing.T, p string, data []byte) {
	t.Helper()
	tmp := filepath.Join(filepath.Dir(p), ".saving")
	writeFile(t, tmp, data)
	if err := os.Rename(tmp, p); err != nil {
		t.Fatal(err)
	}
}

func writeFile(t *testing.T, p string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o600); err != nil {
		t.Fatal(err)
	}
}

// programRun is this test binary run as the program from the project copy
// at root (asProgram), and what it logs.
type programRun struct {
	cmd   *exec.Cmd
	addr  string
	lines chan string
	log   []string
}

func startProgram(t *testing.T, root, dataDir string, args ...string) *programRun {
	t.Helper()
	bin, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, args...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), asProgram+"=1", "ROOT="+root, "ADDR=127.0.0.1:0", "DATA_DIR="+dataDir, "SMTP_URL=", "DEV=false",
		"GA_MEASUREMENT_ID=")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &programRun{cmd: cmd, lines: make(chan string, 1000)}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	go func() {
		sc := bufio.NewScanner(stderr)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			p.lines <- sc.Text()
		}
		close(p.lines)
	}()
	p.addr = listeningLine.FindStringSubmatch(p.wait(t, listeningLine))[1]
	return p
}

// wait returns the next line logged that matches re.
func (p *programRun) wait(t *testing.T, re *regexp.Regexp) string {
	t.Helper()
	timeout := time.After(time.Until(testwait.Deadline(t)))
	for {
		select {
		case line, ok := <-p.lines:
			if !ok {
				t.Fatalf("the program stopped before logging %s:\n%s", re, strings.Join(p.log, "\n"))
			}
			p.log = append(p.log, line)
			if strings.Contains(line, "level=ERROR") || strings.Contains(line, "level=WARN") && strings.Contains(line, "copies") {
				t.Errorf("logged: %s", line)
			}
			if re.MatchString(line) {
				return line
			}
		case <-timeout:
			t.Fatalf("no line matching %s by the test's deadline:\n%s", re, strings.Join(p.log, "\n"))
		}
	}
}

// stop ends the program and waits for it.
func (p *programRun) stop(t *testing.T) {
	t.Helper()
	_ = p.cmd.Process.Signal(os.Interrupt)
	done := make(chan struct{})
	go func() { _ = p.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(25 * time.Second):
		_ = p.cmd.Process.Kill()
		<-done
	}
}
