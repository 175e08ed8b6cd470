package main

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/northbeam/site/internal/contact"
)

// TestReadmeStatesTheSpamRule: the README's RETENTION row says how long
// spam is actually kept, which the retention job applies whatever
// RETENTION says.
func TestReadmeStatesTheSpamRule(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("spam are deleted %d days after they arrived whatever this says", contact.SpamRetention/(24*time.Hour))
	for line := range strings.SplitSeq(string(readme), "\n") {
		if strings.HasPrefix(line, "| `RETENTION` |") {
			if !strings.Contains(line, want) {
				t.Errorf("the README's RETENTION row does not say %q:\n%s", want, line)
			}
			return
		}
	}
	t.Error("the README has no RETENTION row")
}
