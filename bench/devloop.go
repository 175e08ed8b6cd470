package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/northbeam/site/internal/devserver"
)

// The dev loop's bench (go run ./bench devloop): a -dev server on a copy of
// the project and the team page open in headless Chromium; then edits as a
// developer saves them, each timed from the save to the change on screen,
// through the page's own reload or stylesheet swap (the bench never
// reloads).

var devloopRounds = 5

// devloopGoals are the goals, on a 2-core machine.
var devloopGoals = map[string]time.Duration{
	"first page after start": 1500 * time.Millisecond,
	"string edit":            500 * time.Millisecond,
	"CSS edit":               300 * time.Millisecond,
	"TSX edit":               time.Second,
}

func devloopBench(root string) error {
	tmp, err := os.MkdirTemp("", "site-devloop-")
	if err != nil {
		return err
	}
	defer func() { _ = os.RemoveAll(tmp) }()
	tree := filepath.Join(tmp, "tree")
	if err := devserver.CopyTree(root, tree); err != nil {
		return err
	}
	fmt.Println("building the binary (not timed)...")
	bin, err := devserver.Build(root, tmp)
	if err != nil {
		return err
	}
	browserCtx, stop, err := headlessChromium()
	if err != nil {
		return err
	}
	defer stop()
	fmt.Printf("machine: %d-core, load average at start %s\n", numCPU(), loadAverage())

	results := map[string][]time.Duration{}
	// First page: from the process's start (the binary is built: `go run .`
	// adds the compiler's time) to the team page's heading on screen (not
	// the load event, which waits for the pictures), a fresh server each
	// time.
	var dev *devserver.Server
	var listened []time.Duration
	for i := range 3 {
		if dev != nil {
			dev.Stop()
		}
		started := time.Now()
		if dev, err = devserver.Start(bin, tree); err != nil {
			return err
		}
		listened = append(listened, time.Since(started))
		tab, cancel := chromedp.NewContext(browserCtx)
		err := chromedp.Run(tab, chromedp.ActionFunc(func(ctx context.Context) error {
			_, _, _, _, err := page.Navigate(dev.URL + "/team").Do(ctx)
			return err
		}))
		if err == nil {
			err = waitTrue(tab, `document.querySelector("h1")?.textContent.length > 0`, time.Minute)
		}
		results["first page after start"] = append(results["first page after start"], time.Since(started))
		cancel()
		if err != nil {
			return fmt.Errorf("first page %d: %w", i, err)
		}
	}
	defer dev.Stop()

	tab, cancel := chromedp.NewContext(browserCtx)
	defer cancel()
	if err := chromedp.Run(tab, chromedp.Navigate(dev.URL+"/team"), chromedp.WaitVisible(`html[data-hydrated="true"]`, chromedp.ByQuery)); err != nil {
		return err
	}
	// Let the start's background rendering finish (or give up) first: the
	// edits are measured on a server that has settled.
	_, _ = dev.WaitLog(regexp.MustCompile(`msg=ready `), 0, 3*time.Minute)

	title := `"title": "The people you will work with"`
	cssSwapped, cssRounds := 0, 0
	for round := 1; round <= devloopRounds; round++ {
		// A locale string: the heading's text.
		next := fmt.Sprintf(`"title": "The people you will work with %d"`, round)
		d, err := timeEdit(tab, dev, "content/locales/en.json", title, next,
			fmt.Sprintf(`document.querySelector("h1")?.textContent === "The people you will work with %d"`, round))
		if err != nil {
			return fmt.Errorf("string edit: %w", err)
		}
		title = next
		results["string edit"] = append(results["string edit"], d)

		// A CSS rule: the heading's colour, swapped without a reload.
		if err := chromedp.Run(tab, chromedp.Evaluate(`window.benchMark = true`, nil)); err != nil {
			return err
		}
		color := fmt.Sprintf("rgb(%d, 0, 0)", 100+round)
		rule := fmt.Sprintf("\n.page-intro h1 { color: %s; }\n", color)
		d, err = timeEdit(tab, dev, "frontend/styles/site.css", "", rule,
			fmt.Sprintf(`getComputedStyle(document.querySelector("h1")).color === %q`, color))
		if err != nil {
			return fmt.Errorf("CSS edit: %w", err)
		}
		results["CSS edit"] = append(results["CSS edit"], d)
		var kept bool
		_ = chromedp.Run(tab, chromedp.Evaluate(`window.benchMark === true`, &kept))
		cssRounds++
		if kept {
			cssSwapped++
		}

		// A component: the heading gets a suffix.
		d, err = timeEdit(tab, dev, "frontend/pages/Team.tsx", `{t("team.title")}`, fmt.Sprintf(`{t("team.title")}{" ·%d"}`, round),
			fmt.Sprintf(`document.querySelector("h1")?.textContent.endsWith(" ·%d")`, round))
		if err != nil {
			return fmt.Errorf("TSX edit: %w", err)
		}
		results["TSX edit"] = append(results["TSX edit"], d)
		if err := dev.Edit("frontend/pages/Team.tsx", fmt.Sprintf(`{t("team.title")}{" ·%d"}`, round), `{t("team.title")}`); err != nil {
			return err
		}
		if err := settle(tab, dev, `!document.querySelector("h1")?.textContent.includes(" ·")`); err != nil {
			return err
		}
	}

	fmt.Printf("\ndev loop, save to change on screen (through the page's own reload), %d rounds; load average at the end %s\n",
		devloopRounds, loadAverage())
	for _, name := range []string{"first page after start", "string edit", "CSS edit", "TSX edit"} {
		ds := results[name]
		p50, worst := percentile(ds, 50), slices.Max(ds)
		goal := devloopGoals[name]
		fmt.Printf("  %-24s p50 %7s   max %7s   goal ≤ %-7s %s\n", name, p50.Round(time.Millisecond), worst.Round(time.Millisecond), goal,
			verdict(p50 <= goal && worst <= goal))
	}
	fmt.Printf("  CSS edits applied without a reload: %d of %d\n", cssSwapped, cssRounds)
	fmt.Printf("  start to listening (of the first page's time): %s\n", durations(listened))
	fmt.Println("\nthe server's rebuilds (bundles = esbuild, site = content and pages planned, open_pages = the open page rendered):")
	for _, l := range strings.Split(dev.Log(), "\n") {
		if strings.Contains(l, "msg=rebuilt") {
			fmt.Println("  " + l[strings.Index(l, "in="):])
		}
	}
	return nil
}

// timeEdit replaces old by new in the copy's file rel (appends new when
// old is empty) and returns the time from the save until done is true in
// the page.
func timeEdit(tab context.Context, dev *devserver.Server, rel, old, new, done string) (time.Duration, error) {
	saved := time.Now()
	if err := dev.Edit(rel, old, new); err != nil {
		return 0, err
	}
	if err := waitTrue(tab, done, time.Minute); err != nil {
		return 0, err
	}
	took := time.Since(saved)
	return took, settle(tab, dev, done)
}

// settle waits until done holds and the server has been quiet a moment, so
// that one measurement does not overlap the next.
func settle(tab context.Context, dev *devserver.Server, done string) error {
	if err := waitTrue(tab, done, time.Minute); err != nil {
		return err
	}
	_ = chromedp.Run(tab, chromedp.WaitVisible(`html[data-hydrated="true"]`, chromedp.ByQuery))
	time.Sleep(500 * time.Millisecond)
	return nil
}

// waitTrue polls expression in the page every 5 ms, through its reloads.
func waitTrue(tab context.Context, expression string, within time.Duration) error {
	deadline := time.Now().Add(within)
	for {
		var ok bool
		if err := chromedp.Run(tab, chromedp.Evaluate(expression, &ok)); err == nil && ok {
			return nil
		}
		if time.Now().After(deadline) {
			return errors.New("not true within " + within.String() + ": " + expression)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// headlessChromium starts Debian's Chromium.
func headlessChromium() (context.Context, func(), error) {
	path := os.Getenv("CHROMIUM")
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if path == "" {
			path, _ = exec.LookPath(name)
		}
	}
	if path == "" {
		return nil, nil, errors.New("no Chromium (apt-get install chromium)")
	}
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(path), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck, chromedp.Flag("disable-dev-shm-usage", true), chromedp.WindowSize(1280, 900))
	ctx, cancel := chromedp.NewContext(alloc)
	if err := chromedp.Run(ctx); err != nil {
		cancel()
		cancelAlloc()
		return nil, nil, err
	}
	return ctx, func() { cancel(); cancelAlloc() }, nil
}

func loadAverage() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	return strings.Join(strings.Fields(string(data))[:3], " ")
}

func durations(ds []time.Duration) string {
	var out []string
	for _, d := range ds {
		out = append(out, d.Round(time.Millisecond).String())
	}
	return strings.Join(out, " ")
}

// percentile returns the p-th percentile of ds (nearest rank).
func percentile(ds []time.Duration, p int) time.Duration {
	s := slices.Sorted(slices.Values(ds))
	i := (len(s)*p + 99) / 100
	return s[max(i-1, 0)]
}

func numCPU() int { return runtime.NumCPU() }
