package model

import "time"

// Limit names, as 429 problems and usage records name them.
const (
	LimitMinute    = "minute"
	LimitDay       = "day"
	LimitSearchDay = "search_day"
)

// Usage is an account's consumption in its current windows.
type Usage struct {
	// MinuteStart and DayStart are the current UTC minute and day.
	MinuteStart, DayStart time.Time
	MinuteUsed, DayUsed   int
	// SearchesUsed counts fresh semantic searches reserved this UTC day.
	SearchesUsed int
	// Denied names the limit that refused the request ("" if counted).
	Denied string
}

// MinuteOf and DayOf return the UTC windows that contain t.
func MinuteOf(t time.Time) time.Time { return t.UTC().Truncate(time.Minute) }

// DayOf returns the UTC day that contains t.
func DayOf(t time.Time) time.Time {
	y, m, d := t.UTC().Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// SecondsUntil returns whole seconds from now until t, rounded up, at least 1.
func SecondsUntil(now, t time.Time) int {
	d := t.Sub(now)
	s := int((d + time.Second - 1) / time.Second)
	return max(s, 1)
}
