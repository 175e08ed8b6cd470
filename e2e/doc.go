// Package e2e drives Debian's headless Chromium against the real server
// (handlers over the built site, on loopback): hydration without console
// errors, client navigation, language rules, the cookie banner, the
// contact, booking and staff workflows, accessibility with axe-core and
// layouts at phone and desktop widths. Under CI=true a missing Chromium
// fails the run; elsewhere the tests say loudly that they skipped.
package e2e
