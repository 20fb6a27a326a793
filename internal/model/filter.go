package model

import (
	"fmt"
	"strings"

	"signals/internal/failure"
)

// Paging limits.
const (
	DefaultPageSize = 20
	MaxPageSize     = 50
	MaxPage         = 1_000_000
	// MaxQDepth is how many results deep a listing with Q reaches
	// (page × page_size): a page of matches is found by walking every
	// match before it, so a deep page costs the whole walk.
	MaxQDepth = 10_000
	MaxQChars = 200
)

// Filter selects public signals. Values within one field combine with OR;
// fields combine with AND. Empty fields do not filter.
type Filter struct {
	Tags          []string
	Sources       []string
	Languages     []string
	Countries     []string
	ObservedAfter *Time
}

// ListQuery is one page of a filtered listing (clients ask for one with an
// reads.ListRequest).
type ListQuery struct {
	Filter
	// Q is a literal substring, matched case-insensitively: stores compare
	// Fold(Q) with the folded fields.
	Q        string
	Page     int
	PageSize int
}

// Offset is the number of signals before the page.
func (q ListQuery) Offset() int { return (q.Page - 1) * q.PageSize }

// CheckDepth refuses a page of a listing with Q that ends deeper than
// MaxQDepth results, naming page with the deepest page at this page size
// as its maximum. q's Page and PageSize are already validated.
func (q ListQuery) CheckDepth() error {
	deepest := MaxQDepth / q.PageSize
	if q.Q == "" || q.Page <= deepest {
		return nil
	}
	e := failure.OutOfRange("page", 1, int64(deepest)).WithMessage(fmt.Sprintf(
		"must be an integer from 1 to %d with q and page_size %d: a listing with q reaches at most %d results deep",
		deepest, q.PageSize, MaxQDepth))
	e.Detail += "; narrow the filters to reach older signals"
	return e
}

// CheckValues validates every value of a multi-valued parameter; a value
// outside allowed is refused naming the allowed values closest to it, in
// spelling or, by aliases (TagAliases…), in meaning.
func CheckValues(param string, values, allowed []string, aliases map[string]string) error {
	for _, v := range values {
		if !IsOneOf(v, allowed) {
			return failure.NotAllowed(param, v, "must be one of: "+strings.Join(allowed, ", "), allowed, aliases)
		}
	}
	return nil
}

// CheckCountries validates country keys; an unknown key is refused naming
// the keys closest to it, other common names of countries included.
func CheckCountries(param string, values []string) error {
	for _, v := range values {
		if !ValidCountry(v) {
			return failure.NotAllowed(param, v, "must be a country key such as canada or united_states", Countries, CountryAliases)
		}
	}
	return nil
}

// ParseObservedAfter validates an observed_after value.
func ParseObservedAfter(param, v string) (*Time, error) {
	t, err := ParseTime(v)
	if err != nil {
		return nil, failure.Malformed(param, err.Error())
	}
	return &t, nil
}
