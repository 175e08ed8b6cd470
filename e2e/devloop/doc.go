// Package devloop holds the end-to-end tests of the dev loop (go run .
// -dev), each on a copy of the project it edits: open pages follow saved
// changes, errors show over the last good page, a saved Go file rebuilds
// and restarts the server on its address, and production serves none of
// it.
package devloop
