// Package mail sends the site's mail through a transactional outbox.
//
// A domain package writes each [Message] with [Enqueue] in the same database
// transaction as the row the mail is about, so a committed contact message
// or booking always has its mail queued, and a failed transaction queues
// nothing. A [Worker] drains the outbox: it sends due rows through a
// [Sender], marks them sent, or records the error and retries later with
// capped, jittered exponential backoff. A dead SMTP server therefore delays
// mail and loses none; delivery is at least once (a crash between sending
// and recording repeats a send, with the same Message-ID so that clients
// can fold the duplicate).
//
// With SMTP configured the Sender is an [SMTPSender]. Without it,
// [LogSender] logs that each message is waiting and leaves it in the outbox
// ("held"); held messages are delivered as soon as the process runs with an
// SMTP sender. Logs name the kind of mail, its outbox reference and at most
// the recipient's domain, never an address, a name or a body.
package mail
