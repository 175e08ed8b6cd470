package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/northbeam/site/internal/booking"
	"github.com/northbeam/site/internal/config"
	"github.com/northbeam/site/internal/contact"
	"github.com/northbeam/site/internal/intl"
	"github.com/northbeam/site/internal/site"
	"github.com/northbeam/site/internal/staff"
	"github.com/northbeam/site/internal/store"
)

// staffUsage is the staff command's synopsis.
const staffUsage = `usage:
  ` + program + ` staff invite EMAIL   give EMAIL access and print a one-time invitation link (valid 24 hours)
  ` + program + ` staff list           list who has access
  ` + program + ` staff remove EMAIL   take access away (passkeys, links and sessions end with it)`

// staffCommand manages who may sign in to the staff workspace, on the
// database the configuration names (DATABASE_URL, else DATA_DIR), with the
// links made from BASE_URL: the same command as `go run .` and on the
// production binary.
func staffCommand(args []string, getenv func(string) string, out io.Writer) error {
	if len(args) == 0 {
		return errors.New("staff: " + staffUsage)
	}
	sub, rest := args[0], args[1:]
	switch {
	case (sub == "invite" || sub == "remove") && len(rest) == 1:
	case sub == "list" && len(rest) == 0:
	default:
		return errors.New("staff: " + staffUsage)
	}
	cfg, err := config.Load(nil, getenv)
	if err != nil {
		return fmt.Errorf("configuration: %w", err)
	}
	ctx := context.Background()
	src := projectSources(cfg)
	content, info, err := src.siteContent()
	if err != nil {
		return err
	}
	dates, err := src.dates(info)
	if err != nil {
		return err
	}
	cfg = withSiteEmail(cfg, info)
	st, err := openStore(ctx, cfg, 10*time.Second)
	if err != nil {
		return err
	}
	defer st.Close()
	ws, err := newStaffWorkspace(st, content, info, dates, cfg, nil, nil, nil, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		return err
	}
	switch sub {
	case "invite":
		inv, err := ws.Invite(ctx, rest[0], staff.ActorCommandLine)
		if errors.Is(err, staff.ErrInvalidEmail) {
			return fmt.Errorf("staff: %q is not an email address", rest[0])
		}
		if err != nil {
			return err
		}
		// The URL is the command's result: a failed write fails the command.
		if _, err := fmt.Fprintf(out, "Invitation for %s, valid once until %s:\n%s\n", inv.Email, inv.Expires.UTC().Format("2006-01-02 15:04 UTC"), inv.URL); err != nil {
			return err
		}
		if strings.HasPrefix(inv.URL, "http://") && !strings.Contains(inv.URL, "://localhost") && !strings.Contains(inv.URL, "://127.0.0.1") {
			fmt.Fprintln(out, "Note: BASE_URL is plain http: passkeys and the workspace's cookies need https (or localhost).")
		}
		return nil
	case "remove":
		err := ws.Remove(ctx, rest[0], staff.ActorCommandLine)
		switch {
		case errors.Is(err, staff.ErrNotFound):
			return fmt.Errorf("staff: %s has no access", rest[0])
		case errors.Is(err, staff.ErrInvalidEmail):
			return fmt.Errorf("staff: %q is not an email address", rest[0])
		case err != nil:
			return err
		}
		fmt.Fprintf(out, "%s no longer has access.\n", strings.ToLower(strings.TrimSpace(rest[0])))
		return nil
	}
	members, err := ws.Members(ctx)
	if err != nil {
		return err
	}
	if len(members) == 0 {
		fmt.Fprintln(out, "Nobody has access yet: "+program+" staff invite EMAIL")
		return nil
	}
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "EMAIL\tPASSKEYS\tSESSIONS\tADDED\tINVITATION")
	for _, m := range members {
		invitation := "-"
		if !m.Invited.IsZero() {
			invitation = "open until " + m.Invited.UTC().Format("2006-01-02 15:04 UTC")
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s\t%s\n", m.Email, m.Passkeys, m.Sessions, m.Created.UTC().Format(time.DateOnly), invitation)
	}
	return tw.Flush()
}

// newStaffWorkspace starts the staff workspace: its strings and mail from
// content, the consultancy's zone from the booking service (bookings nil:
// no cancellations, as in the staff command). cfg's mail settings are
// filled (withSiteEmail).
func newStaffWorkspace(st *store.Store, content fs.FS, info *site.Info, dates *intl.Formatter, cfg config.Config, bookings *booking.Service,
	calendars staff.MemberCalendars, queued func(), log *slog.Logger) (*staff.Workspace, error) {
	texts, err := site.LoadLocales(content, "staff/locales", info)
	if err != nil {
		return nil, err
	}
	wc := staff.Config{
		BaseURL: cfg.BaseURL, Name: info.Name, RetentionMonths: cfg.Retention,
		Texts: texts, Content: content, Queued: queued, Logger: log, Calendars: calendars,
	}
	if bookings != nil {
		wc.Location = bookings.Availability().Location
		if wc.Bookings, err = booking.NewStaffCancellation(bookings, content); err != nil {
			return nil, err
		}
	} else if av, err := booking.LoadAvailability(content, "availability.json"); err == nil {
		wc.Location = av.Location
	}
	zone := wc.Location
	if zone == nil {
		zone = time.UTC
	}
	wc.Contact, err = contact.NewMailer(content, contact.Brand{
		Name: info.Name, Email: info.Email, BaseURL: cfg.BaseURL, ResponseHours: info.Stats.ResponseHours, Zone: zone, Dates: dates,
	}, cfg.MailTo)
	if err != nil {
		return nil, err
	}
	return staff.New(st, wc)
}
