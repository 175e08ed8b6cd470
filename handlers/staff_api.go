package handlers

import (
	"context"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/northbeam/site/internal/booking"
	"github.com/northbeam/site/internal/mailaddr"
	"github.com/northbeam/site/internal/staff"
)

// The staff workspace's JSON API behind the session: the member's account,
// the inbox, the agenda, troubled mail, the audit log and privacy
// requests. registerStaff lists the routes. Times are RFC 3339 UTC; the
// pages show them in the consultancy's zone.

// member returns the signed-in session (private has checked there is one).
func (h *staffHandlers) member(c echo.Context) staff.Session {
	s, _ := c.Get(staffSessionKey).(staff.Session)
	return s
}

// optionalTime is a time for JSON, null when zero.
func optionalTime(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	return &t
}

// ---- Inbox ----

type staffMessage struct {
	Ref        string     `json:"ref"`
	Received   time.Time  `json:"received"`
	Name       string     `json:"name"`
	Email      string     `json:"email"`
	Text       string     `json:"text"`
	Service    string     `json:"service"`
	Lang       string     `json:"lang"`
	Handled    *time.Time `json:"handled"`
	Folder     string     `json:"folder"`
	SpamReason string     `json:"spamReason"`
	Read       bool       `json:"read"`
}

func messageView(m staff.Message) staffMessage {
	return staffMessage{Ref: m.Ref, Received: m.Received, Name: m.Name, Email: m.Email, Text: m.Text, Service: m.Service,
		Lang: m.Lang, Handled: optionalTime(m.Handled), Folder: m.Folder(), SpamReason: m.SpamReason, Read: !m.Read.IsZero()}
}

type staffMessages struct {
	Messages []staffMessage `json:"messages"`
	Next     string         `json:"next"`
	Counts   map[string]int `json:"counts"`
}

func (h *staffHandlers) messages(c echo.Context) error {
	ctx := c.Request().Context()
	folder := c.QueryParam("folder")
	if folder == "" {
		folder = staff.FolderNew
	}
	if !staff.ValidFolder(folder) {
		return h.failStatus(c, http.StatusBadRequest)
	}
	page, err := h.srv.Staff.Messages(ctx, staff.MessageQuery{Folder: folder, Search: c.QueryParam("q"), After: c.QueryParam("after")})
	if err != nil {
		return h.refusal(c, err)
	}
	counts, err := h.srv.Staff.FolderCounts(ctx)
	if err != nil {
		return h.failure(c, err)
	}
	out := staffMessages{Messages: []staffMessage{}, Next: page.Next, Counts: counts}
	for _, m := range page.Messages {
		out.Messages = append(out.Messages, messageView(m))
	}
	return c.JSON(http.StatusOK, out)
}

func (h *staffHandlers) message(c echo.Context) error {
	m, err := h.srv.Staff.Message(c.Request().Context(), c.Param("ref"))
	return h.answerMessage(c, m, err)
}

func (h *staffHandlers) setHandled(c echo.Context) error {
	var body struct {
		Handled bool `json:"handled"`
	}
	if err := decodeJSON(c, staffBodyLimit, &body); err != nil {
		return err
	}
	m, err := h.srv.Staff.SetHandled(c.Request().Context(), c.Param("ref"), body.Handled, h.member(c).Member.Email)
	return h.answerMessage(c, m, err)
}

func (h *staffHandlers) notSpam(c echo.Context) error {
	return h.fileMessage(c, h.srv.Staff.NotSpam)
}

func (h *staffHandlers) markSpam(c echo.Context) error {
	return h.fileMessage(c, h.srv.Staff.MarkSpam)
}

// answerMessage answers the workspace's reading of or change to a message:
// its refusal, or the message as it now stands.
func (h *staffHandlers) answerMessage(c echo.Context, m staff.Message, err error) error {
	if err != nil {
		return h.refusal(c, err)
	}
	return c.JSON(http.StatusOK, map[string]staffMessage{"message": messageView(m)})
}

// fileMessage answers a move of the message of the path's ref to another
// folder by file.
func (h *staffHandlers) fileMessage(c echo.Context, file func(ctx context.Context, ref, actor string) (staff.Message, error)) error {
	m, err := file(c.Request().Context(), c.Param("ref"), h.member(c).Member.Email)
	return h.answerMessage(c, m, err)
}

// ---- Agenda ----

type staffBooking struct {
	ID        int64      `json:"id"`
	Service   string     `json:"service"`
	Start     time.Time  `json:"start"`
	End       time.Time  `json:"end"`
	Name      string     `json:"name"`
	Email     string     `json:"email"`
	Company   string     `json:"company"`
	Topic     string     `json:"topic"`
	Phone     string     `json:"phone"`   // as people write it; "" when not a call
	Meeting   string     `json:"meeting"` // the video room; "" when not a video call
	TimeZone  string     `json:"timeZone"`
	Lang      string     `json:"lang"`
	Created   time.Time  `json:"created"`
	Cancelled *time.Time `json:"cancelled"`
	// CancelReason is why the visitor cancelled, in their words; "".
	CancelReason string     `json:"cancelReason"`
	Status       string     `json:"status"`
	BookedBy     string     `json:"bookedBy"` // the staff member who booked it for a caller; "" when the visitor did
	NoShow       *time.Time `json:"noShow"`
	Host         string     `json:"host"` // the slug of the person who takes the call (GET /staff/api/hosts names them); ""
}

func (h *staffHandlers) bookingView(b staff.Booking) staffBooking {
	return staffBooking{ID: b.ID, Service: b.Service, Start: b.Start, End: b.End, Name: b.Name, Email: b.Email,
		Company: b.Company, Topic: b.Topic, Phone: formatPhone(b.Phone), Meeting: b.Meeting, TimeZone: b.TimeZone, Lang: b.Lang, Created: b.Created,
		Cancelled: optionalTime(b.Cancelled), CancelReason: b.CancelReason, Status: b.Status(h.srv.Staff.Now()), BookedBy: b.BookedBy, NoShow: optionalTime(b.NoShow), Host: b.Host}
}

// formatPhone writes a stored number as people read it.
func formatPhone(e164 string) string {
	if e164 == "" {
		return ""
	}
	return booking.FormatPhone(e164)
}

type staffDay struct {
	Date     string         `json:"date"`
	Bookings []staffBooking `json:"bookings"`
}

type staffBookings struct {
	View     string         `json:"view"`
	Days     []staffDay     `json:"days,omitempty"`
	Bookings []staffBooking `json:"bookings,omitempty"`
	Next     string         `json:"next"` // the cursor of the next page (?after=), "" after the last
	Counts   map[string]int `json:"counts"`
}

// bookings answers a page of a view of the agenda (?view=, ?q= to search,
// ?host= for one host's, "mine" for the member's, ?after= for the page
// after): the upcoming ones grouped by day, the
// others, and a search's matches, as a list. A day cut by the end of a
// page goes on in the next.
func (h *staffHandlers) bookings(c echo.Context) error {
	ctx := c.Request().Context()
	ws := h.srv.Staff
	view := c.QueryParam("view")
	if view == "" {
		view = staff.ViewUpcoming
	}
	if !staff.ValidView(view) {
		return h.failStatus(c, http.StatusBadRequest)
	}
	host, none, ok := h.bookingsHost(c)
	if !ok {
		return h.failStatus(c, http.StatusBadRequest)
	}
	var page staff.BookingPage
	if !none { // "my bookings" of a member who is no host: none
		var err error
		page, err = ws.Bookings(ctx, staff.BookingQuery{View: view, Search: c.QueryParam("q"), After: c.QueryParam("after"), Host: host})
		if err != nil {
			return h.refusal(c, err)
		}
	}
	// The tabs count what the lists hold: one host's bookings beside their
	// lists, none for "my bookings" of a member who is no host.
	counts := map[string]int{staff.ViewUpcoming: 0, staff.ViewPast: 0, staff.ViewCancelled: 0}
	if !none {
		var err error
		if counts, err = ws.BookingCounts(ctx, host); err != nil {
			return h.failure(c, err)
		}
	}
	out := staffBookings{View: view, Next: page.Next, Counts: counts}
	if view == staff.ViewUpcoming && !page.Searched {
		out.Days = []staffDay{}
		for _, d := range ws.GroupByDay(page.Bookings) {
			day := staffDay{Date: d.Date}
			for _, b := range d.Bookings {
				day.Bookings = append(day.Bookings, h.bookingView(b))
			}
			out.Days = append(out.Days, day)
		}
		return c.JSON(http.StatusOK, out)
	}
	out.Bookings = []staffBooking{}
	for _, b := range page.Bookings {
		out.Bookings = append(out.Bookings, h.bookingView(b))
	}
	return c.JSON(http.StatusOK, out)
}

func (h *staffHandlers) booking(c echo.Context) error {
	return h.withID(c, nil, func(ctx context.Context, id int64) error {
		b, err := h.srv.Staff.Booking(ctx, id)
		return h.answerBooking(c, b, err)
	})
}

// answerBooking answers one booking as the workspace read or changed it,
// or the workspace's refusal (err).
func (h *staffHandlers) answerBooking(c echo.Context, b staff.Booking, err error) error {
	if err != nil {
		return h.refusal(c, err)
	}
	return c.JSON(http.StatusOK, map[string]staffBooking{"booking": h.bookingView(b)})
}

// ---- Mail ----

type staffMail struct {
	Ref         string     `json:"ref"`
	Kind        string     `json:"kind"`
	To          string     `json:"to"`
	Subject     string     `json:"subject"`
	State       string     `json:"state"`
	Attempts    int        `json:"attempts"`
	LastError   string     `json:"lastError"`
	Reason      string     `json:"reason,omitempty"`
	Created     time.Time  `json:"created"`
	NextAttempt time.Time  `json:"nextAttempt"`
	Sent        *time.Time `json:"sent"`
}

func mailView(m staff.Mail) staffMail {
	return staffMail{Ref: m.Ref, Kind: m.Kind, To: m.To, Subject: m.Subject, State: m.State, Attempts: m.Attempts,
		LastError: m.LastError, Reason: m.Reason, Created: m.Created, NextAttempt: m.NextAttempt, Sent: optionalTime(m.Sent)}
}

// troubledMail answers a page of the mail that could not be sent yet and
// a page of the whole outbox, each newest first, with the cursors of the
// pages after them (mailNext, next): ?troubledBefore=<ref> answers the
// troubled mail's page after ref alone, ?before=<ref> the outbox's.
func (h *staffHandlers) troubledMail(c echo.Context) error {
	ctx := c.Request().Context()
	ws := h.srv.Staff
	out := struct {
		Mail     []staffMail `json:"mail"`
		MailNext string      `json:"mailNext"`
		Outbox   []staffMail `json:"outbox"`
		Next     string      `json:"next"`
	}{Mail: []staffMail{}, Outbox: []staffMail{}}
	before, troubledBefore := c.QueryParam("before"), c.QueryParam("troubledBefore")
	if before == "" {
		mails, err := ws.TroubledMail(ctx, troubledBefore)
		if err != nil {
			return h.refusal(c, err)
		}
		for _, m := range mails.Mail {
			out.Mail = append(out.Mail, mailView(m))
		}
		out.MailNext = mails.Next
	}
	if troubledBefore == "" {
		recent, err := ws.RecentMail(ctx, before)
		if err != nil {
			return h.refusal(c, err)
		}
		for _, m := range recent.Mail {
			out.Outbox = append(out.Outbox, mailView(m))
		}
		out.Next = recent.Next
	}
	return c.JSON(http.StatusOK, out)
}

type staffMailText struct {
	staffMail
	ReplyTo string `json:"replyTo"`
	Lang    string `json:"lang"`
	Text    string `json:"text"`
}

// readMail answers one mail with its text.
func (h *staffHandlers) readMail(c echo.Context) error {
	m, err := h.srv.Staff.ReadMail(c.Request().Context(), c.Param("ref"))
	if err != nil {
		return h.refusal(c, err)
	}
	return c.JSON(http.StatusOK, map[string]staffMailText{"mail": {staffMail: mailView(m.Mail), ReplyTo: m.ReplyTo, Lang: m.Lang, Text: m.Text}})
}

func (h *staffHandlers) retryMail(c echo.Context) error {
	if err := h.srv.Staff.RetryMail(c.Request().Context(), c.Param("ref"), h.member(c).Member.Email); err != nil {
		return h.refusal(c, err)
	}
	return c.NoContent(http.StatusNoContent)
}

// ---- Audit log ----

type staffAuditEntry struct {
	ID      int64     `json:"id"`
	At      time.Time `json:"at"`
	Actor   string    `json:"actor"`
	Action  string    `json:"action"`
	Subject string    `json:"subject"`
	Detail  string    `json:"detail"`
}

func (h *staffHandlers) audit(c echo.Context) error {
	var before int64
	if raw := c.QueryParam("before"); raw != "" {
		var err error
		if before, err = strconv.ParseInt(raw, 10, 64); err != nil || before <= 0 {
			return h.refusal(c, staff.ErrCursor)
		}
	}
	page, err := h.srv.Staff.Audit(c.Request().Context(), before, staff.PageSize)
	if err != nil {
		return h.failure(c, err)
	}
	out := struct {
		Entries []staffAuditEntry `json:"entries"`
		Next    int64             `json:"next"`
	}{Entries: []staffAuditEntry{}, Next: page.Next}
	for _, e := range page.Entries {
		out.Entries = append(out.Entries, staffAuditEntry{ID: e.ID, At: e.At, Actor: e.Actor, Action: e.Action, Subject: e.Subject, Detail: e.Detail})
	}
	return c.JSON(http.StatusOK, out)
}

// ---- Privacy requests ----

type privacyRequest struct {
	Email   string `json:"email"`
	Confirm string `json:"confirm"`
	// Addresses are the spellings of Email, as the search listed them,
	// that the member confirmed as the person's (staff.ErasePerson).
	Addresses []string `json:"addresses"`
}

func (h *staffHandlers) privacySearch(c echo.Context) error {
	var body privacyRequest
	if err := decodeJSON(c, staffBodyLimit, &body); err != nil {
		return err
	}
	p, err := h.srv.Staff.FindPerson(c.Request().Context(), body.Email, h.member(c).Member.Email)
	if err != nil {
		return h.refusal(c, err)
	}
	return c.JSON(http.StatusOK, map[string]staff.Person{"person": p})
}

// privacyErase erases everything about an address, once the same address
// has been typed again to confirm.
func (h *staffHandlers) privacyErase(c echo.Context) error {
	var body privacyRequest
	if err := decodeJSON(c, staffBodyLimit, &body); err != nil {
		return err
	}
	if _, valid := staff.NormalizeEmail(body.Email); !valid {
		return h.refusal(c, staff.ErrInvalidEmail)
	}
	// The same address in any spelling: compared as stored, canonical.
	if mailaddr.Key(body.Confirm) != mailaddr.Key(body.Email) {
		return h.fail(c, http.StatusUnprocessableEntity, "invalid", "errors.confirm", map[string]string{"confirm": "errors.confirm"})
	}
	erased, err := h.srv.Staff.ErasePerson(c.Request().Context(), body.Email, body.Addresses, h.member(c).Member.Email)
	if err != nil {
		return h.refusal(c, err)
	}
	return c.JSON(http.StatusOK, map[string]staff.Erased{"erased": erased})
}
