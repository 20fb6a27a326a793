package model

import (
	"fmt"
	"net/url"
	"strings"
	"unicode/utf8"
)

// FieldError is one reason a signal record is invalid.
type FieldError struct {
	Field  string
	Reason string
}

func (e FieldError) Error() string { return e.Field + ": " + e.Reason }

// Bounds of an imported signal's fields besides MaxIDChars.
const (
	MaxAuthorNameChars = 200
	MaxHeadlineChars   = 500
	MaxSourceURLBytes  = 2048
)

// Validate checks a signal record as imported and returns every problem found.
func (s Signal) Validate() []FieldError {
	var errs []FieldError
	add := func(field, reason string) { errs = append(errs, FieldError{field, reason}) }
	if n := Chars(s.ID); n < 1 || n > MaxIDChars {
		add("id", "must be 1 to 256 characters")
	} else if hasControl(s.ID) {
		add("id", "must not contain control characters")
	} else if s.ID == "." || s.ID == ".." {
		// URL encoders leave dots alone and clients resolve dot segments,
		// so /api/v1/signals/.. could never reach the signal.
		add("id", `must not be "." or "..", which cannot be addressed in a URL path`)
	}
	enum := func(field, v string, allowed []string) {
		if !IsOneOf(v, allowed) {
			add(field, "must be one of "+strings.Join(allowed, ", "))
		}
	}
	enum("tag", s.Tag, Tags)
	enum("source", s.Source, Sources)
	enum("language", s.Language, Languages)
	enum("published_at_precision", s.PublishedAtPrecision, Precisions)
	enum("status", s.Status, Statuses)
	if s.Country != "" && !ValidCountry(s.Country) {
		add("country", "must be a known country key (lower-case English name with underscores, e.g. united_states) or null")
	}
	if strings.TrimSpace(s.AuthorName) == "" {
		add("author_name", "must not be empty")
	} else if Chars(s.AuthorName) > MaxAuthorNameChars {
		add("author_name", fmt.Sprintf("must be at most %d characters", MaxAuthorNameChars))
	}
	if Chars(s.AuthorHeadline) > MaxHeadlineChars {
		add("author_headline", fmt.Sprintf("must be at most %d characters", MaxHeadlineChars))
	}
	if u, err := url.Parse(s.SourceURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || len(s.SourceURL) > MaxSourceURLBytes {
		add("source_url", fmt.Sprintf("must be an absolute http or https URL of at most %d bytes", MaxSourceURLBytes))
	}
	if strings.TrimSpace(s.Text) == "" {
		add("text", "must not be empty")
	}
	for _, f := range []struct{ name, v string }{
		{"id", s.ID}, {"author_name", s.AuthorName}, {"author_headline", s.AuthorHeadline},
		{"text", s.Text}, {"source_url", s.SourceURL},
	} {
		if !utf8.ValidString(f.v) {
			add(f.name, "must be valid UTF-8")
		} else if strings.IndexByte(f.v, 0) >= 0 && f.name != "id" {
			add(f.name, "must not contain the NUL character (U+0000)")
		}
	}
	return errs
}

// PlausibleID reports whether id could be a stored signal's id.
func PlausibleID(id string) bool {
	n := Chars(id)
	return n >= 1 && n <= MaxIDChars && utf8.ValidString(id) && !hasControl(id)
}

func hasControl(s string) bool {
	for _, r := range s {
		if r < 0x20 || r == 0x7f {
			return true
		}
	}
	return false
}
