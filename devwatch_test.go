package main

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/northbeam/site/handlers"
	"github.com/northbeam/site/internal/assets"
	"github.com/northbeam/site/internal/blog"
	"github.com/northbeam/site/internal/booking"
	"github.com/northbeam/site/internal/logtest"
	"github.com/northbeam/site/internal/sitetest"
)

// TestDevSaysWhenItIsOnTheNetwork: -dev listening on every address
// (DEV_PUBLIC) says so in the log at WARN, with the URLs others reach it
// at; on loopback it says nothing of the kind.
func TestDevSaysWhenItIsOnTheNetwork(t *testing.T) {
	for _, tc := range []struct {
		addr    string
		exposed bool
	}{
		{"127.0.0.1:0", false},
		{"[::1]:0", false},
		{"0.0.0.0:0", true},
	} {
		ln, err := net.Listen("tcp", tc.addr)
		if err != nil {
			t.Logf("%s: %v (no such address on this machine)", tc.addr, err)
			continue
		}
		var buf logtest.Buffer
		warnIfExposed(buf.Logger(), ln.Addr())
		_, port, _ := net.SplitHostPort(ln.Addr().String())
		_ = ln.Close()
		out := buf.String()
		if !tc.exposed {
			if out != "" {
				t.Errorf("%s: the log says %q, want nothing", tc.addr, out)
			}
			continue
		}
		if !strings.Contains(out, "level=WARN") || !strings.Contains(out, "reachable from the network") ||
			!strings.Contains(out, "sources' text") || !regexp.MustCompile(`addr=\S+:`+port+` `).MatchString(out) {
			t.Errorf("%s: the log says %q, want a warning that the sources are on the network", tc.addr, out)
		}
		// Every non-loopback IPv4 address of the machine is named.
		addrs, _ := net.InterfaceAddrs()
		for _, a := range addrs {
			if ip, ok := a.(*net.IPNet); ok && ip.IP.To4() != nil && !ip.IP.IsLoopback() && !ip.IP.IsLinkLocalUnicast() {
				if want := "http://" + net.JoinHostPort(ip.IP.String(), port); !strings.Contains(out, want) {
					t.Errorf("%s: the warning does not name %s: %q", tc.addr, want, out)
				}
			}
		}
	}
}

// TestWatchReportsChangedFiles: a saved file under frontend/ or content/
// is reported by its path in the project, through file events and through
// the polling that replaces them where they fail; so is a file in a
// directory made after the watch began.
func TestWatchReportsChangedFiles(t *testing.T) {
	for _, mode := range []string{"events", "polling"} {
		t.Run(mode, func(t *testing.T) {
			root := t.TempDir()
			for _, dir := range []string{"frontend/styles", "content"} {
				if err := os.MkdirAll(filepath.Join(root, dir), 0o750); err != nil {
					t.Fatal(err)
				}
			}
			src := sources{root: root}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			changes := make(chan []string)
			if mode == "events" {
				go src.watch(ctx, sitetest.QuietLog(), changes)
			} else {
				go src.poll(ctx, changes)
			}
			for _, rel := range []string{"frontend/styles/site.css", "content/new/strings.json"} {
				if !savedUntilReported(t, filepath.Join(root, rel), rel, changes) {
					t.Fatalf("%s was not reported", rel)
				}
			}
		})
	}
}

// TestEditorFilesStartNoBuild: the temporary and backup files editors
// and tools write beside a file they save are never reported, through file
// events or polling, whether they appear before the saved file, with it or
// after it: no build starts for them.
func TestEditorFilesStartNoBuild(t *testing.T) {
	temporary := []string{
		".#post.md",           // Emacs's lock
		"#post.md#",           // Emacs's autosave
		"post.md~",            // a backup
		".post.md.swp",        // Vim's swap
		".post.md.swx",        // Vim's swap, while the .swp is in use
		"4913",                // Vim's test of the folder
		"5036",                // the same, when 4913 is taken
		"sedX1a9Qz",           // sed -i
		"post.md.tmp",         // an editor that saves through a temporary file
		"post.md___jb_tmp___", // JetBrains' safe write
		".goutputstream-ZX81", // GNOME's
		".hidden.json",
	}
	for _, mode := range []string{"events", "polling"} {
		t.Run(mode, func(t *testing.T) {
			root := t.TempDir()
			dirs := []string{"content/blog/en", "frontend/styles", "content/.cache"}
			for _, dir := range dirs {
				if err := os.MkdirAll(filepath.Join(root, dir), 0o750); err != nil {
					t.Fatal(err)
				}
			}
			src := sources{root: root}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			changes := make(chan []string)
			if mode == "events" {
				go src.watch(ctx, sitetest.QuietLog(), changes)
			} else {
				go src.poll(ctx, changes)
			}
			writeTemporary := func(content string) {
				for _, dir := range dirs {
					for _, name := range temporary {
						if err := os.WriteFile(filepath.Join(root, dir, name), []byte(content), 0o600); err != nil {
							t.Fatal(err)
						}
					}
				}
			}
			// Before each save of the real file, every temporary one is
			// written again in each folder: the real file's report comes
			// after theirs would.
			onlyReported(t, changes, "content/blog/en/post.md", func(n int) {
				writeTemporary(fmt.Sprint(n))
				if err := os.WriteFile(filepath.Join(root, "content/blog/en/post.md"), fmt.Appendf(nil, "---\ntitle: %d\n---\n", n), 0o600); err != nil {
					t.Fatal(err)
				}
			})
			// After the save, the temporary files go and come again; a file
			// that is content, saved after them, is the next report, alone.
			for _, dir := range dirs {
				for _, name := range temporary {
					if err := os.Remove(filepath.Join(root, dir, name)); err != nil {
						t.Fatal(err)
					}
				}
			}
			writeTemporary("again")
			onlyReported(t, changes, "frontend/styles/site.css", func(n int) {
				if err := os.WriteFile(filepath.Join(root, "frontend/styles/site.css"), fmt.Appendf(nil, "/* %d */", n), 0o600); err != nil {
					t.Fatal(err)
				}
			}, "content/blog/en/post.md")
		})
	}
}

// onlyReported calls save (with 0, 1, ...) until a batch of changes names
// rel (the watch starts behind), within the test's deadline, and fails the
// test on any other file reported meanwhile but the real files saved
// before: on a loaded machine a save repeated because its report came late
// is reported after the next step has begun, rightly.
func onlyReported(t *testing.T, changes <-chan []string, rel string, save func(n int), saved ...string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	if d, ok := t.Deadline(); ok && d.Before(deadline) {
		deadline = d
	}
	for n := 0; time.Now().Before(deadline); n++ {
		save(n)
		wait := time.NewTimer(700 * time.Millisecond)
	batches:
		for {
			select {
			case got := <-changes:
				for _, p := range got {
					if p != rel && !slices.Contains(saved, p) {
						t.Errorf("reported %s", p)
					}
				}
				if slices.Contains(got, rel) {
					wait.Stop()
					return
				}
			case <-wait.C:
				break batches
			}
		}
	}
	t.Fatalf("%s was never reported", rel)
}

// savedUntilReported saves the file at p again and again until a batch of
// changes names it as rel (the watch starts behind), for 10 s at most.
func savedUntilReported(t *testing.T, p, rel string, changes <-chan []string) bool {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o750); err != nil {
		t.Fatal(err)
	}
	for n := range 14 {
		if err := os.WriteFile(p, fmt.Appendf(nil, "/* save %d */", n), 0o600); err != nil {
			t.Fatal(err)
		}
		select {
		case got := <-changes:
			if slices.Contains(got, rel) {
				return true
			}
		case <-time.After(700 * time.Millisecond):
		}
	}
	return false
}

// TestBuildProblemsNameTheirPlace: what a failed -dev build shows in the
// log and the overlay names the mistake's file from the project's
// directory, its line (and column for JSON) and the line's text: a JSON
// mistake in the strings (read for the string groups, or as the server's
// strings) or in availability.json, and each YAML mistake of the posts'
// front matter, the first line's included.
func TestBuildProblemsNameTheirPlace(t *testing.T) {
	root := t.TempDir()
	write := func(rel, text string) {
		t.Helper()
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o750); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("frontend/lib/strings.json", `{"source": "content/locales", "groups": {"common": ["team"]}}`)
	write("content/locales/xx.json", "{\n  \"team\": {\n    \"title\": \"The people\",,\n  }\n}\n")
	write("content/availability.json", "{\n  \"timezone\": \"Europe/Paris\",\n  \"daysAhead\": \"thirty\"\n}\n")
	write("content/blog/xx/a.md", "---\ntitle: Two: colons\ndescription: D\n---\nText\n")
	write("content/blog/xx/b.md", "---\ntitle: T\n- a list item\n---\nText\n")

	groups, err := assets.LoadStringGroups(filepath.Join(root, "frontend/lib/strings.json"))
	if err != nil {
		t.Fatal(err)
	}
	_, stringsErr := groups.Files(root)
	contentDir := os.DirFS(filepath.Join(root, "content"))
	_, avErr := booking.LoadAvailability(contentDir, "availability.json")
	_, blogErr := blog.Load(contentDir, "blog", true, func(string, time.Time) string { return "" })

	for _, tc := range []struct {
		name string
		err  error
		want []string // each problem as the log writes it, then its line
	}{
		{"the strings", stringsErr, []string{
			"content/locales/xx.json:3:27: invalid character ',' looking for beginning of object key string", `    "title": "The people",,`}},
		{"availability.json", avErr, []string{
			"content/availability.json:3:23: decode: json: cannot unmarshal string into Go struct field availabilityFile.daysAhead of type int", `  "daysAhead": "thirty"`}},
		{"the posts' front matter", fmt.Errorf("blog: %w", blogErr), []string{
			"content/blog/xx/a.md:2: invalid YAML: mapping values are not allowed in this context", "title: Two: colons",
			"content/blog/xx/b.md:3: invalid YAML: did not find expected key", "- a list item"}},
	} {
		if tc.err == nil {
			t.Errorf("%s: loaded without an error", tc.name)
			continue
		}
		var got []string
		for _, p := range placedProblems(root, tc.err) {
			got = append(got, p.String(), p.LineText)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: %q\nwant %q", tc.name, got, tc.want)
		}
	}
}

// TestTypeCheckerReadsEachPass: what tsc --watch writes becomes, at the end
// of each pass, the problems shown, each at its file, line and column with
// the line's text, a message of several lines kept whole; a pass that
// finds nothing clears them; a type error is logged once, when it appears.
func TestTypeCheckerReadsEachPass(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "frontend/pages"), 0o750); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "frontend/pages/Team.tsx"), []byte("import x from \"y\";\nconst n: number = \"a\";\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	var shown [][]handlers.DevProblem
	var log logtest.Buffer
	c := &typeChecker{root: root, log: log.Logger(), show: func(by string, problems []handlers.DevProblem) {
		if by != "types" {
			t.Errorf("shown as %q", by)
		}
		shown = append(shown, problems)
	}}
	c.read(strings.NewReader(`09:07:14 AM - Starting compilation in watch mode...

09:07:22 AM - Found 0 errors. Watching for file changes.

09:07:39 AM - File change detected. Starting incremental compilation...

frontend/pages/Team.tsx(2,7): error TS2322: Type 'string' is not assignable to type 'number'.
frontend/pages/Team.tsx(1,15): error TS2307: Cannot find module 'y'
  or its corresponding type declarations.
09:07:39 AM - Found 2 errors. Watching for file changes.

09:07:45 AM - File change detected. Starting incremental compilation...

frontend/pages/Team.tsx(2,7): error TS2322: Type 'string' is not assignable to type 'number'.
09:07:45 AM - Found 1 error. Watching for file changes.

09:07:50 AM - File change detected. Starting incremental compilation...

09:07:51 AM - Found 0 errors. Watching for file changes.
`))
	typeErr := handlers.DevProblem{Kind: "type", Message: "TS2322: Type 'string' is not assignable to type 'number'.",
		File: "frontend/pages/Team.tsx", Line: 2, Column: 7, LineText: `const n: number = "a";`}
	module := handlers.DevProblem{Kind: "type", Message: "TS2307: Cannot find module 'y'\nor its corresponding type declarations.",
		File: "frontend/pages/Team.tsx", Line: 1, Column: 15, LineText: `import x from "y";`}
	want := [][]handlers.DevProblem{nil, {typeErr, module}, {typeErr}, nil}
	if len(shown) != len(want) {
		t.Fatalf("%d passes shown, want %d: %+v", len(shown), len(want), shown)
	}
	for i := range want {
		if !slices.Equal(shown[i], want[i]) {
			t.Errorf("pass %d shows %+v\nwant %+v", i+1, shown[i], want[i])
		}
	}
	if n := strings.Count(log.String(), `msg="type error" problem="frontend/pages/Team.tsx:2:7: TS2322`); n != 1 {
		t.Errorf("the type error is logged %d times, want once:\n%s", n, log.String())
	}
}
