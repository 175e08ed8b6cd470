package mail

import (
	"html"
	"regexp"
	"strings"
	"unicode/utf8"
)

// Unicode's directional isolates (UAX #9): a value between an opening
// isolate and PDI is laid out on its own, in its own direction, and the
// text around it is laid out as if it were one neutral character. A phone
// number, an address or a time inside a right-to-left sentence keeps its
// order this way ("+971 4 234 5678", not "5678 234 4 971+").
const (
	fsi = "\u2068" // first strong isolate: the value's own first letter decides
	lri = "\u2066" // left-to-right isolate
	pdi = "\u2069" // pop directional isolate
)

// Isolate returns s between FSI and PDI, for a value whose direction is its
// own (a date written in the mail's language, a zone's name). An empty s
// stays empty.
func Isolate(s string) string {
	if s == "" {
		return s
	}
	return fsi + s + pdi
}

// IsolateLTR returns s between LRI and PDI, for a value that is always left
// to right (a phone number, an address, a code). An empty s stays empty.
// A web address is better given a line of its own: a mail program that
// makes links of addresses may take the PDI into the link.
func IsolateLTR(s string) string {
	if s == "" {
		return s
	}
	return lri + s + pdi
}

// webAddress matches the links a mail's text holds, to the next space.
var webAddress = regexp.MustCompile(`https?://[^\s\x{2066}-\x{2069}]+`)

// signatureSeparator is the line before a mail's footer (RFC 3676's "-- "
// is trimmed to "--" by the templates).
const signatureSeparator = "--"

// HTML returns an HTML part that says what text says, for the mail
// programs that show HTML: in lang and dir ("ltr" or "rtl"), one paragraph
// per block of lines, the links clickable, the footer after the signature
// separator set apart, and each isolated value (Isolate, IsolateLTR) in a
// <bdi> of its direction, so that both parts keep a phone number or a time
// whole inside right-to-left text.
func HTML(subject, text, lang, dir string) string {
	var b strings.Builder
	b.WriteString(`<!DOCTYPE html><html lang="` + html.EscapeString(lang) + `" dir="` + html.EscapeString(dir) + `"><head><meta charset="utf-8">`)
	b.WriteString(`<meta name="viewport" content="width=device-width, initial-scale=1"><title>` + html.EscapeString(stripIsolates(subject)) + `</title></head>`)
	b.WriteString(`<body style="margin:0;padding:24px 16px;background:#ffffff;color:#1b2330;font:16px/1.6 -apple-system,'Segoe UI',Roboto,'Noto Sans','Noto Sans Arabic',Arial,sans-serif">`)
	b.WriteString(`<div dir="` + html.EscapeString(dir) + `" style="max-width:600px;margin:0 auto">`)
	footer := false
	for _, block := range strings.Split(strings.TrimSpace(strings.ReplaceAll(text, "\r\n", "\n")), "\n\n") {
		lines := strings.Split(strings.Trim(block, "\n"), "\n")
		if strings.TrimSpace(lines[0]) == signatureSeparator {
			b.WriteString(`<hr style="border:0;border-top:1px solid #d5dae1;margin:24px 0">`)
			footer = true
			lines = lines[1:]
			if len(lines) == 0 {
				continue
			}
		}
		style := "margin:0 0 16px"
		if footer {
			style += ";color:#5b6575;font-size:13px"
		}
		// A run of quoted lines (Quote: what a visitor typed) is a
		// block of its own, set apart, its text neither linked nor
		// isolated: it never reads as the template's lines.
		for len(lines) > 0 {
			n := 0
			for n < len(lines) && quoted(lines[n]) == quoted(lines[0]) {
				n++
			}
			run := lines[:n]
			lines = lines[n:]
			if quoted(run[0]) {
				side := "left"
				if dir == "rtl" {
					side = "right"
				}
				b.WriteString(`<blockquote style="margin:0 0 16px;padding:8px 12px;border-` + side + `:3px solid #9aa4b2;background:#f4f6f9;color:#1b2330;white-space:pre-wrap">`)
				for i, line := range run {
					if i > 0 {
						b.WriteString("<br>")
					}
					line = strings.TrimPrefix(strings.TrimPrefix(line, QuoteMark), " ")
					b.WriteString(html.EscapeString(line))
				}
				b.WriteString("</blockquote>")
				continue
			}
			b.WriteString(`<p style="` + style + `">`)
			for i, line := range run {
				if i > 0 {
					b.WriteString("<br>")
				}
				b.WriteString(lineHTML(line))
			}
			b.WriteString("</p>")
		}
	}
	b.WriteString("</div></body></html>\n")
	return b.String()
}

// quoted reports whether line is a line of a quoted block (Quote).
func quoted(line string) bool {
	return line == QuoteMark || strings.HasPrefix(line, QuoteMark+" ")
}

// lineHTML escapes one line, makes links of its web addresses and <bdi>
// elements of its isolates. Unbalanced isolates cannot leave an element
// open: a PDI with nothing to close is dropped, and what is open at the
// line's end is closed.
func lineHTML(line string) string {
	var b strings.Builder
	open := 0
	rest := line
	for rest != "" {
		if loc := webAddress.FindStringIndex(rest); loc != nil && loc[0] == 0 {
			u := strings.TrimRight(rest[:loc[1]], ".,;:!?)")
			b.WriteString(`<a href="` + html.EscapeString(u) + `" dir="ltr" style="color:#1d4ed8">` + html.EscapeString(u) + `</a>`)
			rest = rest[len(u):]
			continue
		}
		r, size := utf8.DecodeRuneInString(rest)
		switch string(r) {
		case fsi:
			b.WriteString("<bdi>")
			open++
		case lri:
			// A phone number or an address is one piece: not broken over lines.
			b.WriteString(`<bdi dir="ltr" style="white-space:nowrap">`)
			open++
		case pdi:
			if open > 0 {
				b.WriteString("</bdi>")
				open--
			}
		default:
			next := len(rest)
			if loc := webAddress.FindStringIndex(rest); loc != nil {
				next = loc[0]
			}
			if i := strings.IndexAny(rest[size:], fsi+lri+pdi); i >= 0 && size+i < next {
				next = size + i
			}
			b.WriteString(html.EscapeString(rest[:next]))
			size = next
		}
		rest = rest[size:]
	}
	b.WriteString(strings.Repeat("</bdi>", open))
	return b.String()
}

// AddHTML gives m an HTML part written from its text (see [HTML]), in
// its language and dir, the direction of that language.
func (m *Message) AddHTML(dir string) {
	m.HTML = HTML(m.Subject, m.Text, m.Lang, dir)
}

// stripIsolates removes the isolates of s, for where markup cannot stand
// for them (a title).
func stripIsolates(s string) string {
	return strings.NewReplacer(fsi, "", lri, "", pdi, "").Replace(s)
}
