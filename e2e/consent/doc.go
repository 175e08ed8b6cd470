// Package consent holds the browser tests of the cookie banner
// (docs/ARCHITECTURE.md, Consent). vanilla-cookieconsent hides itself from
// automated browsers, so these tests run against servers of their own whose
// site is built with bot hiding off: the configuration visitors never get,
// never a change to what they get. TestConsentHiddenFromBots checks the
// shipped default.
package consent
