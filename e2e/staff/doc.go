// Package staff holds the browser tests of the staff workspace. Passkeys
// need a secure context and a relying party that is a domain name, not an
// IP address: the workspace runs over https at https://localhost:<port>,
// with the certificate the test browser trusts (e2etest.ServeTLS), and
// Chromium's virtual authenticator (the DevTools WebAuthn domain) plays
// the person's device: a platform authenticator with user verification.
package staff
