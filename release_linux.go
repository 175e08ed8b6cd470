package main

import (
	"bufio"
	"bytes"
	"os"
	"slices"
	"strconv"
	"strings"
	"syscall"
)

// releaseReadOnlyData takes out of the process's resident memory the pages
// of its own executable's read-only data that it has read: a production
// binary's embedded content, bundles and build renders, which its start
// reads once (tens of megabytes at a thousand posts a language), and the
// tables a start touches once. The pages stay in the system's page cache,
// and a later read maps them again from there without reading the disk
// (docs/ARCHITECTURE.md, Rendering). Only mappings of the file that hold
// no page of their own are released: a page the process wrote (the
// dynamic loader's relocations) would be lost, not released.
func releaseReadOnlyData() { releaseExecutable("r--p") }

// releaseReadOnlyPages does what releaseReadOnlyData does for the
// executable's code too: the -dev watcher, which runs no site, runs
// little of it once its start ran (a page of code it runs again is mapped
// again from the page cache, as data is).
func releaseReadOnlyPages() { releaseExecutable("r--p", "r-xp") }

// releaseExecutable releases the mappings of the executable with those
// permissions that hold no page of their own.
func releaseExecutable(perms ...string) {
	exe, err := os.Executable()
	if err != nil {
		return
	}
	smaps, err := os.ReadFile("/proc/self/smaps")
	if err != nil {
		return
	}
	type mapping struct{ start, end uintptr }
	var candidate *mapping
	var clean []mapping
	sc := bufio.NewScanner(bytes.NewReader(smaps))
	for sc.Scan() {
		line := sc.Text()
		fields := strings.Fields(line)
		if len(fields) >= 6 && strings.Contains(fields[0], "-") && len(fields[1]) == 4 {
			// A mapping's first line: "start-end perms offset dev inode path".
			candidate = nil
			if slices.Contains(perms, fields[1]) && strings.Join(fields[5:], " ") == exe {
				lo, hi, _ := strings.Cut(fields[0], "-")
				start, err1 := strconv.ParseUint(lo, 16, 64)
				end, err2 := strconv.ParseUint(hi, 16, 64)
				if err1 == nil && err2 == nil {
					candidate = &mapping{uintptr(start), uintptr(end)}
				}
			}
			continue
		}
		if candidate != nil && len(fields) >= 2 && fields[0] == "Anonymous:" {
			if fields[1] == "0" {
				clean = append(clean, *candidate)
			}
			candidate = nil
		}
	}
	for _, m := range clean {
		// Addresses the kernel gave, page-aligned: no Go memory.
		_, _, _ = syscall.Syscall(syscall.SYS_MADVISE, m.start, m.end-m.start, syscall.MADV_DONTNEED)
	}
}
