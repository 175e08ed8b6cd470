package booking

import (
	"cmp"
	"context"
	"errors"
	"io/fs"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/northbeam/site/internal/calendar"
	"github.com/northbeam/site/internal/intl"
	"github.com/northbeam/site/internal/mail"
	"github.com/northbeam/site/internal/store"
	"github.com/northbeam/site/internal/textfield"
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
	// Dates writes the times of the mails in each language.
	Dates *intl.Formatter
	// LocalURL returns the absolute URL of a page path ("/schedule") in a
	// language, with the language's prefix.
	LocalURL func(lang, path string) string
	// Now is the clock; default time.Now.
	Now func() time.Time
	// Queued, when set, is called after a commit that queued mail, e.g.
	// the mail worker's Wake.
	Queued func()
	// Calendar, when set, is the consultancy's own busy time (its
	// calendar feeds): no slot is offered, and no booking made, over it.
	Calendar Calendar
	// ReminderBefore is how long before the start the visitor is reminded
	// (REMINDER_HOURS); a booking made later than that gets no reminder.
	// Zero means no reminders.
	ReminderBefore time.Duration
	// AddressLimit is how many standing bookings one address may hold
	// (BOOKING_DAILY_LIMIT); zero means no limit.
	AddressLimit int
	// MinFillTime is the least time a person takes to fill in the
	// details; default DefaultMinFillTime.
	MinFillTime time.Duration
	// People names the hosts in each language (content/team); when nil,
	// or for a person it does not know, a host is named by their slug.
	People func(lang, slug string) (HostProfile, bool)
}

// Calendar is the consultancy's own busy time (internal/calendar): its
// shared feeds'. A calendar that is also a MembersCalendar (a
// calendar.Source) gives each host's own.
type Calendar interface {
	Busy(window calendar.Interval) []calendar.Interval
}

// MembersCalendar is the busy time of each staff member's own feeds, by
// owner (calendar.Owner of their address).
type MembersCalendar interface {
	BusyOf(owner string, window calendar.Interval) []calendar.Interval
}

// HostProfile is how the pages and mails of a language name a host.
type HostProfile struct {
	Name string
	Role string
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
	if cfg.MinFillTime <= 0 {
		cfg.MinFillTime = DefaultMinFillTime
	}
	m, err := newMailer(content, cfg)
	if err != nil {
		return nil, err
	}
	s := &Service{store: st, mailer: m, cfg: cfg}
	now := cfg.Now().UTC().Truncate(time.Hour)
	for _, lang := range m.langs.Codes() {
		for _, service := range cfg.Availability.ServiceNames() {
			sample := Booking{
				Token: NewToken(), CancelToken: NewToken(), Service: service,
				Start: now, End: now.Add(cfg.Availability.Services[service]),
				Name: "Sample Name", Email: "sample@example.com", Company: "Sample Ltd", Topic: "A sample topic.",
				TimeZone: "America/New_York", Lang: lang, Created: now, Cancelled: now,
				Phone: "+4930901820", MeetingURL: "https://meet.example.com/sample",
			}
			if hosts := cfg.Availability.HostsOf(service); len(hosts) > 0 {
				sample.Host = hosts[0]
			}
			if _, err := m.confirmationMails(cfg.Availability, sample); err != nil {
				return nil, err
			}
			if _, err := m.cancellationMails(cfg.Availability, sample); err != nil {
				return nil, err
			}
			for _, byStaff := range []bool{false, true} {
				if _, err := m.movedMails(cfg.Availability, sample, sample.Start.Add(-time.Hour), byStaff); err != nil {
					return nil, err
				}
			}
			if _, err := m.reminderMail(cfg.Availability, sample); err != nil {
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
// that standing bookings and the consultancy's calendars take (plus the
// buffer), and the days on which a service has all the bookings it takes.
//
// For a service with hosts, a time is offered when at least one host (the
// query's person alone, when it names one) is free then: within their
// hours, clear of their bookings, their own calendars and the
// consultancy's.
func (s *Service) Slots(ctx context.Context, q SlotsQuery) ([]Day, error) {
	av := s.cfg.Availability
	window := Window(q.From, q.Days, q.Location).Extend(av.Buffer)
	hosts := av.HostsOf(q.Service)
	if q.Person != "" {
		hosts = []string{q.Person}
	}
	// What takes every host's time alike is read once: the consultancy's
	// calendars, and the service's bookings of the days, from which each
	// host's days at the service's cap are found.
	full, err := s.fullDays(ctx, s.store, q.Service, hosts, window)
	if err != nil {
		return nil, err
	}
	common := s.calendarBusy("", window)
	now := s.cfg.Now()
	if !av.HasHosts(q.Service) {
		booked, err := busyDuring(ctx, s.store, window, "")
		if err != nil {
			return nil, err
		}
		return Slots(av, q.Service, now, q.From, q.Days, q.Location, append(append(booked, common...), full[""]...)), nil
	}
	booked, err := hostedDuring(ctx, s.store, window)
	if err != nil {
		return nil, err
	}
	var days []Day
	for _, h := range hosts {
		busy := append(append(slices.Clone(common), full[h]...), s.memberBusy(h, window)...)
		for _, b := range booked {
			if b.host == h || b.host == "" {
				busy = append(busy, b.Interval)
			}
		}
		days = mergeDays(days, Slots(av.ForHost(h), q.Service, now, q.From, q.Days, q.Location, busy))
	}
	return days, nil
}

// fullDays returns the days of the consultancy, within window, on which
// service has all the standing bookings it takes (its maxPerDay), as whole
// days of busy time, by host: for a service with hosts, the cap is each
// host's, so a host's days are full with their own bookings of the
// service and those without a host (booked before it had hosts, which
// took everyone's time), for each of hosts; for a service without hosts,
// under "", the service's bookings all together. None for a service
// without a cap.
func (s *Service) fullDays(ctx context.Context, q store.Querier, service string, hosts []string, window Interval) (map[string][]Interval, error) {
	av := s.cfg.Availability
	limit, ok := av.MaxPerDay[service]
	if !ok {
		return nil, nil
	}
	first, last := DateOf(window.Start.In(av.Location)), DateOf(window.End.In(av.Location))
	span := Interval{Start: first.In(av.Location), End: last.AddDays(1).In(av.Location)}
	starts, err := serviceStarts(ctx, q, service, span)
	if err != nil {
		return nil, err
	}
	type hostDay struct {
		host string
		day  Date
	}
	hosted := av.HasHosts(service)
	count := map[hostDay]int{}
	days := map[Date]bool{}
	for _, b := range starts {
		d := DateOf(b.start.In(av.Location))
		if !hosted {
			b.host = ""
		}
		count[hostDay{b.host, d}]++
		days[d] = true
	}
	if !hosted {
		hosts = []string{""}
	}
	full := map[string][]Interval{}
	for d := range days {
		for _, h := range hosts {
			n := count[hostDay{h, d}]
			if h != "" {
				n += count[hostDay{"", d}]
			}
			if n >= limit {
				full[h] = append(full[h], Window(d, 1, av.Location))
			}
		}
	}
	return full, nil
}

// calendarBusy is the consultancy's calendar time within window, and the
// host's own (host "": the consultancy's alone).
func (s *Service) calendarBusy(host string, window Interval) []Interval {
	if s.cfg.Calendar == nil {
		return nil
	}
	return append(intervals(s.cfg.Calendar.Busy(calendar.Interval{Start: window.Start, End: window.End})), s.memberBusy(host, window)...)
}

// memberBusy is the busy time of host's own calendars within window.
func (s *Service) memberBusy(host string, window Interval) []Interval {
	members, ok := s.cfg.Calendar.(MembersCalendar)
	h, known := s.cfg.Availability.Host(host)
	if !ok || !known {
		return nil
	}
	return intervals(members.BusyOf(calendar.Owner(h.Staff), calendar.Interval{Start: window.Start, End: window.End}))
}

func intervals(in []calendar.Interval) []Interval {
	out := make([]Interval, 0, len(in))
	for _, iv := range in {
		out = append(out, Interval{Start: iv.Start, End: iv.End})
	}
	return out
}

// ErrSpam is returned by Book for a request that looks sent by a program
// (see [BookingRequest.SpamReason]) with a booking that is not stored and
// takes no time: the caller answers it as it would a person, so that the
// program learns nothing, and nothing is mailed to the address it gave.
var ErrSpam = errors.New("booking: the request looks automated")

// Book validates r and commits the booking with its mails (the visitor's
// confirmation with the invite, the consultancy's notification, and the
// reminder waiting for its time) in one transaction. It returns
// FieldErrors when r is invalid; ErrSlotTaken when the time overlaps a
// standing booking or the consultancy's calendar, plus the buffer;
// ErrAddressLimit or ErrDayFull when a limit is reached; and ErrSpam with
// a booking that was not stored. When it returns nil, the booking is
// committed. r.Lang must already be resolved to one of the site's
// languages.
func (s *Service) Book(ctx context.Context, r BookingRequest) (Booking, error) {
	return s.book(ctx, r, "", nil)
}

// book is Book, for a visitor (by "") or by the staff member by, for whom
// the time trap does not apply; also, when not nil, runs in the
// transaction.
func (s *Service) book(ctx context.Context, r BookingRequest, by string, also func(context.Context, *store.Tx, Booking) error) (Booking, error) {
	r.Lang = s.mailer.language(r.Lang)
	now := s.cfg.Now()
	av := s.cfg.Availability
	b, err := NewBooking(r, av, now)
	if err != nil {
		return Booking{}, err
	}
	b.BookedBy = by
	if by == "" && r.SpamReason(now, s.cfg.MinFillTime) != "" {
		return b, ErrSpam
	}
	person := strings.TrimSpace(r.Person)
	err = s.store.InTx(ctx, func(tx *store.Tx) error {
		if err := lockBookings(ctx, tx); err != nil {
			return err
		}
		host, err := s.assign(ctx, tx, b, person, now)
		if err != nil {
			return err
		}
		b.Host = host
		if s.cfg.AddressLimit > 0 {
			n, err := standingFor(ctx, tx, b.Email, now)
			if err != nil {
				return err
			}
			if n >= s.cfg.AddressLimit {
				return ErrAddressLimit
			}
		}
		// The mails name the host, known only now.
		reminder, err := s.scheduleReminder(&b, now)
		if err != nil {
			return err
		}
		mails, err := s.mailer.confirmationMails(av, b)
		if err != nil {
			return err
		}
		if err := insertBooking(ctx, tx, av, b); err != nil {
			return err
		}
		return then(ctx, tx, enqueue(ctx, tx, b.Token, append(mails, reminder...)), b, also)
	})
	if err != nil {
		return Booking{}, err
	}
	s.queued()
	return b, nil
}

// assign returns the host of b, inside the transaction that holds the
// bookings' lock, so that no other instance gives the same host's time
// away meanwhile: person when named and free; otherwise, among the
// service's hosts whose hours offer b's time and who are free then, the
// one booked least recently (the file's order among those never booked).
// It returns "" for a service without hosts once b's time is free, and
// ErrSlotTaken (or ErrDayFull) when no host is free.
func (s *Service) assign(ctx context.Context, tx *store.Tx, b Booking, person string, now time.Time) (string, error) {
	av := s.cfg.Availability
	if !av.HasHosts(b.Service) {
		return "", s.checkFree(ctx, tx, b, "")
	}
	hosts := av.HostsOf(b.Service)
	if person != "" {
		hosts = []string{person}
	} else {
		last, err := lastBooked(ctx, tx, hosts)
		if err != nil {
			return "", err
		}
		hosts = slices.Clone(hosts)
		slices.SortStableFunc(hosts, func(a, b string) int {
			return cmp.Compare(last[a], last[b]) // never booked: 0, first
		})
	}
	// The day is full only when every host whose hours offer the time
	// has their most bookings of the service that day; a host busy then
	// makes it a time taken.
	refusal := error(nil)
	for _, h := range hosts {
		if _, ok := Offered(av.ForHost(h), b.Service, b.Start, now, nil); !ok {
			continue
		}
		b.Host = h
		err := s.checkFree(ctx, tx, b, "")
		switch {
		case err == nil:
			return h, nil
		case errors.Is(err, ErrSlotTaken):
			refusal = ErrSlotTaken
		case errors.Is(err, ErrDayFull):
			if refusal == nil {
				refusal = ErrDayFull
			}
		default:
			return "", err
		}
	}
	if refusal == nil {
		refusal = ErrSlotTaken
	}
	return "", refusal
}

// FreeHosts returns the hosts of service, other than except, whose hours
// offer start and who are free then: whom a visitor who lost a time to
// another may still book it with.
func (s *Service) FreeHosts(ctx context.Context, service string, start time.Time, except string) ([]string, error) {
	av := s.cfg.Availability
	var free []string
	now := s.cfg.Now()
	for _, h := range av.HostsOf(service) {
		if h == except {
			continue
		}
		slot, ok := Offered(av.ForHost(h), service, start, now, nil)
		if !ok {
			continue
		}
		err := s.checkFree(ctx, s.store, Booking{Service: service, Start: slot.Start, End: slot.End, Host: h}, "")
		switch {
		case err == nil:
			free = append(free, h)
		case !errors.Is(err, ErrSlotTaken) && !errors.Is(err, ErrDayFull):
			return nil, err
		}
	}
	return free, nil
}

// HostProfile returns how lang names the host slug: their name and role
// from content/team, or their slug when the team does not know them.
func (s *Service) HostProfile(lang, slug string) HostProfile {
	return s.mailer.hostProfile(lang, slug)
}

// lockBookings makes the transaction the only one changing bookings until
// it ends, across every instance, so that the limits counted in it hold.
// SQLite's write lock already does; PostgreSQL takes an advisory lock.
func lockBookings(ctx context.Context, tx *store.Tx) error {
	if tx.Backend() != store.Postgres {
		return nil
	}
	_, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(hashtext('northbeam.bookings'))`)
	return err
}

// checkFree returns ErrSlotTaken when b's time, plus the buffer, meets a
// standing booking (but the one whose token is except) or the
// consultancy's calendar, and ErrDayFull when b's service is at its cap on
// b's day: b's host's cap, for a service with hosts (see fullDays).
func (s *Service) checkFree(ctx context.Context, tx store.Querier, b Booking, except string) error {
	av := s.cfg.Availability
	busy, err := hostBusyDuring(ctx, tx, b.Host, b.Interval().Extend(av.Buffer), except)
	if err != nil {
		return err
	}
	if Conflicts(av, b.Interval(), append(busy, s.calendarBusy(b.Host, b.Interval().Extend(av.Buffer))...)) {
		return ErrSlotTaken
	}
	if limit, ok := av.MaxPerDay[b.Service]; ok {
		host := b.Host
		if !av.HasHosts(b.Service) {
			host = ""
		}
		n, err := bookedOn(ctx, tx, b.Service, host, Window(DateOf(b.Start.In(av.Location)), 1, av.Location), except)
		if err != nil {
			return err
		}
		if n >= limit {
			return ErrDayFull
		}
	}
	return nil
}

// scheduleReminder returns the reminder of b, held back until
// ReminderBefore its start, and records its reference in b; nothing when
// the start is nearer than that.
func (s *Service) scheduleReminder(b *Booking, now time.Time) ([]mail.Message, error) {
	b.ReminderRef = ""
	if s.cfg.ReminderBefore <= 0 || !b.Start.Add(-s.cfg.ReminderBefore).After(now) {
		return nil, nil
	}
	m, err := s.mailer.reminderMail(s.cfg.Availability, *b)
	if err != nil {
		return nil, err
	}
	m.Ref = uuid.NewString()
	m.NotBefore = b.Start.Add(-s.cfg.ReminderBefore)
	b.ReminderRef = m.Ref
	return []mail.Message{m}, nil
}

// then runs also (when not nil) on b inside tx, after a step that did not
// fail (err nil).
func then(ctx context.Context, tx *store.Tx, err error, b Booking, also func(context.Context, *store.Tx, Booking) error) error {
	if err != nil || also == nil {
		return err
	}
	return also(ctx, tx, b)
}

// Reschedule moves the booking of cancelToken to start, in one
// transaction: the new time is taken and the old one freed together, the
// invite is sent again to the visitor and the consultancy (same UID,
// SEQUENCE one higher) and the reminder follows the new time. It returns
// ErrNotFound for an unknown token; FieldErrors when start is not a time;
// ErrSlotTaken when the new time is not offered or not free; ErrCancelled,
// ErrStarted or ErrTooLate when the booking cannot move any more; and
// ErrDayFull when the new day is at its cap. Moving a booking to its own
// time changes nothing.
func (s *Service) Reschedule(ctx context.Context, cancelToken, start string) (Booking, error) {
	return s.reschedule(ctx, cancelToken, start, false, nil)
}

// reschedule is Reschedule, made by the team when byStaff (the mails say
// so); also, when not nil, runs in the transaction of a move (not of a
// move to the same time, which changes nothing).
func (s *Service) reschedule(ctx context.Context, cancelToken, start string, byStaff bool,
	also func(context.Context, *store.Tx, Booking) error) (Booking, error) {
	if !ValidToken(cancelToken) {
		return Booking{}, ErrNotFound
	}
	at, err := time.Parse(time.RFC3339, strings.TrimSpace(start))
	if err != nil {
		return Booking{}, FieldErrors{"start": KeyStart}
	}
	av := s.cfg.Availability
	now := s.cfg.Now().UTC()
	var b Booking
	err = s.store.InTx(ctx, func(tx *store.Tx) error {
		if err := lockBookings(ctx, tx); err != nil {
			return err
		}
		found, err := findBooking(ctx, tx, "cancel_token", cancelToken)
		if err != nil {
			return err
		}
		b = found
		switch {
		case b.IsCancelled():
			return ErrCancelled
		case !now.Before(b.Start):
			return ErrStarted
		case now.Add(av.MinimumNotice).After(b.Start):
			return ErrTooLate
		case b.Start.Equal(at.UTC()):
			return nil
		}
		slot, ok := Offered(av.ForHost(b.Host), b.Service, at, now, nil)
		if !ok {
			return ErrSlotTaken
		}
		oldReminder, previous := b.ReminderRef, b.Start
		b.Start, b.End = slot.Start, slot.End
		b.Sequence++
		b.Updated = now.Truncate(time.Millisecond)
		if err := s.checkFree(ctx, tx, b, b.Token); err != nil {
			return err
		}
		if oldReminder != "" {
			if _, err := mail.Withdraw(ctx, tx, oldReminder); err != nil {
				return err
			}
		}
		reminder, err := s.scheduleReminder(&b, now)
		if err != nil {
			return err
		}
		if err := moveBooking(ctx, tx, av, b); err != nil {
			return err
		}
		mails, err := s.mailer.movedMails(av, b, previous, byStaff)
		if err != nil {
			return err
		}
		return then(ctx, tx, enqueue(ctx, tx, b.Token, append(mails, reminder...)), b, also)
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
	return s.CancelWithReason(ctx, cancelToken, "")
}

// CancelWithReason is Cancel with why the visitor cancels, in their words
// ("" for nothing said): kept with the booking for the consultancy, and
// told in its notice. A reason of more than MaxCancelReasonLength
// characters, or with control characters other than line breaks, is
// FieldErrors{"reason": KeyCancelReason}.
func (s *Service) CancelWithReason(ctx context.Context, cancelToken, reason string) (b Booking, changed bool, err error) {
	if !ValidToken(cancelToken) {
		return Booking{}, false, ErrNotFound
	}
	reason = strings.TrimSpace(textfield.Clean(reason))
	if utf8.RuneCountInString(reason) > MaxCancelReasonLength || hasControl(reason, true) {
		return Booking{}, false, FieldErrors{"reason": KeyCancelReason}
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
		if changed, err = markCancelled(ctx, tx, cancelToken, now, reason); err != nil || !changed {
			return err
		}
		b.CancelReason = reason
		if b.ReminderRef != "" {
			if _, err := mail.Withdraw(ctx, tx, b.ReminderRef); err != nil {
				return err
			}
			b.ReminderRef = ""
		}
		b.Cancelled = now.Truncate(time.Millisecond)
		mails, err := s.mailer.cancellationMails(s.cfg.Availability, b)
		if err != nil {
			return err
		}
		return enqueue(ctx, tx, b.Token, mails)
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
func (s *Service) Invite(b Booking) Invite { return s.mailer.visitorInvite(b) }

// ICSFile returns the iCalendar file of b to import (FileICS): the event
// while it stands, its cancellation once cancelled, so that importing the
// file again brings a calendar up to date.
func (s *Service) ICSFile(b Booking) []byte {
	return FileICS(b, s.Invite(b))
}

func (s *Service) queued() {
	if s.cfg.Queued != nil {
		s.cfg.Queued()
	}
}
