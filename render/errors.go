package render

import (
	"errors"
	"fmt"
	"path"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode/utf16"

	"github.com/dop251/goja"
	"github.com/dop251/goja/file"
	"github.com/dop251/goja/parser"
	"github.com/go-sourcemap/sourcemap"
)

// Error is a render that threw: the thrown error's message and where in
// the sources it was thrown, through the server bundle's source map
// (Options.SourceMap). The position is of the first frame in the project's
// own code; File is empty when no frame has one. Its Error names both; no
// stack reaches a visitor (handlers answer a server error's page).
type Error struct {
	Message      string
	File         string // from the project's directory: frontend/pages/Team.tsx
	Line, Column int
	Stack        string // the stack as goja writes it, source-mapped, for the log
}

func (e *Error) Error() string {
	if e.File == "" {
		return "render: " + e.Message
	}
	return fmt.Sprintf("render: %s at %s:%d:%d", e.Message, e.File, e.Line, e.Column)
}

// renderErrorsGlobal is where the server bundle keeps the errors React
// caught in a Suspense boundary during a render, which renderToString only
// answers with the boundary's fallback (internal/assets, the server's
// renderErrors plugin).
const renderErrorsGlobal = "__renderErrors"

// stackFrame is a frame of goja's stack text: "at name (file:line:column(pc))".
var stackFrame = regexp.MustCompile(`at (?:[^\s(]+ \()?([^\s()]+):(\d+):(\d+)`)

// thrownError makes an Error of a value a render threw or React caught.
func (m *sourceMap) thrownError(v goja.Value) *Error {
	e := &Error{Message: "a render failed"}
	if v == nil || goja.IsUndefined(v) || goja.IsNull(v) {
		return e
	}
	e.Message = v.String()
	if obj, ok := v.(*goja.Object); ok {
		if stack := obj.Get("stack"); stack != nil && !goja.IsUndefined(stack) {
			e.Stack = stack.String()
		}
	}
	e.Stack = m.mapStack(e.Stack)
	e.locate(e.Stack)
	return e
}

// exceptionError makes an Error of a goja exception: a throw React did not
// catch, or one of goja's own.
func (m *sourceMap) exceptionError(ex *goja.Exception) *Error {
	e := &Error{Message: ex.Value().String(), Stack: ex.String()}
	if obj, ok := ex.Value().(*goja.Object); ok {
		if stack := obj.Get("stack"); stack != nil && !goja.IsUndefined(stack) {
			e.Stack = stack.String()
		}
	}
	e.Stack = m.mapStack(e.Stack)
	e.locate(e.Stack)
	return e
}

// locate sets the position of the first frame of the project's sources
// (not node_modules), the mapped paths made relative to the project.
func (e *Error) locate(stack string) {
	for _, m := range stackFrame.FindAllStringSubmatch(stack, -1) {
		file := projectPath(m[1])
		if file == "" {
			continue
		}
		e.File = file
		e.Line, _ = strconv.Atoi(m[2])
		e.Column, _ = strconv.Atoi(m[3])
		return
	}
}

// projectPath turns a source map's path (relative to the bundle, under
// dist/) into the project's, or "" for what is not the project's code.
func projectPath(p string) string {
	if strings.HasPrefix(p, "../") {
		p = path.Join("dist", p)
	}
	p = path.Clean(p)
	if strings.Contains(p, "node_modules/") || strings.Contains(p, ":") || !strings.Contains(p, "/") ||
		strings.HasPrefix(p, "../") || strings.HasPrefix(p, "/") || strings.HasPrefix(p, "dist/") {
		return ""
	}
	return p
}

// caughtError is the error of a render whose Suspense boundary fell back:
// the first error React caught there, or a page that was not ready.
func (m *sourceMap) caughtError(vm *goja.Runtime) error {
	if caught, ok := vm.Get(renderErrorsGlobal).(*goja.Object); ok {
		if first := caught.Get("0"); first != nil && !goja.IsUndefined(first) {
			return m.thrownError(first)
		}
	}
	return errors.New("render: a Suspense boundary fell back on the server (a page or its strings were not ready)")
}

// bundleName is the server bundle's name in goja's stacks and the name its
// source map's paths are resolved against.
const bundleName = "dist/server.js"

// compile compiles the server bundle. Its source map is not given to goja,
// which would parse it here and keep its mappings (megabytes) for the life
// of the process: a render error maps its stack itself (sourceMap).
func compile(bundle []byte) (*goja.Program, error) {
	ast, err := goja.Parse(bundleName, string(bundle), parser.WithDisableSourceMaps)
	if err != nil {
		return nil, err
	}
	return goja.CompileAST(ast, false)
}

// sourceMap maps the server bundle's positions in a stack to the sources'
// (Options.SourceMap), as goja would with the map given at compile time; it
// parses the map on the first render error, which a production process may
// never have. A nil sourceMap, or one without data, maps nothing.
type sourceMap struct {
	data     []byte
	bundle   []byte // the server bundle, whose lines goja's columns count in bytes
	once     sync.Once
	consumer *sourcemap.Consumer
	lines    []int // where each line of the bundle starts
}

// bundleFrame is a position in the bundle, as a stack frame names it.
var bundleFrame = regexp.MustCompile(regexp.QuoteMeta(bundleName) + `:(\d+):(\d+)`)

// utf16Column turns goja's column on a line of the bundle (from 1, in
// bytes) into the source map's (in UTF-16 units): the bundle's strings
// hold letters of every language, so the two part after the first of them.
func (m *sourceMap) utf16Column(row, col int) int {
	if row < 1 || row > len(m.lines) {
		return col
	}
	start := m.lines[row-1]
	end := min(start+col-1, len(m.bundle))
	if start > end {
		return col
	}
	units := 0
	for _, r := range string(m.bundle[start:end]) {
		units += utf16.RuneLen(r)
	}
	return units + 1
}

// mapStack rewrites the bundle's positions in stack to the sources'.
func (m *sourceMap) mapStack(stack string) string {
	if m == nil || m.data == nil {
		return stack
	}
	m.once.Do(func() {
		m.consumer, _ = sourcemap.Parse(bundleName, m.data)
		m.lines = []int{0}
		for i, b := range m.bundle {
			if b == '\n' {
				m.lines = append(m.lines, i+1)
			}
		}
	})
	if m.consumer == nil {
		return stack
	}
	return bundleFrame.ReplaceAllStringFunc(stack, func(frame string) string {
		sub := bundleFrame.FindStringSubmatch(frame)
		row, _ := strconv.Atoi(sub[1])
		col, _ := strconv.Atoi(sub[2])
		source, _, line, column, ok := m.consumer.Source(row, m.utf16Column(row, col))
		if !ok {
			return frame
		}
		if u := file.ResolveSourcemapURL(bundleName, source); u != nil {
			source = u.String()
		}
		return fmt.Sprintf("%s:%d:%d", source, line, column)
	})
}
