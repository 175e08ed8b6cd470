package store

// visitorMigrations are the schema steps of the visitor side's changes
// (names 0040 to 0049), after the staff side's.
func visitorMigrations() []Migration {
	return []Migration{
		{
			Name: "0040_cancel_reason",
			// Why the visitor cancelled, in their words, if they said;
			// '' when they did not or when staff cancelled.
			SQLite: `
ALTER TABLE bookings ADD COLUMN cancel_reason TEXT NOT NULL DEFAULT '';
`,
			Postgres: `
ALTER TABLE bookings ADD COLUMN cancel_reason text NOT NULL DEFAULT '';
`,
		},
		emailKeysCaseOnlyStep, // emailkeys.go
	}
}
