package booking

import (
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"text/template"
	"time"

	"github.com/northbeam/site/internal/intl"
	"github.com/northbeam/site/internal/mail"
	"github.com/northbeam/site/internal/mailaddr"
	"github.com/northbeam/site/internal/site"
)

// Mail kinds, as they appear in the outbox and in logs.
const (
	KindConfirmation = "booking.confirmation" // to the visitor, with the invite
	KindNotify       = "booking.notify"       // to the consultancy
	KindCancelled    = "booking.cancelled"    // to the visitor, with the cancellation
	KindCancelNotify = "booking.cancel-notify"
	KindMoved        = "booking.moved"        // to the visitor, with the updated invite
	KindMovedNotify  = "booking.moved-notify" // to the consultancy
	KindReminder     = "booking.reminder"     // to the visitor, before the meeting
)

// Template paths inside the content file system. The visitor's mails exist
// in every language of content/site.json; the consultancy reads English.
const (
	confirmationTemplate = "mail/%s/booking-confirmation.txt"
	cancelledTemplate    = "mail/%s/booking-cancelled.txt"
	movedTemplate        = "mail/%s/booking-moved.txt"
	reminderTemplate     = "mail/%s/booking-reminder.txt"
	notifyTemplate       = "mail/en/booking-notify.txt"
	cancelNotifyTemplate = "mail/en/booking-cancel-notify.txt"
	movedNotifyTemplate  = "mail/en/booking-moved-notify.txt"
)

// Translator gives the interface strings of content/locales (site.Locales
// implements it): {{name}} placeholders are replaced from vars pairs.
type Translator interface {
	T(lang, key string, vars ...string) string
	// Plural is T of the form of key that counts n in lang ({{count}} is n).
	Plural(lang, key string, n int, vars ...string) string
}

// Brand holds the facts about the consultancy that mails and invites state.
type Brand struct {
	Name    string // "Northbeam"
	Email   string // public contact address
	BaseURL string // "https://northbeam.dev", no trailing slash
}

// mailer writes the mails of a booking from text/template files in the
// content directory. A template renders a first line "Subject: ...", a
// blank line, then the plain-text body.
type mailer struct {
	brand        Brand
	inbox        string
	texts        Translator
	reminderLead ReminderLead // when reminders come (REMINDER_HOURS)
	dates        *intl.Formatter
	localURL     func(lang, path string) string
	langs        site.Languages    // the languages of content/site.json, visitors' mails are written in
	langNames    map[string]string // each language's name in the consultancy's notices (English)
	people       func(lang, slug string) (HostProfile, bool)
	hosts        map[string]Host
	confirmation map[string]*template.Template
	cancelled    map[string]*template.Template
	moved        map[string]*template.Template
	reminder     map[string]*template.Template
	notify       *template.Template
	cancelNotify *template.Template
	movedNotify  *template.Template
}

func newMailer(content fs.FS, cfg Config) (*mailer, error) {
	if err := (mail.Message{Kind: KindNotify, To: cfg.Inbox, Subject: "-", Text: "-"}).Validate(); err != nil {
		return nil, fmt.Errorf("booking: inbox address: %w", err)
	}
	if cfg.Brand.Name == "" || cfg.Brand.Email == "" || cfg.Brand.BaseURL == "" {
		return nil, errors.New("booking: brand name, email and base URL are required")
	}
	if cfg.Texts == nil || cfg.LocalURL == nil || cfg.Dates == nil {
		return nil, errors.New("booking: texts, dates and local URLs are required")
	}
	langs, names, err := site.NoticeLanguages(content)
	if err != nil {
		return nil, fmt.Errorf("booking: %w", err)
	}
	m := &mailer{
		brand: cfg.Brand, inbox: cfg.Inbox, texts: cfg.Texts, dates: cfg.Dates, localURL: cfg.LocalURL,
		langs: langs, langNames: names, reminderLead: LeadOf(cfg.ReminderBefore),
		people: cfg.People, hosts: cfg.Availability.Hosts,
		confirmation: map[string]*template.Template{},
		cancelled:    map[string]*template.Template{},
		moved:        map[string]*template.Template{},
		reminder:     map[string]*template.Template{},
	}
	for dst, name := range map[**template.Template]string{
		&m.notify: notifyTemplate, &m.cancelNotify: cancelNotifyTemplate, &m.movedNotify: movedNotifyTemplate,
	} {
		if *dst, err = mail.ParseTemplate(content, name); err != nil {
			return nil, err
		}
	}
	for _, lang := range m.langs.Codes() {
		for _, t := range []struct {
			set  map[string]*template.Template
			name string
		}{
			{m.confirmation, confirmationTemplate}, {m.cancelled, cancelledTemplate},
			{m.moved, movedTemplate}, {m.reminder, reminderTemplate},
		} {
			if t.set[lang], err = mail.ParseTemplate(content, fmt.Sprintf(t.name, lang)); err != nil {
				return nil, err
			}
		}
	}
	return m, nil
}

// visitorMailData is all the visitor's mails (confirmation, cancellation)
// see: the booking's facts and the consultancy's, nothing the visitor
// wrote. They go to an address nobody has verified, so a name, company or
// topic in them would be text of a stranger's choosing in mail from us; a
// template that names one fails at start. Times are already formatted in
// the mail's language.
type visitorMailData struct {
	Brand        Brand
	Service      string // key
	ServiceTitle string // in the mail's language
	Minutes      int
	When         string // start in the visitor's zone
	TimeZone     string // the visitor's zone
	HostWhen     string // start in the consultancy's zone
	HostTimeZone string
	SameZone     bool // the visitor's zone shows the same wall-clock time as the consultancy's
	// PreviousWhen and HostPreviousWhen are a moved booking's previous
	// start, in the visitor's zone and in the consultancy's; "" in the
	// mails of anything but a move.
	PreviousWhen     string
	HostPreviousWhen string
	// ByStaff says that the team made the change (a move on the visitor's
	// behalf), not the visitor.
	ByStaff       bool
	CancelURL     string // the visitor's cancel page, with the cancel token
	RescheduleURL string // the page to choose another time, with the cancel token
	ScheduleURL   string // the booking page in the visitor's language
	// How the meeting happens: Meeting is "video" (MeetingURL is the room)
	// or "phone" (Phone is the number the consultancy calls, as people
	// write it), or "" when the availability says nothing.
	Meeting    string
	MeetingURL string
	Phone      string
	// Reminder says that a reminder will be mailed before the meeting;
	// ReminderSentence says when, in the mail's language ("The day
	// before, we send you a reminder by email.").
	Reminder         bool
	ReminderSentence string
	// Consultant is the name of the person who takes the call, and
	// ConsultantRole their role, in the mail's language; "" for a booking
	// without a host.
	Consultant     string
	ConsultantRole string
	// PreviousConsultant is, in the mails of a hand-over, the name of the
	// person who took the call before; "" in every other mail.
	PreviousConsultant string
}

// mailData is what the consultancy's mails (notifications) see: the
// visitor's mail data and what the visitor wrote.
type mailData struct {
	visitorMailData
	Name      string // on one line
	Email     string
	Company   string // on one line, "" when not given
	Topic     string // quoted (mail.Quote): what the visitor typed; "" when not given
	Lang      string // the visitor's language
	LangLabel string // its name in English
	CreatedAt string // when it was booked, in the consultancy's zone, named
	// CancelReason is why the visitor cancelled, as they wrote it,
	// quoted (mail.Quote); "".
	CancelReason string
}

// data is what b's mails in lang see; previous is the start b has just
// been moved from, or zero.
func (m *mailer) data(av Availability, b Booking, lang string, previous time.Time) mailData {
	visitor, err := time.LoadLocation(b.TimeZone)
	if err != nil {
		visitor = time.UTC
	}
	host := av.Location
	if host == nil {
		host = time.UTC
	}
	_, vOff := b.Start.In(visitor).Zone()
	_, hOff := b.Start.In(host).Zone()
	meeting, _ := av.MeetingOf(b.Service)
	if meeting.Kind == MeetingEither {
		// The visitor chose: the booking says which.
		meeting.Kind = MeetingPhone
		if b.MeetingURL != "" {
			meeting.Kind = MeetingVideo
		}
	}
	var consultant, consultantRole string
	if b.Host != "" {
		p := m.hostProfile(lang, b.Host)
		consultant, consultantRole = p.Name, p.Role
	}
	// In a language written right to left, the values set into sentences
	// are isolated, so that each stays whole and in its order; the links
	// stand on lines of their own.
	isolate, isolateLTR := func(s string) string { return s }, func(s string) string { return s }
	if l, _ := m.langs.Find(lang); l.Dir == "rtl" {
		isolate, isolateLTR = mail.Isolate, mail.IsolateLTR
	}
	if consultant != "" {
		consultant = isolate(mail.OneLine(consultant))
	}
	phone := ""
	if b.Phone != "" {
		phone = isolateLTR(FormatPhone(b.Phone))
	}
	brand := m.brand
	brand.Email = isolateLTR(brand.Email)
	var was, hostWas string
	if !previous.IsZero() {
		was = isolate(m.dates.FormatDateTime(lang, previous.In(visitor)))
		hostWas = isolate(m.dates.FormatDateTime(lang, previous.In(host)))
	}
	return mailData{
		visitorMailData: visitorMailData{
			Brand:            brand,
			Service:          b.Service,
			ServiceTitle:     m.serviceTitle(lang, b.Service),
			Minutes:          int(b.End.Sub(b.Start) / time.Minute),
			When:             isolate(m.dates.FormatDateTime(lang, b.Start.In(visitor))),
			TimeZone:         isolate(m.dates.ZoneName(lang, b.TimeZone, b.Start)),
			HostWhen:         isolate(m.dates.FormatDateTime(lang, b.Start.In(host))),
			HostTimeZone:     isolate(m.dates.ZoneName(lang, host.String(), b.Start)),
			SameZone:         vOff == hOff,
			PreviousWhen:     was,
			HostPreviousWhen: hostWas,
			CancelURL:        m.linkURL(b, "/schedule/cancel"),
			RescheduleURL:    m.linkURL(b, "/schedule/reschedule"),
			ScheduleURL:      m.localURL(b.Lang, "/schedule"),
			Meeting:          meeting.Kind,
			MeetingURL:       b.MeetingURL,
			Phone:            phone,
			Reminder:         b.ReminderRef != "",
			ReminderSentence: m.reminderLead.sentence(m.texts, lang),
			Consultant:       consultant,
			ConsultantRole:   mail.OneLine(consultantRole),
		},
		Name:         mail.OneLine(b.Name),
		Email:        b.Email,
		Company:      mail.OneLine(b.Company),
		Topic:        mail.Quote(b.Topic),
		Lang:         b.Lang,
		LangLabel:    m.langNames[m.language(b.Lang)],
		CreatedAt:    m.dates.FormatDateTime(lang, b.Created.In(host)) + ", " + m.dates.ZoneName(lang, host.String(), b.Created),
		CancelReason: mail.Quote(b.CancelReason),
	}
}

// hostProfile names the host slug in lang: from the team's page of the
// person in lang, else in the default language, else by the slug.
func (m *mailer) hostProfile(lang, slug string) HostProfile {
	if m.people != nil {
		if p, ok := m.people(lang, slug); ok {
			return p
		}
		if p, ok := m.people(m.langs.Default().Code, slug); ok {
			return p
		}
	}
	return HostProfile{Name: slug}
}

// hostAttendee is the host of b as its invite names them, and false for a
// booking without a host (or a host no longer configured).
func (m *mailer) hostAttendee(b Booking, lang string) (Person, bool) {
	h, ok := m.hosts[b.Host]
	if !ok || b.Host == "" {
		return Person{}, false
	}
	return Person{Name: m.hostProfile(lang, b.Host).Name, Email: h.Staff}, true
}

// visitorView is b as the mails to the visitor's address show it: without
// the name, company and topic typed, for the same reason as
// visitorMailData; their invite names the attendee by address alone. (The
// invite served at /api/bookings/<token>.ics keeps them: only whoever made
// the booking holds that token.)
func visitorView(b Booking) Booking {
	b.Name, b.Company, b.Topic = "", "", ""
	return b
}

func (m *mailer) serviceTitle(lang, service string) string {
	return m.texts.T(lang, "schedule.services."+service+".title")
}

// inviteAlarm is how long before a consultation its invite has calendars
// remind their owner.
const inviteAlarm = 30 * time.Minute

// visitorInvite is the invite of b as its visitor gets it: invite's, with
// the links to choose another time and to cancel at the end of its
// description.
func (m *mailer) visitorInvite(b Booking) Invite {
	inv := m.invite(b)
	lang := m.language(b.Lang)
	inv.Description += "\n\n" + m.texts.T(lang, "booking.invite.reschedule", "url", m.linkURL(b, "/schedule/reschedule")) +
		"\n" + m.texts.T(lang, "booking.invite.cancel", "url", m.linkURL(b, "/schedule/cancel"))
	return inv
}

// linkURL is the address of b's page at path (cancel, reschedule) in its
// visitor's language, with the cancel token, as the visitor's mails give it.
func (m *mailer) linkURL(b Booking, path string) string {
	return m.localURL(b.Lang, path) + "?token=" + url.QueryEscape(b.CancelToken)
}

// invite returns the invite texts of b in its visitor's language: how the
// meeting happens, and the topic when b has one (the consultancy's copy;
// see visitorView), and the reminder before it starts.
func (m *mailer) invite(b Booking) Invite {
	lang := m.language(b.Lang)
	minutes := fmt.Sprint(int(b.End.Sub(b.Start) / time.Minute))
	description := m.texts.T(lang, "booking.invite.description",
		"minutes", minutes, "name", m.brand.Name, "email", m.brand.Email)
	if b.Host != "" {
		p := m.hostProfile(lang, b.Host)
		description += "\n" + m.texts.T(lang, "booking.invite.host", "name", p.Name, "role", p.Role)
	}
	var location, conference string
	switch {
	case b.MeetingURL != "":
		description += "\n\n" + m.texts.T(lang, "booking.invite.video", "url", b.MeetingURL)
		location, conference = b.MeetingURL, b.MeetingURL
	case b.Phone != "":
		phone := FormatPhone(b.Phone)
		description += "\n\n" + m.texts.T(lang, "booking.invite.phone", "phone", phone)
		location = m.texts.T(lang, "booking.invite.phoneLocation", "phone", phone)
	}
	if b.Topic != "" {
		// Quoted: the visitor's lines never pass for the invite's own.
		description += "\n\n" + m.texts.T(lang, "booking.invite.topic") + "\n" + mail.Quote(b.Topic)
	}
	host := m.brand.BaseURL
	if u, err := url.Parse(m.brand.BaseURL); err == nil && u.Hostname() != "" {
		host = u.Hostname()
	}
	var team []Person
	if p, ok := m.hostAttendee(b, lang); ok {
		team = append(team, p)
	}
	return Invite{
		Team:        team,
		ProdID:      "-//" + m.brand.Name + "//Consultation booking//EN",
		Host:        host,
		Organizer:   Person{Name: m.brand.Name, Email: m.inbox},
		Summary:     m.texts.T(lang, "booking.invite.summary", "service", m.serviceTitle(lang, b.Service), "name", m.brand.Name),
		Description: description,
		Location:    location,
		Conference:  conference,
		URL:         m.localURL(lang, "/schedule"),
		Sequence:    b.Sequence,
		Alarm:       inviteAlarm,
	}
}

// confirmationMails returns the visitor's confirmation, with the visitor's
// invite attached, and the consultancy's notification, with the invite as
// the consultancy keeps it (the attendee's name and the topic).
func (m *mailer) confirmationMails(av Availability, b Booking) ([]mail.Message, error) {
	return m.pair(av, b, pairOf{m.confirmation, m.notify, KindConfirmation, KindNotify, "invite.ics", "REQUEST", ICS, time.Time{}, false, ""})
}

// cancellationMails returns the visitor's and the consultancy's
// cancellation notices, each with its invite's cancellation attached.
func (m *mailer) cancellationMails(av Availability, b Booking) ([]mail.Message, error) {
	return m.pair(av, b, pairOf{m.cancelled, m.cancelNotify, KindCancelled, KindCancelNotify, "cancellation.ics", "CANCEL", CancelICS, time.Time{}, false, ""})
}

// movedMails returns the visitor's and the consultancy's notices of a
// booking moved to its new time, each with the updated invite (same UID,
// the new SEQUENCE), which calendars apply in place of the old one; byStaff
// when the team moved it, not the visitor.
func (m *mailer) movedMails(av Availability, b Booking, previous time.Time, byStaff bool) ([]mail.Message, error) {
	return m.pair(av, b, pairOf{m.moved, m.movedNotify, KindMoved, KindMovedNotify, "invite.ics", "REQUEST", ICS, previous, byStaff, ""})
}

// pairOf is what tells one pair of mails about a booking from another: the
// visitor's templates (by language) and the consultancy's, their kinds,
// and the calendar file attached to both.
type pairOf struct {
	visitor              map[string]*template.Template
	notify               *template.Template
	visitorKind, notKind string
	filename, method     string
	calendar             func(Booking, Invite) []byte
	previous             time.Time // a move's previous start; zero for anything else
	byStaff              bool      // the team made the change
	previousHost         string    // a hand-over's previous host (slug); "" for anything else
}

// pair renders the visitor's mail, in their language and with their view of
// the invite (nothing they typed), and the consultancy's, in English with
// the invite as the consultancy keeps it.
func (m *mailer) pair(av Availability, b Booking, p pairOf) ([]mail.Message, error) {
	contentType := "text/calendar; charset=utf-8; method=" + p.method
	lang := m.language(b.Lang)
	data := m.data(av, b, lang, p.previous)
	data.ByStaff = p.byStaff
	data.PreviousConsultant = m.previousConsultant(lang, p.previousHost)
	visitor, err := m.visitorMail(p.visitor[lang], data.visitorMailData, p.visitorKind, b)
	if err != nil {
		return nil, err
	}
	vb := visitorView(b)
	visitor.Attachments = []mail.Attachment{{Filename: p.filename, ContentType: contentType, Data: p.calendar(vb, m.visitorInvite(vb))}}

	data = m.data(av, b, site.NoticeLanguage, p.previous)
	data.ByStaff = p.byStaff
	data.PreviousConsultant = m.previousConsultant(site.NoticeLanguage, p.previousHost)
	notify, err := mail.Render(p.notify, data)
	if err != nil {
		return nil, err
	}
	notify.Kind, notify.To, notify.ReplyTo, notify.Lang = p.notKind, m.inbox, b.Email, site.NoticeLanguage
	notify.Attachments = []mail.Attachment{{Filename: p.filename, ContentType: contentType, Data: p.calendar(b, m.invite(b))}}
	return append([]mail.Message{visitor}, m.withHostCopy(b, notify)...), nil
}

// withHostCopy returns the consultancy's notice about b, and for a
// booking with a host the same notice to the host's own address.
func (m *mailer) withHostCopy(b Booking, notify mail.Message) []mail.Message {
	out := []mail.Message{notify}
	if h, ok := m.hostAttendee(b, site.NoticeLanguage); ok && mailaddr.Key(h.Email) != mailaddr.Key(m.inbox) {
		own := notify
		own.To = h.Email
		out = append(out, own)
	}
	return out
}

// reminderMail returns the reminder of b to its visitor: the time in their
// zone, how the meeting happens, and the links to move or cancel it.
func (m *mailer) reminderMail(av Availability, b Booking) (mail.Message, error) {
	lang := m.language(b.Lang)
	return m.visitorMail(m.reminder[lang], m.data(av, b, lang, time.Time{}).visitorMailData, KindReminder, b)
}

// visitorMail renders a mail of kind to b's visitor from t and data, in
// their language, replies going to the consultancy, with an HTML part
// written from its text.
func (m *mailer) visitorMail(t *template.Template, data any, kind string, b Booking) (mail.Message, error) {
	msg, err := mail.Render(t, data)
	if err != nil {
		return mail.Message{}, err
	}
	lang := m.language(b.Lang)
	msg.Kind, msg.To, msg.ReplyTo, msg.Lang = kind, b.Email, m.inbox, lang
	l, _ := m.langs.Find(lang)
	msg.AddHTML(l.Dir)
	return msg, nil
}

// language returns lang if it is a language of the site, else the default
// language's code.
func (m *mailer) language(lang string) string {
	if l, ok := m.langs.Find(lang); ok {
		return l.Code
	}
	return m.langs.Default().Code
}
