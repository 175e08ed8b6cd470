// Package icaljs reads iCalendar text with ical.js, the library of
// Thunderbird (npm package ical.js, pinned in package.json), run in goja:
// the tests' independent reader of what the site writes and reads.
package icaljs

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"

	"github.com/dop251/goja"
)

var (
	once   sync.Once
	source *goja.Program
	errSrc error
)

// program compiles ical.js once.
func program() (*goja.Program, error) {
	once.Do(func() {
		_, file, _, _ := runtime.Caller(0)
		path := filepath.Join(filepath.Dir(file), "..", "..", "node_modules", "ical.js", "dist", "ical.es5.cjs")
		data, err := os.ReadFile(path) //nolint:gosec // G304: the checkout's own node_modules
		if err != nil {
			errSrc = fmt.Errorf("icaljs: %w (run npm ci)", err)
			return
		}
		source, errSrc = goja.Compile("ical.es5.cjs", string(data), true)
	})
	return source, errSrc
}

// Runtime returns a goja runtime with ical.js loaded as the global ICAL.
func Runtime() (*goja.Runtime, error) {
	prog, err := program()
	if err != nil {
		return nil, err
	}
	vm := goja.New()
	module := vm.NewObject()
	exports := vm.NewObject()
	if err := module.Set("exports", exports); err != nil {
		return nil, err
	}
	if err := vm.Set("module", module); err != nil {
		return nil, err
	}
	if err := vm.Set("exports", exports); err != nil {
		return nil, err
	}
	if _, err := vm.RunProgram(prog); err != nil {
		return nil, fmt.Errorf("icaljs: %w", err)
	}
	if err := vm.Set("ICAL", module.Get("exports")); err != nil {
		return nil, err
	}
	return vm, nil
}

// JCal parses text with ICAL.parse and returns its jCal form (RFC 7265):
// each component [name, properties, components], each property [name,
// parameters, type, values...], parameters decoded as ical.js decodes them.
func JCal(text string) ([]any, error) {
	vm, err := Runtime()
	if err != nil {
		return nil, err
	}
	if err := vm.Set("text", text); err != nil {
		return nil, err
	}
	out, err := vm.RunString(`JSON.stringify(ICAL.parse(text))`)
	if err != nil {
		return nil, fmt.Errorf("icaljs: %w", err)
	}
	var jcal []any
	if err := json.Unmarshal([]byte(out.String()), &jcal); err != nil {
		return nil, err
	}
	return jcal, nil
}
