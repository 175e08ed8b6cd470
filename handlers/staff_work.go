package handlers

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/northbeam/site/internal/booking"
	"github.com/northbeam/site/internal/staff"
)

// The staff workspace's everyday work beyond reading: the unread state of
// messages, notes on a message or a booking, a booking moved on the
// visitor's behalf or made for someone who called in, a no-show, and the
// agenda's week.
func (h *staffHandlers) registerWork(e *echo.Echo) {
	e.GET("/staff/api/counts", h.guard(h.private(h.counts)))
	e.POST("/staff/api/messages/:ref/read", h.guard(h.private(h.markRead)))
	e.GET("/staff/api/messages/:ref/notes", h.guard(h.private(h.notes(staff.NoteOnMessage, "ref"))))
	e.POST("/staff/api/messages/:ref/notes", h.guard(h.private(h.addNote(staff.NoteOnMessage, "ref"))))
	e.GET("/staff/api/bookings/:id/notes", h.guard(h.private(h.notes(staff.NoteOnBooking, "id"))))
	e.POST("/staff/api/bookings/:id/notes", h.guard(h.private(h.addNote(staff.NoteOnBooking, "id"))))
	e.POST("/staff/api/bookings", h.guard(h.private(h.bookFor)))
	e.POST("/staff/api/bookings/:id/move", h.guard(h.private(h.moveBooking)))
	e.POST("/staff/api/bookings/:id/no-show", h.guard(h.private(h.noShow)))
	e.GET("/staff/api/week", h.guard(h.private(h.week)))
}

// counts answers what the navigation shows beside its pages: the unread
// new messages.
func (h *staffHandlers) counts(c echo.Context) error {
	counts, err := h.srv.Staff.FolderCounts(c.Request().Context())
	if err != nil {
		return h.failure(c, err)
	}
	return c.JSON(http.StatusOK, map[string]int{"unread": counts[staff.Unread]})
}

func (h *staffHandlers) markRead(c echo.Context) error {
	var body struct {
		Read bool `json:"read"`
	}
	if err := decodeJSON(c, staffBodyLimit, &body); err != nil {
		return err
	}
	m, err := h.srv.Staff.MarkRead(c.Request().Context(), c.Param("ref"), body.Read)
	return h.answerMessage(c, m, err)
}

type staffNote struct {
	ID      int64     `json:"id"`
	Author  string    `json:"author"`
	Text    string    `json:"text"`
	Created time.Time `json:"created"`
}

func notesView(notes []staff.Note) map[string][]staffNote {
	out := []staffNote{}
	for _, n := range notes {
		out = append(out, staffNote{ID: n.ID, Author: n.Author, Text: n.Text, Created: n.Created})
	}
	return map[string][]staffNote{"notes": out}
}

// notes answers the notes on the message or booking the path's param
// names.
func (h *staffHandlers) notes(subject, param string) echo.HandlerFunc {
	return func(c echo.Context) error {
		ws := h.srv.Staff
		notes, err := ws.Notes(c.Request().Context(), subject, c.Param(param))
		if err != nil {
			return h.failure(c, err)
		}
		return c.JSON(http.StatusOK, notesView(notes))
	}
}

func (h *staffHandlers) addNote(subject, param string) echo.HandlerFunc {
	return func(c echo.Context) error {
		var body struct {
			Text string `json:"text"`
		}
		if err := decodeJSON(c, staffBodyLimit, &body); err != nil {
			return err
		}
		notes, err := h.srv.Staff.AddNote(c.Request().Context(), subject, c.Param(param), body.Text, h.member(c).Member.Email)
		if errors.Is(err, staff.ErrNote) {
			return h.fail(c, http.StatusUnprocessableEntity, "invalid", "errors.note", map[string]string{"text": "errors.note"})
		}
		if err != nil {
			return h.refusal(c, err)
		}
		return c.JSON(http.StatusCreated, notesView(notes))
	}
}

// bookFor books a consultation for someone who called in.
func (h *staffHandlers) bookFor(c echo.Context) error {
	raw, err := readBody(c, staffBodyLimit)
	if err != nil {
		return err
	}
	r, err := booking.DecodeBookingRequest(bytes.NewReader(raw))
	var fieldErrs booking.FieldErrors
	switch {
	case errors.As(err, &fieldErrs):
		return h.bookingRefusal(c, err)
	case err != nil:
		return h.failStatus(c, http.StatusBadRequest)
	}
	if _, known := h.srv.Build().Info.Language(r.Lang); !known {
		r.Lang = h.srv.Build().Info.Default().Code
	}
	b, err := h.srv.Staff.BookFor(c.Request().Context(), r, h.member(c).Member.Email)
	if err != nil {
		return h.bookingRefusal(c, err)
	}
	return c.JSON(http.StatusCreated, map[string]staffBooking{"booking": h.bookingView(b)})
}

// The bodies of a member's changes to a booking.
type (
	cancelBody struct {
		Reason string `json:"reason"`
	}
	moveBody struct {
		Start string `json:"start"`
	}
	noShowBody struct {
		NoShow bool `json:"noShow"`
	}
)

func (h *staffHandlers) cancelBooking(c echo.Context) error {
	var body cancelBody
	return h.changeBooking(c, &body, h.refusal, func(ctx context.Context, id int64, actor string) (staff.Booking, error) {
		return h.srv.Staff.CancelBooking(ctx, id, body.Reason, actor)
	})
}

func (h *staffHandlers) moveBooking(c echo.Context) error {
	var body moveBody
	return h.changeBooking(c, &body, h.bookingRefusal, func(ctx context.Context, id int64, actor string) (staff.Booking, error) {
		return h.srv.Staff.MoveBooking(ctx, id, body.Start, actor)
	})
}

func (h *staffHandlers) noShow(c echo.Context) error {
	var body noShowBody
	return h.changeBooking(c, &body, h.refusal, func(ctx context.Context, id int64, actor string) (staff.Booking, error) {
		return h.srv.Staff.MarkNoShow(ctx, id, body.NoShow, actor)
	})
}

// changeBooking answers a member's change to the booking of the path's
// id: body is read into first (see withID), change makes it in the
// member's name, refuse answers its refusal.
func (h *staffHandlers) changeBooking(c echo.Context, body any, refuse func(echo.Context, error) error,
	change func(ctx context.Context, id int64, actor string) (staff.Booking, error),
) error {
	return h.withID(c, body, func(ctx context.Context, id int64) error {
		b, err := change(ctx, id, h.member(c).Member.Email)
		if err != nil {
			return refuse(c, err)
		}
		return h.answerBooking(c, b, nil)
	})
}

// bookingRefusal answers a refusal of the booking service to a member: in
// the visitor's words of the public site (content/locales), in the
// member's language, with the same codes as the public API.
func (h *staffHandlers) bookingRefusal(c echo.Context, err error) error {
	lang := h.lang(c)
	answer := func(status int, code, key string, fields map[string]string) error {
		return c.JSON(status, newAPIError(h.srv.Build().Locales, lang, code, key, fields))
	}
	var fieldErrs booking.FieldErrors
	switch {
	case errors.As(err, &fieldErrs):
		return answer(http.StatusUnprocessableEntity, "invalid", "validation.invalid", fieldErrs)
	case errors.Is(err, booking.ErrNotFound), errors.Is(err, staff.ErrNotFound):
		return h.failStatus(c, http.StatusNotFound)
	case errors.Is(err, staff.ErrCannotCancel):
		return h.failStatus(c, http.StatusServiceUnavailable)
	}
	for _, r := range bookingConflicts {
		if errors.Is(err, r.err) {
			return answer(http.StatusConflict, r.code, r.key, nil)
		}
	}
	return h.failure(c, err)
}

// bookingConflicts are the booking service's refusals that the state of
// the agenda or of the booking causes (409), with their codes and the keys
// of their words in content/locales.
var bookingConflicts = []struct {
	err       error
	code, key string
}{
	{booking.ErrSlotTaken, "slot_taken", "booking.taken"},
	{booking.ErrDayFull, "day_full", "booking.dayFull"},
	{booking.ErrAddressLimit, "address_limit", "booking.addressLimit"},
	{booking.ErrCancelled, "cancelled", "booking.reschedule.cancelled"},
	{booking.ErrStarted, "started", "booking.reschedule.started"},
	{booking.ErrTooLate, "too_late", "booking.reschedule.tooLate"},
}

type staffWeek struct {
	Days []staffDay `json:"days"`
	Prev string     `json:"prev"`
	Next string     `json:"next"`
}

// week answers the seven days of the week holding ?date= (today without).
func (h *staffHandlers) week(c echo.Context) error {
	days, prev, next, err := h.srv.Staff.Week(c.Request().Context(), c.QueryParam("date"))
	if errors.Is(err, staff.ErrWeek) {
		return h.fail(c, http.StatusBadRequest, "invalid_range", "errors.invalidRange", nil)
	}
	if err != nil {
		return h.failure(c, err)
	}
	out := staffWeek{Days: []staffDay{}, Prev: prev, Next: next}
	for _, d := range days {
		day := staffDay{Date: d.Date, Bookings: []staffBooking{}}
		for _, b := range d.Bookings {
			day.Bookings = append(day.Bookings, h.bookingView(b))
		}
		out.Days = append(out.Days, day)
	}
	return c.JSON(http.StatusOK, out)
}
