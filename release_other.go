//go:build !linux

package main

// releaseReadOnlyData is for Linux (release_linux.go).
func releaseReadOnlyData() {}

// releaseReadOnlyPages is for Linux (release_linux.go).
func releaseReadOnlyPages() {}
