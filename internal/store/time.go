package store

import "time"

// Millis converts t to the stored form of a time: milliseconds since the
// Unix epoch, UTC. The zero time is stored as 0.
func Millis(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMilli()
}

// FromMillis converts a stored time back, in UTC. 0 gives the zero time.
func FromMillis(ms int64) time.Time {
	if ms == 0 {
		return time.Time{}
	}
	return time.UnixMilli(ms).UTC()
}
