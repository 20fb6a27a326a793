package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
	"time"
	"unicode/utf16"

	"signals/internal/model"
	"signals/internal/problem"
	"signals/internal/search"
)

// Search limits.
const (
	MaxQueryUTF16 = 1200
	MaxBodyBytes  = 32 << 10
)

// SearchRequest is the body of POST /api/v1/signals/search and the input of
// the search_signals tool.
type SearchRequest struct {
	Query         *string  `json:"query"`
	Tags          []string `json:"tags,omitempty"`
	Sources       []string `json:"sources,omitempty"`
	Language      []string `json:"language,omitempty"`
	Country       []string `json:"country,omitempty"`
	ObservedAfter *string  `json:"observed_after,omitempty"`
	Limit         *int     `json:"limit,omitempty"`
}

// SearchFields are the fields of a search request, in documentation order.
var SearchFields = []string{"query", "tags", "sources", "language", "country", "observed_after", "limit"}

// SearchResponse is the body of a search answer. The camelCase fields are
// deprecated aliases with identical values.
type SearchResponse struct {
	Query                string   `json:"query"`
	Matches              []Signal `json:"matches"`
	CacheHit             bool     `json:"cache_hit"`
	SearchesRemaining    int      `json:"searches_remaining"`
	CandidatesConsidered int      `json:"candidates_considered"`
	SearchedAt           string   `json:"searched_at"`
	ExpiresAt            string   `json:"expires_at"`
	SearchedAtAlias      string   `json:"searchedAt"`
	ExpiresAtAlias       string   `json:"expiresAt"`
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
	if req.Query == nil {
		return r, problem.Missing("query")
	}
	if strings.TrimSpace(*req.Query) == "" || UTF16Len(*req.Query) > MaxQueryUTF16 {
		return r, queryProblem()
	}
	r.Query = search.NormalizeQuery(*req.Query)
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
			return r, problem.OutOfRange("limit", 1, search.MaxMatches)
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
	resp := &SearchResponse{Query: r.Query, Matches: make([]Signal, len(res.Matches)),
		CacheHit: res.CacheHit, SearchesRemaining: res.SearchesRemaining,
		CandidatesConsidered: res.CandidatesConsidered,
		SearchedAt:           res.SearchedAt.UTC().Format(time.RFC3339Nano),
		ExpiresAt:            res.ExpiresAt.UTC().Format(time.RFC3339Nano)}
	resp.SearchedAtAlias, resp.ExpiresAtAlias = resp.SearchedAt, resp.ExpiresAt
	for i, m := range res.Matches {
		resp.Matches[i] = NewSignal(m.Signal)
		snippet := model.Cut(m.Signal.Text, model.MatchSnippetChars)
		relevance := m.Relevance
		resp.Matches[i].Snippet, resp.Matches[i].Relevance = &snippet, &relevance
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
		a.Problems.Write(w, r, err)
		return
	}
	a.writeJSON(w, r, resp, true)
}

// decodeSearch reads a search body: JSON, at most MaxBodyBytes, no unknown
// fields, one object.
func decodeSearch(w http.ResponseWriter, r *http.Request) (SearchRequest, error) {
	var req SearchRequest
	if err := noQuery(r); err != nil {
		return req, err
	}
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mt != "application/json" {
		return req, problem.New(http.StatusUnsupportedMediaType, problem.CodeUnsupportedMediaType,
			"send the search as a JSON body with Content-Type: application/json")
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBodyBytes))
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		return req, problem.New(http.StatusRequestEntityTooLarge, problem.CodePayloadTooLarge,
			fmt.Sprintf("the body is larger than %d bytes", MaxBodyBytes))
	}
	if err != nil {
		return req, problem.New(http.StatusBadRequest, problem.CodeInvalidJSON, "the body could not be read")
	}
	return req, DecodeStrict(body, &req, SearchFields)
}

// DecodeStrict decodes one JSON object into v, rejecting unknown fields,
// wrong types and trailing data with problems that name the field.
func DecodeStrict(body []byte, v any, fields []string) error {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	err := dec.Decode(v)
	if err == nil && dec.More() {
		err = errors.New("trailing data")
	}
	if err == nil {
		var rest json.RawMessage
		if dec.Decode(&rest) != io.EOF {
			err = errors.New("trailing data")
		}
	}
	if err == nil {
		return nil
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Field != "" {
		return fieldTypeProblem(strings.SplitN(te.Field, ".", 2)[0])
	}
	if name, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		return problem.Unknown(strings.Trim(name, `"`), fields)
	}
	return problem.New(http.StatusBadRequest, problem.CodeInvalidJSON,
		"the body must be one JSON object: "+strings.TrimPrefix(err.Error(), "json: "))
}

func queryProblem() *problem.Problem {
	p := problem.TooLong("query", 1, MaxQueryUTF16, "UTF-16 code units")
	p.ValidationMessage = fmt.Sprintf("must be a non-blank string of at most %d UTF-16 code units", MaxQueryUTF16)
	p.Detail = "query " + p.ValidationMessage
	return p
}

// fieldTypeProblem describes a field of the wrong JSON type with what it
// accepts.
func fieldTypeProblem(field string) error {
	switch field {
	case "query":
		return queryProblem()
	case "limit":
		return problem.OutOfRange("limit", 1, search.MaxMatches)
	case "observed_after":
		return problem.Malformed(field, "must be a string: "+model.ErrTime.Error())
	case "tags":
		return problem.Invalid(field, "must be an array of: "+strings.Join(model.Tags, ", "), model.Tags)
	case "sources":
		return problem.Invalid(field, "must be an array of: "+strings.Join(model.Sources, ", "), model.Sources)
	case "language":
		return problem.Invalid(field, "must be an array of: "+strings.Join(model.SearchLanguages, ", "), model.SearchLanguages)
	case "country":
		return problem.Invalid(field, "must be an array of country keys", model.Countries)
	}
	return problem.Malformed(field, "has the wrong type")
}
