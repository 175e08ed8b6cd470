package contact

import (
	"errors"
	"fmt"
	"io/fs"
	"text/template"
	"time"

	"github.com/northbeam/site/internal/intl"
	"github.com/northbeam/site/internal/mail"
	"github.com/northbeam/site/internal/site"
)

// Mail kinds, as they appear in the outbox and in logs.
const (
	KindNotify = "contact.notify"
	KindAck    = "contact.ack"
)

// Template paths inside the content file system.
const (
	ackTemplate    = "mail/%s/contact-ack.txt"
	notifyTemplate = "mail/en/contact-notify.txt"
)

// Brand holds the facts about the consultancy that mails mention, taken
// from content/site.json and configuration.
type Brand struct {
	Name          string // "Northbeam"
	Email         string // public contact address
	BaseURL       string // "https://northbeam.dev"
	ResponseHours int    // promised reply time, 24
	// Zone is the consultancy's time zone: the notification gives the time
	// a message arrived in it, as the workspace and the booking notices do.
	Zone *time.Location
	// Dates writes that time and the zone's localized name.
	Dates *intl.Formatter
}

// Mailer writes the two mails of a contact message from text/template
// files in the content directory: mail/<lang>/contact-ack.txt for each
// language of content/site.json and mail/en/contact-notify.txt. A template
// renders a first line "Subject: ...", a blank line, then the plain-text
// body.
type Mailer struct {
	brand     Brand
	inbox     string
	langs     site.Languages    // the acknowledgement's languages
	langNames map[string]string // each language's name in the notification (English)
	ack       map[string]*template.Template
	notify    *template.Template
}

// NewMailer parses the templates from content and checks that each renders
// with sample data, so a broken template stops the server at start rather
// than a visitor's mail later. inbox is the consultancy's address
// (MAIL_TO) that receives notifications.
func NewMailer(content fs.FS, brand Brand, inbox string) (*Mailer, error) {
	if err := (mail.Message{Kind: KindNotify, To: inbox, Subject: "-", Text: "-"}).Validate(); err != nil {
		return nil, fmt.Errorf("contact: inbox address: %w", err)
	}
	if brand.Name == "" || brand.Email == "" || brand.ResponseHours <= 0 {
		return nil, errors.New("contact: brand name, email and response hours are required")
	}
	if brand.Zone == nil || brand.Dates == nil {
		return nil, errors.New("contact: the consultancy's zone and a date formatter are required")
	}
	langs, names, err := site.NoticeLanguages(content)
	if err != nil {
		return nil, fmt.Errorf("contact: %w", err)
	}
	m := &Mailer{brand: brand, inbox: inbox, langs: langs, langNames: names, ack: map[string]*template.Template{}}
	if m.notify, err = mail.ParseTemplate(content, notifyTemplate); err != nil {
		return nil, err
	}
	for _, lang := range m.langs.Codes() {
		if m.ack[lang], err = mail.ParseTemplate(content, fmt.Sprintf(ackTemplate, lang)); err != nil {
			return nil, err
		}
	}
	sample := Record{
		Ref: "00000000-0000-0000-0000-000000000000", CreatedAt: time.Now(),
		Name: "Sample Name", Email: "sample@example.com", Message: "A sample message.",
		Service: ServiceNotSure,
	}
	for _, lang := range m.langs.Codes() {
		sample.Lang = lang
		if _, err := m.Compose(sample); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// ackData is all the acknowledgement's templates see: facts about the
// consultancy, nothing the visitor wrote. The acknowledgement goes to an
// address nobody has verified, so whatever a visitor could put in it
// ("Your account is locked: verify at ...") would be mail from us to a
// stranger; a template that names a visitor's field fails at start.
type ackData struct {
	Brand         Brand
	ResponseHours int
}

// mailData is what the consultancy's notification sees: everything.
type mailData struct {
	Brand         Brand
	ResponseHours int
	Ref           string
	Name          string // on one line: control characters become spaces
	Email         string
	Message       string
	Service       string // key, "" when none given
	ServiceLabel  string // English label
	Lang          string
	LangLabel     string // the language's name in English
	ReceivedAt    string // "Friday, 20 November 2026 at 10:30, Berlin (Central European Time)"
}

// Compose returns the notification to the inbox, with Reply-To the visitor,
// and the acknowledgement to the visitor in their language, with Reply-To
// the inbox: a fixed text that repeats nothing of the message, not even the
// name.
func (m *Mailer) Compose(r Record) ([]mail.Message, error) {
	lang := m.language(r.Lang)
	data := mailData{
		Brand:         m.brand,
		ResponseHours: m.brand.ResponseHours,
		Ref:           r.Ref,
		Name:          mail.OneLine(r.Name),
		Email:         r.Email,
		Message:       mail.Quote(r.Message),
		Service:       r.Service,
		ServiceLabel:  serviceLabel(r.Service),
		Lang:          lang,
		LangLabel:     m.langNames[lang],
		ReceivedAt:    m.receivedAt(r.CreatedAt),
	}
	notify, err := mail.Render(m.notify, data)
	if err != nil {
		return nil, err
	}
	notify.Kind, notify.To, notify.ReplyTo, notify.Lang = KindNotify, m.inbox, r.Email, site.NoticeLanguage

	// In a language written right to left, the address is isolated, so
	// that the sentence keeps it whole.
	dir := m.langs.Match(lang).Dir
	brand := m.brand
	if dir == "rtl" {
		brand.Email = mail.IsolateLTR(brand.Email)
	}
	ack, err := mail.Render(m.ack[lang], ackData{Brand: brand, ResponseHours: m.brand.ResponseHours})
	if err != nil {
		return nil, err
	}
	ack.Kind, ack.To, ack.ReplyTo, ack.Lang = KindAck, r.Email, m.inbox, lang
	ack.AddHTML(dir)
	return []mail.Message{notify, ack}, nil
}

// receivedAt writes t for the notification, which is in English: in the
// consultancy's zone, with the zone's name.
func (m *Mailer) receivedAt(t time.Time) string {
	zone := m.brand.Zone
	return m.brand.Dates.FormatDateTime(site.NoticeLanguage, t.In(zone)) + ", " + m.brand.Dates.ZoneName(site.NoticeLanguage, zone.String(), t)
}

func serviceLabel(service string) string {
	switch service {
	case ServiceCustomSoftware:
		return "Custom software development"
	case ServicePlatformEngineering:
		return "Platform engineering"
	case ServiceStrategicConsulting:
		return "Strategic consulting"
	case ServiceNotSure:
		return "Not sure yet"
	}
	return "Not specified"
}

// language maps a language tag to a language of the site by its primary
// subtag ("fr-CA" is fr); anything else is the default language.
func (m *Mailer) language(tag string) string {
	return m.langs.Match(tag).Code
}
