package staff

import (
	"context"
	"fmt"
	"time"

	"github.com/northbeam/site/internal/store"
)

// Actions of the audit log. The workspace shows them translated
// (audit.actions.<action> in content/staff/locales).
const (
	ActionInvite            = "invitation"
	ActionRemove            = "staff-removal"
	ActionEnrol             = "enrolment"
	ActionPasskeyAdded      = "passkey-added"
	ActionPasskeyRemoved    = "passkey-removed"
	ActionSignIn            = "sign-in"
	ActionSignOut           = "sign-out"
	ActionSignOutEverywhere = "sign-out-everywhere"
	ActionMessageHandled    = "message-handled"
	ActionMessageReopened   = "message-reopened"
	ActionNotSpam           = "not-spam"
	ActionMarkedSpam        = "marked-spam"
	ActionCancel            = "booking-cancellation"
	ActionMailRetry         = "mail-retry"
	ActionExport            = "export"
	ActionPrivacySearch     = "privacy-search"
	ActionPrivacyExport     = "privacy-export"
	ActionErasure           = "erasure"
	ActionRetention         = "retention"
	ActionHandOver          = "hand-over"
	ActionFeedAdded         = "calendar-feed-added"
	ActionFeedRemoved       = "calendar-feed-removed"
	ActionFeedRenewed       = "private-feed-renewed"
	ActionFeedRevoked       = "private-feed-revoked"
)

// ActorRetention is who the audit log says acted when the retention job did.
const ActorRetention = "retention job"

// Entry is one line of the audit log.
type Entry struct {
	ID      int64
	At      time.Time
	Actor   string
	Action  string
	Subject string
	Detail  string
}

// record writes an entry inside the transaction of the change it records.
// subject and detail never hold a visitor's address (see the package
// documentation).
func record(ctx context.Context, q store.Querier, at time.Time, actor, action, subject, detail string) error {
	_, err := q.ExecContext(ctx, `INSERT INTO staff_audit (at, actor, action, subject, detail) VALUES (?, ?, ?, ?, ?)`,
		store.Millis(at), actor, action, subject, detail)
	if err != nil {
		return fmt.Errorf("staff: audit %s: %w", action, err)
	}
	return nil
}

// Record writes an entry for an action taken outside a transaction of the
// workspace (an export, which only reads).
func (w *Workspace) Record(ctx context.Context, actor, action, subject, detail string) error {
	return record(ctx, w.store, w.cfg.Now(), actor, action, subject, detail)
}

// AuditPage is a page of the audit log, newest first; Next is the cursor of
// the page after it (0 when there is none).
type AuditPage struct {
	Entries []Entry
	Next    int64
}

// Audit returns up to limit entries (at most a page) older than the entry
// before (0: the newest), newest first, by the primary key.
func (w *Workspace) Audit(ctx context.Context, before int64, limit int) (AuditPage, error) {
	limit = clampLimit(limit)
	query := `SELECT id, at, actor, action, subject, detail FROM staff_audit`
	args := []any{}
	if before > 0 {
		query += ` WHERE id < ?`
		args = append(args, before)
	}
	query += ` ORDER BY id DESC LIMIT ?`
	args = append(args, limit+1)
	entries, err := store.QueryAll(ctx, w.store, scanEntry, query, args...)
	if err != nil {
		return AuditPage{}, fmt.Errorf("staff: read the audit log: %w", err)
	}
	page := AuditPage{Entries: entries}
	if len(page.Entries) > limit {
		page.Entries = page.Entries[:limit]
		page.Next = page.Entries[limit-1].ID
	}
	return page, nil
}

func scanEntry(row store.Scanner) (Entry, error) {
	var e Entry
	var at int64
	if err := row.Scan(&e.ID, &at, &e.Actor, &e.Action, &e.Subject, &e.Detail); err != nil {
		return Entry{}, err
	}
	e.At = store.FromMillis(at)
	return e, nil
}
