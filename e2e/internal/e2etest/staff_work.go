package e2etest

import (
	"fmt"
	"testing"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// SetStaffLanguage makes the signed-in member's workspace speak lang.
func SetStaffLanguage(t *testing.T, tb *Tab, lang string) {
	t.Helper()
	tb.Run(t, chromedp.Evaluate(fmt.Sprintf(`fetch("/staff/api/me/language", {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify({lang: %q})}).then((r) => r.status)`, lang), nil,
		func(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) }))
}
