package visitor

import (
	"path/filepath"
	"testing"

	"github.com/northbeam/site/e2e/internal/e2etest"
	"github.com/northbeam/site/internal/goldentest"
)

// TestClientFormatsInEveryLanguage holds what the client writes in every
// language (dates, times, the week, zone names) to what
// testdata/client-formats.golden recorded. Intl's output is Chromium's:
// after an upgrade of the browser that changes it, read the difference and
// run the test again with UPDATE_GOLDEN=1.
func TestClientFormatsInEveryLanguage(t *testing.T) {
	var got string
	runClientScript(t, e2etest.ClientFormats, `golden()`, &got)
	goldentest.Check(t, filepath.Join("testdata", "client-formats.golden"), got)
}
