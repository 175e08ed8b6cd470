package e2etest

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	cdplog "github.com/chromedp/cdproto/log"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
	"github.com/northbeam/site/internal/testwait"
)

var (
	browserOnce   sync.Once
	browserCtx    context.Context
	browserErr    error
	browserServer *httptest.Server
)

func chromiumPath() string {
	if p := os.Getenv("CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// Browser returns the shared browser and the base URL of a server running
// the built site. Each test opens its own browser context (own cookies and
// storage) with newTab.
func Browser(t *testing.T) (context.Context, string) {
	t.Helper()
	if testing.Short() {
		t.Skip("browser tests do not run with -short")
	}
	path := chromiumPath()
	if path == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("CI=true but no Chromium was found: install Debian's chromium package (see .ci/run)")
		}
		fmt.Fprintln(os.Stderr, "\n*** SKIPPING BROWSER TESTS: no Chromium found (apt-get install chromium) ***")
		t.Skip("no Chromium")
	}
	handler := testHandler(t) // a site that fails to build fails here, not inside the Once
	browserOnce.Do(func() {
		_, browserSPKI := BrowserTLS()
		browserServer = httptest.NewServer(handler)
		opts := []chromedp.ExecAllocatorOption{
			chromedp.ExecPath(path),
			chromedp.Headless,
			chromedp.NoSandbox,
			chromedp.DisableGPU,
			chromedp.NoFirstRun,
			chromedp.NoDefaultBrowserCheck,
			chromedp.Flag("disable-background-networking", true),
			chromedp.Flag("disable-component-update", true),
			chromedp.Flag("disable-sync", true),
			chromedp.Flag("disable-quic", true),
			chromedp.Flag("disable-dev-shm-usage", true),
			// serveTLS's certificate, and reports sent at once rather
			// than a minute later (tls_test.go).
			chromedp.Flag("ignore-certificate-errors-spki-list", browserSPKI),
			chromedp.Flag("short-reporting-delay", true),
			chromedp.WindowSize(1280, 900),
		}
		alloc, _ := chromedp.NewExecAllocator(context.Background(), opts...)
		browserCtx, _ = chromedp.NewContext(alloc)
		browserErr = chromedp.Run(browserCtx) // starts the browser
	})
	if browserErr != nil {
		t.Fatalf("starting Chromium: %v", browserErr)
	}
	return browserCtx, browserServer.URL
}

// Tab is one browser context with its console collected.
type Tab struct {
	Ctx     context.Context
	mu      sync.Mutex
	console []string // errors and warnings, as "level: text"
}

func NewTab(t *testing.T, parent context.Context) *Tab {
	t.Helper()
	// A browser context of its own (cookies, storage), in a window of its
	// own: headless Chromium cannot open a tab of a new context without one.
	var contextID cdp.BrowserContextID
	var targetID target.ID
	err := chromedp.Run(parent, chromedp.ActionFunc(func(ctx context.Context) error {
		browserExec := cdp.WithExecutor(ctx, chromedp.FromContext(ctx).Browser)
		var err error
		if contextID, err = target.CreateBrowserContext().WithDisposeOnDetach(true).Do(browserExec); err != nil {
			return err
		}
		targetID, err = target.CreateTarget("about:blank").WithBrowserContextID(contextID).WithNewWindow(true).Do(browserExec)
		return err
	}))
	if err != nil {
		t.Fatalf("opening a browser context: %v", err)
	}
	ctx, cancel := chromedp.NewContext(parent, chromedp.WithTargetID(targetID))
	// Every wait of the tab ends with the test's deadline, not after a
	// fixed time: a loaded machine makes a test slower, not wrong.
	ctx, cancelTimeout := context.WithDeadline(ctx, testwait.Deadline(t))
	t.Cleanup(func() {
		cancelTimeout()
		cancel()
		_ = chromedp.Run(parent, chromedp.ActionFunc(func(ctx context.Context) error {
			return target.DisposeBrowserContext(contextID).Do(cdp.WithExecutor(ctx, chromedp.FromContext(ctx).Browser))
		}))
	})
	tb := &Tab{Ctx: ctx}
	chromedp.ListenTarget(ctx, func(ev any) {
		tb.mu.Lock()
		defer tb.mu.Unlock()
		switch ev := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if ev.Type == runtime.APITypeError || ev.Type == runtime.APITypeWarning || ev.Type == runtime.APITypeAssert {
				var parts []string
				for _, a := range ev.Args {
					if a.Value != nil {
						parts = append(parts, strings.Trim(string(a.Value), `"`))
					} else {
						parts = append(parts, a.Description)
					}
				}
				tb.console = append(tb.console, string(ev.Type)+": "+strings.Join(parts, " "))
			}
		case *runtime.EventExceptionThrown:
			tb.console = append(tb.console, "exception: "+ev.ExceptionDetails.Error())
		case *cdplog.EventEntryAdded:
			// The browser's own reports of the server's policies (a CSP
			// violation, a Permissions-Policy it cannot parse) are not
			// console API calls: they come through the Log domain.
			if text := ev.Entry.Text; strings.Contains(text, "Content Security Policy") || strings.Contains(text, "Permissions-Policy") {
				tb.console = append(tb.console, "policy: "+text)
			}
		}
	})
	// Reduced motion: with smooth scrolling, chromedp scrolls an element into
	// view and clicks where it was before the scroll ended.
	err = chromedp.Run(ctx, chromedp.ActionFunc(func(ctx context.Context) error {
		return emulation.SetEmulatedMedia().
			WithFeatures([]*emulation.MediaFeature{{Name: "prefers-reduced-motion", Value: "reduce"}}).Do(ctx)
	}))
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

func (tb *Tab) Run(t *testing.T, actions ...chromedp.Action) {
	t.Helper()
	if err := chromedp.Run(tb.Ctx, actions...); err != nil {
		// Say where the tab was and what it reported: a timeout alone
		// does not tell which wait never ended.
		var at, main string
		ctx, cancel := context.WithTimeout(context.WithoutCancel(tb.Ctx), 5*time.Second)
		defer cancel()
		_ = chromedp.Run(ctx, chromedp.Evaluate(`location.href`, &at),
			chromedp.Evaluate(`(document.querySelector("main")?.innerText ?? "").slice(0, 300)`, &main))
		t.Fatalf("browser: %v\nat %s\nmain: %q\nconsole: %q", err, at, main, tb.ConsoleProblems())
	}
}

// ConsoleProblems returns the errors and warnings logged so far.
func (tb *Tab) ConsoleProblems() []string {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	return append([]string{}, tb.console...)
}

// BeforeLoad runs script in every document of the tab before the page's
// own scripts: how a test sets the browser's language or breaks storage.
func BeforeLoad(script string) chromedp.Action {
	return chromedp.ActionFunc(func(ctx context.Context) error {
		_, err := cdppage.AddScriptToEvaluateOnNewDocument(script).Do(ctx)
		return err
	})
}

// WaitHydrated waits until React has hydrated the page.
func WaitHydrated() chromedp.Action {
	return chromedp.WaitVisible(`html[data-hydrated="true"]`, chromedp.ByQuery)
}

// Location reads the address bar.
func Location(dst *string) chromedp.Action {
	return chromedp.Evaluate(`window.location.pathname`, dst)
}

// StorageItem reads a local storage item of the page.
func StorageItem(key string, dst *string) chromedp.Action {
	return chromedp.Evaluate(fmt.Sprintf(`localStorage.getItem(%q) ?? ""`, key), dst)
}

// Poll is chromedp.Poll until the tab's context ends (the test's deadline)
// rather than after chromedp's 30 seconds.
func Poll(expression string, res any, opts ...chromedp.PollOption) chromedp.PollAction {
	return chromedp.Poll(expression, res, append([]chromedp.PollOption{chromedp.WithPollingTimeout(0)}, opts...)...)
}

// PollFunction is chromedp.PollFunction until the tab's context ends.
func PollFunction(pageFunction string, res any, opts ...chromedp.PollOption) chromedp.PollAction {
	return chromedp.PollFunction(pageFunction, res, append([]chromedp.PollOption{chromedp.WithPollingTimeout(0)}, opts...)...)
}
