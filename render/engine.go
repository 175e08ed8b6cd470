// Package render turns a page's payload into a full HTML document: a pool of
// goja runtimes evaluates the server bundle and renders the React tree, the
// document shell wraps it, and the page cache keeps what does not change.
package render

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync/atomic"
	"time"

	"github.com/dop251/goja"
)

// ErrTimeout is returned when a render takes longer than its limit.
var ErrTimeout = errors.New("render: timed out")

// Engine renders pages with a pool of goja runtimes that share one compiled
// program. A runtime is used by one goroutine at a time. The strings the
// bundle renders with are the engine's (Options.Strings), given to each
// runtime before it renders: WithStrings makes an engine of other strings
// on the same program and runtimes.
type Engine struct {
	program *goja.Program
	pool    *runtimePool
	timeout time.Duration
	log     *slog.Logger
	plurals *pluralRules
	strings *stringSet

	memo *Memo
	// sum names what renders a page: the server bundle and the strings
	// (the memo's key, with the payload).
	sum    [sha256.Size]byte
	srcMap *sourceMap // parsed on the first render error
	// missing is told the strings each render lacked (Options.Missing);
	// missingLogged keeps the log to one line each.
	missing       func([]MissingString)
	missingLogged *missingLog

	rendered, remembered *atomic.Int64 // renders done in goja, and answered by the memo
}

type runtime struct {
	vm     *goja.Runtime
	render goja.Callable
	// strings are those the runtime holds now (stringsGlobal).
	strings *stringSet
}

// stringSet is the strings of an engine, as JSON.
type stringSet struct {
	json []byte
}

// stringsGlobal is the global through which the server bundle reads every
// language's strings (frontend/lib/locales.server.ts): an object by
// language code, which the bundle makes its translations from again when
// it is another object.
const stringsGlobal = "__siteStrings"

// Options tune an Engine.
type Options struct {
	Runtimes int           // runtimes in the pool; default 2
	Timeout  time.Duration // limit of one render; default 5s
	Logger   *slog.Logger
	// Memo answers renders already done with this bundle (see Memo);
	// nil renders everything.
	Memo *Memo
	// SourceMap is the server bundle's source map: with it, a render
	// error names its TSX file and line (Error).
	SourceMap []byte
	// Missing, when set, is told the strings a render asked for that its
	// language lacks (the page shows their keys), at every render of a page
	// that lacks them, the memo's answers included. Each is logged once
	// whether or not Missing is set.
	Missing func([]MissingString)
	// Strings are every language's strings, a JSON object by language
	// code (assets.Bundle.Strings), which the bundle reads from the global
	// __siteStrings; nil gives it none.
	Strings []byte
}

// NewEngine compiles the server bundle once and starts the pool's runtimes.
func NewEngine(serverBundle []byte, opts Options) (*Engine, error) {
	if opts.Runtimes <= 0 {
		opts.Runtimes = 2
	}
	if opts.Timeout <= 0 {
		opts.Timeout = 5 * time.Second
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	prog, err := compile(serverBundle)
	if err != nil {
		return nil, fmt.Errorf("render: compiling the server bundle: %w", err)
	}
	e := &Engine{
		program:       prog,
		pool:          newRuntimePool(opts.Runtimes),
		timeout:       opts.Timeout,
		log:           opts.Logger,
		plurals:       &pluralRules{},
		strings:       &stringSet{json: opts.Strings},
		memo:          opts.Memo,
		srcMap:        &sourceMap{data: opts.SourceMap, bundle: serverBundle},
		missing:       opts.Missing,
		missingLogged: &missingLog{},
		rendered:      &atomic.Int64{},
		remembered:    &atomic.Int64{},
	}
	e.sum = renderSum(serverBundle, opts.Strings)
	// One runtime at once, so that a bundle that cannot run fails here; the
	// others start on first use (an empty slot is nil).
	rt, err := e.newRuntime()
	if err != nil {
		return nil, err
	}
	e.pool.put(rt)
	for range opts.Runtimes - 1 {
		e.pool.put(nil)
	}
	return e, nil
}

// renderSum names the renders of a server bundle with strings: the
// bundle's SHA-256 when it has none, so that a memo of renders without
// strings is still found.
func renderSum(serverBundle, strings []byte) [sha256.Size]byte {
	if strings == nil {
		return sha256.Sum256(serverBundle)
	}
	h := sha256.New()
	bundle := sha256.Sum256(serverBundle)
	h.Write(bundle[:])
	h.Write([]byte("strings\x00"))
	h.Write(strings)
	var sum [sha256.Size]byte
	h.Sum(sum[:0])
	return sum
}

// WithStrings returns an engine that renders with strings (as
// Options.Strings) on e's compiled bundle and runtimes: each runtime takes
// the strings of the engine it renders for before it renders, far cheaper
// than evaluating the bundle again in a new one. e renders with its own
// strings still. The new engine logs the strings missing anew.
func (e *Engine) WithStrings(strings []byte) *Engine {
	n := &Engine{
		program: e.program, pool: e.pool, timeout: e.timeout, log: e.log, plurals: e.plurals,
		strings: &stringSet{json: strings}, memo: e.memo, srcMap: e.srcMap, missing: e.missing,
		missingLogged: &missingLog{}, rendered: e.rendered, remembered: e.remembered,
	}
	n.sum = renderSum(e.srcMap.bundle, strings)
	return n
}

// Prepare gives the runtimes idle now the engine's strings, so that the
// next render does not wait for them (-dev, after WithStrings, beside the
// build's other work). A runtime in use takes them when it renders.
func (e *Engine) Prepare() error {
	return e.pool.eachIdle(func(rt *runtime) (*runtime, error) {
		if rt == nil {
			return nil, nil
		}
		return rt, rt.useStrings(e.strings)
	})
}

// Release lets go of the runtimes not in use, with all they hold: once
// every page is rendered at start, renders are rare (a form posted without
// JavaScript), and a runtime starts again on the next one.
func (e *Engine) Release() {
	_ = e.pool.eachIdle(func(*runtime) (*runtime, error) { return nil, nil })
}

// ForgetMemo lets go of the bodies of a memo read back (Memo.Forget).
func (e *Engine) ForgetMemo() { e.memo.Forget() }

func (e *Engine) newRuntime() (*runtime, error) {
	vm := goja.New()
	if err := installShims(vm, e.log, e.plurals); err != nil {
		return nil, fmt.Errorf("render: shims: %w", err)
	}
	rt := &runtime{vm: vm}
	if err := rt.useStrings(e.strings); err != nil {
		return nil, err
	}
	if _, err := vm.RunProgram(e.program); err != nil {
		return nil, fmt.Errorf("render: evaluating the server bundle: %w", err)
	}
	fn, ok := goja.AssertFunction(vm.Get("renderPage"))
	if !ok {
		return nil, errors.New("render: the server bundle defines no renderPage function")
	}
	rt.render = fn
	return rt, nil
}

// useStrings gives the runtime's bundle the strings s, unless it has them.
func (rt *runtime) useStrings(s *stringSet) error {
	if rt.strings == s {
		return nil
	}
	v := goja.Undefined()
	if s.json != nil {
		parse, ok := goja.AssertFunction(rt.vm.Get("JSON").ToObject(rt.vm).Get("parse"))
		if !ok {
			return errors.New("render: no JSON.parse")
		}
		var err error
		if v, err = parse(goja.Undefined(), rt.vm.ToValue(string(s.json))); err != nil {
			return fmt.Errorf("render: the strings: %w", err)
		}
	}
	if err := rt.vm.Set(stringsGlobal, v); err != nil {
		return fmt.Errorf("render: the strings: %w", err)
	}
	rt.strings = s
	return nil
}

// Size is the number of runtimes: how many renders can run at once.
func (e *Engine) Size() int { return e.pool.size }

// Render renders the React tree of a page from its JSON payload and returns
// the HTML of the root element's content.
func (e *Engine) Render(ctx context.Context, payloadJSON []byte) (string, error) {
	if e.memo == nil {
		html, missing, err := e.render(ctx, payloadJSON)
		e.tellMissing(missing)
		return html, err
	}
	k := memoKey(e.sum, payloadJSON)
	if html, missing, ok := e.memo.get(e.sum, k); ok {
		e.remembered.Add(1)
		e.tellMissing(missing)
		return html, nil
	}
	html, missing, err := e.render(ctx, payloadJSON)
	if err == nil {
		e.memo.put(e.sum, k, html, missing)
	}
	e.tellMissing(missing)
	return html, err
}

// tellMissing logs the strings a render lacked, each the first time, and
// tells Options.Missing.
func (e *Engine) tellMissing(missing []MissingString) {
	if len(missing) == 0 {
		return
	}
	for _, ms := range missing {
		if e.missingLogged.first(ms) {
			e.log.Warn("render: a string is missing; the page shows its key", "missing", ms.String())
		}
	}
	if e.missing != nil {
		e.missing(missing)
	}
}

// Counts returns how many renders ran in goja and how many the memo
// answered.
func (e *Engine) Counts() (rendered, remembered int64) {
	return e.rendered.Load(), e.remembered.Load()
}

// render renders in a runtime of the pool, and returns the strings the
// render lacked too.
func (e *Engine) render(ctx context.Context, payloadJSON []byte) (string, []MissingString, error) {
	e.rendered.Add(1)
	rt, err := e.pool.get(ctx)
	if err != nil {
		return "", nil, fmt.Errorf("render: waiting for a runtime: %w", err)
	}
	if rt == nil {
		fresh, err := e.newRuntime()
		if err != nil {
			e.pool.put(nil)
			return "", nil, err
		}
		rt = fresh
	}
	if err := rt.useStrings(e.strings); err != nil {
		e.pool.put(rt)
		return "", nil, err
	}
	missingList := rt.vm.NewArray()
	if err := rt.vm.Set(missingGlobal, missingList); err != nil {
		e.pool.put(rt)
		return "", nil, fmt.Errorf("render: %w", err)
	}
	timer := time.AfterFunc(e.timeout, func() { rt.vm.Interrupt(ErrTimeout) })
	out, err := rt.render(goja.Undefined(), rt.vm.ToValue(string(payloadJSON)))
	stopped := timer.Stop()
	var html string
	var fellBack error
	var missing []MissingString
	if err == nil {
		html = out.String()
		if strings.Contains(html, "<!--$!-->") {
			fellBack = e.srcMap.caughtError(rt.vm)
		}
		if missingList.Get("length").ToInteger() > 0 {
			missing = e.srcMap.missingStrings(rt.vm)
		}
	}
	if !stopped || err != nil || fellBack != nil {
		// An interrupted or failed runtime may hold half-done state: replace it.
		if fresh, ferr := e.newRuntime(); ferr == nil {
			rt = fresh
		} else {
			e.log.Error("render: replacing a runtime", "err", ferr)
			rt.vm.ClearInterrupt()
		}
	}
	e.pool.put(rt)
	if err != nil {
		var interrupted *goja.InterruptedError
		var thrown *goja.Exception
		switch {
		case errors.As(err, &interrupted):
			return "", nil, ErrTimeout
		case errors.As(err, &thrown):
			return "", nil, e.srcMap.exceptionError(thrown)
		}
		return "", nil, fmt.Errorf("render: %w", err)
	}
	if fellBack != nil {
		return "", nil, fellBack
	}
	return html, missing, nil
}
