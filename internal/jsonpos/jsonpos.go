// Package jsonpos places a mistake in a JSON file (site.json, the strings,
// availability.json) on its line and column, with the line's text, the way
// esbuild reports a mistake in a source file: encoding/json says only how
// many bytes it read (docs/ARCHITECTURE.md, The dev loop).
package jsonpos

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"unicode/utf8"
)

// Error is a mistake at a place in a JSON file.
type Error struct {
	File     string // as the caller names it: a path from the project's directory
	Line     int    // from 1
	Column   int    // from 1, in characters
	LineText string // the line, without its end
	Err      error
}

// Error says file:line:column: the mistake, as editors and terminals turn
// into a link.
func (e *Error) Error() string {
	return fmt.Sprintf("%s:%d:%d: %v", e.File, e.Line, e.Column, e.Err)
}

// Unwrap returns the decoder's error.
func (e *Error) Unwrap() error { return e.Err }

// unknownField is the decoder's refusal of a key (DisallowUnknownFields),
// which says no offset.
var unknownField = regexp.MustCompile(`json: unknown field ("(?:[^"\\]|\\.)*")$`)

// Wrap returns err, an error of encoding/json decoding data, the content of
// file, as an *Error at the place it names: a syntax error, a value of the
// wrong type, an unknown key (its first occurrence). Any other error is
// returned as it is.
func Wrap(file string, data []byte, err error) error {
	if err == nil {
		return nil
	}
	offset := -1
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syntax):
		// The decoder read the offending byte: it is the last one read.
		offset = int(syntax.Offset) - 1
	case errors.As(err, &typ):
		// The value is read whole: its last byte, on its line.
		offset = int(typ.Offset) - 1
	case errors.Is(err, io.ErrUnexpectedEOF):
		// A json.Decoder's end of input in the middle of a value.
		offset = len(data) - 1
	default:
		if m := unknownField.FindStringSubmatch(err.Error()); m != nil {
			if key, uerr := strconv.Unquote(m[1]); uerr == nil {
				quoted, _ := json.Marshal(key)
				offset = keyOffset(data, quoted)
			}
		}
	}
	if offset < 0 {
		return err
	}
	return At(file, data, offset, err)
}

// keyOffset returns the offset of the first key quoted ("name") in data,
// followed by a colon, or -1.
func keyOffset(data, quoted []byte) int {
	for from := 0; ; {
		i := bytes.Index(data[from:], quoted)
		if i < 0 {
			return -1
		}
		at := from + i
		rest := bytes.TrimLeft(data[at+len(quoted):], " \t\r\n")
		if len(rest) > 0 && rest[0] == ':' {
			return at
		}
		from = at + len(quoted)
	}
}

// At returns err as an *Error at the byte offset of data, the content of
// file.
func At(file string, data []byte, offset int, err error) *Error {
	offset = max(0, min(offset, len(data)))
	start := bytes.LastIndexByte(data[:offset], '\n') + 1
	end := bytes.IndexByte(data[offset:], '\n')
	if end < 0 {
		end = len(data)
	} else {
		end += offset
	}
	return &Error{
		File:     file,
		Line:     bytes.Count(data[:start], []byte("\n")) + 1,
		Column:   utf8.RuneCount(data[start:offset]) + 1,
		LineText: string(bytes.TrimRight(data[start:end], "\r")),
		Err:      err,
	}
}
