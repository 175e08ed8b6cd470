package main

import (
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/chromedp/chromedp"
)

// The content bench (go run ./bench content -posts N): the site with N
// posts a language, made in a temporary copy of the project from the real
// posts (new slugs, titles and dates), measured as `go run .`, `go run .
// -dev` and the production binary (docs/ARCHITECTURE.md, Budgets).

// contentGoals are the budgets at 1,000 posts a language.
var contentGoals = struct {
	listen, firstPage, ready, restart, edit time.Duration
	memory, devMemory                       float64
	build                                   time.Duration
}{2 * time.Second, 1500 * time.Millisecond, time.Minute, 5 * time.Second, 500 * time.Millisecond, 200, 300, 3 * time.Minute}

func contentBench(root string, posts int, modes, keep string) error {
	tmp, err := os.MkdirTemp("", "site-content-")
	if err != nil {
		return err
	}
	defer func() { _ = os.RemoveAll(tmp) }()
	tree := filepath.Join(tmp, "tree")
	if keep != "" {
		tree = keep
		if _, err := os.Stat(keep); err == nil {
			return fmt.Errorf("%s exists: -keep makes a new folder", keep)
		}
	}
	if err := copyProject(root, tree); err != nil {
		return err
	}
	postPath, err := multiplyPosts(tree, posts)
	if err != nil {
		return err
	}
	if keep != "" {
		fmt.Printf("the project with %d posts a language is in %s (post: %s)\n", posts, keep, postPath)
	}
	fmt.Printf("content bench: %d posts a language; machine: %d-core, load average at start %s\n", posts, numCPU(), loadAverage())

	measured := func(mode string) bool { return slices.Contains(strings.Split(modes, ","), mode) }
	// go run . (its compile is cached by a first start, not timed).
	fmt.Println("compiling (not timed)...")
	if err := sh(tree, "go", "build", "-o", os.DevNull, "."); err != nil {
		return err
	}
	// go run's link of the program, which it keeps and takes again until
	// the Go code changes: an edit of the content links nothing (the
	// program embeds none of it), so the starts below are those after an
	// edit of the content. Timed apart, not counted in them.
	linked := time.Now()
	link := exec.Command("go", "run", ".", "-h") // prints the flags, which are not wanted here
	link.Dir = tree
	if out, err := link.CombinedOutput(); err != nil {
		return fmt.Errorf("go run . -h: %w\n%s", err, out)
	}
	fmt.Printf("go run's link of the program, once after a change to the Go code: %s (not counted below)\n", time.Since(linked).Round(time.Millisecond))
	// Each start of a mode has the same address, so the same BASE_URL (a
	// page's canonical links change with it).
	dataDir, addr := filepath.Join(tmp, "data-run"), freeAddr()
	run := func() *siteProcess { return newSiteProcess(tree, dataDir, addr, "go", "run", ".") }
	if measured("run") {
		if err := measureStarts("go run .", run, postPath); err != nil {
			return err
		}
	}

	// go run . -dev: the same, then edits on screen.
	devData, devAddr := filepath.Join(tmp, "data-dev"), freeAddr()
	dev := func() *siteProcess { return newSiteProcess(tree, devData, devAddr, "go", "run", ".", "-dev") }
	if measured("dev") {
		if err := measureStarts("go run . -dev", dev, postPath); err != nil {
			return err
		}
		if err := measureEdits(dev(), tree, postPath); err != nil {
			// Said, and the binary measured all the same.
			fmt.Printf("  edits not measured: %v\n", err)
		}
	}
	if !measured("binary") {
		return nil
	}

	// The production binary: its build, then its starts.
	started := time.Now()
	if err := sh(tree, "npm", "run", "--silent", "build:binary"); err != nil {
		return err
	}
	took := time.Since(started)
	bin := filepath.Join(tree, "bin", "northbeam-site")
	info, err := os.Stat(bin)
	if err != nil {
		return err
	}
	fmt.Printf("\nnpm run build:binary: %s (goal at 1,000 posts ≤ %s)   binary %.1f MB\n", took.Round(100*time.Millisecond), contentGoals.build,
		float64(info.Size())/(1<<20))
	prodDir := filepath.Join(tmp, "prod")
	if err := os.MkdirAll(prodDir, 0o755); err != nil {
		return err
	}
	prodData, prodAddr := filepath.Join(tmp, "data-prod"), freeAddr()
	prod := func() *siteProcess { return newSiteProcess(prodDir, prodData, prodAddr, bin) }
	return measureStarts("production binary", prod, postPath)
}

// measureStarts starts the site twice (the second a restart with nothing
// changed) and prints its times and memory.
func measureStarts(name string, start func() *siteProcess, postPath string) error {
	fmt.Printf("\n%s:\n", name)
	p := start()
	t, err := p.startTimed(postPath)
	if err != nil {
		p.stop()
		return fmt.Errorf("%s: %w", name, err)
	}
	ready, tools, _ := p.memory()
	// What a start makes behind once ready (the client files' compressed
	// copies, the icons) is garbage a moment later: the same 3 s on.
	time.Sleep(3 * time.Second)
	settled, _ := p.rssMB()
	pages, loadErr := p.load()
	loaded, _ := p.rssMB()
	p.stop()
	if loadErr != nil {
		return fmt.Errorf("%s: load: %w", name, loadErr)
	}
	fmt.Printf("  listening %8s   first page %8s after   ready %8s   (goals at 1,000: %s, %s, %s)\n",
		round(t.listen), round(t.first), round(t.ready), contentGoals.listen, contentGoals.firstPage, contentGoals.ready)
	fmt.Printf("  memory (RSS) once ready %6.0f MB, 3 s later %6.0f MB   after a load of every page in the sitemap (%d) %6.0f MB\n", ready, settled, pages, loaded)
	if tools > 0 {
		fmt.Printf("  (beside it, not counted: Node's tools, the type checker, %.0f MB)\n", tools)
	}
	p = start()
	t, err = p.startTimed(postPath)
	p.stop()
	if err != nil {
		return fmt.Errorf("%s restart: %w", name, err)
	}
	fmt.Printf("  a restart, nothing changed: listening %s   ready %s   (goal ≤ %s)\n", round(t.listen), round(t.ready), contentGoals.restart)
	return nil
}

// measureEdits times a sentence of a post and a string edited under
// -dev, from the save to the change on screen.
func measureEdits(p *siteProcess, tree, postPath string) error {
	defer p.stop()
	if _, err := p.startTimed(postPath); err != nil {
		return err
	}
	browserCtx, stop, err := headlessChromium()
	if err != nil {
		return err
	}
	defer stop()
	tab, cancel := chromedp.NewContext(browserCtx)
	defer cancel()
	if err := chromedp.Run(tab, chromedp.Navigate(p.base+postPath), chromedp.WaitVisible(`html[data-hydrated="true"]`, chromedp.ByQuery)); err != nil {
		return err
	}
	post := filepath.Join(tree, "content", "blog", "en", filepath.Base(postPath)+".md")
	sentence := "When a new client shows us their architecture diagram"
	localeFile := filepath.Join(tree, "content", "locales", "en.json")
	label := `"blog": "Blog",`
	var postEdits, stringEdits []time.Duration
	for round := 1; round <= 3; round++ {
		next := fmt.Sprintf("%s (edit %d)", sentence, round)
		d, err := editOnScreen(tab, post, sentence, next, fmt.Sprintf(`document.querySelector("main")?.textContent.includes(%q)`, next))
		if err != nil {
			return fmt.Errorf("post edit: %w", err)
		}
		postEdits = append(postEdits, d)
		sentence = next
		nextLabel := fmt.Sprintf(`"blog": "Blog %d",`, round)
		d, err = editOnScreen(tab, localeFile, label, nextLabel, fmt.Sprintf(`[...document.querySelectorAll("header a")].some(a => a.textContent === "Blog %d")`, round))
		if err != nil {
			return fmt.Errorf("string edit: %w", err)
		}
		stringEdits = append(stringEdits, d)
		label = nextLabel
	}
	fmt.Printf("  a post's sentence, save to screen: %s   a string: %s   (goal ≤ %s)\n", durations(postEdits), durations(stringEdits), contentGoals.edit)
	for _, l := range strings.Split(p.log(), "\n") {
		if _, rest, ok := strings.Cut(l, "msg=rebuilt "); ok {
			fmt.Println("    rebuilt " + rest)
		}
	}
	rss, _ := p.rssMB()
	// -dev gives the memory of the builds before back 2 s after the last
	// rebuild (devwatch.go, releaseQuiet).
	time.Sleep(3 * time.Second)
	settled, _ := p.rssMB()
	fmt.Printf("  memory (RSS) after the edits %6.0f MB, 3 s later %6.0f MB\n", rss, settled)
	return nil
}

// editOnScreen replaces old by new in file and returns the time from the
// save until done is true in the page (which reloads by itself).
func editOnScreen(tab context.Context, file, old, new, done string) (time.Duration, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return 0, err
	}
	if !strings.Contains(string(data), old) {
		return 0, fmt.Errorf("%s holds no %q", file, old)
	}
	saved := time.Now()
	if err := os.WriteFile(file, []byte(strings.Replace(string(data), old, new, 1)), 0o600); err != nil { //nolint:gosec // G703: a file of the bench's own copy
		return 0, err
	}
	if err := waitTrue(tab, done, 5*time.Minute); err != nil {
		return 0, err
	}
	took := time.Since(saved)
	_ = chromedp.Run(tab, chromedp.WaitVisible(`html[data-hydrated="true"]`, chromedp.ByQuery))
	return took, nil
}

func round(d time.Duration) time.Duration {
	if d < 10*time.Second {
		return d.Round(time.Millisecond)
	}
	return d.Round(100 * time.Millisecond)
}

// copyProject copies the project's files that git tracks (as they are in
// the working tree) into dst, and links dst/node_modules to the project's.
func copyProject(root, dst string) error {
	out, err := exec.Command("git", "-C", root, "ls-files", "-z").Output()
	if err != nil {
		return fmt.Errorf("git ls-files: %w", err)
	}
	for _, rel := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		src := filepath.Join(root, rel)
		info, err := os.Lstat(src)
		if errors.Is(err, os.ErrNotExist) {
			continue // deleted in the working tree
		}
		if err != nil {
			return err
		}
		if !info.Mode().IsRegular() {
			continue
		}
		target := filepath.Join(dst, rel)
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return err
		}
		data, err := os.ReadFile(src)
		if err != nil {
			return err
		}
		if err := os.WriteFile(target, data, info.Mode().Perm()); err != nil { //nolint:gosec // G703: under the bench's temporary copy, named by git
			return err
		}
	}
	return os.Symlink(filepath.Join(root, "node_modules"), filepath.Join(dst, "node_modules"))
}

var frontMatterLine = regexp.MustCompile(`(?m)^(title|published|translationKey): *(.*)$`)

// multiplyPosts adds copies of the project's posts to the tree at root
// until each language has n: copy i of a post is the same text with the
// slug, title and translation key numbered i and a date i days earlier,
// in every language that has the post. It returns the path of an English
// post to measure (one of the originals).
func multiplyPosts(root string, n int) (string, error) {
	blogDir := filepath.Join(root, "content", "blog")
	langs, err := os.ReadDir(blogDir)
	if err != nil {
		return "", err
	}
	type original struct{ slug, text string }
	byKey := map[string]map[string]original{} // translationKey -> lang -> post
	for _, l := range langs {
		files, err := filepath.Glob(filepath.Join(blogDir, l.Name(), "*.md"))
		if err != nil {
			return "", err
		}
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				return "", err
			}
			key := ""
			for _, m := range frontMatterLine.FindAllStringSubmatch(string(data), -1) {
				if m[1] == "translationKey" {
					key = strings.TrimSpace(m[2])
				}
			}
			if byKey[key] == nil {
				byKey[key] = map[string]original{}
			}
			byKey[key][l.Name()] = original{strings.TrimSuffix(filepath.Base(f), ".md"), string(data)}
		}
	}
	keys := slices.Sorted(func(yield func(string) bool) {
		for k := range byKey {
			if !yield(k) {
				return
			}
		}
	})
	if len(keys) == 0 {
		return "", errors.New("no posts to copy")
	}
	for i := len(keys); i < n; i++ {
		key := keys[i%len(keys)]
		for lang, o := range byKey[key] {
			text := frontMatterLine.ReplaceAllStringFunc(o.text, func(line string) string {
				m := frontMatterLine.FindStringSubmatch(line)
				value := strings.TrimSpace(m[2])
				switch m[1] {
				case "title":
					if len(value) >= 2 && (value[0] == '"' || value[0] == '\'') {
						value = value[1 : len(value)-1] // the originals quote none inside
					}
					return fmt.Sprintf("title: %s", strconv.Quote(fmt.Sprintf("%s (%d)", value, i)))
				case "translationKey":
					return fmt.Sprintf("translationKey: %s-%d", value, i)
				case "published":
					d, err := time.Parse(time.DateOnly, value)
					if err != nil {
						return line
					}
					return "published: " + d.AddDate(0, 0, -i).Format(time.DateOnly)
				}
				return line
			})
			name := fmt.Sprintf("%s-%d.md", o.slug, i)
			if err := os.WriteFile(filepath.Join(blogDir, lang, name), []byte(text), 0o644); err != nil {
				return "", err
			}
		}
	}
	for _, k := range keys {
		if o, ok := byKey[k]["en"]; ok && strings.Contains(o.text, "When a new client shows us their architecture diagram") {
			return "/blog/" + o.slug, nil
		}
	}
	return "", errors.New("the measured post is missing")
}

// siteProcess is one start of the site, in its own process group.
type siteProcess struct {
	cmd     *exec.Cmd
	base    string
	logPath string
	started time.Time
}

func newSiteProcess(dir, dataDir, addr string, command ...string) *siteProcess {
	cmd := exec.Command(command[0], command[1:]...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "ADDR="+addr, "BASE_URL=http://"+addr, "DATA_DIR="+dataDir, "SMTP_URL=", "GA_MEASUREMENT_ID=",
		"CONTACT_RATE_LIMIT=100000000/1m")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	return &siteProcess{cmd: cmd, base: "http://" + addr, logPath: filepath.Join(dataDir + ".log")}
}

type startTimes struct{ listen, first, ready time.Duration }

// startTimed starts the process and measures its start: listening, the
// first page (the post at postPath) after listening, and ready.
func (p *siteProcess) startTimed(postPath string) (startTimes, error) {
	var t startTimes
	logFile, err := os.OpenFile(p.logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return t, err
	}
	defer func() { _ = logFile.Close() }() // the child writes through its own descriptor
	p.cmd.Stderr = logFile
	p.started = time.Now()
	if err := p.cmd.Start(); err != nil {
		return t, err
	}
	deadline := p.started.Add(15 * time.Minute)
	host := strings.TrimPrefix(p.base, "http://")
	for {
		if c, err := net.DialTimeout("tcp", host, time.Second); err == nil {
			_ = c.Close()
			break
		}
		if time.Now().After(deadline) {
			return t, errors.New("never listened; its log:\n" + p.log())
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.listen = time.Since(p.started)
	res, err := http.Get(p.base + postPath)
	if err != nil {
		return t, err
	}
	_, _ = io.Copy(io.Discard, res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return t, fmt.Errorf("%s answered %d", postPath, res.StatusCode)
	}
	t.first = time.Since(p.started) - t.listen
	for {
		if res, err := http.Get(p.base + "/readyz"); err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				break
			}
		}
		if time.Now().After(deadline) {
			return t, errors.New("never ready")
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.ready = time.Since(p.started)
	return t, nil
}

// load asks for every page the sitemap lists (and the sitemaps an index
// lists), four at a time, as a browser does (brotli), and returns how many.
func (p *siteProcess) load() (int, error) {
	urls, err := sitemapURLs(p.base + "/sitemap.xml")
	if err != nil {
		return 0, err
	}
	client := &http.Client{Timeout: 5 * time.Minute, Transport: &http.Transport{DisableCompression: true, MaxIdleConnsPerHost: 4}}
	work := make(chan string)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var failed []string
	for range 4 {
		wg.Go(func() {
			for u := range work {
				req, _ := http.NewRequest(http.MethodGet, u, nil)
				req.Header.Set("Accept-Encoding", "br, gzip")
				res, err := client.Do(req)
				if err == nil {
					_, _ = io.Copy(io.Discard, res.Body)
					res.Body.Close()
				}
				if err != nil || res.StatusCode != http.StatusOK {
					mu.Lock()
					failed = append(failed, u)
					mu.Unlock()
				}
			}
		})
	}
	for _, u := range urls {
		work <- strings.Replace(u, "http://localhost:8080", p.base, 1)
	}
	close(work)
	wg.Wait()
	if len(failed) > 0 {
		return len(urls), fmt.Errorf("%d pages failed, the first %s", len(failed), failed[0])
	}
	return len(urls), nil
}

// sitemapURLs returns the pages of a sitemap, or of every sitemap an index
// names.
func sitemapURLs(u string) ([]string, error) {
	res, err := http.Get(u)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	var doc struct {
		XMLName xml.Name
		URLs    []struct {
			Loc string `xml:"loc"`
		} `xml:"url"`
		Sitemaps []struct {
			Loc string `xml:"loc"`
		} `xml:"sitemap"`
	}
	if err := xml.NewDecoder(res.Body).Decode(&doc); err != nil {
		return nil, fmt.Errorf("%s: %w", u, err)
	}
	var out []string
	for _, l := range doc.URLs {
		out = append(out, l.Loc)
	}
	base := u[:strings.Index(u[len("http://"):], "/")+len("http://")]
	for _, s := range doc.Sitemaps {
		loc := s.Loc
		if i := strings.Index(loc[len("http://"):], "/"); i >= 0 {
			loc = base + loc[len("http://")+i:]
		}
		more, err := sitemapURLs(loc)
		if err != nil {
			return nil, err
		}
		out = append(out, more...)
	}
	return out, nil
}

// rssMB is the resident memory of the site: the Go processes under the
// one the bench started (go run's program; with -dev, its watcher and the
// server it runs), or that process itself when it started none (the
// production binary). tools is that of the others under it (-dev's type
// checker, tsc in Node, which names itself tsc), not counted in the
// site's.
func (p *siteProcess) rssMB() (site float64, err error) {
	site, _, err = p.memory()
	return site, err
}

func (p *siteProcess) memory() (site, tools float64, err error) {
	pid := p.cmd.Process.Pid
	comm := func(pid int) string {
		data, _ := os.ReadFile(fmt.Sprintf("/proc/%d/comm", pid))
		return strings.TrimSpace(string(data))
	}
	var program string // the name of go run's program: the site's processes
	var found bool
	for _, child := range descendants(pid) {
		mb, err := residentMB(child)
		if err != nil {
			continue
		}
		if program == "" {
			program = comm(child)
		}
		if comm(child) != program {
			tools += mb
			continue
		}
		site, found = site+mb, true
	}
	if found {
		return site, tools, nil
	}
	site, err = residentMB(pid)
	return site, tools, err
}

// descendants lists the processes under pid, children first.
func descendants(pid int) []int {
	var out []int
	// Any of a process's threads may have started a child.
	tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/children", pid))
	for _, t := range tasks {
		children, err := os.ReadFile(t)
		if err != nil {
			continue
		}
		for _, f := range strings.Fields(string(children)) {
			if child, err := strconv.Atoi(f); err == nil {
				out = append(out, child)
				out = append(out, descendants(child)...)
			}
		}
	}
	return out
}

func (p *siteProcess) log() string {
	data, _ := os.ReadFile(p.logPath)
	return string(data)
}

// stop interrupts the process group and waits for it.
func (p *siteProcess) stop() {
	if p.cmd.Process == nil {
		return
	}
	_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGINT)
	done := make(chan struct{})
	go func() { _ = p.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
		<-done
	}
}
