// Package widths holds the browser test that sweeps every width from a
// 320 px phone to a 1600 px desktop with the common fonts of a Linux
// desktop, in every language: the header holds its row and no page type
// reaches past the screen. It is a package of its own so that go test runs
// it beside the other layout tests.
package widths
