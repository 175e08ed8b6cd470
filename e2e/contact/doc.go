// Package contact holds the browser tests of the contact form: sending,
// errors beside the fields, input kept on error, the form without
// JavaScript, and the form while the database is away.
package contact
