//go:build !linux

package main

// releaseReadOnlyData is for Linux (release_linux.go).
func releaseReadOnlyData() {}
