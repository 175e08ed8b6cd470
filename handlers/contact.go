package handlers

import (
	"bytes"
	"encoding/json"
	"errors"
	"maps"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/northbeam/site/internal/contact"
	"github.com/northbeam/site/internal/sitebuild"
)

// registerContact serves the contact form's endpoint. The site's script
// posts JSON and gets JSON; without JavaScript the same form is a plain
// HTML form post, answered with the home page showing the outcome.
func registerContact(e *echo.Echo, srv *Server) {
	e.POST("/api/contact", srv.contact)
}

// contactBodyLimit bounds a post: the longest valid message, in any script
// and percent-encoded, stays well below it.
const contactBodyLimit = 64 << 10

// contactRequest is the contact form as posted, in either encoding.
type contactRequest struct {
	Name    string `json:"name"`
	Email   string `json:"email"`
	Message string `json:"message"`
	Service string `json:"service"`
	Lang    string `json:"lang"`
	Website string `json:"website"` // the honeypot
	// RenderedAt is when the form was rendered, in Unix milliseconds;
	// absent (as in a form posted without JavaScript) means unknown.
	RenderedAt json.Number `json:"rendered_at"`

	fields []string // the names of the fields posted
}

// validate rejects fields the form does not have; once there are none, it
// applies the form's own rules.
func (r contactRequest) validate() contact.FieldErrors {
	if errs := contact.UnknownFields(r.fields); errs != nil {
		return errs
	}
	return r.submission().Validate()
}

func (r contactRequest) submission() contact.Submission {
	sub := contact.Submission{
		Name: r.Name, Email: r.Email, Message: r.Message, Service: r.Service, Lang: r.Lang,
		Honeypot: r.Website,
	}
	if ms, err := r.RenderedAt.Int64(); err == nil && ms > 0 {
		sub.RenderedAt = time.UnixMilli(ms)
	}
	return sub
}

// errMalformed is a body that is not a contact form at all.
var errMalformed = errors.New("malformed contact post")

// decodeContactJSON reads a JSON object. Fields the form does not have are
// collected for validate to reject by name; the rest is decoded strictly
// (a number where text belongs is malformed).
func decodeContactJSON(body []byte) (contactRequest, error) {
	var r contactRequest
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(body, &fields); err != nil || fields == nil {
		return r, errMalformed
	}
	r.fields = slices.Sorted(maps.Keys(fields))
	if contact.UnknownFields(r.fields) != nil {
		// Refused by name; only the language of the answer is read.
		_ = json.Unmarshal(fields[contact.FieldLang], &r.Lang)
		return r, nil
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		return r, errMalformed
	}
	return r, nil
}

// decodeContactForm reads an HTML form post. A field sent twice is
// malformed, as no form of ours does that; what could be read is returned
// with the error, for the answer's language and the values to keep.
func decodeContactForm(body []byte) (contactRequest, error) {
	var r contactRequest
	values, err := url.ParseQuery(string(body))
	if err != nil {
		return r, errMalformed
	}
	r.Name = values.Get(contact.FieldName)
	r.Email = values.Get(contact.FieldEmail)
	r.Message = values.Get(contact.FieldMessage)
	r.Service = values.Get(contact.FieldService)
	r.Lang = values.Get(contact.FieldLang)
	r.Website = values.Get(contact.FieldHoneypot)
	r.RenderedAt = json.Number(values.Get(contact.FieldRenderedAt))
	repeated := false
	for name, v := range values {
		repeated = repeated || len(v) > 1
		r.fields = append(r.fields, name)
	}
	slices.Sort(r.fields)
	if repeated {
		return r, errMalformed
	}
	return r, nil
}

// contactOutcome is how a post ended, whichever way it is answered.
type contactOutcome struct {
	status int
	ref    string              // the message's reference, on success
	errs   contact.FieldErrors // on 422
	posted contactRequest
}

func (srv *Server) contact(c echo.Context) error {
	if srv.Contact == nil {
		return errors.New("handlers: no contact service")
	}
	info := srv.Build().Info
	req := c.Request()
	mediaType, params, _ := mime.ParseMediaType(req.Header.Get(echo.HeaderContentType))
	if charset := params["charset"]; charset != "" && !strings.EqualFold(charset, "utf-8") {
		mediaType = ""
	}
	asPage := mediaType == echo.MIMEApplicationForm
	if mediaType != echo.MIMEApplicationJSON && !asPage {
		return c.JSON(http.StatusUnsupportedMediaType, srv.apiErrorOf(http.StatusUnsupportedMediaType, requestLanguage(info, "", req), nil))
	}
	answer := func(lang string, out contactOutcome) error {
		if asPage {
			return srv.contactPage(c, lang, out)
		}
		return srv.contactJSON(c, lang, out)
	}

	// Every post counts against the limit, whatever its body, and the limit
	// is checked before anything is done for the post: a client over it,
	// or flooding the endpoint with posts that are not forms at all, costs
	// a read of at most contactBodyLimit bytes and a page rendered at start.
	refused := 0
	var posted contactRequest
	body, err := readBody(c, contactBodyLimit)
	if err != nil {
		refused = statusOf(err)
	} else {
		decode := decodeContactJSON
		if asPage {
			decode = decodeContactForm
		}
		if posted, err = decode(body); err != nil {
			refused = http.StatusBadRequest
		}
	}
	lang := requestLanguage(info, posted.Lang, req)
	if srv.throttled(c, srv.contactLimiter) {
		refused = http.StatusTooManyRequests
	}
	if refused != 0 {
		return answer(lang, contactOutcome{status: refused, posted: posted})
	}

	if errs := posted.validate(); errs != nil {
		return answer(lang, contactOutcome{status: http.StatusUnprocessableEntity, errs: errs, posted: posted})
	}
	// The message is in the language it was answered in, and so is the
	// acknowledgement mailed to the visitor.
	posted.Lang = lang
	receipt, err := srv.Contact.Submit(req.Context(), posted.submission())
	if errs, invalid := errors.AsType[contact.FieldErrors](err); invalid {
		return answer(lang, contactOutcome{status: http.StatusUnprocessableEntity, errs: errs, posted: posted})
	}
	if err != nil {
		return answer(lang, contactOutcome{status: srv.failureStatus(c, err), posted: posted})
	}
	// A bot is answered exactly like a person; only the log tells them apart.
	srv.log.Info("contact message stored", "id", requestID(c), "ref", receipt.Ref, "spam", receipt.Spam)
	return answer(lang, contactOutcome{status: http.StatusCreated, ref: receipt.Ref})
}

// contactSent is the JSON answer to an accepted message.
type contactSent struct {
	Message struct {
		Ref string `json:"ref"`
	} `json:"message"`
}

func (srv *Server) contactJSON(c echo.Context, lang string, out contactOutcome) error {
	c.Response().Header().Set("Cache-Control", "no-store")
	if out.status == http.StatusCreated {
		var sent contactSent
		sent.Message.Ref = out.ref
		return c.JSON(http.StatusCreated, sent)
	}
	return c.JSON(out.status, srv.apiErrorOf(out.status, lang, out.errs))
}

// contactPage answers a form post with the home page in the form's
// language showing the form's outcome: rendered at start when the page
// holds nothing of the post; for an invalid form, filled in from a shell
// rendered once (sitebuild, InvalidContactAnswer); else for this request.
func (srv *Server) contactPage(c echo.Context, lang string, out contactOutcome) error {
	b := srv.Build()
	if r, ok, err := b.ContactAnswer(c.Request().Context(), lang, out.status); err != nil {
		return err
	} else if ok {
		r.ServeHTTP(c.Response(), c.Request())
		return nil
	}
	html, err := b.InvalidContactAnswer(c.Request().Context(), lang, sitebuild.ContactOutcome{
		Status: out.status, Errors: out.errs,
		Name: out.posted.Name, Email: out.posted.Email, Message: out.posted.Message, Service: out.posted.Service,
	})
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.HTMLBlob(out.status, html)
}
