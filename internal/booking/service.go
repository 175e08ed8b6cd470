package booking

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"time"

	"github.com/northbeam/site/internal/mail"
	"github.com/northbeam/site/internal/store"
)

// Config is what a Service needs besides the database and the templates.
type Config struct {
	// Availability is the consultancy's bookable time.
	Availability Availability
	// Inbox receives notifications (MAIL_TO) and organizes the meetings.
	Inbox string
	// Brand fills mails and invites.
	Brand Brand
	// Texts translates the invite's title and description and the
	// services' names (content/locales).
	Texts Translator
	// LocalURL returns the absolute URL of a page path ("/schedule") in a
	// language, with the language's prefix.
	LocalURL func(lang, path string) string
	// Now is the clock; default time.Now.
	Now func() time.Time
	// Queued, when set, is called after a commit that queued mail, e.g.
	// the mail worker's Wake.
	Queued func()
}

// Service books, finds and cancels consultations. Each booking or
// cancellation is committed with its mails in one transaction.
type Service struct {
	store  *store.Store
	mailer *mailer
	cfg    Config
}

// NewService returns a Service storing into st and writing mail from the
// templates under mail/ in content (the content directory). Every template
// is rendered once with sample data, so a broken one stops the server at
// start rather than a visitor's booking later.
func NewService(st *store.Store, content fs.FS, cfg Config) (*Service, error) {
	if cfg.Availability.Location == nil || len(cfg.Availability.Services) == 0 {
		return nil, errors.New("booking: the availability is required")
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	m, err := newMailer(content, cfg)
	if err != nil {
		return nil, err
	}
	s := &Service{store: st, mailer: m, cfg: cfg}
	now := cfg.Now().UTC().Truncate(time.Hour)
	for _, lang := range Languages() {
		for _, service := range cfg.Availability.ServiceNames() {
			sample := Booking{
				Token: NewToken(), CancelToken: NewToken(), Service: service,
				Start: now, End: now.Add(cfg.Availability.Services[service]),
				Name: "Sample Name", Email: "sample@example.com", Company: "Sample Ltd", Topic: "A sample topic.",
				TimeZone: "America/New_York", Lang: lang, Created: now, Cancelled: now,
			}
			if _, err := m.confirmationMails(cfg.Availability, sample); err != nil {
				return nil, err
			}
			if _, err := m.cancellationMails(cfg.Availability, sample); err != nil {
				return nil, err
			}
		}
	}
	return s, nil
}

// Now returns the service's current time.
func (s *Service) Now() time.Time { return s.cfg.Now() }

// Availability returns the consultancy's bookable time.
func (s *Service) Availability() Availability { return s.cfg.Availability }

// Slots returns the open slots of a validated query, leaving out the times
// that standing bookings (plus the buffer) take.
func (s *Service) Slots(ctx context.Context, q SlotsQuery) ([]Day, error) {
	av := s.cfg.Availability
	busy, err := busyDuring(ctx, s.store, Window(q.From, q.Days, q.Location).Extend(av.Buffer))
	if err != nil {
		return nil, err
	}
	return Slots(av, q.Service, s.cfg.Now(), q.From, q.Days, q.Location, busy), nil
}

// Book validates r and commits the booking with its two mails (the
// visitor's confirmation with the invite, the consultancy's notification)
// in one transaction. It returns FieldErrors when r is invalid and
// ErrSlotTaken when the time overlaps a standing booking plus the buffer;
// when it returns nil, the booking is committed. r.Lang must already be
// resolved to one of the site's languages.
func (s *Service) Book(ctx context.Context, r BookingRequest) (Booking, error) {
	r.Lang = normalizeLang(r.Lang)
	b, err := NewBooking(r, s.cfg.Availability, s.cfg.Now())
	if err != nil {
		return Booking{}, err
	}
	mails, err := s.mailer.confirmationMails(s.cfg.Availability, b)
	if err != nil {
		return Booking{}, err
	}
	err = s.store.InTx(ctx, func(tx *store.Tx) error {
		if err := insertBooking(ctx, tx, s.cfg.Availability, b); err != nil {
			return err
		}
		for _, m := range mails {
			if err := mail.Enqueue(ctx, tx, m); err != nil {
				return fmt.Errorf("booking: queue %s: %w", m.Kind, err)
			}
		}
		return nil
	})
	if err != nil {
		return Booking{}, err
	}
	s.queued()
	return b, nil
}

// Find returns the booking with token (the public one, of the invite).
func (s *Service) Find(ctx context.Context, token string) (Booking, error) {
	if !ValidToken(token) {
		return Booking{}, ErrNotFound
	}
	return findBooking(ctx, s.store, "token", token)
}

// FindByCancelToken returns the booking that cancelToken may cancel.
func (s *Service) FindByCancelToken(ctx context.Context, cancelToken string) (Booking, error) {
	if !ValidToken(cancelToken) {
		return Booking{}, ErrNotFound
	}
	return findBooking(ctx, s.store, "cancel_token", cancelToken)
}

// Cancel cancels the booking of cancelToken, frees its time and queues the
// cancellation mails, in one transaction. Cancelling a cancelled booking
// changes nothing and sends nothing: it returns the booking as it is, with
// changed false. It returns ErrNotFound for an unknown token and
// ErrStarted once the meeting has begun.
func (s *Service) Cancel(ctx context.Context, cancelToken string) (b Booking, changed bool, err error) {
	if !ValidToken(cancelToken) {
		return Booking{}, false, ErrNotFound
	}
	now := s.cfg.Now().UTC()
	err = s.store.InTx(ctx, func(tx *store.Tx) error {
		b, changed = Booking{}, false
		found, err := findBooking(ctx, tx, "cancel_token", cancelToken)
		if err != nil {
			return err
		}
		b = found
		if b.IsCancelled() {
			return nil
		}
		if !now.Before(b.Start) {
			return ErrStarted
		}
		if changed, err = markCancelled(ctx, tx, cancelToken, now); err != nil || !changed {
			return err
		}
		b.Cancelled = now.Truncate(time.Millisecond)
		mails, err := s.mailer.cancellationMails(s.cfg.Availability, b)
		if err != nil {
			return err
		}
		for _, m := range mails {
			if err := mail.Enqueue(ctx, tx, m); err != nil {
				return fmt.Errorf("booking: queue %s: %w", m.Kind, err)
			}
		}
		return nil
	})
	if err != nil {
		return Booking{}, false, err
	}
	if changed {
		s.queued()
	}
	return b, changed, nil
}

// Invite returns the invite texts of b, in its visitor's language.
func (s *Service) Invite(b Booking) Invite { return s.mailer.invite(b) }

// Calendar returns the iCalendar file of b: the invite while it stands, its
// cancellation once cancelled, so that importing the file again brings a
// calendar up to date.
func (s *Service) Calendar(b Booking) []byte {
	if b.IsCancelled() {
		return CancelICS(b, s.Invite(b))
	}
	return ICS(b, s.Invite(b))
}

func (s *Service) queued() {
	if s.cfg.Queued != nil {
		s.cfg.Queued()
	}
}
