// Package api provides the JSON read API under /api/v1. Its operations are
// also what the MCP tools call, so both surfaces answer alike.
package api

import (
	"context"
	"encoding/json"
	"errors"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"signals/internal/auth"
	"signals/internal/failure"
	"signals/internal/gzipped"
	"signals/internal/model"
	"signals/internal/problem"
	"signals/internal/reads"
	"signals/internal/rendered"
	"signals/internal/search"
	"signals/internal/store"
)

// Store is what the API reads: public signals, listed or one by one, and
// the generation of the data, which its cache of list bodies follows.
type Store interface {
	reads.Lister
	GetSignal(ctx context.Context, id string) (model.Signal, error)
	Generation(ctx context.Context) (int64, error)
}

// API answers read requests for public signals.
type API struct {
	Store    Store
	Searcher *search.Service
	Problems problem.Renderer
	BaseURL  string
	// ListTimeout bounds the store read of one listing; 0 is
	// DefaultListTimeout.
	ListTimeout time.Duration

	// lists keeps encoded list bodies until the data changes: a body
	// depends only on the data and the canonical query, never on the
	// account (quota headers are set beside it).
	lists rendered.Cache
	// queries keeps the listings' parsed query strings.
	queries parsedQueries
	// aliases are the deprecation headers, made at the first answer.
	aliases     problem.AliasHeaders
	aliasesOnce sync.Once
}

// principalAccount returns the account of an authenticated request.
func principalAccount(r *http.Request) model.Account {
	p, _ := auth.PrincipalFrom(r.Context())
	return p.Account
}

// List returns one page of public signals with list snippets.
func (a *API) List(ctx context.Context, q model.ListQuery) (*reads.ListResponse, error) {
	list, more, err := reads.ListWithin(ctx, a.Store, q, a.ListTimeout)
	if err != nil {
		return nil, err
	}
	resp := &reads.ListResponse{Signals: make([]reads.ListedSignal, len(list)), Page: q.Page, PageSize: q.PageSize, HasMore: more}
	for i, s := range list {
		resp.Signals[i] = reads.ListedSignal{SignalMeta: reads.NewSignalMeta(s), Snippet: model.Cut(s.Text, model.ListSnippetChars)}
	}
	if more {
		next := q.Page + 1
		resp.NextPage = &next
	}
	return resp, nil
}

// Get returns one public signal with its text cut to 16,000 code points.
// ref is its id or a form of it people copy (reads.IDsOf): the first of
// the ids it may stand for that names a public signal is read.
func (a *API) Get(ctx context.Context, ref string) (*reads.Signal, error) {
	// No stored id is invalid UTF-8, holds a control character or is longer
	// than MaxIDChars (import refuses them), so IDsOf leaves such ids out.
	for _, id := range reads.IDsOf(ref, a.BaseURL) {
		s, err := a.Store.GetSignal(ctx, id)
		if errors.Is(err, store.ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, err
		}
		return &reads.Signal{SignalMeta: reads.NewSignalMeta(s), Text: model.Cut(s.Text, model.MaxTextChars)}, nil
	}
	return nil, reads.ErrNoSignal
}

// noQuery refuses any query parameter on an endpoint that takes none,
// naming the first in sorted order so the answer does not vary.
func noQuery(r *http.Request) error {
	if r.URL.RawQuery == "" {
		return nil
	}
	q, err := reads.Query(r)
	if err != nil {
		return err
	}
	if len(q) == 0 {
		return nil
	}
	name := slices.Sorted(maps.Keys(q))[0]
	p := failure.Unknown(name, []string{})
	p.ValidationMessage = "is not a parameter of this endpoint, which takes none"
	return p
}

// noSignalInPath is reads.ErrNoSignal as HTTP says it.
func (a *API) noSignalInPath() *failure.Error {
	return reads.NoSignal("an id from the list (its id field) URL-encoded in the path", a.BaseURL)
}

// HandleList serves GET /api/v1/signals.
func (a *API) HandleList(w http.ResponseWriter, r *http.Request) {
	q, key, err := a.queries.parse(r.URL.RawQuery)
	if err != nil {
		a.Problems.Write(w, r, err)
		return
	}
	ctx := r.Context()
	gen, err := a.generation(ctx)
	if err != nil {
		a.Problems.Write(w, r, err)
		return
	}
	e, err := a.lists.Get(key, gen, func() ([]byte, time.Time, error) {
		resp, err := a.List(ctx, q)
		if err != nil {
			return nil, time.Time{}, err
		}
		b, err := json.Marshal(resp)
		// As json.Encoder writes it; a list sends no Last-Modified.
		return append(b, '\n'), time.Time{}, err
	})
	if err != nil {
		a.Problems.Write(w, r, err)
		return
	}
	body := e.Body
	if len(body) >= gzipped.MinSize && gzipped.Accepts(r) {
		// Compressed once per body rather than once per request; the
		// compressing handler lets an encoded body through.
		body = e.Gzipped()
		w.Header().Set("Content-Encoding", "gzip")
	}
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	a.writeHeader(w, true)
	if r.Method != http.MethodHead {
		_, _ = w.Write(body)
	}
}

// generation returns the signals' generation: as read with the request's
// key, or read now.
func (a *API) generation(ctx context.Context) (int64, error) {
	if p, ok := auth.PrincipalFrom(ctx); ok {
		if gen, ok := p.SignalsGeneration(); ok {
			return gen, nil
		}
	}
	return a.Store.Generation(ctx)
}

// HandleGet serves GET /api/v1/signals/{id}. The id is taken from the
// escaped path so that an encoded "/" stays part of it.
func (a *API) HandleGet(w http.ResponseWriter, r *http.Request) {
	if err := noQuery(r); err != nil {
		a.Problems.Write(w, r, err)
		return
	}
	id, err := url.PathUnescape(strings.TrimPrefix(r.URL.EscapedPath(), reads.SignalsPath+"/"))
	if err != nil {
		a.Problems.Write(w, r, a.noSignalInPath())
		return
	}
	resp, err := a.Get(r.Context(), id)
	if errors.Is(err, reads.ErrNoSignal) {
		err = a.noSignalInPath()
	}
	if err != nil {
		a.Problems.Write(w, r, err)
		return
	}
	a.writeJSON(w, r, resp, true)
}

// writeJSON writes a 200 JSON body; aliases says whether it carries
// deprecated camelCase aliases.
func (a *API) writeJSON(w http.ResponseWriter, r *http.Request, v any, aliases bool) {
	a.writeHeader(w, aliases)
	if r.Method == http.MethodHead {
		return
	}
	_ = json.NewEncoder(w).Encode(v)
}

// The values every JSON answer sends, made once and set straight into the
// header map (the names are in http.Header's form); a header set later
// replaces a slice and never writes into it.
var (
	jsonType = []string{"application/json"}
	noStore  = []string{"no-store"}
)

// writeHeader sends the status and headers of a JSON answer.
func (a *API) writeHeader(w http.ResponseWriter, aliases bool) {
	h := w.Header()
	h["Content-Type"], h["Cache-Control"] = jsonType, noStore
	if aliases {
		a.aliasesOnce.Do(func() { a.aliases = problem.NewAliasHeaders(a.BaseURL) })
		a.aliases.Mark(h)
	}
	w.WriteHeader(http.StatusOK)
}

// NotFound answers unknown API paths with a JSON 404.
func (a *API) NotFound(w http.ResponseWriter, r *http.Request) {
	a.Problems.Write(w, r, failure.NotFound("no API endpoint at "+r.URL.Path+"; see "+strings.TrimRight(a.BaseURL, "/")+"/openapi.json"))
}
