// Package model holds the domain of the service: signals, their visibility,
// filters, accounts and limits. It does no I/O.
package model

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// Enumerations of a signal's fields, in the order the documentation lists them.
var (
	Tags       = []string{"job", "funding", "product_launch", "product_feedback", "physical_ai", "events", "other"}
	Sources    = []string{"professional_network", "microblog", "tech_forum"}
	Languages  = []string{"en", "fr", "other"}
	Precisions = []string{"second", "minute", "hour", "day", "week", "month", "year"}
	Statuses   = []string{StatusPending, StatusPublic, StatusHidden}
	// SearchLanguages are the languages semantic search accepts; "other" is
	// for browsing only.
	SearchLanguages = []string{"en", "fr"}
)

// Editorial statuses.
const (
	StatusPending = "pending"
	StatusPublic  = "public"
	StatusHidden  = "hidden"
)

// Lengths, in Unicode code points unless said otherwise.
const (
	MaxIDChars        = 256
	ListSnippetChars  = 600
	MatchSnippetChars = 280
	MaxTextChars      = 16000
	CandidateChars    = 1000
)

// Signal is one collected item as stored. Text holds what the store returned:
// the whole text on import, a cut of it on reads.
type Signal struct {
	ID                   string
	Tag                  string
	Source               string
	Language             string
	Country              string // "" when unknown
	AuthorName           string
	AuthorHeadline       string
	SourceURL            string
	Text                 string
	TextChars            int
	PublishedAt          Time
	PublishedAtPrecision string
	ObservedAt           *Time
	Status               string
	MarketOnly           bool
}

// Public reports whether the signal may be shown anywhere.
func (s Signal) Public() bool { return s.Status == StatusPublic && !s.MarketOnly }

// TextTruncated reports whether a single read cuts the text.
func (s Signal) TextTruncated() bool { return s.TextChars > MaxTextChars }

// Cut returns the first n code points of s, never splitting one.
func Cut(s string, n int) string {
	if n <= 0 {
		return ""
	}
	i := 0
	for pos := range s {
		if i == n {
			return s[:pos]
		}
		i++
	}
	return s
}

// Chars counts the code points of s.
func Chars(s string) int { return utf8.RuneCountInString(s) }

// IsOneOf reports whether v is one of values.
func IsOneOf(v string, values []string) bool { return slices.Contains(values, v) }

// Sorted returns a sorted copy of values without duplicates.
func Sorted(values []string) []string {
	c := slices.Clone(values)
	slices.Sort(c)
	return slices.Compact(c)
}

// SplitList splits repeated and comma-separated values into one list,
// trimming spaces and dropping empty items.
func SplitList(values []string) []string {
	var out []string
	for _, v := range values {
		for item := range strings.SplitSeq(v, ",") {
			if item = strings.TrimSpace(item); item != "" {
				out = append(out, item)
			}
		}
	}
	return out
}
