package model

import (
	"net/url"
	"strings"
	"unicode/utf8"

	"signals/internal/problem"
)

// Paging limits.
const (
	DefaultPageSize = 20
	MaxPageSize     = 50
	MaxPage         = 1_000_000
	MaxQChars       = 200
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

// ListQuery is one page of a filtered listing.
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

// CheckValues validates every value of a multi-valued parameter.
func CheckValues(param string, values, allowed []string) error {
	for _, v := range values {
		if !IsOneOf(v, allowed) {
			return problem.Invalid(param, "must be one of: "+strings.Join(allowed, ", "), allowed)
		}
	}
	return nil
}

// CheckCountries validates country keys.
func CheckCountries(param string, values []string) error {
	for _, v := range values {
		if !ValidCountry(v) {
			p := problem.Invalid(param, "must be a country key such as canada or united_states; the full list is in allowed_values", Countries)
			return p
		}
	}
	return nil
}

// ParseObservedAfter validates an observed_after value.
func ParseObservedAfter(param, v string) (*Time, error) {
	t, err := ParseTime(v)
	if err != nil {
		return nil, problem.Malformed(param, err.Error())
	}
	return &t, nil
}

// ListParams are the query parameters of a listing, in documentation order.
var ListParams = []string{"tags", "sources", "language", "country", "q", "observed_after", "page", "page_size"}

// ParseListQuery validates the query string of a listing. Unknown parameters,
// values outside their enumerations and out-of-range numbers are problems
// naming the parameter and what it accepts.
func ParseListQuery(v url.Values) (ListQuery, error) {
	q := ListQuery{Page: 1, PageSize: DefaultPageSize}
	for name := range v {
		// A nameless pair ("?=x") carries nothing a client could mean.
		if name != "" && !IsOneOf(name, ListParams) {
			return q, problem.Unknown(name, ListParams)
		}
	}
	q.Tags = SplitList(v["tags"])
	if err := CheckValues("tags", q.Tags, Tags); err != nil {
		return q, err
	}
	q.Sources = SplitList(v["sources"])
	if err := CheckValues("sources", q.Sources, Sources); err != nil {
		return q, err
	}
	var err error
	if q.Languages, err = single(v, "language", Languages); err != nil {
		return q, err
	}
	if err := CheckValues("language", q.Languages, Languages); err != nil {
		return q, err
	}
	if q.Countries, err = single(v, "country", Countries); err != nil {
		return q, err
	}
	if err := CheckCountries("country", q.Countries); err != nil {
		return q, err
	}
	if s, ok := v["q"]; ok {
		if len(s) != 1 {
			return q, problem.Malformed("q", "must be given once")
		}
		if n := Chars(s[0]); n < 1 || n > MaxQChars || strings.TrimSpace(s[0]) == "" {
			return q, problem.TooLong("q", 1, MaxQChars, "characters")
		}
		if !utf8.ValidString(s[0]) || strings.ContainsRune(s[0], 0) {
			p := problem.TooLong("q", 1, MaxQChars, "characters")
			p.ValidationMessage = "must be UTF-8 text without NUL characters, 1 to 200 characters long"
			p.Detail = "q " + p.ValidationMessage
			return q, p
		}
		q.Q = s[0]
	}
	if s, ok := v["observed_after"]; ok {
		if len(s) != 1 {
			return q, problem.Malformed("observed_after", "must be given once")
		}
		if q.ObservedAfter, err = ParseObservedAfter("observed_after", s[0]); err != nil {
			return q, err
		}
	}
	if q.Page, err = intParam(v, "page", 1, MaxPage, 1); err != nil {
		return q, err
	}
	if q.PageSize, err = intParam(v, "page_size", 1, MaxPageSize, DefaultPageSize); err != nil {
		return q, err
	}
	q.Tags, q.Sources = Sorted(q.Tags), Sorted(q.Sources)
	return q, nil
}

// single returns the value of a parameter that takes one value, as a list.
func single(v url.Values, name string, allowed []string) ([]string, error) {
	s, ok := v[name]
	if !ok {
		return nil, nil
	}
	if len(s) != 1 || strings.Contains(s[0], ",") {
		return nil, problem.Invalid(name, "takes one value, one of the allowed values", allowed)
	}
	if t := strings.TrimSpace(s[0]); t != "" {
		return []string{t}, nil
	}
	return nil, nil
}

func intParam(v url.Values, name string, min, max, def int) (int, error) {
	s, ok := v[name]
	if !ok {
		return def, nil
	}
	if len(s) != 1 {
		return 0, problem.OutOfRange(name, int64(min), int64(max))
	}
	n := 0
	str := strings.TrimSpace(s[0])
	if str == "" || len(str) > 9 {
		return 0, problem.OutOfRange(name, int64(min), int64(max))
	}
	for _, c := range str {
		if c < '0' || c > '9' {
			return 0, problem.OutOfRange(name, int64(min), int64(max))
		}
		n = n*10 + int(c-'0')
	}
	if n < min || n > max {
		return 0, problem.OutOfRange(name, int64(min), int64(max))
	}
	return n, nil
}
