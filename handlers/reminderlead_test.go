package handlers

import (
	"fmt"
	"testing"
	"time"

	"github.com/northbeam/site/internal/booking"
	"github.com/northbeam/site/internal/sitetest"
	"github.com/northbeam/site/internal/store"
	"github.com/northbeam/site/internal/store/storetest"
)

// TestBookingSaysWhenTheReminderComes: the answer to a booking tells the
// confirmation page how long before the meeting the reminder comes, as
// REMINDER_HOURS sets it (49 hours: 2 days; 24: the day before; 2: 2
// hours), and nothing when no reminder is sent.
func TestBookingSaysWhenTheReminderComes(t *testing.T) {
	for hours, want := range map[int]*booking.ReminderLead{
		49: {Unit: "days", Count: 2}, 24: {Unit: "day", Count: 1}, 2: {Unit: "hours", Count: 2}, 0: nil,
	} {
		t.Run(fmt.Sprint(hours), func(t *testing.T) {
			env := newBookingEnvWith(t, storetest.Open(t, store.SQLite), sitetest.BookingFixture, &monday7am,
				func(c *booking.Config) { c.ReminderBefore = time.Duration(hours) * time.Hour })
			req := validBooking(t, "14:30", "en")
			req["start"] = tuesdayAt(t, "14:30").Add(48 * time.Hour).Format(time.RFC3339) // Thursday, 79 hours ahead
			got := bookSlot(t, env, req)
			if fmt.Sprint(got.ReminderLead) != fmt.Sprint(want) || got.Reminder != (want != nil) {
				t.Errorf("reminder %v, lead %v; want %v", got.Reminder, got.ReminderLead, want)
			}
		})
	}
}
