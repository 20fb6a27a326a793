package api

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"time"

	"signals/internal/failure"
	"signals/internal/model"
	"signals/internal/quota"
	"signals/internal/reads"
	"signals/internal/wire"
)

// Search validates req and runs it for acct.
func (a *API) Search(ctx context.Context, acct model.Account, req reads.SearchRequest) (*reads.SearchResponse, error) {
	r, err := req.Validate()
	if err != nil {
		return nil, err
	}
	res, err := a.Searcher.Search(ctx, acct, r)
	if err != nil {
		return nil, err
	}
	resp := &reads.SearchResponse{Query: r.Query, Matches: make([]reads.SearchMatch, len(res.Matches)),
		CacheHit: res.CacheHit, SearchesRemaining: res.SearchesRemaining,
		CandidatesConsidered: res.CandidatesConsidered,
		SearchedAt:           res.SearchedAt.UTC().Format(time.RFC3339Nano),
		ExpiresAt:            res.ExpiresAt.UTC().Format(time.RFC3339Nano)}
	resp.SearchedAtAlias, resp.ExpiresAtAlias = resp.SearchedAt, resp.ExpiresAt
	for i, m := range res.Matches {
		resp.Matches[i] = reads.SearchMatch{SignalMeta: reads.NewSignalMeta(m.Signal),
			Snippet: model.Cut(m.Signal.Text, model.MatchSnippetChars), Relevance: m.Relevance, Matched: m.Why}
	}
	if len(resp.Matches) == 0 {
		resp.NextSteps = reads.NextSteps(r, res.CandidatesConsidered, res.Spent(), res.SearchesRemaining)
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

// decodeSearch reads a search body: JSON, at most reads.MaxBodyBytes, one object
// decoded by wire.Decode.
func decodeSearch(w http.ResponseWriter, r *http.Request) (reads.SearchRequest, error) {
	var req reads.SearchRequest
	if err := noQuery(r); err != nil {
		return req, err
	}
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mt != "application/json" {
		return req, failure.New(failure.CodeUnsupportedMediaType,
			"send the search as a JSON body with Content-Type: application/json")
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, reads.MaxBodyBytes))
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		return req, failure.New(failure.CodePayloadTooLarge,
			fmt.Sprintf("the body is larger than %d bytes", reads.MaxBodyBytes))
	}
	if err != nil {
		return req, failure.New(failure.CodeInvalidJSON, "the body could not be read")
	}
	return req, wire.Decode(body, &req)
}
