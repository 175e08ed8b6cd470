//go:build !linux

package render

import "os"

type cPath string

func newCPath(p string) cPath { return cPath(p) }

// readAt reads len(b) bytes of the file at p from off.
func readAt(p cPath, b []byte, off int64) error {
	f, err := os.Open(string(p))
	if err != nil {
		return err
	}
	defer func() { _ = f.Close() }() // read only
	_, err = f.ReadAt(b, off)
	return err
}

// filePath is the path of the file d reads.
func (d *diskBody) filePath() string { return string(d.cpath) }
