package handlers

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/northbeam/site/internal/staff"
)

// The member's own account in the staff workspace's API: the language,
// the passkeys with their names, the open sessions. registerStaff lists
// the routes.

type staffAccount struct {
	Email    string             `json:"email"`
	Lang     string             `json:"lang"`
	Passkeys []staffPasskey     `json:"passkeys"`
	Sessions []staffSessionView `json:"sessions"`
}

// staffDevice is what a passkey and a session share: their id, when they
// were made, and on what (the browser and the system).
type staffDevice struct {
	ID       int64     `json:"id"`
	Created  time.Time `json:"created"`
	Browser  string    `json:"browser"`
	Platform string    `json:"platform"`
}

type staffPasskey struct {
	staffDevice
	LastUsed *time.Time `json:"lastUsed"`
	Name     string     `json:"name"`
}

type staffSessionView struct {
	staffDevice
	Seen    time.Time `json:"seen"`
	Current bool      `json:"current"`
}

func (h *staffHandlers) me(c echo.Context) error {
	s := h.member(c)
	keys, err := h.srv.Staff.Passkeys(c.Request().Context(), s.Member)
	if err != nil {
		return h.failure(c, err)
	}
	sessions, err := h.srv.Staff.Sessions(c.Request().Context(), s)
	if err != nil {
		return h.failure(c, err)
	}
	out := staffAccount{Email: s.Member.Email, Lang: s.Member.Lang, Passkeys: []staffPasskey{}, Sessions: []staffSessionView{}}
	for _, k := range keys {
		out.Passkeys = append(out.Passkeys, staffPasskey{staffDevice: staffDevice{ID: k.ID, Created: k.Created, Browser: k.Browser, Platform: k.Platform},
			LastUsed: optionalTime(k.LastUsed), Name: k.Name})
	}
	for _, x := range sessions {
		out.Sessions = append(out.Sessions, staffSessionView{staffDevice: staffDevice{ID: x.ID, Created: x.Created, Browser: x.Browser, Platform: x.Platform},
			Seen: x.Seen, Current: x.Current})
	}
	return c.JSON(http.StatusOK, out)
}

func (h *staffHandlers) setLanguage(c echo.Context) error {
	var body struct {
		Lang string `json:"lang"`
	}
	if err := decodeJSON(c, staffBodyLimit, &body); err != nil {
		return err
	}
	if _, known := h.srv.Build().Info.Language(body.Lang); !known {
		return h.fail(c, http.StatusUnprocessableEntity, "invalid", "errors.badRequest", nil)
	}
	m, err := h.srv.Staff.SetLanguage(c.Request().Context(), h.member(c).Member, body.Lang)
	if err != nil {
		return h.failure(c, err)
	}
	return c.JSON(http.StatusOK, map[string]string{"lang": m.Lang})
}

// renamePasskey names one of the member's passkeys.
func (h *staffHandlers) renamePasskey(c echo.Context) error {
	var body struct {
		Name string `json:"name"`
	}
	return h.withID(c, &body, func(ctx context.Context, id int64) error {
		err := h.srv.Staff.RenamePasskey(ctx, h.member(c), id, body.Name)
		if errors.Is(err, staff.ErrName) {
			return h.fail(c, http.StatusUnprocessableEntity, "invalid", "errors.passkeyName", map[string]string{"name": "errors.passkeyName"})
		}
		return h.accountAfter(c, err)
	})
}

// endSession signs out one of the member's sessions.
func (h *staffHandlers) endSession(c echo.Context) error {
	return h.withID(c, nil, func(ctx context.Context, id int64) error {
		return h.accountAfter(c, h.srv.Staff.EndSession(ctx, h.member(c), id))
	})
}

func (h *staffHandlers) removePasskey(c echo.Context) error {
	return h.withID(c, nil, func(ctx context.Context, id int64) error {
		return h.accountAfter(c, h.srv.Staff.RemovePasskey(ctx, h.member(c), id))
	})
}

// accountAfter answers a change to the member's account: the change's
// refusal, or the account as it now stands.
func (h *staffHandlers) accountAfter(c echo.Context, err error) error {
	if err != nil {
		return h.refusal(c, err)
	}
	return h.me(c)
}
