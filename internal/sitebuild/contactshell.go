package sitebuild

import (
	"bytes"
	"context"
	"encoding/json"
	"maps"
	"net/http"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/northbeam/site/internal/contact"
)

// An invalid contact form posted without JavaScript is answered with the
// home page showing the form's errors and what was typed. Rendering that
// page in goja for each post cost a hundred times the JSON answer, and
// invalid posts come in floods. The page differs from one post to the next
// only in the typed values, so it is rendered once per language, set of
// errors and chosen service, with markers where the values go (a shell),
// and each post fills the markers in: HTML-escaped in the document as
// React escapes text, JSON-escaped in the payload.

// contactMarkers stand for the typed values in a shell: plain ASCII, which
// neither React nor JSON escapes, and which no page holds otherwise.
var contactMarkers = map[string]string{
	contact.FieldName:    "nbShellName7c41f",
	contact.FieldEmail:   "nbShellEmail7c41f",
	contact.FieldMessage: "nbShellMessage7c41f",
	contact.FieldService: "nbShellService7c41f",
}

// maxContactShells bounds the shells kept (four languages times the
// combinations of the form's errors stay far below it); past it an
// outcome is rendered for its post, as before.
const maxContactShells = 512

// shellPart is a piece of a shell: literal bytes, then (unless field is
// "") the value of field, escaped for the payload's JSON or for HTML.
type shellPart struct {
	literal []byte
	field   string
	inJSON  bool
}

// contactShell is the page of one invalid outcome, rendered once.
type contactShell struct {
	once
	parts []shellPart
	size  int
}

type contactShells struct {
	mu     sync.Mutex
	shells map[string]*contactShell
}

// payloadStart and payloadEnd bound the payload in a document
// (render.Document).
var (
	payloadStart = []byte(`<script type="application/json" id="page-data">`)
	payloadEnd   = []byte(`</script>`)
)

// InvalidContactAnswer is the page answering a contact form post that was
// invalid (out.Status 422) in the language with code lang, from its shell:
// after the first post of its kind, no render.
func (s *Build) InvalidContactAnswer(ctx context.Context, lang string, out ContactOutcome) ([]byte, error) {
	if out.Status != http.StatusUnprocessableEntity {
		return s.RenderContactAnswer(ctx, lang, out)
	}
	errs := map[string]string{}
	for _, f := range []string{contact.FieldName, contact.FieldEmail, contact.FieldMessage, contact.FieldService} {
		if key, ok := out.Errors[f]; ok {
			errs[f] = key
		}
	}
	// A valid service is selected in the page (part of the shell); any
	// other selects nothing and is only carried in the payload.
	service := contactMarkers[contact.FieldService]
	if _, invalid := errs[contact.FieldService]; !invalid {
		service = out.Service
	}
	key := lang + "\x00" + service
	for _, f := range slices.Sorted(maps.Keys(errs)) {
		key += "\x00" + f + "=" + errs[f]
	}

	s.contactShells.mu.Lock()
	if s.contactShells.shells == nil {
		s.contactShells.shells = map[string]*contactShell{}
	}
	sh, ok := s.contactShells.shells[key]
	if !ok && len(s.contactShells.shells) < maxContactShells {
		sh = &contactShell{}
		sh.fill = func(ctx context.Context) error {
			shellOut := ContactOutcome{
				Status: http.StatusUnprocessableEntity, Errors: errs, Service: service,
				Name: contactMarkers[contact.FieldName], Email: contactMarkers[contact.FieldEmail],
				Message: contactMarkers[contact.FieldMessage],
			}
			html, err := s.RenderContactAnswer(ctx, lang, shellOut)
			if err != nil {
				return err
			}
			sh.parts, sh.size = splitShell(html), len(html)
			return nil
		}
		s.contactShells.shells[key] = sh
	}
	s.contactShells.mu.Unlock()
	if sh == nil {
		return s.RenderContactAnswer(ctx, lang, out)
	}
	if err := sh.do(ctx); err != nil {
		return nil, err
	}
	values := out.typed()
	var b bytes.Buffer
	b.Grow(sh.size + 2*(len(out.Name)+len(out.Email)+len(out.Message)+len(out.Service)))
	for _, p := range sh.parts {
		b.Write(p.literal)
		if p.field == "" {
			continue
		}
		v := values[p.field]
		if p.inJSON {
			j, _ := json.Marshal(v) // a string: cannot fail
			b.Write(j[1 : len(j)-1])
		} else {
			if p.field == contact.FieldMessage && strings.HasPrefix(v, "\n") {
				// React writes a textarea's leading line break twice, as
				// HTML drops the first.
				b.WriteByte('\n')
			}
			htmlEscape(&b, validUTF8(v))
		}
	}
	return b.Bytes(), nil
}

// splitShell cuts a rendered shell at its markers.
func splitShell(html []byte) []shellPart {
	payloadAt := bytes.Index(html, payloadStart)
	payloadStop := -1
	if payloadAt >= 0 {
		payloadStop = payloadAt + bytes.Index(html[payloadAt:], payloadEnd)
	}
	var parts []shellPart
	last := 0
	for i := 0; i < len(html); {
		field, marker := "", ""
		for f, m := range contactMarkers {
			if bytes.HasPrefix(html[i:], []byte(m)) {
				field, marker = f, m
				break
			}
		}
		if field == "" {
			i++
			continue
		}
		parts = append(parts, shellPart{literal: html[last:i], field: field, inJSON: i > payloadAt && i < payloadStop})
		i += len(marker)
		last = i
	}
	return append(parts, shellPart{literal: html[last:]})
}

// validUTF8 replaces each byte that is not UTF-8 with U+FFFD, as the
// render does (it reads the values from the payload's JSON, where
// json.Marshal has replaced them).
func validUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		b.WriteRune(r) // ranging yields U+FFFD for each invalid byte
	}
	return b.String()
}

// htmlEscape writes s escaped as React escapes text and attribute values.
func htmlEscape(b *bytes.Buffer, s string) {
	last := 0
	for i := 0; i < len(s); i++ {
		var esc string
		switch s[i] {
		case '"':
			esc = "&quot;"
		case '&':
			esc = "&amp;"
		case '\'':
			esc = "&#x27;"
		case '<':
			esc = "&lt;"
		case '>':
			esc = "&gt;"
		default:
			continue
		}
		b.WriteString(s[last:i])
		b.WriteString(esc)
		last = i + 1
	}
	b.WriteString(s[last:])
}
