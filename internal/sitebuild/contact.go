package sitebuild

import (
	"context"
	"net/http"

	"github.com/northbeam/site/internal/contact"
	"github.com/northbeam/site/internal/work"
)

// Without JavaScript the contact form is a plain HTML form post, answered
// with the home page showing the outcome in the form.

// ContactOutcome is how a contact form post ended, as the page answering it
// shows it.
type ContactOutcome struct {
	// Status is the answer's HTTP status: 201 when the message was sent,
	// 422 when the form is invalid; any other means it failed.
	Status int
	// What the visitor typed, shown again unless the message was sent.
	Name, Email, Message, Service string
	// Errors are the invalid fields' locale keys, by field, on 422.
	Errors map[string]string
}

// contactForm is the contact form after a post without JavaScript, as the
// home page's payload carries it (data.contact); the form's component
// reads it (frontend/lib/contact.ts declares the same shape).
type contactForm struct {
	Status string            `json:"status"`           // "sent", "invalid" or "error"
	Values map[string]string `json:"values,omitempty"` // what was typed, kept unless sent
	Errors map[string]string `json:"errors,omitempty"` // field -> locale key
	Reason string            `json:"reason,omitempty"` // locale key of why it failed, when the visitor can act on it
}

// rateLimitedReason is the locale key of why a post over the rate limit
// failed: the visitor can wait and send again.
const rateLimitedReason = "errors.rateLimited"

// form is the contact form after a post with outcome out.
func (out ContactOutcome) form() contactForm {
	switch out.Status {
	case http.StatusCreated:
		return contactForm{Status: "sent"}
	case http.StatusUnprocessableEntity:
		return contactForm{Status: "invalid", Values: out.typed(), Errors: out.Errors}
	}
	state := contactForm{Status: "error", Values: out.typed()}
	if out.Status == http.StatusTooManyRequests {
		state.Reason = rateLimitedReason
	}
	return state
}

func (out ContactOutcome) typed() map[string]string {
	return map[string]string{
		contact.FieldName: out.Name, contact.FieldEmail: out.Email,
		contact.FieldMessage: out.Message, contact.FieldService: out.Service,
	}
}

// homeData is the data of the home page.
type homeData struct {
	Contact      *contactForm       `json:"contact,omitempty"`
	Work         []work.Summary     `json:"work"`         // the selected case studies
	Testimonials []work.Testimonial `json:"testimonials"` // their clients' words
}

// contactFormPage is the home page of lang answering a form post with
// form.
func (s *Build) contactFormPage(lang string, form contactForm) page {
	l, ok := s.Info.Language(lang)
	if !ok {
		l = s.Info.Default()
	}
	p := s.homePage(l)
	data, _ := p.data.(homeData)
	data.Contact = &form
	p.data = data
	p.noScript = true
	return p
}

// answeredAtStart returns the outcomes of a form post whose page shows
// nothing of the post, grouped by page: success (the form is emptied), the
// refusals of a body that is not a form or is too large (one page), and of
// too many posts. Refusals may come in floods. Their pages are rendered once
// per language when the site is built; a refusal's page does not show the
// values posted again (the browser's Back button has them). An invalid
// form, which shows what was typed beside its errors, is rendered for its
// post, once the rate limit has counted it.
func answeredAtStart() [][]int {
	return [][]int{
		{http.StatusCreated},
		{http.StatusBadRequest, http.StatusRequestEntityTooLarge},
		{http.StatusTooManyRequests},
	}
}

// RenderContactAnswer renders the home page of lang showing the outcome of
// a contact form post, for an outcome ContactAnswer has no page of.
func (s *Build) RenderContactAnswer(ctx context.Context, lang string, out ContactOutcome) ([]byte, error) {
	return s.document(ctx, s.contactFormPage(lang, out.form()))
}
