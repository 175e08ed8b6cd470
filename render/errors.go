package render

import (
	"errors"
	"fmt"
	"path"
	"regexp"
	"strconv"
	"strings"

	"github.com/dop251/goja"
	"github.com/dop251/goja/parser"
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
func thrownError(v goja.Value) *Error {
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
	e.locate(e.Stack)
	return e
}

// exceptionError makes an Error of a goja exception: a throw React did not
// catch, or one of goja's own.
func exceptionError(ex *goja.Exception) *Error {
	e := &Error{Message: ex.Value().String(), Stack: ex.String()}
	if obj, ok := ex.Value().(*goja.Object); ok {
		if stack := obj.Get("stack"); stack != nil && !goja.IsUndefined(stack) {
			e.Stack = stack.String()
		}
	}
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
func caughtError(vm *goja.Runtime) error {
	if caught, ok := vm.Get(renderErrorsGlobal).(*goja.Object); ok {
		if first := caught.Get("0"); first != nil && !goja.IsUndefined(first) {
			return thrownError(first)
		}
	}
	return errors.New("render: a Suspense boundary fell back on the server (a page or its strings were not ready)")
}

// compile compiles the server bundle, with its source map when there is
// one: goja then writes its stacks at the TSX sources' positions.
func compile(bundle, sourceMap []byte) (*goja.Program, error) {
	opt := parser.WithDisableSourceMaps
	if sourceMap != nil {
		opt = parser.WithSourceMapLoader(func(string) ([]byte, error) { return sourceMap, nil })
	}
	ast, err := goja.Parse("dist/server.js", string(bundle), opt)
	if err != nil {
		return nil, err
	}
	return goja.CompileAST(ast, false)
}
