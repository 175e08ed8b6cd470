package booking

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/northbeam/site/internal/store"
	"github.com/northbeam/site/internal/store/storetest"
)

// echoTexts translates a key to itself with its variables, so tests can
// see which string was asked for.
type echoTexts struct{}

func (echoTexts) T(lang, key string, vars ...string) string {
	return lang + ":" + key + strings.Join(vars, ",")
}

func (e echoTexts) Plural(lang, key string, n int, vars ...string) string {
	return e.T(lang, key, append([]string{"count", strconv.Itoa(n)}, vars...)...)
}

// mailTemplates are minimal templates that use every field the real ones
// may use: the visitor's mails, the booking's facts; the consultancy's,
// what the visitor wrote too.
func mailTemplates(t testing.TB) fstest.MapFS {
	const visitorBody = "Subject: {{.ServiceTitle}} {{.When}}\n\n{{.Service}} {{.Minutes}} {{.TimeZone}} " +
		"{{.HostWhen}} {{.HostTimeZone}} {{.SameZone}} {{.CancelURL}} {{.RescheduleURL}} {{.ScheduleURL}} {{.Brand.Name}} " +
		"meeting={{.Meeting}} {{.MeetingURL}} {{.Phone}} reminder={{.Reminder}} was={{.PreviousWhen}} {{.HostPreviousWhen}}\n"
	const notifyBody = "Subject: {{.ServiceTitle}} {{.When}}\n\n{{.Name}} {{.Email}} {{.Company}} {{.Topic}} {{.Minutes}} {{.TimeZone}} " +
		"{{.HostWhen}} {{.HostTimeZone}} {{.SameZone}} {{.LangLabel}} {{.CreatedAt}} {{.CancelURL}} {{.ScheduleURL}} {{.Brand.Name}} {{.CancelReason}}\n"
	fsys := fstest.MapFS{}
	for _, name := range []string{"site.json", "staff/locales/en.json"} {
		data, err := os.ReadFile(filepath.Join("../../content", name))
		if err != nil {
			t.Fatal(err)
		}
		fsys[name] = &fstest.MapFile{Data: data}
	}
	for _, lang := range shippedSite(t).Languages.Codes() {
		fsys["mail/"+lang+"/booking-confirmation.txt"] = &fstest.MapFile{Data: []byte(visitorBody)}
		fsys["mail/"+lang+"/booking-cancelled.txt"] = &fstest.MapFile{Data: []byte(visitorBody)}
		fsys["mail/"+lang+"/booking-moved.txt"] = &fstest.MapFile{Data: []byte(visitorBody)}
		fsys["mail/"+lang+"/booking-reminder.txt"] = &fstest.MapFile{Data: []byte(visitorBody)}
	}
	fsys["mail/en/booking-notify.txt"] = &fstest.MapFile{Data: []byte(notifyBody)}
	fsys["mail/en/booking-cancel-notify.txt"] = &fstest.MapFile{Data: []byte(notifyBody)}
	fsys["mail/en/booking-moved-notify.txt"] = &fstest.MapFile{Data: []byte(notifyBody)}
	return fsys
}

func testService(t *testing.T, st *store.Store, now *time.Time) *Service {
	t.Helper()
	return testServiceWith(t, st, now, nil)
}

// testServiceWith is testService with its configuration changed by edit.
func testServiceWith(t *testing.T, st *store.Store, now *time.Time, edit func(*Config)) *Service {
	t.Helper()
	cfg := Config{
		Availability: fixture(t),
		Inbox:        "team@example.com",
		Brand:        Brand{Name: "Northbeam", Email: "hello@example.com", BaseURL: "https://example.com"},
		Texts:        echoTexts{},
		Dates:        shippedDates(t),
		LocalURL:     func(lang, path string) string { return "https://example.com/" + lang + path },
		Now:          func() time.Time { return *now },
	}
	if edit != nil {
		edit(&cfg)
	}
	svc, err := NewService(st, mailTemplates(t), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return svc
}

func request(t *testing.T, service, start string) BookingRequest {
	return BookingRequest{
		Service: service, Start: start, Name: "Jane Doe", Email: "jane@example.com",
		TimeZone: "Pacific/Auckland", Lang: "fr",
	}
}

func countRows(t *testing.T, st *store.Store, query string) int {
	t.Helper()
	var n int
	if err := st.QueryRowContext(context.Background(), query).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestServiceBooksOnceAndKeepsTheBuffer(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		// Monday 1 March 2027, 06:00 in Berlin: Tuesday is bookable.
		now := utc(t, "2027-03-01T05:00:00Z")
		svc := testService(t, st, &now)
		ctx := context.Background()

		b, err := svc.Book(ctx, request(t, "strategy", "2027-03-02T09:00:00Z")) // 10:00-10:30 Berlin
		if err != nil {
			t.Fatal(err)
		}
		if b.Lang != "fr" || b.Token == b.CancelToken || !ValidToken(b.Token) || !ValidToken(b.CancelToken) {
			t.Errorf("booking %+v", b)
		}
		for _, tc := range []struct {
			service, start string
			err            error
		}{
			{"strategy", "2027-03-02T09:00:00Z", ErrSlotTaken},  // the same time
			{"discovery", "2027-03-02T09:15:00Z", ErrSlotTaken}, // inside
			{"discovery", "2027-03-02T08:45:00Z", ErrSlotTaken}, // ends 5 minutes before: within the buffer
			{"discovery", "2027-03-02T09:30:00Z", ErrSlotTaken}, // starts as it ends: within the buffer
			{"discovery", "2027-03-02T08:30:00Z", nil},          // ends 15 minutes before
			{"discovery", "2027-03-02T09:45:00Z", nil},          // starts 15 minutes after
		} {
			_, err := svc.Book(ctx, request(t, tc.service, tc.start))
			if !errors.Is(err, tc.err) {
				t.Errorf("%s at %s: %v, want %v", tc.service, tc.start, err, tc.err)
			}
		}
		if n := countRows(t, st, `SELECT count(*) FROM bookings`); n != 3 {
			t.Errorf("%d bookings, want 3", n)
		}
		if n := countRows(t, st, `SELECT count(*) FROM outbox`); n != 6 {
			t.Errorf("%d mails, want 2 per booking", n)
		}
		if n := countRows(t, st, `SELECT count(*) FROM outbox_attachments WHERE content_type LIKE 'text/calendar%method=REQUEST'`); n != 6 {
			t.Errorf("%d invites attached, want one per mail", n)
		}

		// An invalid request stores nothing.
		var fe FieldErrors
		if _, err := svc.Book(ctx, request(t, "strategy", "2027-03-02T09:05:00Z")); !errors.As(err, &fe) || fe["start"] != KeySlotUnavailable {
			t.Errorf("off the grid: %v", err)
		}

		// The slots leave out the booked times and their buffer.
		q := SlotsQuery{Service: "discovery", From: Date{2027, 3, 2}, Days: 1, TimeZone: "Europe/Berlin", Location: zone(t, "Europe/Berlin")}
		days, err := svc.Slots(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		offered := map[string]bool{}
		for _, s := range days[0].Slots {
			offered[s.Start.Format("15:04")] = true
		}
		for clock, want := range map[string]bool{"08:00": true, "08:15": false, "08:30": false, "09:00": false, "09:30": false, "09:45": false, "10:00": false, "10:15": true} {
			if offered[clock] != want {
				t.Errorf("%s UTC offered = %v, want %v", clock, offered[clock], want)
			}
		}
	})
}

func TestServiceCancel(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		now := utc(t, "2027-03-01T05:00:00Z")
		svc := testService(t, st, &now)
		ctx := context.Background()
		b, err := svc.Book(ctx, request(t, "discovery", "2027-03-02T09:00:00Z"))
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := svc.Cancel(ctx, b.Token); !errors.Is(err, ErrNotFound) {
			t.Errorf("the public token cancels: %v", err)
		}
		if _, _, err := svc.Cancel(ctx, "not a token"); !errors.Is(err, ErrNotFound) {
			t.Errorf("a malformed token: %v", err)
		}
		got, changed, err := svc.Cancel(ctx, b.CancelToken)
		if err != nil || !changed || !got.IsCancelled() {
			t.Fatalf("cancel: %+v %v %v", got, changed, err)
		}
		again, changed, err := svc.Cancel(ctx, b.CancelToken)
		if err != nil || changed || !again.Cancelled.Equal(got.Cancelled) {
			t.Errorf("second cancel: %+v %v %v", again, changed, err)
		}
		if n := countRows(t, st, `SELECT count(*) FROM outbox WHERE kind LIKE 'booking.cancel%'`); n != 2 {
			t.Errorf("%d cancellation mails, want 2", n)
		}
		if n := countRows(t, st, `SELECT count(*) FROM outbox_attachments WHERE content_type LIKE '%method=CANCEL'`); n != 2 {
			t.Errorf("%d cancellations attached, want 2", n)
		}
		if file := string(svc.ICSFile(again)); !strings.Contains(file, "STATUS:CANCELLED") || strings.Contains(file, "METHOD:") {
			t.Errorf("the calendar file of a cancelled booking does not cancel, or holds a METHOD:\n%s", file)
		}
		// The time is free again.
		if _, err := svc.Book(ctx, request(t, "discovery", "2027-03-02T09:00:00Z")); err != nil {
			t.Errorf("booking the freed time: %v", err)
		}

		// Once the meeting has begun, it stays.
		b2, err := svc.Book(ctx, request(t, "discovery", "2027-03-02T13:00:00Z"))
		if err != nil {
			t.Fatal(err)
		}
		now = utc(t, "2027-03-02T13:00:00Z")
		if _, _, err := svc.Cancel(ctx, b2.CancelToken); !errors.Is(err, ErrStarted) {
			t.Errorf("cancel at the start: %v", err)
		}
		found, err := svc.FindByCancelToken(ctx, b2.CancelToken)
		if err != nil || found.IsCancelled() || found.Token != b2.Token || !found.Start.Equal(b2.Start) {
			t.Errorf("find: %+v %v", found, err)
		}
	})
}

func TestServiceInviteIsInTheVisitorsLanguage(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		now := utc(t, "2027-03-01T05:00:00Z")
		svc := testService(t, st, &now)
		b, err := svc.Book(context.Background(), request(t, "discovery", "2027-03-02T09:00:00Z"))
		if err != nil {
			t.Fatal(err)
		}
		inv := svc.Invite(b)
		if inv.Summary != "fr:booking.invite.summaryservice,fr:schedule.services.discovery.title,name,Northbeam" {
			t.Errorf("summary %q", inv.Summary)
		}
		if inv.Host != "example.com" || inv.Organizer.Email != "team@example.com" || inv.URL != "https://example.com/fr/schedule" {
			t.Errorf("invite %+v", inv)
		}
		found, err := svc.Find(context.Background(), b.Token)
		if err != nil || string(svc.ICSFile(found)) != string(FileICS(b, inv)) {
			t.Errorf("the stored booking's calendar file differs from the booking's: %v", err)
		}
	})
}

// TestVisitorMailsCarryNoVisitorText: the confirmation and the
// cancellation go to an address nobody verified, so neither they nor their
// invites repeat the name, company or topic typed; the consultancy's
// notifications and invites keep them.
func TestVisitorMailsCarryNoVisitorText(t *testing.T) {
	now := utc(t, "2027-03-01T05:00:00Z")
	m, err := newMailer(os.DirFS("../../content"), Config{
		Availability: fixture(t), Inbox: "team@example.com",
		Brand: Brand{Name: "Northbeam", Email: "hello@example.com", BaseURL: "https://example.com"},
		Texts: echoTexts{}, Dates: shippedDates(t), LocalURL: func(lang, path string) string { return "https://example.com/" + lang + path },
	})
	if err != nil {
		t.Fatal(err)
	}
	lures := []string{"Your account is locked", "Evil Corp", "verify at https://evil.example/login"}
	for _, lang := range shippedSite(t).Languages.Codes() {
		b := Booking{
			Token: NewToken(), CancelToken: NewToken(), Service: "discovery",
			Start: now.Add(28 * time.Hour), End: now.Add(28*time.Hour + 15*time.Minute),
			Name: lures[0], Email: "victim@example.com", Company: lures[1], Topic: lures[2],
			TimeZone: "Europe/Paris", Lang: lang, Created: now, Cancelled: now.Add(time.Hour),
		}
		confirmation, err := m.confirmationMails(fixture(t), b)
		if err != nil {
			t.Fatal(err)
		}
		cancellation, err := m.cancellationMails(fixture(t), b)
		if err != nil {
			t.Fatal(err)
		}
		for _, msg := range append(confirmation, cancellation...) {
			all := msg.Subject + "\n" + msg.Text
			for _, a := range msg.Attachments {
				all += "\n" + strings.ReplaceAll(string(a.Data), "\r\n ", "") // unfolded
			}
			toVisitor := msg.To == b.Email
			for _, lure := range lures {
				if holds := strings.Contains(all, lure); holds && toVisitor {
					t.Errorf("%s %s to the visitor holds %q:\n%s", lang, msg.Kind, lure, all)
				} else if !holds && !toVisitor {
					t.Errorf("%s %s to the consultancy lacks %q:\n%s", lang, msg.Kind, lure, all)
				}
			}
			if toVisitor && (!strings.Contains(all, "ATTENDEE;ROLE=REQ-PARTICIPANT") || !strings.Contains(all, "mailto:victim@example.com")) {
				t.Errorf("%s %s: the invite does not name the attendee by address:\n%s", lang, msg.Kind, all)
			}
		}
	}
}

func TestNewServiceRejectsBrokenTemplates(t *testing.T) {
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "site.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	fsys := mailTemplates(t)
	fsys["mail/ar/booking-confirmation.txt"] = &fstest.MapFile{Data: []byte("Subject: {{.Nope}}\n\nbody\n")}
	_, err = NewService(st, fsys, Config{
		Availability: fixture(t), Inbox: "team@example.com",
		Brand: Brand{Name: "Northbeam", Email: "hello@example.com", BaseURL: "https://example.com"},
		Texts: echoTexts{}, Dates: shippedDates(t), LocalURL: func(lang, path string) string { return path },
	})
	if err == nil || !strings.Contains(err.Error(), "booking-confirmation.txt") {
		t.Errorf("err = %v, want the broken template named", err)
	}
}
