// Package layout holds the browser tests of layout: nothing overflows at
// any width, no layout shift while a page and its pictures arrive, the home
// page at phone and desktop widths, and accessibility (axe-core) of every
// page type in every language.
package layout
