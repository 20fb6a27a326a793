package builtin

import (
	"context"
	"slices"
	"sync"

	"signals/internal/search"
)

// vocabNames maps vocabulary indexes back to words, built on first use.
type vocabNames struct {
	once  sync.Once
	names []string
}

// name returns the word of vocabulary index i.
func (b *Scorer) name(i int32) string {
	b.names.once.Do(func() {
		b.names.names = make([]string, len(b.vec.weight))
		for w, j := range b.vec.index {
			if n := b.names.names[j]; n == "" || len(w) < len(n) || len(w) == len(n) && w < n {
				b.names.names[j] = w
			}
		}
	})
	return b.names.names[i]
}

// Explain implements search.Explainer. The reasons of a candidate are, in
// order: the tag the query asks for ("tag:events"), the country on which it
// agrees with the place asked ("country:france"), the names asked that it
// contains, then each word of the query's subject that it contains
// ("conference") or matches by meaning ("hiring≈recruiting": word vectors at
// least half-way between the soft bounds of the word vectors' calibration,
// with an encoder too, or one concept group). At most search.MaxReasons.
func (b *Scorer) Explain(ctx context.Context, query string, cands []search.Candidate) ([][]string, error) {
	if s := b.forQuery(query); s != b {
		return s.Explain(ctx, query, cands)
	}
	a := b.rd.read(query)
	q := b.analyzeQuery(a.text, query)
	out := make([][]string, len(cands))
	// Words match by meaning under the word vectors' own bounds: with an
	// encoder, the calibration's bounds weigh soft matches beside the
	// model's cosine and sit lower, where unrelated words meet
	// ("working≈one").
	soft := b.cal
	if b.words != nil {
		soft = b.words.cal
	}
	mid := float32((soft.SoftFloor + soft.SoftFull) / 2)
	dist := map[int32][]float32{}
	var order []int32
	for i, c := range cands {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		t := b.terms(c)
		var why []string
		if slices.Contains(a.kinds, c.Tag) {
			why = append(why, "tag:"+c.Tag)
		}
		if a.place() {
			if k := a.placeAgrees(c.Country, t.places); k != "" {
				why = append(why, "country:"+k)
			}
		}
		why = append(why, a.nameWords...)
		// The candidate's distinct words in the text's order, each decoded
		// once: of words that match alike, the first is named.
		clear(dist)
		order = order[:0]
		for _, d := range t.vecs {
			if _, ok := dist[d]; !ok {
				dist[d] = nil
				order = append(order, d)
			}
		}
		why = b.wordReasons(why, q, order, dist, mid)
		out[i] = slices.Compact(why)
	}
	return out, nil
}

// wordReasons appends to why, up to search.MaxReasons, each word of the
// query's subject that a candidate contains ("conference") or matches by
// meaning ("hiring≈recruiting"), given the candidate's distinct words in
// order and their decoded vectors in dist (filled as needed).
func (b *Scorer) wordReasons(why []string, q *queryTerms, order []int32, dist map[int32][]float32, mid float32) []string {
	used := map[int32]bool{}
	for j, v := range q.words {
		if len(why) >= search.MaxReasons {
			break
		}
		best, bestW := float32(-1), int32(-1)
		for _, d := range order {
			var x float32
			switch {
			case d == v || b.roots[d] == b.roots[v]:
				x = 2 // the word itself, or an inflection of it
			case b.groups[d] != 0 && b.groups[d] == b.groups[v]:
				x = 1.5
			}
			if x > best {
				best, bestW = x, d
			}
		}
		if best < 1.5 {
			for _, d := range order {
				if used[d] {
					continue
				}
				u := dist[d]
				if u == nil {
					u = b.vec.wordVec(nil, d)
					dist[d] = u
				}
				var x float32
				for k, y := range q.unit[j] {
					x += y * u[k]
				}
				if x > best {
					best, bestW = x, d
				}
			}
		}
		switch {
		case best >= 2:
			why = append(why, b.name(v))
		case best >= mid:
			why = append(why, b.name(v)+"≈"+b.name(bestW))
		default:
			continue
		}
		used[bestW] = true
	}
	return why
}
