package reads

import (
	"fmt"
	"signals/internal/model"
	"signals/internal/search"
	"signals/internal/wire"
	"strings"
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
	})
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
	if err := model.CheckValues("tags", req.Tags, model.Tags); err != nil {
		return r, err
	}
	if err := model.CheckValues("sources", req.Sources, model.Sources); err != nil {
		return r, err
	}
	if err := model.CheckValues("language", req.Language, model.SearchLanguages); err != nil {
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
