package render

import (
	"fmt"
	"slices"
	"strconv"
	"sync"

	"github.com/dop251/goja"
)

// MissingString is a string a render asked for that its language lacks:
// the page shows its key instead. File, Line and Column are where the
// sources asked for it (the t call), through the server bundle's source
// map, or empty when no frame of the project's code is on the stack (a
// <Trans> React calls). The server bundle reports them
// (frontend/lib/locales.server.ts); docs/ARCHITECTURE.md, The dev loop.
type MissingString struct {
	Key, Lang    string
	File         string
	Line, Column int
}

// String says it as the log does: file:line:column: the key and language.
func (m MissingString) String() string {
	what := fmt.Sprintf("no string %q in %s", m.Key, m.Lang)
	if m.File == "" {
		return what
	}
	return fmt.Sprintf("%s:%d:%d: %s", m.File, m.Line, m.Column, what)
}

// missingGlobal is where the server bundle's i18next instances put the
// strings a render asked for and did not find.
const missingGlobal = "__missingStrings"

// translationFiles are the project's files between i18next and the code
// that asked for a string: a missing string is placed at the first frame
// outside them.
var translationFiles = []string{"frontend/lib/locales.server.ts", "frontend/lib/react-i18next.server.ts", "frontend/lib/i18n.ts"}

// missingStrings reads what the render just done in vm reported missing,
// each once, placed through the source map.
func (m *sourceMap) missingStrings(vm *goja.Runtime) []MissingString {
	found, ok := vm.Get(missingGlobal).(*goja.Object)
	if !ok {
		return nil
	}
	n := int(found.Get("length").ToInteger())
	var out []MissingString
	for i := range n {
		item, ok := found.Get(strconv.Itoa(i)).(*goja.Object)
		if !ok {
			continue
		}
		ms := MissingString{Key: item.Get("key").String(), Lang: item.Get("lang").String()}
		stack := m.mapStack(item.Get("stack").String())
		for _, f := range stackFrame.FindAllStringSubmatch(stack, -1) {
			file := projectPath(f[1])
			if file == "" || slices.Contains(translationFiles, file) {
				continue
			}
			ms.File = file
			ms.Line, _ = strconv.Atoi(f[2])
			ms.Column, _ = strconv.Atoi(f[3])
			break
		}
		if !slices.Contains(out, ms) {
			out = append(out, ms)
		}
	}
	return out
}

// missingLog keeps the missing strings an engine has logged: each is
// logged once, not at every page that asks for it.
type missingLog struct {
	mu     sync.Mutex
	logged map[MissingString]bool
}

func (l *missingLog) first(ms MissingString) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.logged == nil {
		l.logged = map[MissingString]bool{}
	}
	if l.logged[ms] {
		return false
	}
	l.logged[ms] = true
	return true
}
