// Package visitor holds the browser tests of what visitors noticed: the
// booking's finished state, input kept across a language switch, time
// zones named in the page's language, the night beside a time, focus and
// scroll after a navigation, icons that are not mirrored, the cookie banner
// on a phone, code blocks that show they scroll, a whole tour, and the
// client's date and number formats in every language.
package visitor
