package builtin

import (
	"hash/maphash"
	"slices"
	"sync"

	"signals/internal/model"
	"signals/internal/search"
)

// A candidate's text analysed (terms), cached between searches, and whether
// the candidate agrees with what the query asks for (agree).

// docTerms is a candidate text analysed: the hash of each lexical term and
// the vocabulary index of each word with a vector, in order, and the places
// the text names.
type docTerms struct {
	lex    []uint64
	vecs   []int32
	places docPlaces
	// amounts are the amounts of money the text states, in US dollars.
	amounts []float64
}

// agree sets Barred for a candidate c (its text analysed as t, with tf
// occurrences of each lexical query term) that disagrees with what the
// query asks for (a), whose names are the lexical terms names: another kind
// of signal, another place, a text without one of the names, or one whose
// stated amounts of money are all outside the one asked for.
func (f *Features) agree(a *asks, c search.Candidate, t *docTerms, tf []int32, names []int) {
	f.Barred = len(a.kinds) > 0 && !slices.Contains(a.kinds, c.Tag) ||
		a.place() && a.placeAgrees(c.Country, t.places) == "" ||
		len(names) < len(a.names) || // a name no candidate of the window has
		a.amount != nil && len(t.amounts) > 0 && !a.amount.agrees(t.amounts)
	for _, i := range names {
		if tf[i] == 0 {
			f.Barred = true
		}
	}
}

// termCache keeps analysed candidate texts between searches, since
// consecutive searches mostly score the same window. It is keyed by id and a
// hash of the text, so an edited text is analysed again.
type termCache struct {
	mu sync.Mutex
	m  map[termKey]*docTerms
}

type termKey struct {
	id   string
	text uint64
}

// termCacheSize bounds the cache (about 2 KB a candidate).
const termCacheSize = 4 * search.WindowSize

var termSeed = maphash.MakeSeed()

// terms returns the analysed text of c, from the cache when possible.
func (b *Scorer) terms(c search.Candidate) *docTerms {
	text := model.Cut(c.Text, search.CandidateChars)
	key := termKey{c.ID, maphash.String(termSeed, text)}
	b.cache.mu.Lock()
	t, ok := b.cache.m[key]
	b.cache.mu.Unlock()
	if ok {
		return t
	}
	t = &docTerms{places: b.rd.textPlaces(text)}
	for _, s := range findAmounts(text) {
		t.amounts = append(t.amounts, s.usd)
	}
	b.an.analyze(text, nil, func(lex []byte, v int32) {
		if lex != nil {
			t.lex = append(t.lex, maphash.Bytes(termSeed, lex))
		}
		if v >= 0 {
			t.vecs = append(t.vecs, v)
		}
	})
	b.cache.mu.Lock()
	if len(b.cache.m) >= termCacheSize {
		for k := range b.cache.m { // random order: evicts about a quarter
			delete(b.cache.m, k)
			if len(b.cache.m) < termCacheSize*3/4 {
				break
			}
		}
	}
	b.cache.m[key] = t
	b.cache.mu.Unlock()
	return t
}
