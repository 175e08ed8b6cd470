// Package contact handles the contact form: validating a submission,
// telling people from bots, storing the message and queueing its two mails
// (a notification to the consultancy, an acknowledgement to the visitor in
// their language) in one transaction, and listing messages for staff.
//
// It has no HTTP in it. A handler decodes the request into a [Submission],
// rejects unknown fields with [UnknownFields], and calls [Service.Submit];
// field errors come back as [FieldErrors] whose values are locale keys.
package contact
