// Package staff is the domain of the staff workspace under /staff: who may
// sign in and how (invitations, passkeys, one-time sign-in links, sessions),
// and what staff do there (the inbox of contact messages, the agenda of
// bookings, mail that did not go out, exports, privacy requests, the audit
// log), together with the retention job that deletes what is older than the
// privacy policy promises to keep.
//
// It has no HTTP in it. Everything lives in the site's database, on either
// back-end: sessions, invitations and links are shared by every instance,
// and a token that opens something (a link, a session, a ceremony) is
// stored as its SHA-256 only, so that a copy of the database opens nothing.
//
// Every action of a staff member is written to the audit log in the same
// transaction as the change it records. The log names staff by address and
// what they acted on by a reference (a message's ref, a booking's number),
// never by a visitor's address, so that an erasure leaves no address in it.
package staff
