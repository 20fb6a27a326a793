package builtin

import (
	"strings"

	"signals/internal/model"
)

// The place tables (tables/places-*.txt) say what a query names when it
// asks for signals from a place, and what a signal's text names when it
// says where it is.

// placeKind says what a place word names.
type placeKind uint8

const (
	placeCountry   placeKind = iota + 1 // a country's name: queries and texts
	placeAdjective                      // an adjective or demonym: queries only
	placeCity                           // a city: queries and texts
	placeRegion                         // a region: queries only
)

// placeEntry is one place word (possibly several words) and what it names.
type placeEntry struct {
	kind      placeKind
	countries []string
	city      string // the city's folded name, for placeCity
}

// placeTable returns every place word with what it names: the country
// names, adjectives, cities and regions of the place tables, and the English
// short names spelled by the country keys.
func placeTable(names, adjectives, cities map[string]string, regions map[string][]string) map[string]placeEntry {
	t := map[string]placeEntry{}
	for _, k := range model.Countries {
		t[strings.ReplaceAll(k, "_", " ")] = placeEntry{kind: placeCountry, countries: []string{k}}
	}
	for w, k := range names {
		t[w] = placeEntry{kind: placeCountry, countries: []string{k}}
	}
	for w, k := range adjectives {
		t[w] = placeEntry{kind: placeAdjective, countries: []string{k}}
	}
	for w, k := range cities {
		t[w] = placeEntry{kind: placeCity, countries: []string{k}, city: w}
	}
	for w, ks := range regions {
		t[w] = placeEntry{kind: placeRegion, countries: ks}
	}
	return t
}
