// Package e2etest is the kit the browser tests share: Debian's headless
// Chromium, started once per test binary, driving the real server (the
// whole HTTP surface of handlers over the built site, with the domain
// services on a fresh database when a test needs them) on loopback; tabs
// with their own cookies and storage; and the actions and environments of
// each area (booking, consent, contact, staff). Under CI=true a missing
// browser fails the run; elsewhere the tests say loudly that they skipped.
//
// Some of what browsers do happens over https only: the Reporting API (CSP
// reports through report-to) among them. The shared browser trusts one
// certificate made for the test run, by the hash of its public key, and
// ServeTLS serves a handler on loopback with it.
//
// The browser tests live in packages by area (e2e/a11y, e2e/booking, e2e/consent,
// e2e/contact, e2e/devloop, e2e/layout, e2e/pages, e2e/staff,
// e2e/visitor, e2e/widths), which go test runs side by side, each with its own browser
// and site (docs/ARCHITECTURE.md, Tests).
package e2etest
