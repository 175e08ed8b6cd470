package handlers

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/northbeam/site/internal/staff"
)

// The staff workspace's downloads: messages and bookings as CSV for a date
// range (?from=YYYY-MM-DD&to=YYYY-MM-DD, in the consultancy's zone), and
// everything stored about a person as JSON. Each is an audited action.
// registerStaff lists the routes.

// csvExport writes one CSV export.
type csvExport func(ctx context.Context, out io.Writer, r staff.DateRange, lang string) (int, error)

func (h *staffHandlers) exportMessages(c echo.Context) error {
	return h.exportCSV(c, "messages", h.srv.Staff.ExportMessages)
}

func (h *staffHandlers) exportBookings(c echo.Context) error {
	return h.exportCSV(c, "bookings", h.srv.Staff.ExportBookings)
}

// exportCSV answers a CSV export, built whole before it is sent, so that a
// failure midway is an error rather than a truncated file.
func (h *staffHandlers) exportCSV(c echo.Context, what string, export csvExport) error {
	ws := h.srv.Staff
	r, err := ws.ParseRange(c.QueryParam("from"), c.QueryParam("to"))
	if errors.Is(err, staff.ErrRange) {
		return h.fail(c, http.StatusBadRequest, "invalid_range", "errors.invalidRange", nil)
	}
	s := h.member(c)
	var buf bytes.Buffer
	rows, err := export(c.Request().Context(), &buf, r, s.Member.Lang)
	if err != nil {
		return h.failure(c, err)
	}
	name := what + "-" + r.Name() + ".csv"
	if err := ws.Record(c.Request().Context(), s.Member.Email, staff.ActionExport, name, strconv.Itoa(rows)+" rows"); err != nil {
		return h.failure(c, err)
	}
	c.Response().Header().Set(echo.HeaderContentDisposition, mime.FormatMediaType("attachment", map[string]string{"filename": name}))
	return c.Blob(http.StatusOK, "text/csv; charset=utf-8; header=present", buf.Bytes())
}

// exportPerson answers everything stored about an address as a JSON file
// (GDPR Art. 15 and 20), from a form post of the privacy page.
func (h *staffHandlers) exportPerson(c echo.Context) error {
	req := c.Request()
	var email string
	var addresses []string
	mediaType, _, _ := mime.ParseMediaType(req.Header.Get(echo.HeaderContentType))
	switch mediaType {
	case echo.MIMEApplicationForm:
		// A form too large to be the privacy page's is no form of ours.
		raw, err := readBody(c, staffBodyLimit)
		if err != nil {
			return h.failStatus(c, http.StatusBadRequest)
		}
		values, err := url.ParseQuery(string(raw))
		if err != nil {
			return h.failStatus(c, http.StatusBadRequest)
		}
		email, addresses = values.Get("email"), values["address"]
	case echo.MIMEApplicationJSON:
		var body privacyRequest
		if err := decodeJSON(c, staffBodyLimit, &body); err != nil {
			return err
		}
		email, addresses = body.Email, body.Addresses
	default:
		return h.failStatus(c, http.StatusUnsupportedMediaType)
	}
	p, err := h.srv.Staff.ExportPerson(req.Context(), email, addresses, h.member(c).Member.Email)
	if err != nil {
		return h.refusal(c, err)
	}
	data, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		return h.failure(c, err)
	}
	name := "personal-data-" + h.srv.Staff.Now().In(h.srv.Staff.Location()).Format("2006-01-02") + ".json"
	c.Response().Header().Set(echo.HeaderContentDisposition, mime.FormatMediaType("attachment", map[string]string{"filename": name}))
	return c.Blob(http.StatusOK, "application/json; charset=utf-8", data)
}
