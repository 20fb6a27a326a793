package api

import (
	"sync"
	"sync/atomic"

	"signals/internal/model"
	"signals/internal/reads"
)

// A listing's query string is parsed, validated and put in canonical form
// (the key of the cached body) on every request, which costs more than
// the rest of answering from the cache. Clients ask the same few query
// strings again and again, so the outcome of each valid one is kept,
// keyed by the query string exactly as it came.

// maxParsedQueries bounds the query strings kept. Once that many are
// kept, the next one starts a new set: query strings a client makes up
// cannot grow it without bound, and the ones in use return at once.
const maxParsedQueries = 4096

// parsedList is a valid listing's query and its canonical form.
type parsedList struct {
	q   model.ListQuery
	key string
}

// parsedQueries keeps parsedList by query string. Its zero value is
// ready. A kept ListQuery is shared by the requests that asked the same
// string: nothing that reads a listing writes to its query.
type parsedQueries struct {
	m    atomic.Pointer[sync.Map] // query string -> parsedList
	kept atomic.Int64             // entries stored in m
}

// parse returns the listing query of raw and its canonical form, from
// memory when raw was parsed before. A query that fails is parsed again
// each time.
func (p *parsedQueries) parse(raw string) (model.ListQuery, string, error) {
	m := p.m.Load()
	if m != nil {
		if v, ok := m.Load(raw); ok {
			e := v.(parsedList)
			return e.q, e.key, nil
		}
	}
	e, err := parseList(raw)
	if err != nil {
		return model.ListQuery{}, "", err
	}
	if m == nil || p.kept.Load() >= maxParsedQueries {
		fresh := &sync.Map{}
		if p.m.CompareAndSwap(m, fresh) {
			p.kept.Store(0)
		}
		m = p.m.Load()
	}
	if _, loaded := m.LoadOrStore(raw, e); !loaded {
		p.kept.Add(1)
	}
	return e.q, e.key, nil
}

// parseList parses and validates a listing's query string and puts it in
// canonical form.
func parseList(raw string) (parsedList, error) {
	v, err := reads.ParseQuery(raw)
	if err != nil {
		return parsedList{}, err
	}
	q, err := reads.ParseListQuery(v)
	if err != nil {
		return parsedList{}, err
	}
	return parsedList{q: q, key: model.CanonicalQuery(q)}, nil
}
