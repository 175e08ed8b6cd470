package handlers

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/northbeam/site/internal/booking"
	"github.com/northbeam/site/internal/calendar"
	"github.com/northbeam/site/internal/staff"
)

// The workspace's side of consultations booked with a person: the hosts
// and which one the member is, a hand-over, the member's own calendar
// feeds, and their private calendar feed (README, "Staff workspace").

func (h *staffHandlers) registerHosts(e *echo.Echo) {
	e.GET("/staff/api/hosts", h.guard(h.private(h.hosts)))
	e.POST("/staff/api/bookings/:id/hand-over", h.guard(h.private(h.handOver)))
	e.GET("/staff/api/me/feeds", h.guard(h.private(h.ownFeeds)))
	e.POST("/staff/api/me/feeds", h.guard(h.private(h.addOwnFeed)))
	e.DELETE("/staff/api/me/feeds/:id", h.guard(h.private(h.removeOwnFeed)))
	e.POST("/staff/api/me/calendar", h.guard(h.private(h.renewPrivateFeed)))
	e.DELETE("/staff/api/me/calendar", h.guard(h.private(h.revokePrivateFeed)))
	// Opened by calendar programs, without a session: the secret token
	// (a query parameter, which logs never show) is the key.
	e.Match([]string{http.MethodGet, http.MethodHead}, staff.FeedPath, h.guard(h.privateFeed))
}

type staffHost struct {
	Slug     string   `json:"slug"`
	Name     string   `json:"name"`
	Services []string `json:"services"` // the services they take, whose bookings can be handed to them
}

type staffHosts struct {
	Hosts []staffHost `json:"hosts"`
	Mine  string      `json:"mine"` // the slug of the host the member is; ""
}

// hosts answers the hosts of the consultancy, named in the member's
// language, and which one the member is.
func (h *staffHandlers) hosts(c echo.Context) error {
	ws := h.srv.Staff
	lang := h.lang(c)
	out := staffHosts{Hosts: []staffHost{}}
	for _, slug := range ws.Hosts() {
		out.Hosts = append(out.Hosts, staffHost{Slug: slug, Name: ws.HostName(lang, slug), Services: ws.ServicesOf(slug)})
	}
	out.Mine, _ = ws.HostOf(h.member(c).Member)
	return c.JSON(http.StatusOK, out)
}

// bookingsHost reads ?host= of the bookings list: a host's slug, "mine"
// for the member's own (none when the member is no host), "" for all.
func (h *staffHandlers) bookingsHost(c echo.Context) (host string, none, ok bool) {
	ws := h.srv.Staff
	switch q := c.QueryParam("host"); {
	case q == "":
		return "", false, true
	case q == "mine":
		mine, isHost := ws.HostOf(h.member(c).Member)
		return mine, !isHost, true
	case ws.IsHost(q):
		return q, false, true
	}
	return "", false, false
}

type handOverBody struct {
	Host string `json:"host"`
}

func (h *staffHandlers) handOver(c echo.Context) error {
	var body handOverBody
	return h.changeBooking(c, &body, h.handOverRefusal, func(ctx context.Context, id int64, actor string) (staff.Booking, error) {
		return h.srv.Staff.HandOver(ctx, id, body.Host, actor)
	})
}

// handOverRefusal answers a refusal of a hand-over in the member's words.
func (h *staffHandlers) handOverRefusal(c echo.Context, err error) error {
	switch {
	case errors.Is(err, booking.ErrNotHost):
		return h.fail(c, http.StatusUnprocessableEntity, "invalid", "errors.notHost", map[string]string{"host": "errors.notHost"})
	case errors.Is(err, booking.ErrSameHost):
		return h.fail(c, http.StatusConflict, "same_host", "errors.sameHost", nil)
	case errors.Is(err, booking.ErrSlotTaken):
		return h.fail(c, http.StatusConflict, "host_busy", "errors.hostBusy", nil)
	case errors.Is(err, booking.ErrCancelled):
		return h.fail(c, http.StatusConflict, "cancelled", "errors.cancelledAlready", nil)
	case errors.Is(err, booking.ErrStarted):
		return h.fail(c, http.StatusConflict, "started", "errors.startedHandOver", nil)
	}
	return h.refusal(c, err)
}

// ---- The member's own calendar feeds ----

type staffFeed struct {
	ID      int64     `json:"id"`
	Shown   string    `json:"shown"` // the feed as pages show it: its host name and an ellipsis, never its address
	Created time.Time `json:"created"`
}

// addedFeed is a feed just added, and whether its first reading worked
// (its busy times count now) or it waits for the next refresh.
type addedFeed struct {
	Feed staffFeed `json:"feed"`
	Read bool      `json:"read"`
}

type staffFeeds struct {
	Feeds   []staffFeed `json:"feeds"`
	Host    string      `json:"host"` // the slug of the host the member is; "": their feeds count for nothing yet
	Private *time.Time  `json:"private"`
}

func feedView(f calendar.MemberFeed) staffFeed {
	return staffFeed{ID: f.ID, Shown: "https://" + f.Host + "/…", Created: f.Created}
}

// ownFeeds answers the member's own calendar feeds, masked, whether they
// are a host, and since when they have a private feed (null for none).
func (h *staffHandlers) ownFeeds(c echo.Context) error {
	ctx := c.Request().Context()
	ws := h.srv.Staff
	m := h.member(c).Member
	feeds, err := ws.OwnFeeds(ctx, m)
	if err != nil {
		return h.failure(c, err)
	}
	private, err := ws.PrivateFeedOf(ctx, m)
	if err != nil {
		return h.failure(c, err)
	}
	out := staffFeeds{Feeds: []staffFeed{}}
	out.Host, _ = ws.HostOf(m)
	for _, f := range feeds {
		out.Feeds = append(out.Feeds, feedView(f))
	}
	if private.Active {
		out.Private = &private.Created
	}
	return c.JSON(http.StatusOK, out)
}

func (h *staffHandlers) addOwnFeed(c echo.Context) error {
	var body struct {
		URL string `json:"url"`
	}
	if err := decodeJSON(c, staffBodyLimit, &body); err != nil {
		return err
	}
	f, read, err := h.srv.Staff.AddOwnFeed(c.Request().Context(), h.member(c).Member, body.URL)
	switch {
	case errors.Is(err, calendar.ErrFeedURL):
		return h.fail(c, http.StatusUnprocessableEntity, "invalid", "errors.feedURL", map[string]string{"url": "errors.feedURL"})
	case errors.Is(err, staff.ErrTooManyFeeds):
		return h.fail(c, http.StatusConflict, "too_many", "errors.tooManyFeeds", nil)
	case err != nil:
		return h.failure(c, err)
	}
	return c.JSON(http.StatusCreated, addedFeed{Feed: feedView(f), Read: read})
}

func (h *staffHandlers) removeOwnFeed(c echo.Context) error {
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil {
		return h.refusal(c, staff.ErrNotFound)
	}
	if err := h.srv.Staff.RemoveOwnFeed(c.Request().Context(), h.member(c).Member, id); err != nil {
		return h.refusal(c, err)
	}
	return c.NoContent(http.StatusNoContent)
}

// ---- The member's private calendar feed ----

// renewPrivateFeed makes the member a private feed with a new address,
// which it answers this once; the previous address stops working.
func (h *staffHandlers) renewPrivateFeed(c echo.Context) error {
	address, err := h.srv.Staff.RenewPrivateFeed(c.Request().Context(), h.member(c).Member)
	if err != nil {
		return h.failure(c, err)
	}
	return c.JSON(http.StatusCreated, map[string]string{"url": address})
}

func (h *staffHandlers) revokePrivateFeed(c echo.Context) error {
	if err := h.srv.Staff.RevokePrivateFeed(c.Request().Context(), h.member(c).Member); err != nil {
		return h.failure(c, err)
	}
	return c.NoContent(http.StatusNoContent)
}

// privateFeed answers a member's private feed as text/calendar: the
// standing consultations of the host they are. An address that opens no
// feed (revoked, renewed, never made) answers 404.
func (h *staffHandlers) privateFeed(c echo.Context) error {
	ws, err := h.workspace(c)
	if err != nil {
		return err
	}
	m, bookings, err := ws.FeedBookings(c.Request().Context(), c.QueryParam("token"))
	if errors.Is(err, staff.ErrNotFound) {
		return c.NoContent(http.StatusNotFound)
	}
	if err != nil {
		return h.failure(c, err)
	}
	return c.Blob(http.StatusOK, "text/calendar; charset=utf-8", ws.FeedICS(m, bookings))
}
