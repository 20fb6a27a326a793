package reads

import (
	"fmt"
	"signals/internal/model"
	"signals/internal/search"
	"signals/internal/wire"
	"strings"
	"time"
	"unicode/utf16"
	"unicode/utf8"
)

// Search limits.
const (
	MaxQueryUTF16 = 1200
	MaxBodyBytes  = 32 << 10
)

// SearchRequest is the body of POST /api/v1/signals/search and the input of
// the search_signals tool.
type SearchRequest struct {
	Query         string    `json:"query"`
	Tags          wire.List `json:"tags,omitempty"`
	Sources       wire.List `json:"sources,omitempty"`
	Language      wire.List `json:"language,omitempty"`
	Country       wire.List `json:"country,omitempty"`
	ObservedAfter *string   `json:"observed_after,omitempty"`
	Limit         *int      `json:"limit,omitempty"`
}

func init() {
	wire.Describe[SearchRequest]("A semantic search.", wire.Fields{
		"query": {Doc: fmt.Sprintf("What to search for, in plain words: at most %d UTF-16 code units.", MaxQueryUTF16),
			Length: wire.Between(1, MaxQueryUTF16), Unit: "UTF-16 code units",
			Rule: fmt.Sprintf("must be a non-blank string of at most %d UTF-16 code units", MaxQueryUTF16)},
		"tags":           tagsField,
		"sources":        sourcesField,
		"language":       {Doc: "Only signals in one of these languages.", Enum: &searchLanguageEnum},
		"country":        {Doc: "Only signals from one of these countries, keys such as canada or united_states.", Enum: &countryEnum},
		"observed_after": afterField,
		"limit":          {Doc: "Most matches to return.", Range: wire.Between(1, search.MaxMatches), Default: search.DefaultLimit},
	})
}

// SearchResponse is the body of a search answer. The camelCase fields are
// deprecated aliases with identical values.
type SearchResponse struct {
	Query                string        `json:"query"`
	Matches              []SearchMatch `json:"matches"`
	CacheHit             bool          `json:"cache_hit"`
	SearchesRemaining    int           `json:"searches_remaining"`
	CandidatesConsidered int           `json:"candidates_considered"`
	SearchedAt           string        `json:"searched_at"`
	ExpiresAt            string        `json:"expires_at"`
	SearchedAtAlias      string        `json:"searchedAt"`
	ExpiresAtAlias       string        `json:"expiresAt"`
	// NextSteps is only in an answer without a match (NextSteps).
	NextSteps []string `json:"next_steps,omitempty"`
}

func init() {
	wire.Describe[SearchResponse]("Matches of a semantic search, best first.", wire.Fields{
		"query":                 {Doc: "The query as searched: Unicode NFC, trimmed, with runs of whitespace folded to one space."},
		"matches":               {Doc: "Signals with relevance of at least the cutoff, best first.", MaxItems: search.MaxMatches},
		"cache_hit":             {Doc: "True when the result came from the search cache (no daily search was used)."},
		"searches_remaining":    {Doc: "Fresh searches left today for the account.", Range: wire.AtLeast(0)},
		"candidates_considered": {Doc: "Signals scored inside the filters.", Range: wire.Between(0, search.WindowSize)},
		"searched_at":           {Doc: "When the search ran.", Format: "date-time"},
		"expires_at":            {Doc: "When the cached result expires.", Format: "date-time"},
		"searchedAt":            {AliasOf: "searched_at"},
		"expiresAt":             {AliasOf: "expires_at"},
		"next_steps": {Doc: "Only when there is no match: short sentences on what to try next (broader words, the filters " +
			"that narrowed the search, a listing with q for exact words), whether this search used one of the day's " +
			"searches and how many remain."},
	})
}

// NextSteps says what to try after a search r that matched nothing:
// considered signals were scored inside its filters, spent tells whether
// it used one of the account's remaining daily searches. The sentences
// are the same over HTTP and MCP (one body), so each names both forms.
func NextSteps(r search.Request, considered int, spent bool, remaining int) []string {
	var steps []string
	filters := filterNames(r.Filter)
	switch {
	case considered == 0 && len(filters) > 0:
		steps = append(steps, "No signal is inside the filters "+sentenceList(filters)+": drop or widen them.")
	case considered == 0:
		steps = append(steps, "There are no public signals to search yet.")
	default:
		steps = append(steps, fmt.Sprintf("None of the %d signals scored was clearly about the query: try fewer or broader words, "+
			"such as the subject alone.", considered))
		if len(filters) > 0 {
			steps = append(steps, "The filters "+sentenceList(filters)+" narrowed the search: try it without them.")
		}
	}
	steps = append(steps, "For exact words, list signals with q (list_signals, or GET "+SignalsPath+"?q=…): a literal "+
		"substring of the text, author or headline; listings use no search.")
	left := fmt.Sprintf("%d searches remain today", remaining)
	switch remaining {
	case 0:
		left = "none remain today (they renew at 00:00 UTC)"
	case 1:
		left = "1 search remains today"
	}
	if spent {
		steps = append(steps, "This search used one of the day's searches; "+left+".")
	} else {
		steps = append(steps, "This answer came from the cache and used no search; "+left+".")
	}
	return steps
}

// filterNames names the filters of f that are set, each with its values.
func filterNames(f model.Filter) []string {
	var names []string
	for _, l := range []struct {
		name   string
		values []string
	}{{"tags", f.Tags}, {"sources", f.Sources}, {"language", f.Languages}, {"country", f.Countries}} {
		if len(l.values) > 0 {
			names = append(names, l.name+" ("+strings.Join(l.values, ", ")+")")
		}
	}
	if f.ObservedAfter != nil {
		names = append(names, "observed_after ("+f.ObservedAfter.Time().UTC().Format(time.RFC3339)+")")
	}
	return names
}

// sentenceList writes items as "a", "a and b", "a, b and c".
func sentenceList(items []string) string {
	if len(items) == 1 {
		return items[0]
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}

// UTF16Len counts s in UTF-16 code units, as the query limit does.
func UTF16Len(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r) // ranging over a string never yields a surrogate
	}
	return n
}

// Validate checks a search request and returns the search to run.
func (req SearchRequest) Validate() (search.Request, error) {
	var r search.Request
	if strings.TrimSpace(req.Query) == "" || UTF16Len(req.Query) > MaxQueryUTF16 {
		return r, wire.Invalid[SearchRequest]("query")
	}
	if !utf8.ValidString(req.Query) || strings.ContainsRune(req.Query, 0) {
		// MCP arguments and the JSON body are checked as bytes on the way
		// in; this keeps any other caller to the same rule.
		p := wire.Invalid[SearchRequest]("query")
		p.ValidationMessage = fmt.Sprintf("must be UTF-8 text without NUL characters, at most %d UTF-16 code units", MaxQueryUTF16)
		p.Detail = "query " + p.ValidationMessage
		return r, p
	}
	r.Query = search.NormalizeQuery(req.Query)
	if err := model.CheckValues("tags", req.Tags, model.Tags, model.TagAliases); err != nil {
		return r, err
	}
	if err := model.CheckValues("sources", req.Sources, model.Sources, model.SourceAliases); err != nil {
		return r, err
	}
	if err := model.CheckValues("language", req.Language, model.SearchLanguages, model.LanguageAliases); err != nil {
		return r, err
	}
	if err := model.CheckCountries("country", req.Country); err != nil {
		return r, err
	}
	r.Filter = model.Filter{Tags: model.Sorted(req.Tags), Sources: model.Sorted(req.Sources),
		Languages: model.Sorted(req.Language), Countries: model.Sorted(req.Country)}
	if req.ObservedAfter != nil {
		t, err := model.ParseObservedAfter("observed_after", *req.ObservedAfter)
		if err != nil {
			return r, err
		}
		r.Filter.ObservedAfter = t
	}
	r.Limit = search.DefaultLimit
	if req.Limit != nil {
		if *req.Limit < 1 || *req.Limit > search.MaxMatches {
			return r, wire.Invalid[SearchRequest]("limit")
		}
		r.Limit = *req.Limit
	}
	return r, nil
}
