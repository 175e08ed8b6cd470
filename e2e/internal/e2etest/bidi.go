package e2etest

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// ReadsLeftToRight checks, from where the browser drew them, that the parts
// a pattern's groups capture (the country code and the last digits of a
// phone number, the hour and the minutes of a time, an address's name and
// domain) lie left to right on screen inside the element selector names:
// a value set into right-to-left text reads in its own order. The pattern
// must match inside one text node.
func ReadsLeftToRight(t *testing.T, tb *Tab, where, selector, pattern string) {
	t.Helper()
	var got struct {
		Found bool      `json:"found"`
		Text  string    `json:"text"`
		Lefts []float64 `json:"lefts"`
	}
	js := fmt.Sprintf(`(() => {
		const root = document.querySelector(%q);
		if (!root) return { found: false, text: "no element", lefts: [] };
		const re = new RegExp(%q, "d");
		const walk = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
		for (let n = walk.nextNode(); n; n = walk.nextNode()) {
			const m = re.exec(n.data);
			if (!m) continue;
			const lefts = m.indices.slice(1).map(([from, to]) => {
				const r = document.createRange();
				r.setStart(n, from);
				r.setEnd(n, to);
				return r.getBoundingClientRect().left;
			});
			return { found: true, text: m[0], lefts };
		}
		return { found: false, text: root.innerText.slice(0, 300), lefts: [] };
	})()`, selector, pattern)
	tb.Run(t, chromedp.Evaluate(js, &got))
	if !got.Found {
		t.Errorf("%s: %s holds no %s: %q", where, selector, pattern, got.Text)
		return
	}
	for i := 1; i < len(got.Lefts); i++ {
		if got.Lefts[i] <= got.Lefts[i-1] {
			t.Errorf("%s: %q reads right to left on screen (its parts start at x = %v)", where, got.Text, got.Lefts)
			return
		}
	}
}

// OutboxHTML returns the kind, the link token and the HTML part of every
// mail in env's outbox.
func OutboxHTML(t *testing.T, env *bookingEnv) [][3]string {
	t.Helper()
	rows, err := env.Store.DB().Query(`SELECT kind, text_body, html_body FROM outbox ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out [][3]string
	for rows.Next() {
		var kind, text, html string
		if err := rows.Scan(&kind, &text, &html); err != nil {
			t.Fatal(err)
		}
		token := ""
		if _, after, ok := strings.Cut(text, "/schedule/cancel?token="); ok {
			token, _, _ = strings.Cut(after, "\n")
		}
		out = append(out, [3]string{kind, token, html})
	}
	return out
}
