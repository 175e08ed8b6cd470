package render

import (
	"syscall"
	"unsafe"
)

// cPath is a file's path as the system takes it: NUL-terminated, made once,
// so that opening it on every request allocates nothing.
type cPath []byte

func newCPath(p string) cPath { return append([]byte(p), 0) }

// readAt reads len(b) bytes of the file at p from off, with three system
// calls and no allocation: a cached page's request allocates nothing
// (TestCachedRequestsDoNotAllocate).
func readAt(p cPath, b []byte, off int64) error {
	fd, _, errno := syscall.Syscall6(syscall.SYS_OPENAT, atFDCWD, uintptr(unsafe.Pointer(&p[0])), //nolint:gosec // G103: a NUL-terminated path, as openat(2) takes it
		uintptr(syscall.O_RDONLY|syscall.O_CLOEXEC), 0, 0, 0)
	if errno != 0 {
		return errno
	}
	defer func() { _ = syscall.Close(int(fd)) }() // read only
	for len(b) > 0 {
		n, err := syscall.Pread(int(fd), b, off)
		if err != nil {
			return err
		}
		if n == 0 {
			return syscall.EIO // shorter than its header says
		}
		b, off = b[n:], off+int64(n)
	}
	return nil
}

// atFDCWD is AT_FDCWD (-100): p is absolute, or relative to the working
// directory.
var atFDCWD = ^uintptr(99)

// filePath is the path of the file d reads.
func (d *diskBody) filePath() string { return string(d.cpath[:len(d.cpath)-1]) }
