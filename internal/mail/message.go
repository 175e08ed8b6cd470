package mail

import (
	"errors"
	"fmt"
	"mime"
	"net/mail"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// ErrInvalid is wrapped by every error about a message that can never be
// sent as it is: a malformed address, or a header value that could smuggle
// in other headers. Such a message is not retried.
var ErrInvalid = errors.New("mail: invalid message")

// maxAttachmentBytes bounds the attachments of one message, well under what
// mail servers accept once base64 has grown them by a third.
const maxAttachmentBytes = 10 << 20

// Message is one mail to send: a plain-text body, optionally an HTML
// alternative, and attachments. The sender (From) is configuration, not part
// of the message.
type Message struct {
	// Kind names the mail for logs and the outbox, e.g. "contact.ack".
	Kind string
	// To is the single recipient: "a@example.com" or "Name <a@example.com>".
	To string
	// ReplyTo, when set, is where replies go instead of From.
	ReplyTo string
	// Subject is one line of text; any line break makes the message invalid.
	Subject string
	// Text is the plain-text body, always present.
	Text string
	// HTML is an optional alternative body.
	HTML string
	// Lang is the language tag of the content ("en", "fr", "de", "ar"),
	// sent as Content-Language.
	Lang string
	// Attachments are added after the body, in order.
	Attachments []Attachment
	// Ref, when set, is the outbox reference of the message, a random
	// UUID the caller keeps to find it again (to withdraw a reminder);
	// empty, Enqueue makes one. It becomes the Message-ID.
	Ref string
	// NotBefore, when set, holds the message back until then: a reminder
	// waits in the outbox for its time.
	NotBefore time.Time
	// MessageRef and BookingID, when set, name what the message is about:
	// the contact message (its ref) or the booking (its row id). Privacy
	// requests find a person's mail by them, not by its text.
	MessageRef string
	BookingID  int64
}

// Attachment is a file sent with a message, such as a calendar invite.
type Attachment struct {
	Filename    string // shown to the recipient, e.g. "invite.ics"
	ContentType string // e.g. "text/calendar; charset=utf-8; method=REQUEST"
	Data        []byte
}

// Validate reports, wrapping [ErrInvalid], why m cannot be sent. It rejects
// control characters (CR and LF above all) in every value that becomes a
// header, so that no field can add a header of its own.
func (m Message) Validate() error {
	if err := headerValue("kind", m.Kind, true); err != nil {
		return err
	}
	if err := address("to", m.To, true); err != nil {
		return err
	}
	if err := address("reply-to", m.ReplyTo, false); err != nil {
		return err
	}
	if err := headerValue("subject", m.Subject, true); err != nil {
		return err
	}
	if strings.TrimSpace(m.Text) == "" {
		return fmt.Errorf("%w: empty text body", ErrInvalid)
	}
	if !utf8.ValidString(m.Text) || !utf8.ValidString(m.HTML) {
		return fmt.Errorf("%w: body is not valid UTF-8", ErrInvalid)
	}
	if m.Lang != "" && !isLanguageTag(m.Lang) {
		return fmt.Errorf("%w: lang %q is not a language tag", ErrInvalid, m.Lang)
	}
	total := 0
	for i, a := range m.Attachments {
		if err := headerValue(fmt.Sprintf("attachment %d filename", i+1), a.Filename, true); err != nil {
			return err
		}
		if strings.ContainsAny(a.Filename, `/\`) {
			return fmt.Errorf("%w: attachment %d filename has a path separator", ErrInvalid, i+1)
		}
		if err := headerValue(fmt.Sprintf("attachment %d content type", i+1), a.ContentType, true); err != nil {
			return err
		}
		if _, _, err := mime.ParseMediaType(a.ContentType); err != nil {
			return fmt.Errorf("%w: attachment %d content type: %v", ErrInvalid, i+1, err)
		}
		total += len(a.Data)
	}
	if total > maxAttachmentBytes {
		return fmt.Errorf("%w: attachments total %d bytes, more than %d", ErrInvalid, total, maxAttachmentBytes)
	}
	return nil
}

// headerValue checks a value that ends up in a header.
func headerValue(field, v string, required bool) error {
	if v == "" {
		if required {
			return fmt.Errorf("%w: empty %s", ErrInvalid, field)
		}
		return nil
	}
	if !utf8.ValidString(v) {
		return fmt.Errorf("%w: %s is not valid UTF-8", ErrInvalid, field)
	}
	if strings.IndexFunc(v, unicode.IsControl) >= 0 {
		return fmt.Errorf("%w: %s contains a control character", ErrInvalid, field)
	}
	return nil
}

// address checks that v is exactly one RFC 5322 address.
func address(field, v string, required bool) error {
	if err := headerValue(field, v, required); err != nil || v == "" {
		return err
	}
	a, err := mail.ParseAddress(v)
	if err != nil {
		return fmt.Errorf("%w: %s is not one address", ErrInvalid, field)
	}
	if at := strings.LastIndexByte(a.Address, '@'); at <= 0 || at == len(a.Address)-1 {
		return fmt.Errorf("%w: %s has no domain", ErrInvalid, field)
	}
	return nil
}

func isLanguageTag(s string) bool {
	if len(s) > 35 {
		return false
	}
	for _, r := range s {
		if !(r == '-' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// recipientDomain returns the lower-cased domain of addr, the most of an
// address that logs may hold.
func recipientDomain(addr string) string {
	a, err := mail.ParseAddress(addr)
	if err != nil {
		return ""
	}
	at := strings.LastIndexByte(a.Address, '@')
	if at < 0 {
		return ""
	}
	return strings.ToLower(a.Address[at+1:])
}
