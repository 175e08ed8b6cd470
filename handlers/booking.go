package handlers

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/northbeam/site/internal/booking"
	"github.com/northbeam/site/internal/sitebuild"
	"github.com/northbeam/site/render"
)

// registerBooking serves the booking API (docs/ARCHITECTURE.md, HTTP
// surface): the open slots, new bookings, their invites, and the
// cancellation that the link in the visitor's email leads to.
func registerBooking(e *echo.Echo, srv *Server) {
	e.GET("/api/slots", srv.getSlots)
	e.POST("/api/bookings", srv.postBooking)
	e.GET("/api/bookings/cancel", srv.getCancellation)
	e.POST("/api/bookings/cancel", srv.postCancellation)
	e.POST("/api/bookings/reschedule", srv.postReschedule)
	e.GET("/api/bookings/:file", srv.getBookingInvite)
}

// Limits of the request bodies: a booking is a few short fields and a topic
// of at most 1,000 characters (up to 4 bytes each once encoded).
const (
	maxBookingBody    = 16 << 10
	maxCancelBody     = 4 << 10 // a reason of at most 500 characters
	maxRescheduleBody = 1 << 10
)

// freshSlotsDays is how many days of slots a 409 carries, from the day of
// the time that was taken: enough to offer the next day with open times.
const freshSlotsDays = 7

// slotsResponse is the body of GET /api/slots, and the fresh slots of a 409.
type slotsResponse struct {
	Service  string        `json:"service"`
	TimeZone string        `json:"timeZone"`
	Days     []booking.Day `json:"days"`
}

// bookingCreated is the body of a 201 from POST /api/bookings. Beyond
// the documented token, service, start, end and ics, it carries the visitor's
// zone and the "add to calendar" links, which the server writes because the
// invite's texts are the server's.
type bookingCreated struct {
	Booking createdBooking `json:"booking"`
}

type createdBooking struct {
	Token string `json:"token"`
	bookingTime
	ICS      string        `json:"ics"`
	Calendar calendarLinks `json:"calendar"`
	Meeting  *meetingView  `json:"meeting,omitempty"`
	// Reminder says that a reminder will be mailed before the meeting;
	// ReminderLead says how long before (REMINDER_HOURS), when it will.
	Reminder     bool                  `json:"reminder"`
	ReminderLead *booking.ReminderLead `json:"reminderLead,omitempty"`
	// Host is who takes the call, for a service with hosts.
	Host *sitebuild.HostCard `json:"host,omitempty"`
}

// meetingView says how a consultation happens: "video" with the room's
// address, or "phone" with the number the consultancy calls, written as
// people read it.
type meetingView struct {
	Kind  string `json:"kind"`
	URL   string `json:"url,omitempty"`
	Phone string `json:"phone,omitempty"`
}

func meetingOf(b booking.Booking) *meetingView {
	switch {
	case b.MeetingURL != "":
		return &meetingView{Kind: booking.MeetingVideo, URL: b.MeetingURL}
	case b.Phone != "":
		return &meetingView{Kind: booking.MeetingPhone, Phone: booking.FormatPhone(b.Phone)}
	}
	return nil
}

type calendarLinks struct {
	Google  string `json:"google"`
	Outlook string `json:"outlook"`
}

// bookingConflict is the body of a 409: the error and the fresh slots, so
// the visitor can pick another time without another request.
type bookingConflict struct {
	Error apiErrorBody   `json:"error"`
	Slots *slotsResponse `json:"slots,omitempty"`
	// Hosts are the other hosts free at the time asked for, when the
	// visitor asked for one who no longer is: the time may still be
	// booked with them.
	Hosts []sitebuild.HostCard `json:"hosts,omitempty"`
}

// cancellationView is what the cancel page shows of a booking: nothing
// about the visitor, who holds the link.
type cancellationView struct {
	Booking cancellationBooking `json:"booking"`
}

// bookingTime is what the visitor's answers say of a booking's time: the
// consultation, its start and end, and the visitor's zone.
type bookingTime struct {
	Service  string    `json:"service"`
	Start    time.Time `json:"start"`
	End      time.Time `json:"end"`
	TimeZone string    `json:"timeZone"`
}

func timeOf(b booking.Booking) bookingTime {
	return bookingTime{Service: b.Service, Start: b.Start, End: b.End, TimeZone: b.TimeZone}
}

type cancellationBooking struct {
	bookingTime
	// Status is "confirmed", "cancelled", or "started" once the meeting has
	// begun and can no longer be cancelled.
	Status string `json:"status"`
	// Movable says whether the booking may still move to another time
	// (it stands, and its start is further than the minimum notice).
	Movable bool         `json:"movable"`
	Meeting *meetingView `json:"meeting,omitempty"`
	// Host is who takes the call; a move offers that host's times.
	Host *sitebuild.HostCard `json:"host,omitempty"`
}

// bookingService returns the booking service, or an error answered as 503
// when the server runs without one.
func (srv *Server) bookingService() (*booking.Service, error) {
	if srv.Booking == nil {
		return nil, echo.NewHTTPError(http.StatusServiceUnavailable)
	}
	return srv.Booking, nil
}

func (srv *Server) getSlots(c echo.Context) error {
	svc, err := srv.bookingService()
	if err != nil {
		return err
	}
	req := c.Request()
	lang := requestLanguage(srv.Build().Info, c.QueryParam("lang"), req)
	if srv.throttled(c, srv.slotsLimiter) {
		return srv.tooManyBookingRequests(c, lang)
	}
	q, fieldErrs := booking.ParseSlotsQuery(req.URL.Query(), svc.Availability(), svc.Now())
	if fieldErrs != nil {
		return srv.invalidBooking(c, lang, fieldErrs)
	}
	body, err := srv.bookingSlots(c, svc, q)
	if err != nil {
		return err
	}
	// A month of times is tens of kilobytes of JSON and a tenth of that
	// compressed: on a phone's network, the time step's calendar waits for
	// it. Answered compressed when the client accepts it, never stored.
	data, err := json.Marshal(body)
	if err != nil {
		return err
	}
	render.NewAnswer(echo.MIMEApplicationJSON, http.StatusOK, append(data, '\n')).ServeHTTP(c.Response(), req)
	return nil
}

func (srv *Server) bookingSlots(c echo.Context, svc *booking.Service, q booking.SlotsQuery) (*slotsResponse, error) {
	days, err := svc.Slots(c.Request().Context(), q)
	if err != nil {
		return nil, err
	}
	return &slotsResponse{Service: q.Service, TimeZone: q.TimeZone, Days: days}, nil
}

func (srv *Server) postBooking(c echo.Context) error {
	svc, err := srv.bookingService()
	if err != nil {
		return err
	}
	req := c.Request()
	raw, err := readJSON(c, maxBookingBody)
	if err != nil {
		return err
	}
	// The language is read on its own first, so that even a request with
	// an unknown field gets its errors in the visitor's language.
	var hint struct {
		Lang string `json:"lang"`
	}
	_ = json.Unmarshal(raw, &hint)
	lang := requestLanguage(srv.Build().Info, hint.Lang, req)
	if srv.throttled(c, srv.bookingLimiter) {
		return srv.tooManyBookingRequests(c, lang)
	}

	br, err := booking.DecodeBookingRequest(bytes.NewReader(raw))
	var fieldErrs booking.FieldErrors
	switch {
	case errors.As(err, &fieldErrs):
		return srv.invalidBooking(c, lang, fieldErrs)
	case err != nil:
		return echo.NewHTTPError(http.StatusBadRequest)
	}
	br.Lang = lang

	b, err := svc.Book(req.Context(), br)
	switch {
	case errors.As(err, &fieldErrs):
		return srv.invalidBooking(c, lang, fieldErrs)
	case errors.Is(err, booking.ErrSlotTaken):
		return srv.slotTaken(c, svc, lang, br.Service, br.Start, br.TimeZone, br.Person, "slot_taken", "booking.taken")
	case errors.Is(err, booking.ErrDayFull):
		return srv.slotTaken(c, svc, lang, br.Service, br.Start, br.TimeZone, br.Person, "day_full", "booking.dayFull")
	case errors.Is(err, booking.ErrAddressLimit):
		noStoreBooking(c)
		return c.JSON(http.StatusConflict, newAPIError(srv.Build().Locales, lang, "address_limit", "booking.addressLimit", nil))
	case errors.Is(err, booking.ErrSpam):
		// Answered as a person would be: the program learns nothing. The
		// booking was not stored and nothing was mailed.
		srv.log.Info("booking refused as automated", "id", requestID(c))
	case err != nil:
		return err
	default:
		srv.log.Info("booking stored", "id", requestID(c), "service", b.Service, "host", b.Host)
	}
	noStoreBooking(c)
	return c.JSON(http.StatusCreated, srv.createdOf(svc, b))
}

// createdOf is the answer to a booking made, or moved.
func (srv *Server) createdOf(svc *booking.Service, b booking.Booking) bookingCreated {
	inv := svc.Invite(b)
	return bookingCreated{Booking: createdBooking{
		Token:       b.Token,
		bookingTime: timeOf(b),
		ICS:         "/api/bookings/" + b.Token + ".ics",
		Calendar: calendarLinks{
			Google:  booking.GoogleCalendarURL(b, inv),
			Outlook: booking.OutlookCalendarURL(b, inv),
		},
		Meeting:      meetingOf(b),
		Reminder:     b.ReminderRef != "",
		ReminderLead: reminderLeadOf(svc, b),
		Host:         srv.hostCard(b.Lang, b.Host),
	}}
}

// hostCard is the host slug as lang's pages show them; nil for none.
func (srv *Server) hostCard(lang, slug string) *sitebuild.HostCard {
	if slug == "" {
		return nil
	}
	card, ok := srv.Build().HostCard(lang, slug)
	if !ok {
		card = sitebuild.HostCard{Slug: slug, Name: slug}
	}
	return &card
}

// reminderLeadOf is when b's reminder comes, nil when b has none.
func reminderLeadOf(svc *booking.Service, b booking.Booking) *booking.ReminderLead {
	if b.ReminderRef == "" {
		return nil
	}
	lead := svc.ReminderLead()
	if lead.Unit == "" {
		return nil
	}
	return &lead
}

// slotTaken answers with 409, the code and localized message given, and
// the slots of the week from the day of the time that was asked for, in the
// visitor's zone, so that another time can be picked at once: the times of
// person, when the visitor asked for that host, with the other hosts who
// are still free at the time asked for.
func (srv *Server) slotTaken(c echo.Context, svc *booking.Service, lang, service, startAt, zone, person, code, key string) error {
	person = strings.TrimSpace(person)
	var body bookingConflict
	if person != "" && code == "slot_taken" {
		name := srv.hostCard(lang, person).Name
		body.Error = newAPIError(srv.Build().Locales, lang, code, "booking.hostTaken", nil, "name", name).Error
	} else {
		body.Error = newAPIError(srv.Build().Locales, lang, code, key, nil).Error
	}
	start, errStart := time.Parse(time.RFC3339, strings.TrimSpace(startAt))
	loc, errZone := time.LoadLocation(zone)
	if errStart == nil && errZone == nil {
		q := booking.SlotsQuery{
			Service:  service,
			From:     booking.DateOf(start.In(loc)),
			Days:     freshSlotsDays,
			TimeZone: zone,
			Location: loc,
			Person:   person,
		}
		fresh, err := srv.bookingSlots(c, svc, q)
		if err != nil {
			return err
		}
		body.Slots = fresh
		if person != "" {
			others, err := svc.FreeHosts(c.Request().Context(), service, start, person)
			if err != nil {
				return err
			}
			for _, h := range others {
				body.Hosts = append(body.Hosts, *srv.hostCard(lang, h))
			}
		}
	}
	noStoreBooking(c)
	return c.JSON(http.StatusConflict, body)
}

// tooManyBookingRequests answers 429 in lang; throttled has set Retry-After.
func (srv *Server) tooManyBookingRequests(c echo.Context, lang string) error {
	noStoreBooking(c)
	return c.JSON(http.StatusTooManyRequests, srv.apiErrorOf(http.StatusTooManyRequests, lang, nil))
}

// invalidBooking answers 422 with every field's message in lang.
func (srv *Server) invalidBooking(c echo.Context, lang string, fieldErrs booking.FieldErrors) error {
	return c.JSON(http.StatusUnprocessableEntity, srv.apiErrorOf(http.StatusUnprocessableEntity, lang, fieldErrs))
}

// getBookingInvite serves /api/bookings/<token>.ics: the event to import
// while the booking stands, its cancellation once cancelled.
func (srv *Server) getBookingInvite(c echo.Context) error {
	svc, err := srv.bookingService()
	if err != nil {
		return err
	}
	token, ok := strings.CutSuffix(c.Param("file"), ".ics")
	if !ok {
		return echo.ErrNotFound
	}
	b, err := svc.Find(c.Request().Context(), token)
	if errors.Is(err, booking.ErrNotFound) {
		return echo.ErrNotFound
	}
	if err != nil {
		return err
	}
	h := c.Response().Header()
	h.Set("Content-Disposition", `attachment; filename="`+b.Service+`.ics"`)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Robots-Tag", "noindex")
	noStoreBooking(c)
	// A file to import, not a scheduling message: no method (booking.FileICS).
	return c.Blob(http.StatusOK, "text/calendar; charset=utf-8", svc.ICSFile(b))
}

func (srv *Server) getCancellation(c echo.Context) error {
	svc, err := srv.bookingService()
	if err != nil {
		return err
	}
	b, err := svc.FindByCancelToken(c.Request().Context(), c.QueryParam("token"))
	if errors.Is(err, booking.ErrNotFound) {
		return echo.ErrNotFound
	}
	if err != nil {
		return err
	}
	noStoreBooking(c)
	return c.JSON(http.StatusOK, srv.cancellationOf(b, svc.Now(), svc.Availability()))
}

// linkPostBody is what every post from the page a mailed link opens
// (cancel, choose another time) carries: the link's token and the page's
// language.
type linkPostBody struct {
	Token string `json:"token"`
	Lang  string `json:"lang"`
}

func (b *linkPostBody) linkPost() *linkPostBody { return b }

// readLinkPost reads a post from a mailed link's page into body, of at
// most limit bytes, and counts it against the client's booking limit; lang
// is the language of the answer. svc is nil when the post was answered
// (429 over the limit) or cannot be (no booking service, a body decodeJSON
// refuses): return err.
func (srv *Server) readLinkPost(c echo.Context, limit int64, body interface{ linkPost() *linkPostBody }) (svc *booking.Service, lang string, err error) {
	svc, err = srv.bookingService()
	if err != nil {
		return nil, "", err
	}
	if err := decodeJSON(c, limit, body); err != nil {
		return nil, "", err
	}
	lang = requestLanguage(srv.Build().Info, body.linkPost().Lang, c.Request())
	if srv.throttled(c, srv.bookingLimiter) {
		return nil, "", srv.tooManyBookingRequests(c, lang)
	}
	return svc, lang, nil
}

func (srv *Server) postCancellation(c echo.Context) error {
	var body struct {
		linkPostBody
		Reason string `json:"reason"` // why, in the visitor's words; optional
	}
	svc, lang, err := srv.readLinkPost(c, maxCancelBody, &body)
	if svc == nil {
		return err
	}
	b, _, err := svc.CancelWithReason(c.Request().Context(), body.Token, body.Reason)
	var fieldErrs booking.FieldErrors
	switch {
	case errors.Is(err, booking.ErrNotFound):
		return echo.ErrNotFound
	case errors.As(err, &fieldErrs):
		return srv.invalidBooking(c, lang, fieldErrs)
	case errors.Is(err, booking.ErrStarted):
		return c.JSON(http.StatusConflict, newAPIError(srv.Build().Locales, lang, "started", "booking.cancel.started", nil))
	case err != nil:
		return err
	}
	noStoreBooking(c)
	return c.JSON(http.StatusOK, srv.cancellationOf(b, svc.Now(), svc.Availability()))
}

// postReschedule moves a booking to another time: the token is the one
// mailed to the visitor, as for cancelling (docs/ARCHITECTURE.md, HTTP surface).
func (srv *Server) postReschedule(c echo.Context) error {
	var body struct {
		linkPostBody
		Start string `json:"start"`
	}
	svc, lang, err := srv.readLinkPost(c, maxRescheduleBody, &body)
	if svc == nil {
		return err
	}
	b, err := svc.Reschedule(c.Request().Context(), body.Token, body.Start)
	var fieldErrs booking.FieldErrors
	conflict := func(code, key string) error {
		noStoreBooking(c)
		return c.JSON(http.StatusConflict, newAPIError(srv.Build().Locales, lang, code, key, nil))
	}
	switch {
	case errors.Is(err, booking.ErrNotFound):
		return echo.ErrNotFound
	case errors.As(err, &fieldErrs):
		return srv.invalidBooking(c, lang, fieldErrs)
	case errors.Is(err, booking.ErrCancelled):
		return conflict("cancelled", "booking.reschedule.cancelled")
	case errors.Is(err, booking.ErrStarted):
		return conflict("started", "booking.reschedule.started")
	case errors.Is(err, booking.ErrTooLate):
		return conflict("too_late", "booking.reschedule.tooLate")
	case errors.Is(err, booking.ErrSlotTaken), errors.Is(err, booking.ErrDayFull):
		found, ferr := svc.FindByCancelToken(c.Request().Context(), body.Token)
		if ferr != nil {
			return ferr
		}
		key := "booking.taken"
		if errors.Is(err, booking.ErrDayFull) {
			key = "booking.dayFull"
		}
		return srv.slotTaken(c, svc, lang, found.Service, body.Start, found.TimeZone, found.Host, "slot_taken", key)
	case err != nil:
		return err
	}
	srv.log.Info("booking moved", "id", requestID(c), "service", b.Service)
	noStoreBooking(c)
	return c.JSON(http.StatusOK, srv.createdOf(svc, b))
}

func (srv *Server) cancellationOf(b booking.Booking, now time.Time, av booking.Availability) cancellationView {
	status := "confirmed"
	switch {
	case b.IsCancelled():
		status = "cancelled"
	case !now.Before(b.Start):
		status = "started"
	}
	return cancellationView{Booking: cancellationBooking{
		bookingTime: timeOf(b), Status: status,
		Movable: status == "confirmed" && !now.Add(av.MinimumNotice).After(b.Start),
		Meeting: meetingOf(b),
		Host:    srv.hostCard(b.Lang, b.Host),
	}}
}

// noStoreBooking keeps answers about bookings out of every cache: they change
// with every booking, and some name a visitor's appointment.
func noStoreBooking(c echo.Context) {
	c.Response().Header().Set("Cache-Control", "no-store")
}
