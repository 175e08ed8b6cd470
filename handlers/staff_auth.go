package handlers

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/northbeam/site/internal/staff"
)

// The staff workspace's sign-in: passkeys (WebAuthn ceremonies, each tied
// to the browser that began it by a cookie), invitations that enrol a
// first passkey, and one-time links by mail. registerStaff lists the
// routes; every attempt counts against the client's limit.

// signedIn is the answer of a sign-in: where the workspace opens.
type signedIn struct {
	Redirect string `json:"redirect"`
}

// tooMany answers a request over a limit (throttled has set Retry-After).
func (h *staffHandlers) tooMany(c echo.Context) error {
	return h.failStatus(c, http.StatusTooManyRequests)
}

// startSession sets the cookie of a new session, after ending the one the
// browser held, if any: nobody's earlier session (nor a cookie planted by
// someone else) lives on as this sign-in's.
func (h *staffHandlers) startSession(c echo.Context, token string) {
	if old, ok, _ := h.session(c); ok {
		_ = h.srv.Staff.SignOut(c.Request().Context(), old)
	}
	h.setCookie(c, staffSessionCookie, token, staff.SessionLifetime)
	// What the account page lists the session as; a failure here costs a
	// sign-in nothing but that.
	if err := h.srv.Staff.DescribeSession(c.Request().Context(), token, c.Request().UserAgent()); err != nil {
		h.srv.log.Warn("staff session not described", "id", requestID(c), "error", err.Error())
	}
}

// admit lets a sign-in's request through: the workspace, then the request
// counted against limiter, then its body read into body (unless nil). ws
// is nil when the request was answered (503 without a workspace, 429 over
// the limit) or refused (a body decodeJSON refuses): return err.
func (h *staffHandlers) admit(c echo.Context, limiter limiter, body any) (ws *staff.Workspace, err error) {
	ws, err = h.workspace(c)
	if ws == nil {
		return nil, err
	}
	if h.srv.throttled(c, limiter) {
		return nil, h.tooMany(c)
	}
	if body != nil {
		if err := decodeJSON(c, staffBodyLimit, body); err != nil {
			return nil, err
		}
	}
	return ws, nil
}

func (h *staffHandlers) beginSignIn(c echo.Context) error {
	ws, err := h.admit(c, h.signInLimiter, nil)
	if ws == nil {
		return err
	}
	cer, err := ws.BeginSignIn(c.Request().Context())
	if err != nil {
		return h.refusal(c, err)
	}
	h.setCookie(c, staffCeremonyCookie, cer.Token, staff.CeremonyLifetime)
	return c.JSON(http.StatusOK, cer.Options)
}

// credentialRequest carries an authenticator's answer, and the invitation
// of an enrolment.
type credentialRequest struct {
	Invitation string          `json:"invitation"`
	Credential json.RawMessage `json:"credential"`
	// Lang is the language the invitation's page was read in: the new
	// member's workspace keeps it.
	Lang string `json:"lang"`
}

func (h *staffHandlers) finishSignIn(c echo.Context) error {
	var body credentialRequest
	ws, err := h.admit(c, h.signInLimiter, &body)
	if ws == nil {
		return err
	}
	ceremony := h.cookie(c, staffCeremonyCookie)
	h.clearCookie(c, staffCeremonyCookie)
	_, token, err := ws.FinishSignIn(c.Request().Context(), ceremony, body.Credential)
	if errors.Is(err, staff.ErrPasskeyRefused) {
		h.srv.log.Info("staff passkey refused", "id", requestID(c), "reason", err.Error())
		return h.fail(c, http.StatusUnauthorized, "passkey_refused", "errors.passkeyRefused", nil)
	}
	return h.enter(c, token, err)
}

// linkRequest asks for a sign-in link by mail.
type linkRequest struct {
	Email string `json:"email"`
	Lang  string `json:"lang"`
}

// requestLink mails a sign-in link to a member, and answers the same (202)
// whether the address is a member's or not. The limit counts per client
// and per address, so that nobody's inbox can be flooded from many places.
func (h *staffHandlers) requestLink(c echo.Context) error {
	var body linkRequest
	ws, err := h.admit(c, h.linkLimiter, &body)
	if ws == nil {
		return err
	}
	email, valid := staff.NormalizeEmail(body.Email)
	if !valid {
		return h.refusal(c, staff.ErrInvalidEmail)
	}
	// The address is counted by its hash: the shared limiter's table
	// holds no address.
	sum := sha256.Sum256([]byte("staff link\x00" + email))
	ok, wait, err := h.addressLimiter.Allow(c.Request().Context(), "address:"+hex.EncodeToString(sum[:16]), h.srv.Now())
	if err == nil && !ok {
		c.Response().Header().Set("Retry-After", strconv.Itoa(max(1, int(wait.Seconds()+0.999))))
		return h.tooMany(c)
	}
	// Queued: the answer comes as soon, and reads the same, whether or
	// not the address is a member's.
	if err := ws.QueueSignInLink(email); err != nil {
		return h.refusal(c, err)
	}
	return c.JSON(http.StatusAccepted, map[string]bool{"sent": true})
}

// useLinkRequest spends a mailed link.
type useLinkRequest struct {
	Token string `json:"token"`
}

func (h *staffHandlers) useLink(c echo.Context) error {
	var body useLinkRequest
	ws, err := h.admit(c, h.signInLimiter, &body)
	if ws == nil {
		return err
	}
	_, token, err := ws.UseSignInLink(c.Request().Context(), body.Token)
	return h.enter(c, token, err)
}

// beginPasskey starts the registration of a passkey: through an
// invitation (counted against the sign-in limit), or by a signed-in member
// adding one.
func (h *staffHandlers) beginPasskey(c echo.Context) error {
	var body credentialRequest
	ws, member, err := h.registrant(c, &body)
	if ws == nil {
		return err
	}
	ctx := c.Request().Context()
	var cer staff.Ceremony
	if member == nil {
		cer, err = ws.BeginEnrolment(ctx, body.Invitation)
	} else {
		cer, err = ws.BeginPasskey(ctx, *member)
	}
	if err != nil {
		return h.refusal(c, err)
	}
	h.setCookie(c, staffCeremonyCookie, cer.Token, staff.CeremonyLifetime)
	return c.JSON(http.StatusOK, cer.Options)
}

// registrant reads the body of a passkey's registration into body, and
// says whose passkey it is: an invitation's holder (member nil), whose
// request counts against the sign-in limit, or the signed-in member. ws is
// nil when the request was answered (503 without a workspace, 429 over
// the limit, 401 signed out, a failure) or refused (a body decodeJSON
// refuses): return err.
func (h *staffHandlers) registrant(c echo.Context, body *credentialRequest) (ws *staff.Workspace, member *staff.Session, err error) {
	ws, err = h.workspace(c)
	if ws == nil {
		return nil, nil, err
	}
	if err := decodeJSON(c, staffBodyLimit, body); err != nil {
		return nil, nil, err
	}
	if body.Invitation != "" {
		if h.srv.throttled(c, h.signInLimiter) {
			return nil, nil, h.tooMany(c)
		}
		return ws, nil, nil
	}
	s, ok, err := h.session(c)
	switch {
	case err != nil:
		return nil, nil, h.failure(c, err)
	case !ok:
		return nil, nil, h.fail(c, http.StatusUnauthorized, "signed_out", "errors.signedOut", nil)
	}
	return ws, &s, nil
}

// finishPasskey stores the passkey made: an enrolment opens a session and
// the workspace; a member adding one gets their account back.
func (h *staffHandlers) finishPasskey(c echo.Context) error {
	var body credentialRequest
	ws, signedInAs, err := h.registrant(c, &body)
	if ws == nil {
		return err
	}
	ceremony := h.cookie(c, staffCeremonyCookie)
	h.clearCookie(c, staffCeremonyCookie)
	reg, err := ws.FinishRegistration(c.Request().Context(), ceremony, body.Invitation, signedInAs, body.Credential)
	if errors.Is(err, staff.ErrPasskeyRefused) {
		h.srv.log.Info("staff passkey not registered", "id", requestID(c), "reason", err.Error())
		return h.fail(c, http.StatusBadRequest, "passkey_refused", "errors.passkeyRefused", nil)
	}
	if err != nil {
		return h.refusal(c, err)
	}
	member := reg.Member
	if signedInAs != nil {
		member = signedInAs.Member
	}
	if err := ws.DescribeNewestPasskey(c.Request().Context(), member, c.Request().UserAgent()); err != nil {
		h.srv.log.Warn("staff passkey not described", "id", requestID(c), "error", err.Error())
	}
	if reg.SessionToken != "" {
		if _, known := h.srv.Build().Info.Language(body.Lang); known {
			if _, err := ws.SetLanguage(c.Request().Context(), reg.Member, body.Lang); err != nil {
				return h.failure(c, err)
			}
		}
		return h.enter(c, reg.SessionToken, nil)
	}
	return h.me(c)
}

// enter answers a sign-in: its refusal (err), or the session of token
// opened and the browser sent to the workspace.
func (h *staffHandlers) enter(c echo.Context, token string, err error) error {
	if err != nil {
		return h.refusal(c, err)
	}
	h.startSession(c, token)
	return c.JSON(http.StatusOK, signedIn{Redirect: "/staff"})
}

func (h *staffHandlers) signOut(c echo.Context) error {
	s, _, _ := h.session(c)
	return h.leave(c, h.srv.Staff.SignOut(c.Request().Context(), s))
}

func (h *staffHandlers) signOutEverywhere(c echo.Context) error {
	s, _, _ := h.session(c)
	_, err := h.srv.Staff.SignOutEverywhere(c.Request().Context(), s)
	return h.leave(c, err)
}

// leave answers a sign-out: its failure (err), or the session's cookie
// cleared.
func (h *staffHandlers) leave(c echo.Context, err error) error {
	if err != nil {
		return h.failure(c, err)
	}
	h.clearCookie(c, staffSessionCookie)
	return c.NoContent(http.StatusNoContent)
}
