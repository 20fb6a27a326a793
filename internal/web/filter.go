package web

import (
	"maps"
	"net/url"
	"slices"
	"strings"

	"signals/internal/failure"
	"signals/internal/model"
	"signals/internal/reads"
)

// ParseFilter validates a filter given as query values: the parameters of
// a listing without page and page_size, with the listing's rules.
func ParseFilter(v url.Values) (model.ListQuery, error) {
	for _, name := range slices.Sorted(maps.Keys(v)) {
		if name != "" && !model.IsOneOf(name, model.FilterParams) {
			return model.ListQuery{}, failure.Unknown(name, model.FilterParams)
		}
	}
	return reads.ParseListQuery(v)
}

// ParseHubFilter validates the filter of a hub, written as a query string
// ("tags=funding&country=canada").
func ParseHubFilter(s string) (model.ListQuery, error) {
	v, err := reads.ParseQuery(strings.TrimPrefix(s, "?"))
	if err != nil {
		return model.ListQuery{}, err
	}
	return ParseFilter(v)
}
