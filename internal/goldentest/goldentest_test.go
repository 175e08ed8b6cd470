package goldentest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// recorder keeps what Check reports instead of failing the test.
type recorder struct {
	testing.TB
	errors []string
}

func (r *recorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}

// TestUpdateRenewsAndCheckNamesTheLine writes a golden file under
// UPDATE_GOLDEN=1, then holds output to it: a change is reported at its
// line, with the command that renews the file.
func TestUpdateRenewsAndCheckNamesTheLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out.golden")
	t.Setenv(Update, "1")
	Check(t, path, "one\ntwo\n")
	if b, err := os.ReadFile(path); err != nil || string(b) != "one\ntwo\n" {
		t.Fatalf("UPDATE_GOLDEN=1 wrote %q, %v", b, err)
	}
	t.Setenv(Update, "")
	same := &recorder{TB: t}
	Check(same, path, "one\ntwo\n")
	changed := &recorder{TB: t}
	Check(changed, path, "one\nthree\n")
	if len(same.errors) != 0 || len(changed.errors) != 1 {
		t.Fatalf("the same output reported %q, a changed one %q", same.errors, changed.errors)
	}
	for _, want := range []string{"out.golden, line 2", `got "three"`, `want "two"`, "UPDATE_GOLDEN=1 go test -run '^" + t.Name() + "$'"} {
		if !strings.Contains(changed.errors[0], want) {
			t.Errorf("the report %q lacks %q", changed.errors[0], want)
		}
	}
}
