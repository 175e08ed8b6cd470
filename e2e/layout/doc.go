// Package layout holds the browser tests of layout: nothing overflows a
// phone, no layout shift while a page and its pictures arrive, and the home
// page at phone and desktop widths. The sweep of every width with the
// common fonts is e2e/widths; accessibility is e2e/a11y.
package layout
