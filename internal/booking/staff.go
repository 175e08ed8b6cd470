package booking

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"text/template"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/northbeam/site/internal/site"

	"github.com/northbeam/site/internal/mail"
	"github.com/northbeam/site/internal/store"
)

// Mail kinds of a cancellation by staff.
const (
	KindStaffCancelled    = "booking.cancelled-by-staff" // to the visitor, with the cancellation
	KindStaffCancelNotify = "booking.staff-cancel-notify"
)

// Templates of a cancellation by staff: the visitor's in every language,
// the consultancy's in English.
const (
	staffCancelledTemplate    = "mail/%s/booking-cancelled-by-staff.txt"
	staffCancelNotifyTemplate = "mail/en/booking-staff-cancel-notify.txt"
)

// ReasonMax bounds the reason staff give for a cancellation, in characters.
const ReasonMax = 500

// Refusals of a cancellation by staff, beyond ErrNotFound and ErrStarted.
var (
	// ErrCancelledAlready means the booking was cancelled before.
	ErrCancelledAlready = errors.New("booking: already cancelled")
	// ErrReason means the reason is empty, too long, or holds characters a
	// mail cannot carry.
	ErrReason = errors.New("booking: a reason of 1 to 500 characters is required")
)

// StaffCancellation cancels bookings on a visitor's behalf, for the staff
// workspace: the visitor is told why, in their language, with the
// invite's cancellation (METHOD:CANCEL), and the consultancy is told too.
type StaffCancellation struct {
	svc     *Service
	visitor map[string]*template.Template
	notify  *template.Template
}

// staffCancelData is what the visitor's mail sees: the visitor's mail data
// (nothing the visitor typed) and the reason staff wrote.
type staffCancelData struct {
	visitorMailData
	Reason string
}

// staffCancelNotifyData is what the consultancy's copy sees.
type staffCancelNotifyData struct {
	mailData
	Reason string
	By     string // the staff member's address
}

// NewStaffCancellation returns the cancellation by staff of svc's
// bookings, with its templates from content; each is rendered once, so
// that a broken one stops the start.
func NewStaffCancellation(svc *Service, content fs.FS) (*StaffCancellation, error) {
	c := &StaffCancellation{svc: svc, visitor: map[string]*template.Template{}}
	var err error
	if c.notify, err = mail.ParseTemplate(content, staffCancelNotifyTemplate); err != nil {
		return nil, err
	}
	for _, lang := range svc.mailer.langs.Codes() {
		if c.visitor[lang], err = mail.ParseTemplate(content, fmt.Sprintf(staffCancelledTemplate, lang)); err != nil {
			return nil, err
		}
	}
	now := svc.cfg.Now().UTC().Truncate(time.Hour)
	for _, lang := range svc.mailer.langs.Codes() {
		for _, service := range svc.cfg.Availability.ServiceNames() {
			sample := Booking{
				Token: NewToken(), CancelToken: NewToken(), Service: service,
				Start: now, End: now.Add(svc.cfg.Availability.Services[service]),
				Name: "Sample Name", Email: "sample@example.com", Company: "Sample Ltd", Topic: "A sample topic.",
				TimeZone: "America/New_York", Lang: lang, Created: now, Cancelled: now,
			}
			if _, err := c.mails(sample, "A sample reason.", "staff@example.com"); err != nil {
				return nil, err
			}
		}
	}
	return c, nil
}

// mails returns the visitor's notice with the invite's cancellation, and
// the consultancy's copy.
func (c *StaffCancellation) mails(b Booking, reason, by string) ([]mail.Message, error) {
	const contentType = "text/calendar; charset=utf-8; method=CANCEL"
	m, av := c.svc.mailer, c.svc.cfg.Availability
	lang := m.language(b.Lang)
	visitor, err := m.visitorMail(c.visitor[lang], staffCancelData{visitorMailData: m.data(av, b, lang, time.Time{}).visitorMailData, Reason: reason}, KindStaffCancelled, b)
	if err != nil {
		return nil, err
	}
	vb := visitorView(b)
	visitor.Attachments = []mail.Attachment{{Filename: "cancellation.ics", ContentType: contentType, Data: CancelICS(vb, m.visitorInvite(vb))}}

	notify, err := mail.Render(c.notify, staffCancelNotifyData{mailData: m.data(av, b, site.NoticeLanguage, time.Time{}), Reason: reason, By: by})
	if err != nil {
		return nil, err
	}
	notify.Kind, notify.To, notify.ReplyTo, notify.Lang = KindStaffCancelNotify, m.inbox, b.Email, site.NoticeLanguage
	notify.Attachments = []mail.Attachment{{Filename: "cancellation.ics", ContentType: contentType, Data: CancelICS(b, m.invite(b))}}
	return append([]mail.Message{visitor}, m.withHostCopy(b, notify)...), nil
}

// CleanReason trims a reason and reports whether it is one: 1 to ReasonMax
// characters, line breaks allowed, no other control character.
func CleanReason(reason string) (string, bool) {
	reason = strings.TrimSpace(strings.ReplaceAll(strings.ReplaceAll(reason, "\r\n", "\n"), "\r", "\n"))
	n := utf8.RuneCountInString(reason)
	ok := n >= 1 && n <= ReasonMax && utf8.ValidString(reason) &&
		strings.IndexFunc(reason, func(r rune) bool { return unicode.IsControl(r) && r != '\n' && r != '\t' }) < 0
	return reason, ok
}

// Cancel cancels the standing booking with id before it begins, frees its
// time and queues the two mails, in one transaction; also, when not nil,
// runs in that transaction too (the workspace's audit entry). It returns
// ErrNotFound, ErrCancelledAlready, ErrStarted or ErrReason.
func (c *StaffCancellation) Cancel(ctx context.Context, id int64, reason, by string,
	also func(ctx context.Context, tx *store.Tx, b Booking) error) (Booking, error) {
	reason, ok := CleanReason(reason)
	if !ok {
		return Booking{}, ErrReason
	}
	now := c.svc.cfg.Now().UTC()
	var b Booking
	err := c.svc.store.InTx(ctx, func(tx *store.Tx) error {
		found, err := FindByID(ctx, tx, id)
		if err != nil {
			return err
		}
		b = found
		switch {
		case b.IsCancelled():
			return ErrCancelledAlready
		case !now.Before(b.Start):
			return ErrStarted
		}
		changed, err := markCancelled(ctx, tx, b.CancelToken, now, "")
		if err != nil {
			return err
		}
		if !changed {
			return ErrCancelledAlready
		}
		b.Cancelled = now.Truncate(time.Millisecond)
		mails, err := c.mails(b, reason, by)
		if err != nil {
			return err
		}
		if err := enqueueFor(ctx, tx, id, mails); err != nil {
			return err
		}
		if also != nil {
			return also(ctx, tx, b)
		}
		return nil
	})
	if err != nil {
		return Booking{}, err
	}
	c.svc.queued()
	return b, nil
}

// FindByID returns the booking with the row id that staff see, or
// ErrNotFound.
func FindByID(ctx context.Context, q store.Querier, id int64) (Booking, error) {
	var token string
	err := q.QueryRowContext(ctx, `SELECT token FROM bookings WHERE id = ?`, id).Scan(&token)
	if errors.Is(err, sql.ErrNoRows) {
		return Booking{}, ErrNotFound
	}
	if err != nil {
		return Booking{}, fmt.Errorf("booking: find: %w", err)
	}
	return findBooking(ctx, q, "token", token)
}
