package model

import (
	"testing"
	"time"
	"unicode/utf8"
)

func TestParseTimeKeepsPrecision(t *testing.T) {
	tests := []struct {
		in, out string
	}{
		{"2026-03-01T10:00:00Z", "2026-03-01T10:00:00Z"},
		{"2026-03-01T10:00:00.120Z", "2026-03-01T10:00:00.120Z"},
		{"2026-03-01T10:00:00.123456789Z", "2026-03-01T10:00:00.123456789Z"},
		{"2026-03-01T12:00:00.5+02:00", "2026-03-01T10:00:00.5Z"},
		{"2026-03-01T00:30:00-01:00", "2026-03-01T01:30:00Z"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseTime(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if got.String() != tt.out {
				t.Errorf("ParseTime(%q) = %s, want %s", tt.in, got, tt.out)
			}
		})
	}
}

func TestParseTimeRejects(t *testing.T) {
	for _, in := range []string{
		"", "2026-03-01", "2026-03-01T10:00:00", "2026-03-01 10:00:00Z",
		"2026-03-01T10:00:00.1234567891Z", "1800-01-01T00:00:00Z", "2026-13-01T00:00:00Z",
		"2026-03-01T10:00:00+2", "yesterday",
	} {
		if _, err := ParseTime(in); err == nil {
			t.Errorf("ParseTime(%q) succeeded, want error", in)
		}
	}
}

func TestCutNeverSplitsACodePoint(t *testing.T) {
	s := "héllo 👋🏽 wörld"
	for n := 0; n <= Chars(s)+1; n++ {
		c := Cut(s, n)
		if want := min(n, Chars(s)); Chars(c) != want {
			t.Errorf("Cut(%d) has %d code points, want %d", n, Chars(c), want)
		}
		if !utf8.ValidString(c) {
			t.Errorf("Cut(%d) = %q is not valid UTF-8", n, c)
		}
	}
}

func TestFoldMatchesCaseInsensitively(t *testing.T) {
	tests := []struct{ a, b string }{
		{"STRASSE", "straße"},
		{"Été", "ÉTÉ"},
		{"OpenAI", "openai"},
		{"e\u0301", "\u00e9"}, // decomposed and composed é
	}
	for _, tt := range tests {
		if Fold(tt.a) != Fold(tt.b) {
			t.Errorf("Fold(%q)=%q != Fold(%q)=%q", tt.a, Fold(tt.a), tt.b, Fold(tt.b))
		}
	}
}

func TestStartOf(t *testing.T) {
	at := time.Date(2026, 11, 19, 15, 42, 37, 123456789, time.UTC) // a Thursday
	for prec, want := range map[string]string{
		"second": "2026-11-19T15:42:37Z", "minute": "2026-11-19T15:42:00Z", "hour": "2026-11-19T15:00:00Z",
		"day": "2026-11-19T00:00:00Z", "week": "2026-11-16T00:00:00Z", "month": "2026-11-01T00:00:00Z",
		"year": "2026-01-01T00:00:00Z",
	} {
		if got := StartOf(at, prec).Format(time.RFC3339Nano); got != want {
			t.Errorf("StartOf(%s) = %s, want %s", prec, got, want)
		}
	}
}
