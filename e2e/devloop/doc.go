// Package devloop holds the browser tests of the dev loop (go run . -dev):
// open pages follow saved changes, errors show over the last good page,
// and production serves none of it.
package devloop
