package packed

import (
	"bytes"
	"strings"
	"testing"
)

func TestUnpackGivesBackWhatWasPacked(t *testing.T) {
	text := strings.Repeat("Ein Beitrag über Plattformen, زيارة. ", 400)
	for _, p := range [][]byte{Pack(text), Pack([]byte(text))} {
		if len(p) >= len(text)/2 {
			t.Errorf("packed %d bytes into %d: want under half", len(text), len(p))
		}
		got, err := Unpack(p)
		if err != nil || !bytes.Equal(got, []byte(text)) {
			t.Fatalf("Unpack = %d bytes, %v; want the %d bytes packed", len(got), err, len(text))
		}
	}
	if _, err := Unpack([]byte("not packed")); err == nil {
		t.Error("Unpack of bytes Pack did not make: no error")
	}
}
