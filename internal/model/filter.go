package model

import (
	"fmt"
	"net/url"
	"strconv"
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

// FilterParams are the parameters of a feed or a hub filter: a listing's,
// without paging.
var FilterParams = []string{"tags", "sources", "language", "country", "q", "observed_after"}

// CanonicalQuery writes the filter of q as a query string in a fixed order
// (tags and sources comma-separated), adding page and page_size when they
// differ from their defaults. Equal filters give equal strings.
func CanonicalQuery(q ListQuery) string {
	v := FilterValues(q.Filter, q.Q)
	s := encodeOrdered(v, FilterParams)
	add := func(name string, n, def int) {
		if n != def && n != 0 {
			if s != "" {
				s += "&"
			}
			s += name + "=" + strconv.Itoa(n)
		}
	}
	add("page_size", q.PageSize, DefaultPageSize)
	add("page", q.Page, 1)
	return s
}

// FilterValues returns the parameters that express f and q.
func FilterValues(f Filter, q string) url.Values {
	v := url.Values{}
	if len(f.Tags) > 0 {
		v.Set("tags", strings.Join(f.Tags, ","))
	}
	if len(f.Sources) > 0 {
		v.Set("sources", strings.Join(f.Sources, ","))
	}
	if len(f.Languages) > 0 {
		v.Set("language", f.Languages[0])
	}
	if len(f.Countries) > 0 {
		v.Set("country", f.Countries[0])
	}
	if q != "" {
		v.Set("q", q)
	}
	if f.ObservedAfter != nil {
		v.Set("observed_after", f.ObservedAfter.String())
	}
	return v
}

func encodeOrdered(v url.Values, order []string) string {
	var parts []string
	for _, name := range order {
		if x := v.Get(name); x != "" {
			// Commas separate values; they need no escaping.
			parts = append(parts, name+"="+strings.ReplaceAll(url.QueryEscape(x), "%2C", ","))
		}
	}
	return strings.Join(parts, "&")
}
