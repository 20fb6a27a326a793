package web

import (
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strings"

	"signals/internal/failure"
	"signals/internal/label"
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

// filterSummary describes a filter in words, one part per parameter.
func filterSummary(q model.ListQuery) []string {
	parts := valueParts(q.Tags, q.Sources, q.Languages, q.Countries, func(names []string) string {
		return strings.Join(names, " or ")
	})
	if q.Q != "" {
		parts = append(parts, fmt.Sprintf("words %q", q.Q))
	}
	if q.ObservedAfter != nil {
		parts = append(parts, "collected after "+q.ObservedAfter.String())
	}
	if len(parts) == 0 {
		parts = append(parts, "every public signal")
	}
	return parts
}

// valueParts names the chosen values of each dimension of a filter in
// words ("kind Funding or Job"), one part per dimension that has any,
// each dimension's names joined by join.
func valueParts(tags, sources, languages, countries []string, join func([]string) string) []string {
	var parts []string
	add := func(dimension string, values []string, name func(string) string) {
		if len(values) == 0 {
			return
		}
		names := make([]string, len(values))
		for i, v := range values {
			names[i] = name(v)
		}
		parts = append(parts, dimension+" "+join(names))
	}
	add("kind", tags, label.Tag)
	add("source", sources, label.Source)
	add("language", languages, label.Language)
	add("country", countries, label.Country)
	return parts
}
