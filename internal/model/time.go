package model

import (
	"errors"
	"strings"
	"time"
)

// Time is an instant with the number of fractional-second digits it was given
// with, so that it is written back with exactly the precision it was stored
// with: never rounded, never padded.
type Time struct {
	// NS is nanoseconds since the Unix epoch, UTC.
	NS int64
	// Digits is the number of fractional-second digits (0 to 9).
	Digits int
}

// Range of accepted timestamps; both fit in int64 nanoseconds.
var (
	minTime = time.Date(1900, 1, 1, 0, 0, 0, 0, time.UTC)
	maxTime = time.Date(2200, 12, 31, 23, 59, 59, 999999999, time.UTC)
)

// ErrTime explains which timestamps are accepted.
var ErrTime = errors.New("must be an RFC 3339 timestamp with a timezone (Z or an offset such as +02:00), at most 9 fractional digits, between 1900 and 2200")

// ParseTime parses an RFC 3339 timestamp that carries a timezone.
func ParseTime(s string) (Time, error) {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil || len(s) < 20 || s[10] != 'T' {
		return Time{}, ErrTime
	}
	if t.Before(minTime) || t.After(maxTime) {
		return Time{}, ErrTime
	}
	digits := 0
	if len(s) > 19 && s[19] == '.' {
		rest := s[20:]
		for digits < len(rest) && rest[digits] >= '0' && rest[digits] <= '9' {
			digits++
		}
	}
	if digits > 9 {
		return Time{}, ErrTime
	}
	return Time{NS: t.UnixNano(), Digits: digits}, nil
}

// TimeOf returns t with the given number of fractional digits kept.
func TimeOf(t time.Time, digits int) Time {
	t = t.UTC()
	ns := t.UnixNano()
	cut := int64(1)
	for range 9 - digits {
		cut *= 10
	}
	return Time{NS: ns - ns%cut, Digits: digits}
}

// Time returns the instant as a time.Time in UTC.
func (t Time) Time() time.Time { return time.Unix(0, t.NS).UTC() }

// String formats the instant in UTC with exactly Digits fractional digits.
func (t Time) String() string {
	u := t.Time()
	s := u.Format("2006-01-02T15:04:05")
	if t.Digits > 0 {
		frac := u.Format(".000000000")
		s += frac[:1+t.Digits]
	}
	return s + "Z"
}

// MarshalText implements encoding.TextMarshaler.
func (t Time) MarshalText() ([]byte, error) { return []byte(t.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (t *Time) UnmarshalText(b []byte) error {
	v, err := ParseTime(strings.TrimSpace(string(b)))
	if err != nil {
		return err
	}
	*t = v
	return nil
}

// StartOf returns the start, in UTC, of the unit of the given precision
// (second, minute, hour, day, week from Monday, month, year) that contains t:
// the publication time a signal of that precision is stored with.
func StartOf(t time.Time, precision string) time.Time {
	t = t.UTC()
	day := time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
	switch precision {
	case "minute":
		return t.Truncate(time.Minute)
	case "hour":
		return t.Truncate(time.Hour)
	case "day":
		return day
	case "week":
		return day.AddDate(0, 0, -((int(day.Weekday()) + 6) % 7))
	case "month":
		return time.Date(t.Year(), t.Month(), 1, 0, 0, 0, 0, time.UTC)
	case "year":
		return time.Date(t.Year(), 1, 1, 0, 0, 0, 0, time.UTC)
	}
	return t.Truncate(time.Second)
}
