package jsonpos_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"

	"github.com/northbeam/site/internal/jsonpos"
)

// TestMistakesNameLineAndColumn: a syntax error, a value of the wrong type,
// an unknown key and a file cut short are each placed on their line and
// column, with the line's text, whether json.Unmarshal or a json.Decoder
// found them.
func TestMistakesNameLineAndColumn(t *testing.T) {
	type file struct {
		Name  string `json:"name"`
		Count int    `json:"count"`
	}
	for _, tc := range []struct {
		name, data string
		line, col  int
		text, msg  string
	}{
		{"a comma too many", "{\n  \"name\": \"x\",,\n  \"count\": 1\n}\n", 2, 15, `  "name": "x",,`, "invalid character ','"},
		{"a missing comma", "{\n  \"name\": \"x\"\n  \"count\": 1\n}\n", 3, 3, `  "count": 1`, "invalid character '\"' after object key:value pair"},
		{"after letters of another alphabet", "{\n  \"name\": \"مرحبا\" x\n}\n", 2, 19, `  "name": "مرحبا" x`, "invalid character 'x'"},
		{"a value of the wrong type", "{\n  \"name\": \"x\",\n  \"count\": \"three\"\n}\n", 3, 18, `  "count": "three"`, "cannot unmarshal string"},
		{"an unknown key", "{\n  \"name\": \"count\",\n  \"cuont\": 1\n}\n", 3, 3, `  "cuont": 1`, `unknown field "cuont"`},
		{"cut short", "{\n  \"name\": \"x\",\n  \"count\": 1\n", 3, 13, `  "count": 1`, ""},
	} {
		for _, decoder := range []bool{false, true} {
			var v file
			var err error
			if decoder {
				dec := json.NewDecoder(bytes.NewReader([]byte(tc.data)))
				dec.DisallowUnknownFields()
				err = dec.Decode(&v)
			} else {
				if tc.name == "an unknown key" {
					continue // json.Unmarshal takes any key
				}
				err = json.Unmarshal([]byte(tc.data), &v)
			}
			var pe *jsonpos.Error
			if !errors.As(jsonpos.Wrap("content/x.json", []byte(tc.data), err), &pe) {
				t.Errorf("%s (decoder %v): %v, not placed", tc.name, decoder, err)
				continue
			}
			if pe.File != "content/x.json" || pe.Line != tc.line || pe.Column != tc.col || pe.LineText != tc.text || !bytes.Contains([]byte(pe.Error()), []byte(tc.msg)) {
				t.Errorf("%s (decoder %v): %s:%d:%d %q %q; want line %d, column %d, %q, %q", tc.name, decoder,
					pe.File, pe.Line, pe.Column, pe.LineText, pe.Err, tc.line, tc.col, tc.text, tc.msg)
			}
		}
	}
	if err := errors.New("other"); jsonpos.Wrap("x.json", nil, err) != err {
		t.Error("an error that is not the decoder's is changed")
	}
}
