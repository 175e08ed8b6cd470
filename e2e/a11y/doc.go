// Package a11y holds the browser test that runs axe-core on every page type
// of the public site in every language. The consent dialog's and the staff
// workspace's accessibility are tested with their areas (e2e/consent,
// e2e/staff).
package a11y
