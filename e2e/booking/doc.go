// Package booking holds the browser tests of the consultation booking: the
// two steps by keyboard and pointer, history, a slot taken while
// confirming, the cancel and reschedule pages, the booking without
// JavaScript, and values kept in their order in Arabic.
package booking
