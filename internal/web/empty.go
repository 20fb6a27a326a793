package web

import (
	"slices"
	"strings"

	"signals/internal/label"
	"signals/internal/model"
)

// SearchPath is the semantic search page, which runs a search for a
// signed-in person.
const SearchPath = "/search"

// emptyView is what a public feed view that lists nothing suggests: each
// link drops one part of the filter, one asks for fewer words, and one
// runs the words as a semantic search.
type emptyView struct {
	// Filter describes the filter that matched nothing, in words; "" when
	// there is none, and so no public signal at all.
	Filter string
	Clear  []link
	// Fewer is the same view with the last of several words dropped.
	Fewer link
	// Search is the semantic search of the words with the same filter,
	// for a signed-in person; "" otherwise.
	Search string
}

// noSignalYet is what an empty feed without a filter says.
const noSignalYet = "No signal is public yet."

// suggest returns what an empty public feed view with q offers; signedIn
// adds the semantic search of q's words.
func suggest(q model.ListQuery, signedIn bool) *emptyView {
	q = model.ListQuery{Filter: q.Filter, Q: q.Q, PageSize: q.PageSize, Page: 1}
	e := &emptyView{}
	if model.CanonicalQuery(model.ListQuery{Filter: q.Filter, Q: q.Q}) != "" {
		e.Filter = strings.Join(filterSummary(q), "; ")
	}
	href := func(q model.ListQuery) string { return pageURL(listing{path: "/", query: q}, 1) }
	drop := func(title string, change func(*model.ListQuery)) {
		c := q
		c.Filter = model.Filter{Tags: slices.Clone(q.Tags), Sources: slices.Clone(q.Sources),
			Languages: q.Languages, Countries: q.Countries, ObservedAfter: q.ObservedAfter}
		change(&c)
		e.Clear = append(e.Clear, link{Href: href(c), Title: title})
	}
	for _, t := range q.Tags {
		drop("kind "+label.Tag(t), func(c *model.ListQuery) { c.Tags = slices.DeleteFunc(c.Tags, func(x string) bool { return x == t }) })
	}
	for _, s := range q.Sources {
		drop("source "+label.Source(s), func(c *model.ListQuery) {
			c.Sources = slices.DeleteFunc(c.Sources, func(x string) bool { return x == s })
		})
	}
	if len(q.Languages) > 0 {
		drop("language "+label.Language(q.Languages[0]), func(c *model.ListQuery) { c.Languages = nil })
	}
	if len(q.Countries) > 0 {
		drop("country "+label.Country(q.Countries[0]), func(c *model.ListQuery) { c.Countries = nil })
	}
	if q.ObservedAfter != nil {
		drop("collected after "+q.ObservedAfter.String(), func(c *model.ListQuery) { c.ObservedAfter = nil })
	}
	if q.Q != "" {
		drop("words “"+q.Q+"”", func(c *model.ListQuery) { c.Q = "" })
		if words := strings.Fields(q.Q); len(words) > 1 {
			fewer := q
			fewer.Q = strings.Join(words[:len(words)-1], " ")
			e.Fewer = link{Href: href(fewer), Title: fewer.Q}
		}
		if signedIn {
			v := model.FilterValues(q.Filter, "")
			v.Set("query", q.Q)
			e.Search = SearchPath + "?" + v.Encode()
		}
	}
	return e
}

// appendSuggestions writes e as Markdown: a sentence, then one line per
// link, with absolute addresses.
func (s *Site) appendSuggestions(b []byte, e *emptyView) []byte {
	if e.Filter == "" {
		return append(b, "\n"+noSignalYet+"\n"...)
	}
	b = append(b, "\nNo public signal matches "...)
	b = append(appendMDText(b, e.Filter), ".\n\n"...)
	for _, c := range e.Clear {
		b = append(appendMDText(append(b, "- Without "...), c.Title), ": <"...)
		b = append(append(b, model.SafeURL(s.absolute(c.Href))...), ">\n"...)
	}
	if e.Fewer.Href != "" {
		b = append(appendMDText(append(b, "- Fewer words, "...), "“"+e.Fewer.Title+"”"), ": <"...)
		b = append(append(b, model.SafeURL(s.absolute(e.Fewer.Href))...), ">\n"...)
	}
	return b
}
