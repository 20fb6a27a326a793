package api

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	"signals/internal/failure"
	"signals/internal/model"
	"signals/internal/quota"
	"signals/internal/search"
	"signals/internal/wire"
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

// Search validates req and runs it for acct.
func (a *API) Search(ctx context.Context, acct model.Account, req SearchRequest) (*SearchResponse, error) {
	r, err := req.Validate()
	if err != nil {
		return nil, err
	}
	res, err := a.Searcher.Search(ctx, acct, r)
	if err != nil {
		return nil, err
	}
	resp := &SearchResponse{Query: r.Query, Matches: make([]SearchMatch, len(res.Matches)),
		CacheHit: res.CacheHit, SearchesRemaining: res.SearchesRemaining,
		CandidatesConsidered: res.CandidatesConsidered,
		SearchedAt:           res.SearchedAt.UTC().Format(time.RFC3339Nano),
		ExpiresAt:            res.ExpiresAt.UTC().Format(time.RFC3339Nano)}
	resp.SearchedAtAlias, resp.ExpiresAtAlias = resp.SearchedAt, resp.ExpiresAt
	for i, m := range res.Matches {
		resp.Matches[i] = SearchMatch{SignalMeta: NewSignalMeta(m.Signal),
			Snippet: model.Cut(m.Signal.Text, model.MatchSnippetChars), Relevance: m.Relevance, Matched: m.Why}
	}
	return resp, nil
}

// HandleSearch serves POST /api/v1/signals/search.
func (a *API) HandleSearch(w http.ResponseWriter, r *http.Request) {
	req, err := decodeSearch(w, r)
	if err != nil {
		a.Problems.Write(w, r, err)
		return
	}
	resp, err := a.Search(r.Context(), principalAccount(r), req)
	if err != nil {
		quota.ReturnRefused(w, r, err) // a refused search is not a request
		a.Problems.Write(w, r, err)
		return
	}
	a.writeJSON(w, r, resp, true)
}

// decodeSearch reads a search body: JSON, at most MaxBodyBytes, one object
// decoded by wire.Decode.
func decodeSearch(w http.ResponseWriter, r *http.Request) (SearchRequest, error) {
	var req SearchRequest
	if err := noQuery(r); err != nil {
		return req, err
	}
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mt != "application/json" {
		return req, failure.New(failure.CodeUnsupportedMediaType,
			"send the search as a JSON body with Content-Type: application/json")
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBodyBytes))
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		return req, failure.New(failure.CodePayloadTooLarge,
			fmt.Sprintf("the body is larger than %d bytes", MaxBodyBytes))
	}
	if err != nil {
		return req, failure.New(failure.CodeInvalidJSON, "the body could not be read")
	}
	return req, wire.Decode(body, &req)
}
