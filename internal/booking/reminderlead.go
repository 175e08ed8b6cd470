package booking

import "time"

// ReminderLead is how long before a consultation its reminder is mailed,
// as the visitor is told (the confirmation page, the confirmation mail):
// Unit "day" (the day before: 24 hours), "days" (Count days, from 48 hours
// on, rounded to the nearest day: 49 hours are 2 days) or "hours" (Count
// hours, under 48 hours but for 24). The setting is REMINDER_HOURS.
type ReminderLead struct {
	Unit  string `json:"unit"`
	Count int    `json:"count"`
}

// LeadOf is the ReminderLead of a reminder mailed before the start; the
// zero ReminderLead when before is not positive (no reminder).
func LeadOf(before time.Duration) ReminderLead {
	hours := int((before + time.Hour/2) / time.Hour)
	switch {
	case before <= 0:
		return ReminderLead{}
	case hours == 24:
		return ReminderLead{Unit: "day", Count: 1}
	case hours >= 48:
		return ReminderLead{Unit: "days", Count: (hours + 12) / 24}
	}
	return ReminderLead{Unit: "hours", Count: max(hours, 1)}
}

// sentence says in lang when the reminder comes, one of the sentences the
// confirmation page says it with.
func (l ReminderLead) sentence(texts Translator, lang string) string {
	switch l.Unit {
	case "day":
		return texts.T(lang, "schedule.confirmed.next.reminder")
	case "days":
		return texts.Plural(lang, "schedule.confirmed.next.reminderDays", l.Count)
	case "hours":
		return texts.Plural(lang, "schedule.confirmed.next.reminderHours", l.Count)
	}
	return ""
}

// ReminderLead is when the reminder of a booking comes, which the
// confirmation states when the booking has one (Booking.ReminderRef).
func (s *Service) ReminderLead() ReminderLead { return LeadOf(s.cfg.ReminderBefore) }
