package intl

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// token is one piece of a CLDR date pattern: literal text, a field (a
// letter repeated width times, such as MMMM) or a slot ({0}, {1}) of a
// pattern that joins two others.
type token struct {
	text  string
	field byte
	width int
	slot  int
}

// pattern is a parsed CLDR date pattern
// (https://unicode.org/reports/tr35/tr35-dates.html#Date_Field_Symbol_Table).
type pattern []token

// fieldWidths are the fields this package writes, with the widths it
// writes them in: the ones the site's patterns use. Any other is an error
// at start, so that a language whose CLDR patterns need more is noticed
// rather than written wrong.
var fieldWidths = map[byte][]int{
	'd': {1, 2},       // day of the month
	'M': {1, 2, 4},    // month: number, or its name
	'L': {1, 2, 4},    // month standing alone
	'y': {1, 2, 3, 4}, // year
	'E': {4},          // weekday name
	'c': {4},          // weekday name standing alone
	'h': {1, 2},       // hour 1-12
	'H': {1, 2},       // hour 0-23
	'K': {1, 2},       // hour 0-11
	'k': {1, 2},       // hour 1-24
	'm': {1, 2},       // minute
	'a': {1, 2, 3},    // am or pm
}

func isLetter(b byte) bool { return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' }

// parsePattern reads a CLDR pattern; slots allows {0} and {1}.
func parsePattern(src string, slots bool) (pattern, error) {
	var p pattern
	var lit strings.Builder
	flush := func() {
		if lit.Len() > 0 {
			p = append(p, token{text: lit.String()})
			lit.Reset()
		}
	}
	for i := 0; i < len(src); {
		switch b := src[i]; {
		case b == '\'':
			end := i + 1
			for end < len(src) {
				if src[end] == '\'' {
					if end+1 < len(src) && src[end+1] == '\'' {
						end += 2
						continue
					}
					break
				}
				end++
			}
			if i+1 == end && end < len(src) { // '' is a quote
				lit.WriteByte('\'')
			} else {
				lit.WriteString(strings.ReplaceAll(src[i+1:min(end, len(src))], "''", "'"))
			}
			i = end + 1
		case slots && b == '{' && i+2 < len(src) && (src[i+1] == '0' || src[i+1] == '1') && src[i+2] == '}':
			flush()
			p = append(p, token{slot: int(src[i+1]-'0') + 1})
			i += 3
		case isLetter(b):
			flush()
			width := 1
			for i+width < len(src) && src[i+width] == b {
				width++
			}
			if slots {
				return nil, fmt.Errorf("%q: a letter (%c) outside quotes", src, b)
			}
			widths, ok := fieldWidths[b]
			if !ok || !contains(widths, width) {
				return nil, fmt.Errorf("%q: the field %s is not one the site writes", src, strings.Repeat(string(b), width))
			}
			p = append(p, token{field: b, width: width})
			i += width
		default:
			lit.WriteByte(b)
			i++
		}
	}
	flush()
	if slots && (!p.hasSlot(1) || !p.hasSlot(2)) {
		return nil, fmt.Errorf("%q: want the date {1} and the time {0}", src)
	}
	if len(p) == 0 {
		return nil, fmt.Errorf("empty pattern")
	}
	return p, nil
}

func contains(list []int, n int) bool {
	for _, v := range list {
		if v == n {
			return true
		}
	}
	return false
}

func (p pattern) hasSlot(slot int) bool {
	for _, t := range p {
		if t.slot == slot {
			return true
		}
	}
	return false
}

// keepDayPeriodTogether makes the space beside a day period a no-break
// space: "3:30 pm" never breaks across two lines.
func (p pattern) keepDayPeriodTogether() pattern {
	const spaces = " \u202f\u00a0"
	out := append(pattern{}, p...)
	for i, t := range out {
		if t.field != 0 || t.slot != 0 {
			continue
		}
		text := t.text
		if i+1 < len(out) && out[i+1].field == 'a' {
			if trimmed := strings.TrimRight(text, spaces); trimmed != text {
				text = trimmed + "\u00a0"
			}
		}
		if i > 0 && out[i-1].field == 'a' {
			if trimmed := strings.TrimLeft(text, spaces); trimmed != text {
				text = "\u00a0" + trimmed
			}
		}
		out[i].text = text
	}
	return out
}

// format writes t by the pattern in c's names and digits; slots fill {0}
// and {1}.
func (p pattern) format(c *calendar, t time.Time, slots ...string) string {
	var b strings.Builder
	for _, tok := range p {
		switch {
		case tok.slot > 0:
			b.WriteString(slots[tok.slot-1])
		case tok.field == 0:
			b.WriteString(tok.text)
		default:
			b.WriteString(c.field(tok, t))
		}
	}
	return b.String()
}

// field writes one field of t.
func (c *calendar) field(tok token, t time.Time) string {
	number := func(n int) string {
		s := strconv.Itoa(n)
		if tok.width == 2 && len(s) < 2 {
			s = "0" + s
		}
		return c.localDigits(s)
	}
	switch tok.field {
	case 'd':
		if day, ok := c.days[t.Day()]; ok {
			return day
		}
		return number(t.Day())
	case 'M', 'L':
		if tok.width == 4 {
			return c.months[t.Month()-1]
		}
		return number(int(t.Month()))
	case 'y':
		if tok.width == 2 {
			return number(t.Year() % 100)
		}
		return c.localDigits(strconv.Itoa(t.Year()))
	case 'E', 'c':
		return c.weekdays[t.Weekday()]
	case 'h':
		return number((t.Hour()+11)%12 + 1)
	case 'H':
		return number(t.Hour())
	case 'K':
		return number(t.Hour() % 12)
	case 'k':
		return number((t.Hour()+23)%24 + 1)
	case 'm':
		return number(t.Minute())
	case 'a':
		if t.Hour() >= 12 {
			return c.pm
		}
		return c.am
	}
	return ""
}

// localDigits writes the ASCII digits of s in the calendar's own.
func (c *calendar) localDigits(s string) string {
	if c.digits[0] == "0" {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if r >= '0' && r <= '9' {
			b.WriteString(c.digits[r-'0'])
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}
