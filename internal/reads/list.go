package reads

import (
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strings"
	"unicode/utf8"

	"signals/internal/failure"
	"signals/internal/model"
	"signals/internal/wire"
)

// ListRequest is the input of a listing: the query string of
// GET /api/v1/signals (see ParseListQuery) and the arguments of the
// list_signals tool.
type ListRequest struct {
	Tags          wire.List `json:"tags,omitempty"`
	Sources       wire.List `json:"sources,omitempty"`
	Language      wire.List `json:"language,omitempty"`
	Country       wire.List `json:"country,omitempty"`
	Q             *string   `json:"q,omitempty"`
	ObservedAfter *string   `json:"observed_after,omitempty"`
	Page          *int      `json:"page,omitempty"`
	PageSize      *int      `json:"page_size,omitempty"`
}

// Fields that a listing and a search share.
var (
	tagsField    = wire.Field{Doc: "Only signals with one of these tags.", Enum: &tagEnum}
	sourcesField = wire.Field{Doc: "Only signals from one of these platforms.", Enum: &sourceEnum}
	afterField   = wire.Field{Doc: "Only signals collected strictly after this RFC 3339 time; poll with the newest `observed_at` seen.",
		Format: "date-time", Rule: "must be a string: " + model.ErrTime.Error()}
)

func init() {
	wire.Describe[ListRequest]("", wire.Fields{
		"tags":    tagsField,
		"sources": sourcesField,
		"language": {Doc: "Only signals in this language; `other` is neither English nor French.",
			Enum: &languageEnum, MaxItems: 1},
		"country": {Doc: "Only signals from this country, a key such as canada or united_states.",
			Enum: &countryEnum, MaxItems: 1},
		"q": {Doc: "A literal, case-insensitive substring of the text, author name or headline; `%`, `_` and `*` match themselves.",
			Length: wire.Between(1, model.MaxQChars)},
		"observed_after": afterField,
		"page": {Doc: fmt.Sprintf("Page number. With `q`, page × page_size is at most %d.", model.MaxQDepth),
			Range: wire.Between(1, model.MaxPage), Default: 1},
		"page_size": {Doc: "Signals per page.", Range: wire.Between(1, model.MaxPageSize), Default: model.DefaultPageSize},
	})
}

// ListParams are the parameters of a listing, in documentation order.
var ListParams = wire.Names[ListRequest]()

// Validate checks a listing request and returns the page to list.
func (r ListRequest) Validate() (model.ListQuery, error) {
	q := model.ListQuery{Page: 1, PageSize: model.DefaultPageSize}
	if err := model.CheckValues("tags", r.Tags, model.Tags, model.TagAliases); err != nil {
		return q, err
	}
	if err := model.CheckValues("sources", r.Sources, model.Sources, model.SourceAliases); err != nil {
		return q, err
	}
	if len(r.Language) > 1 {
		return q, oneValue("language", model.Languages)
	}
	if err := model.CheckValues("language", r.Language, model.Languages, model.LanguageAliases); err != nil {
		return q, err
	}
	if len(r.Country) > 1 {
		return q, oneValue("country", model.Countries)
	}
	if err := model.CheckCountries("country", r.Country); err != nil {
		return q, err
	}
	if r.Q != nil {
		s := *r.Q
		if n := model.Chars(s); n < 1 || n > model.MaxQChars || strings.TrimSpace(s) == "" {
			return q, wire.Invalid[ListRequest]("q")
		}
		if !utf8.ValidString(s) || strings.ContainsRune(s, 0) {
			p := wire.Invalid[ListRequest]("q")
			p.ValidationMessage = fmt.Sprintf("must be UTF-8 text without NUL characters, 1 to %d characters long", model.MaxQChars)
			p.Detail = "q " + p.ValidationMessage
			return q, p
		}
		q.Q = s
	}
	if r.ObservedAfter != nil {
		t, err := model.ParseObservedAfter("observed_after", *r.ObservedAfter)
		if err != nil {
			return q, err
		}
		q.ObservedAfter = t
	}
	if r.Page != nil {
		if *r.Page < 1 || *r.Page > model.MaxPage {
			return q, wire.Invalid[ListRequest]("page")
		}
		q.Page = *r.Page
	}
	if r.PageSize != nil {
		if *r.PageSize < 1 || *r.PageSize > model.MaxPageSize {
			return q, wire.Invalid[ListRequest]("page_size")
		}
		q.PageSize = *r.PageSize
	}
	if err := q.CheckDepth(); err != nil {
		return q, err
	}
	q.Tags, q.Sources = model.Sorted(r.Tags), model.Sorted(r.Sources)
	if len(r.Language) > 0 {
		q.Languages = r.Language
	}
	if len(r.Country) > 0 {
		q.Countries = r.Country
	}
	return q, nil
}

func oneValue(name string, allowed []string) *failure.Error {
	return failure.Invalid(name, "takes one value, one of the allowed values", allowed)
}

// ParseListQuery reads the query string of a listing into a ListRequest and
// validates it. Unknown parameters, values outside their enumerations and
// out-of-range numbers are problems naming the parameter and what it
// accepts; of several unknown parameters the first in sorted order is
// named, so the answer never varies.
func ParseListQuery(v url.Values) (model.ListQuery, error) {
	r, err := listRequestOf(v)
	if err != nil {
		return model.ListQuery{}, err
	}
	return r.Validate()
}

// listRequestOf fills a ListRequest from a query string: tags and sources
// take comma-separated lists or repeats, the other parameters one value.
func listRequestOf(v url.Values) (ListRequest, error) {
	var r ListRequest
	for _, name := range slices.Sorted(maps.Keys(v)) {
		// A nameless pair ("?=x") carries nothing a client could mean.
		if name != "" && !slices.Contains(ListParams, name) {
			return r, failure.Unknown(name, ListParams)
		}
	}
	r.Tags = model.SplitList(v["tags"])
	r.Sources = model.SplitList(v["sources"])
	var err error
	if r.Language, err = single(v, "language", model.Languages); err != nil {
		return r, err
	}
	if r.Country, err = single(v, "country", model.Countries); err != nil {
		return r, err
	}
	if r.Q, err = once(v, "q"); err != nil {
		return r, err
	}
	if r.ObservedAfter, err = once(v, "observed_after"); err != nil {
		return r, err
	}
	if r.Page, err = integer(v, "page"); err != nil {
		return r, err
	}
	if r.PageSize, err = integer(v, "page_size"); err != nil {
		return r, err
	}
	return r, nil
}

// single returns the value of a parameter that takes one value, trimmed,
// as a list.
func single(v url.Values, name string, allowed []string) ([]string, error) {
	s, ok := v[name]
	if !ok {
		return nil, nil
	}
	if len(s) != 1 || strings.Contains(s[0], ",") {
		return nil, oneValue(name, allowed)
	}
	if t := strings.TrimSpace(s[0]); t != "" {
		return []string{t}, nil
	}
	return nil, nil
}

// once returns the value of a parameter that may be given once.
func once(v url.Values, name string) (*string, error) {
	s, ok := v[name]
	if !ok {
		return nil, nil
	}
	if len(s) != 1 {
		return nil, failure.Malformed(name, "must be given once")
	}
	return &s[0], nil
}

// integer returns the value of an integer parameter: decimal digits, given
// once. Anything else is the parameter's range problem.
func integer(v url.Values, name string) (*int, error) {
	s, ok := v[name]
	if !ok {
		return nil, nil
	}
	str := ""
	if len(s) == 1 {
		str = strings.TrimSpace(s[0])
	}
	if str == "" || len(str) > 9 || strings.Trim(str, "0123456789") != "" {
		return nil, wire.Invalid[ListRequest](name)
	}
	n := 0
	for _, c := range str {
		n = n*10 + int(c-'0')
	}
	return &n, nil
}
