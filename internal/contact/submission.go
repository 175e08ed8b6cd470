package contact

import (
	"fmt"
	"net/mail"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/northbeam/site/internal/textfield"
)

// Field names, as the form and the JSON API spell them.
const (
	FieldName    = "name"
	FieldEmail   = "email"
	FieldMessage = "message"
	FieldService = "service"
	FieldLang    = "lang"
	// FieldHoneypot is a field hidden from people (visually and from
	// assistive technology); bots that fill every input give themselves
	// away.
	FieldHoneypot = "website"
	// FieldRenderedAt carries the time the form was rendered, for the
	// minimum fill time.
	FieldRenderedAt = "rendered_at"
)

// Locale keys of field errors, translated by the caller.
const (
	KeyName         = "validation.name"
	KeyEmail        = "validation.email"
	KeyMessage      = "validation.message"
	KeyService      = "validation.service"
	KeyUnknownField = "validation.unknownField"
)

// Service interest values; empty means none given.
const (
	ServiceCustomSoftware      = "custom-software"
	ServicePlatformEngineering = "platform-engineering"
	ServiceStrategicConsulting = "strategic-consulting"
	ServiceNotSure             = "not-sure"
)

// Limits of the form, in characters (runes) after trimming.
const (
	NameMax    = 100
	MessageMin = 10
	MessageMax = 5000
	EmailMax   = 254
	// DefaultMinFillTime is how long a person needs at least to fill the
	// form; faster submissions are treated as spam.
	DefaultMinFillTime = 3 * time.Second
)

// Submission is a contact form as the visitor sent it.
type Submission struct {
	Name    string
	Email   string
	Message string
	Service string // "" or one of the Service* values
	Lang    string // the page's language; anything unknown means the default language

	// Honeypot is the value of the hidden field; people leave it empty.
	Honeypot string
	// RenderedAt is when the form was rendered, taken from the form. Zero
	// means unknown and is not held against the visitor.
	RenderedAt time.Time
}

// FieldErrors maps a field name to the locale key of what is wrong with it.
// As an error it lists the fields.
type FieldErrors map[string]string

// Error lists the invalid fields, in a stable order.
func (e FieldErrors) Error() string {
	fields := make([]string, 0, len(e))
	for f := range e {
		fields = append(fields, f)
	}
	slices.Sort(fields)
	return fmt.Sprintf("contact: invalid %s", strings.Join(fields, ", "))
}

// lineEnds turns CRLF and lone CR into LF.
var lineEnds = strings.NewReplacer("\r\n", "\n", "\r", "\n")

// Normalized returns sub with surrounding space trimmed and line ends as
// "\n" (the service reduces the language to one of the site's). The name,
// one line that reaches mail subjects, loses the invisible characters that
// would reorder or hide what is around it (textfield.Clean); a line
// separator in it is a line break, which Validate refuses.
func (s Submission) Normalized() Submission {
	s.Name = strings.TrimSpace(textfield.Clean(s.Name))
	s.Email = strings.TrimSpace(s.Email)
	// A textarea posts CRLF; count and store a line end as one character,
	// as the browser does.
	s.Message = strings.TrimSpace(lineEnds.Replace(s.Message))
	s.Service = strings.TrimSpace(s.Service)
	s.Lang = strings.TrimSpace(s.Lang)
	return s
}

// Validate checks the normalized submission and returns one locale key per
// invalid field, or nil when it is valid.
func (s Submission) Validate() FieldErrors {
	s = s.Normalized()
	errs := FieldErrors{}
	if n := utf8.RuneCountInString(s.Name); n < 1 || n > NameMax || !utf8.ValidString(s.Name) ||
		strings.IndexFunc(s.Name, unicode.IsControl) >= 0 {
		errs[FieldName] = KeyName
	}
	if !ValidEmail(s.Email) {
		errs[FieldEmail] = KeyEmail
	}
	if n := utf8.RuneCountInString(s.Message); n < MessageMin || n > MessageMax || !utf8.ValidString(s.Message) ||
		strings.IndexFunc(s.Message, isForbiddenInText) >= 0 {
		errs[FieldMessage] = KeyMessage
	}
	if !ValidService(s.Service) {
		errs[FieldService] = KeyService
	}
	if len(errs) == 0 {
		return nil
	}
	return errs
}

// isForbiddenInText reports control characters other than line ends and
// tabs: nothing a person types, and escape sequences could reach a
// terminal through the staff command.
func isForbiddenInText(r rune) bool {
	return unicode.IsControl(r) && r != '\n' && r != '\r' && r != '\t'
}

// ValidEmail reports whether s is a plain address ("a@example.com": no
// display name, no comments, no quoting) of at most EmailMax characters,
// whose domain has a dot and well-formed labels.
func ValidEmail(s string) bool {
	if s == "" || utf8.RuneCountInString(s) > EmailMax || !utf8.ValidString(s) {
		return false
	}
	a, err := mail.ParseAddress(s)
	if err != nil || a.Name != "" || a.Address != s {
		return false
	}
	at := strings.LastIndexByte(s, '@')
	local, domain := s[:at], s[at+1:]
	if len(local) > 64 || !strings.Contains(domain, ".") {
		return false
	}
	for label := range strings.SplitSeq(domain, ".") {
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for _, r := range label {
			if !(r == '-' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r)) {
				return false
			}
		}
	}
	return true
}

// ValidService reports whether s is empty or a known service value.
func ValidService(s string) bool {
	switch s {
	case "", ServiceCustomSoftware, ServicePlatformEngineering, ServiceStrategicConsulting, ServiceNotSure:
		return true
	}
	return false
}

// UnknownFields returns a KeyUnknownField error for every name that is not
// a field of the form, for handlers to reject what they do not expect.
func UnknownFields(names []string) FieldErrors {
	errs := FieldErrors{}
	for _, n := range names {
		switch n {
		case FieldName, FieldEmail, FieldMessage, FieldService, FieldLang, FieldHoneypot, FieldRenderedAt:
		default:
			errs[n] = KeyUnknownField
		}
	}
	if len(errs) == 0 {
		return nil
	}
	return errs
}

// Spam reasons stored with a message.
const (
	SpamHoneypot = "honeypot"
	SpamTooFast  = "too-fast"
)

// SpamReason returns why s looks automated, or "" when it looks human:
// the honeypot is filled, or the form came back sooner than minFill after
// it was rendered (or claims to have been rendered in the future).
func (s Submission) SpamReason(now time.Time, minFill time.Duration) string {
	if strings.TrimSpace(s.Honeypot) != "" {
		return SpamHoneypot
	}
	if !s.RenderedAt.IsZero() && now.Sub(s.RenderedAt) < minFill {
		return SpamTooFast
	}
	return ""
}
