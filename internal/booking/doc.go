// Package booking holds the domain of consultation booking: the
// consultancy's declared availability, the computation of open slots, the
// validation of slot queries and booking requests, the booking record and its
// tokens, and the calendar invite (RFC 5545) with its "add to calendar" links.
//
// The pure part (availability, slots, requests, invites) does no I/O beyond
// reading the availability file from an fs.FS, and every function of it
// that depends on the current time takes it as an argument, so results are
// reproducible and testable. [Service] adds persistence: it keeps bookings
// in the store (store.go holds the queries) and commits each booking or
// cancellation in one transaction with its mails in the outbox (mails.go
// writes them from templates in content/mail). The package knows nothing
// of HTTP.
//
// Time is handled in three ways, and never mixed:
//
//   - instants are time.Time values in UTC (slots, bookings, busy intervals);
//   - calendar days are [Date] values, a civil date without a zone, read in a
//     zone only when named (the consultancy's for working hours and closed
//     dates, the visitor's for the days of a slot query);
//   - wall-clock times of working hours are [Clock] values, turned into
//     instants with time.Date in the consultancy's location, so daylight
//     saving is handled by the time zone database and a day is never assumed
//     to last 24 hours.
package booking
