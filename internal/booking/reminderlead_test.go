package booking

import (
	"strings"
	"testing"
	"time"
)

// TestLeadOf: the reminder is announced as the setting says: the day
// before at 24 hours, in days from 48 hours on (49 hours are 2 days), in
// hours below, and not at all at 0.
func TestLeadOf(t *testing.T) {
	for hours, want := range map[int]ReminderLead{
		0: {}, 1: {"hours", 1}, 2: {"hours", 2}, 23: {"hours", 23}, 24: {"day", 1}, 25: {"hours", 25},
		47: {"hours", 47}, 48: {"days", 2}, 49: {"days", 2}, 72: {"days", 3}, 336: {"days", 14},
	} {
		if got := LeadOf(time.Duration(hours) * time.Hour); got != want {
			t.Errorf("LeadOf(%d hours) = %+v, want %+v", hours, got, want)
		}
	}
}

// TestConfirmationSaysWhenTheReminderComes: the visitor's confirmation
// mail, in every language, says when the reminder comes as REMINDER_HOURS
// sets it (49 hours: 2 days before; 24: the day before; 2: 2 hours
// before), with the sentence of the confirmation page, and says nothing
// of a reminder when none is sent.
func TestConfirmationSaysWhenTheReminderComes(t *testing.T) {
	content, info, texts, av := shippedContent(t)
	now := time.Date(2026, time.November, 16, 8, 0, 0, 0, time.UTC)
	for _, lang := range info.Languages.Codes() {
		sentences := map[int]string{
			49: texts.Plural(lang, "schedule.confirmed.next.reminderDays", 2),
			24: texts.T(lang, "schedule.confirmed.next.reminder"),
			2:  texts.Plural(lang, "schedule.confirmed.next.reminderHours", 2),
		}
		if sentences[49] == sentences[2] || sentences[49] == sentences[24] || sentences[2] == sentences[24] {
			t.Fatalf("%s: the sentences do not tell the settings apart: %v", lang, sentences)
		}
		for _, hours := range []int{49, 24, 2, 0} {
			svc, err := NewService(nil, content, Config{
				Availability: av, Inbox: "team@northbeam.test",
				Brand: Brand{Name: info.Name, Email: info.Email, BaseURL: "https://northbeam.test"},
				Texts: texts, Dates: shippedDates(t),
				LocalURL:       func(lang, path string) string { return "https://northbeam.test/" + lang + path },
				Now:            func() time.Time { return now },
				ReminderBefore: time.Duration(hours) * time.Hour,
			})
			if err != nil {
				t.Fatal(err)
			}
			start := time.Date(2026, time.December, 1, 8, 0, 0, 0, time.UTC)
			b := Booking{Token: "token", CancelToken: "cancel", Service: "discovery", Start: start, End: start.Add(av.Services["discovery"]),
				Name: "Jane Doe", Email: "jane@example.com", TimeZone: "Europe/Berlin", Lang: lang, Created: now, Phone: "+4930901820"}
			if hours > 0 {
				b.ReminderRef = "reminder-ref"
			}
			mails, err := svc.mailer.confirmationMails(av, b)
			if err != nil {
				t.Fatal(err)
			}
			text := mails[0].Text
			for h, s := range sentences {
				if said := strings.Contains(text, s); said != (h == hours) {
					t.Errorf("%s, REMINDER_HOURS=%d: says %q: %v\n%s", lang, hours, s, said, text)
				}
			}
		}
	}
}
